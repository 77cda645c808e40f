"""What Marvel Champions checks of a game's figures before it is played: a hero, a scheme's stage, a
villain's stages. One place for the set-up (core/games/champions/setup.py checks its rows with these
before its form is forgotten, so the tracker never refuses a start the form allowed) and the tracker (a new
game, a game area or a villain brought in during play, a loaded save)."""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

from dicetower.core.game import Refused, fields, number, text

_MOST_STAGES = const(6)  # a villain's or a scheme's stages the tracker holds


def stages(spec, what):
    """A villain's or a scheme's list of stages: 1 to _MOST_STAGES of them."""
    if not isinstance(spec, list) or not 1 <= len(spec) <= _MOST_STAGES:
        raise Refused("%s needs 1 to %d stages." % (what, _MOST_STAGES))
    return spec


def hero(spec):
    """A seat's hero as a new game holds it: name, hit points (starting and maximum), not out."""
    name = text(fields(spec, "A hero").get("name"), "A hero's name")
    hp = number(spec.get("hp"), 1, 99, name + "'s hit points")
    return {"name": name, "hp": hp, "max": hp, "out": 0}


def stage(spec, name):
    """A scheme's stage [target, acceleration, starting threat], checked: it must start below its target
    (threat reaching the target advances the scheme at once)."""
    if not isinstance(spec, list) or len(spec) != 3:
        raise Refused("%s: each stage is [target, acceleration, starting threat]." % name)
    checked = [
        number(spec[0], 1, 99, "Target threat"),
        number(spec[1], 0, 9, "Acceleration"),
        number(spec[2], 0, 98, "Starting threat"),
    ]
    if checked[2] >= checked[0]:
        raise Refused("%s: starting threat %d must be below the target, %d." % (name, checked[2], checked[0]))
    return checked


def villain_hp(per_player, name):
    """A villain's stage: its hit points per player (or whole, for a fixed villain)."""
    return number(per_player, 1, 99, name + "'s hit points per player")
