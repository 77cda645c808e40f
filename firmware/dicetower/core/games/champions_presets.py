"""Marvel Champions' presets for the set-up: heroes with their hit points, and scenarios (a villain and
a main scheme, every figure as the cards print it). A user's `/champions.json` adds their own:
{"heroes": [{"name", "hp"}, ...], "scenarios": [{"name", "villain", "scheme"}, ...]} with

  villain  {"name", "stages": [hit points, ...], "per_player": true, "final": true}
  scheme   {"name", "stages": [{"target", "target_per_player", "start", "start_per_player",
                               "acceleration"}, ...]}

Imported only while a Champions game is set up. Every figure can be changed on the device.

The rulebooks print no villain's or scheme's figures: the "Standard" scenario's are the tracker's
defaults (a scheme of 10 and 12 threat, a villain of 14 and 15 hit points per player), "Kang" is
The Once and Future Kang's shape (Kang (I) is not the last villain: the game areas and Kangs II and
III come from the play menu) with those same figures, to be set to the cards. The heroes' hit points
are the core set's identity cards.
"""

from dicetower.core.game import Refused, fields, number, text

MOST_STAGES = 4  # the set-up's rows for a villain's or a scheme's stages (the tracker holds up to 6)

HEROES = [{"name": "Spider-Man", "hp": 10}, {"name": "Captain Marvel", "hp": 12}, {"name": "She-Hulk", "hp": 15},
          {"name": "Iron Man", "hp": 9}, {"name": "Black Panther", "hp": 11}]


def _stage(target, start, acceleration=1):
    return {"target": target, "target_per_player": False, "start": start, "start_per_player": False,
            "acceleration": acceleration}


SCENARIOS = [
    {"name": "Standard", "villain": {"name": "Villain", "stages": [14, 15], "per_player": True, "final": True},
     "scheme": {"name": "Main Scheme", "stages": [_stage(10, 3), _stage(12, 0)]}},
    {"name": "Kang", "villain": {"name": "Kang (I)", "stages": [14], "per_player": True, "final": False},
     "scheme": {"name": "Kang scheme", "stages": [_stage(10, 3), _stage(12, 0)]}},
    {"name": "Custom", "villain": {"name": "Villain", "stages": [10], "per_player": True, "final": True},
     "scheme": {"name": "Main Scheme", "stages": [_stage(10, 0)]}},
]


def _flag(value, what):
    if not isinstance(value, bool):
        raise Refused("%s must be true or false." % what)
    return value


def scenario(spec):
    """A scenario as the set-up holds it, checked: Refused naming the field."""
    name = text(fields(spec, "A scenario").get("name"), "A scenario's name")
    villain = fields(spec.get("villain"), name + "'s villain")
    scheme = fields(spec.get("scheme"), name + "'s scheme")
    hp = villain.get("stages")
    if not isinstance(hp, list) or not 1 <= len(hp) <= MOST_STAGES:
        raise Refused("%s's villain needs 1 to %d stages." % (name, MOST_STAGES))
    stages = scheme.get("stages")
    if not isinstance(stages, list) or not 1 <= len(stages) <= MOST_STAGES:
        raise Refused("%s's scheme needs 1 to %d stages." % (name, MOST_STAGES))
    out = []
    for stage in stages:
        stage = fields(stage, name + "'s scheme stage")
        out.append([number(stage.get("target"), 1, 99, "Target threat"),
                    _flag(stage.get("target_per_player", False), "target_per_player"),
                    number(stage.get("start", 0), 0, 98, "Starting threat"),
                    _flag(stage.get("start_per_player", False), "start_per_player"),
                    number(stage.get("acceleration", 1), 0, 9, "Acceleration")])
    return {"name": name,
            "villain": {"name": text(villain.get("name"), "A villain's name"),
                        "stages": [number(n, 1, 99, "A villain's hit points") for n in hp],
                        "per_player": _flag(villain.get("per_player", True), "per_player"),
                        "final": _flag(villain.get("final", True), "final")},
            "scheme": {"name": text(scheme.get("name"), "A scheme's name"), "stages": out}}


def load(text_):
    """A user's champions.json: (heroes, scenarios), each checked; ValueError naming what is wrong."""
    from dicetower.core.game import parsed

    data = parsed(text_, "champions.json")
    try:
        data = fields(data, "champions.json")
        heroes = data.get("heroes", [])
        scenarios = data.get("scenarios", [])
        if not isinstance(heroes, list) or not isinstance(scenarios, list) or len(heroes) + len(scenarios) > 40:
            raise Refused("\"heroes\" and \"scenarios\" must be lists (40 entries at most)")
        for hero in heroes:
            fields(hero, "A hero")
            text(hero.get("name"), "A hero's name")
            number(hero.get("hp"), 1, 99, hero["name"] + "'s hit points")
        return ([{"name": h["name"], "hp": h["hp"]} for h in heroes], [scenario(s) for s in scenarios])
    except Refused as e:
        raise ValueError("champions.json: %s" % e)


def presets(options):
    """(heroes, scenarios) on offer: the built-in ones, then the user's (options["presets"])."""
    heroes, scenarios = options.get("presets") or ([], [])
    return HEROES + heroes, [scenario(s) for s in SCENARIOS] + scenarios
