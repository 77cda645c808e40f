"""Marvel Champions' play menu: its actions and the pickers that offer their values, the status lines and
the LED ring's gauge (tracker.py names them as its own: core/games/__init__.py's MENU, status, gauge).

A module of its own, loaded in a pass after the press that starts the game, before the tracker's (its
descriptor's STARTS): on a Pico the tracker with these in it was one 97 ms import in that pass."""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

from dicetower.core.actions import CHOICE, FIXED, HERO, NAMED, NUMBER, PICK, PICK_IF
from dicetower.core.game import Refused
from dicetower.core.names import short_names

# An ally or a minion, as tracker.py keeps them: [owner, name, hit points]; three allies a player at most.
# The tracker's own const()s, repeated: a private const() is not a name another module can import.
_OWNER = const(0)
_NAME = const(1)
_HP = const(2)
_MAX_ALLIES = const(3)  # "You may control at most three allies."

# What a player's own game area brings in a game set up without it (before the set-up gave it, or by
# new_game): The Once and Future Kang's Stage 3A and Kang (II), figures to be set to the cards.
OWN = {"scheme": {"name": "Stage 3A", "stages": [[8, 1, 1]]}, "villain": {"name": "Kang (II)", "stages": [12]}}


def _areas(state, values):
    """Each game area by its number and its players' short names ("2 Spi, She"): a picker's line."""
    names = _names(state)
    out = []
    for i in range(len(state["areas"])):
        players = state["areas"][i]["players"]
        out.append(("%d %s" % (i + 1, ", ".join(names[p] for p in players) if players else "no players"), i))
    return out


def _standing(state, values):
    """Asked before a new villain replaces one not yet defeated in the area chosen (its first value)."""
    chosen = values[0] if values and values[0] is not None else 0
    area = state["areas"][chosen if 0 <= chosen < len(state["areas"]) else 0]
    if area["done"]:
        return []
    return [("no, keep " + area["villain"]["name"], 0), ("yes, replace it", 1)]


def _sides(state, values):
    """The side schemes of the game area chosen for this action (its first value)."""
    area = values[0] if values and values[0] is not None else 0
    if not 0 <= area < len(state["areas"]):
        area = 0
    sides = [(s["name"], i) for i, s in enumerate(state["areas"][area]["sides"])]
    if not sides:
        raise Refused("No side scheme in play in area %d." % (area + 1))
    return sides


def _next_side(state):
    return "Side %d" % (sum(len(a["sides"]) for a in state["areas"]) + 1)


def _next_name(cards, word):
    """ "Ally 1", "Minion 2"...: the lowest number no card of that kind in play has."""
    names = [c[_NAME] for c in cards]
    n = 1
    while "%s %d" % (word, n) in names:
        n += 1
    return "%s %d" % (word, n)


def _label(state, card):
    """ "Ally 1 2hp P1": the name, the hit points and the player, short enough for the picker's line."""
    return "%s %dhp %s" % (card[_NAME], card[_HP], _names(state)[card[_OWNER]])


def _allies(state, values):
    allies = state.get("allies")
    if not allies:
        raise Refused("No ally in play: play one with Play ally.")
    return [(_label(state, allies[i]), i) for i in range(len(allies))]


def _to_discard(state, values):
    """The allies of the player playing a fourth: the one they discard (none to pick below three)."""
    allies = state.get("allies", ())
    own = [(_label(state, allies[i]), i) for i in range(len(allies)) if allies[i][_OWNER] == values[0]]
    return own if len(own) >= _MAX_ALLIES else []


def _minions(state, values):
    minions = state.get("minions")
    if not minions:
        raise Refused("No minion in play: one enters with Minion engages.")
    return [(_label(state, minions[i]), i) for i in range(len(minions))]


AREA = ("Area", PICK, _areas)
MENU = (
    ("Thwart main scheme", "thwart", (AREA, ("Scheme", FIXED, -1), ("Threat", NUMBER, (1, 12)))),
    ("Thwart side scheme", "thwart", (AREA, ("Side scheme", PICK, _sides), ("Threat", NUMBER, (1, 12)))),
    ("Hit villain", "hit", (AREA, ("Damage", NUMBER, (1, 20)))),
    (
        "Villain attacks",
        "villain_attack",
        (("Hero", HERO, None), ("ATK", NUMBER, (0, 9)), ("Boost icons", NUMBER, (0, 5)), ("Defense", NUMBER, (0, 9))),
    ),
    ("Damage hero", "damage", (("Hero", HERO, None), ("Damage", NUMBER, (1, 20)))),
    ("Heal hero", "heal", (("Hero", HERO, None), ("Hit points", NUMBER, (1, 20)))),
    ("Threat on main", "threat", (AREA, ("Threat", NUMBER, (1, 12)))),
    ("Incite X", "incite", (AREA, ("X", NUMBER, (1, 9)))),
    (
        "Side scheme in play",
        "side",
        (
            AREA,
            ("Name", NAMED, _next_side),
            ("Threat", NUMBER, (1, 12)),
            ("Crisis", CHOICE, (("no", 0), ("yes", 1))),
            ("Acceleration", NUMBER, (0, 3)),
            ("Hazard", NUMBER, (0, 3)),
        ),
    ),
    ("Threat on side", "side_threat", (AREA, ("Side scheme", PICK, _sides), ("Threat", NUMBER, (1, 12)))),
    ("End phase", "end_phase", ()),
    (
        "Kang: own area",
        "separate",
        # The Kang scenario's own game areas, with the scheme and villain the set-up gave (state["own"]).
        (
            ("Player", HERO, None),
            ("Scheme", NAMED, lambda state: state.get("own", OWN)["scheme"]),
            ("Villain", NAMED, lambda state: state.get("own", OWN)["villain"]),
        ),
    ),
    ("Kang: join area", "join", (("From area", PICK, _areas), ("To area", PICK, _areas))),
    (
        "New villain",
        "villain",
        (
            AREA,
            ("Name", FIXED, "Kang (III)"),
            ("Hit points", CHOICE, tuple(("%d per player" % n, [n]) for n in (10, 12, 14, 16, 18, 20))),
            ("Final", FIXED, 1),
            ("Replace", PICK_IF, _standing),
        ),
    ),
    (
        "Play ally",
        "ally",
        (
            ("Player", HERO, None),
            ("Name", NAMED, lambda state: _next_name(state.get("allies", ()), "Ally")),
            ("Hit points", NUMBER, (1, 9)),
            ("Discard", PICK_IF, _to_discard),
        ),
    ),
    ("Damage ally", "ally_damage", (("Ally", PICK, _allies), ("Damage", NUMBER, (1, 9)))),
    (
        "Minion engages",
        "minion",
        (
            ("Player", HERO, None),
            ("Name", NAMED, lambda state: _next_name(state.get("minions", ()), "Minion")),
            ("Hit points", NUMBER, (1, 20)),
        ),
    ),
    ("Hit minion", "hit_minion", (("Minion", PICK, _minions), ("Damage", NUMBER, (1, 20)))),
)


def status(state, lines):
    area = state["areas"][0]
    scheme = area["scheme"]
    target = scheme["stages"][scheme["stage"]][0]
    minions = _hit_points(state, "minions", -1)
    rows = [
        "R%d %s  1st:%s"
        % (state["round"], state["phase"], short_names([h["name"] for h in state["heroes"]], 8)[state["first"]]),
        "Threat %d/%d st%d%s"
        % (scheme["threat"], target, scheme["stage"] + 1, " +%d side" % len(area["sides"]) if area["sides"] else ""),
        "%s %d hp%s" % (area["villain"]["name"][:14], area["villain"]["hp"], " M:" + minions if minions else ""),
        " ".join(_hero_status(state, i) for i in range(len(state["heroes"]))),
    ]
    if len(state["areas"]) > 1:  # area 1's figures: the others' on The table (ui/table.py)
        rows[1] += " +%d areas" % (len(state["areas"]) - 1)
    return rows


def _hero_status(state, i):
    """ "You:6", or "You:6(1,3)" with the hit points of the allies they control."""
    hero = state["heroes"][i]
    allies = _hit_points(state, "allies", i)
    return "%s:%d%s" % (_names(state)[i], hero["hp"], "(" + allies + ")" if allies else "")


def _names(state):
    """The heroes' names in 3 characters, told apart (core/game.py's short_names: "CMa", "CAm")."""
    return short_names([h["name"] for h in state["heroes"]], 3)


def _hit_points(state, key, owner):
    """The hit points of the allies of player `owner`, or of every minion (-1): "1,3", or ""."""
    return ",".join(str(c[_HP]) for c in state.get(key, ()) if owner < 0 or c[_OWNER] == owner)


def gauge(state, out):
    """Threat toward the main scheme's target in the first game area: an alarm."""
    scheme = state["areas"][0]["scheme"]
    out[0] = scheme["threat"]
    out[1] = scheme["stages"][scheme["stage"]][0]
    out[2] = 0
    out[3] = 1
