"""Marvel Champions' set-up (ui/setup.py shows its rows): each seat's hero and hit points, a scenario's
villain and main scheme, every figure editable on the device. Loaded while a game is set up, forgotten
when it starts.

The presets: heroes with their hit points, and scenarios (a villain and a main scheme, every figure as
the cards print it). A user's `/champions.json` adds their own:
{"heroes": [{"name", "hp"}, ...], "scenarios": [{"name", "villain", "scheme"}, ...]} with

  villain  {"name", "stages": [hit points, ...], "per_player": true, "final": true}
  scheme   {"name", "stages": [{"target", "target_per_player", "start", "start_per_player",
                               "acceleration"}, ...]}
  own_area (optional) what each player's own game area brings (the play menu's "Kang: own area"):
           {"villain": {"name", "hp"}, "scheme": {"name", "target", "start", "acceleration"}}

The rulebooks print no villain's or scheme's figures: the "Standard" scenario's are the tracker's
defaults (a scheme of 10 and 12 threat, a villain of 14 and 15 hit points per player), "Kang" is
The Once and Future Kang's shape (Kang (I) is not the last villain: the game areas and Kangs II and
III come from the play menu) with those same figures, and each player's own area's Kang (II) and
Stage 3A (12 hit points; target 8, start 1, acceleration 1), every one a row to set to the cards. The heroes' hit points
are the core set's identity cards.
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

from dicetower.core.game import Refused, fields, number, parsed, plural, refused_at, text
from dicetower.core.games import players
from dicetower.core.games.champions.check import hero, stage, villain_hp

PLAYERS = players("champions")  # (fewest, most, default): its line in the registry


_MOST_STAGES = const(4)  # the set-up's rows for a villain's or a scheme's stages (the tracker holds up to 6)

HEROES = [
    {"name": "Spider-Man", "hp": 10},
    {"name": "Captain Marvel", "hp": 12},
    {"name": "She-Hulk", "hp": 15},
    {"name": "Iron Man", "hp": 9},
    {"name": "Black Panther", "hp": 11},
]


def _stage(target, start, acceleration=1):
    return {
        "target": target,
        "target_per_player": False,
        "start": start,
        "start_per_player": False,
        "acceleration": acceleration,
    }


SCENARIOS = [
    {
        "name": "Standard",
        "villain": {"name": "Villain", "stages": [14, 15], "per_player": True, "final": True},
        "scheme": {"name": "Main Scheme", "stages": [_stage(10, 3), _stage(12, 0)]},
    },
    {
        "name": "Kang",
        "villain": {"name": "Kang (I)", "stages": [14], "per_player": True, "final": False},
        "scheme": {"name": "Kang scheme", "stages": [_stage(10, 3), _stage(12, 0)]},
        # Each player's own game area (the play menu's "Kang: own area"): Kang (II) and Stage 3A.
        "own_area": {
            "villain": {"name": "Kang (II)", "hp": 12},
            "scheme": {"name": "Stage 3A", "target": 8, "start": 1, "acceleration": 1},
        },
    },
    {
        "name": "Custom",
        "villain": {"name": "Villain", "stages": [10], "per_player": True, "final": True},
        "scheme": {"name": "Main Scheme", "stages": [_stage(10, 0)]},
    },
]


def _flag(value, what):
    if not isinstance(value, bool):
        raise Refused("%s must be true or false." % what)
    return value


def scenario(spec):
    """A scenario as the set-up holds it, checked: Refused naming the field. A scheme stage must be able
    to start for some count of players (its starting threat below its target for 1, 2, 3 or 4)."""
    name = text(fields(spec, "A scenario").get("name"), "A scenario's name")
    own = _own_area(spec.get("own_area"), name)
    villain = fields(spec.get("villain"), name + "'s villain")
    scheme = fields(spec.get("scheme"), name + "'s scheme")
    hp = villain.get("stages")
    if not isinstance(hp, list) or not 1 <= len(hp) <= _MOST_STAGES:
        raise Refused("%s's villain needs 1 to %d stages." % (name, _MOST_STAGES))
    stages = scheme.get("stages")
    if not isinstance(stages, list) or not 1 <= len(stages) <= _MOST_STAGES:
        raise Refused("%s's scheme needs 1 to %d stages." % (name, _MOST_STAGES))
    out = []
    for spec in stages:
        spec = fields(spec, name + "'s scheme stage")
        out.append(
            [
                number(spec.get("target"), 1, 99, "Target threat"),
                _flag(spec.get("target_per_player", False), "target_per_player"),
                number(spec.get("start", 0), 0, 98, "Starting threat"),
                _flag(spec.get("start_per_player", False), "start_per_player"),
                number(spec.get("acceleration", 1), 0, 9, "Acceleration"),
            ]
        )
        if not _startable(out[-1]):
            raise Refused(
                "%s's scheme stage %d can never start: its starting threat reaches its target" % (name, len(out))
            )
    return {
        "name": name,
        "own_area": own,
        "villain": {
            "name": text(villain.get("name"), "A villain's name"),
            "stages": [number(n, 1, 99, "A villain's hit points") for n in hp],
            "per_player": _flag(villain.get("per_player", True), "per_player"),
            "final": _flag(villain.get("final", True), "final"),
        },
        "scheme": {"name": text(scheme.get("name"), "A scheme's name"), "stages": out},
    }


def _own_area(spec, name):
    """A scenario's "own_area" (what each player's own game area brings: a villain of one stage and a
    scheme of one), checked; None where it has none."""
    if spec is None:
        return None
    spec = fields(spec, name + "'s own_area")
    villain = fields(spec.get("villain"), name + "'s own_area villain")
    scheme = fields(spec.get("scheme"), name + "'s own_area scheme")
    out = {
        "villain": {
            "name": text(villain.get("name"), "A villain's name"),
            "hp": number(villain.get("hp"), 1, 99, "Its hit points"),
        },
        "scheme": {
            "name": text(scheme.get("name"), "A scheme's name"),
            "target": number(scheme.get("target"), 1, 99, "Its target threat"),
            "start": number(scheme.get("start", 0), 0, 98, "Its starting threat"),
            "acceleration": number(scheme.get("acceleration", 1), 0, 9, "Its acceleration"),
        },
    }
    stage([out["scheme"]["target"], out["scheme"]["acceleration"], out["scheme"]["start"]], out["scheme"]["name"])
    return out


def _startable(row):
    """Whether a scheme stage's row [target, per player, start, per player, acceleration] starts below
    its target for some count of players the game takes."""
    target, each_target, start_threat, each_start, _ = row
    for count in range(PLAYERS[0], PLAYERS[1] + 1):
        if start_threat * (count if each_start else 1) < min(99, target * (count if each_target else 1)):
            return True
    return False


def _new_name(name, taken, what):
    """A preset's name, unless one on offer has it already: the rows tell presets apart by name only."""
    if name in taken:
        raise Refused("%s %s is named like another: give it a name of its own" % (what, name))
    taken.append(name)
    return name


def load_presets(source):
    """A user's champions.json (its text): (heroes, scenarios), each checked; ValueError naming what is wrong."""
    data = parsed(source, "champions.json", strict=True)
    try:
        data = fields(data, "Its content")
        heroes = data.get("heroes", [])
        scenarios = data.get("scenarios", [])
        if not isinstance(heroes, list) or not isinstance(scenarios, list) or len(heroes) + len(scenarios) > 40:
            raise Refused('"heroes" and "scenarios" must be lists (40 entries at most)')
        names = [h["name"] for h in HEROES] + [_seat(i) for i in range(PLAYERS[1])]
        for hero_ in heroes:
            fields(hero_, "A hero")
            _new_name(text(hero_.get("name"), "A hero's name"), names, "The hero")
            number(hero_.get("hp"), 1, 99, hero_["name"] + "'s hit points")
        made = [scenario(s) for s in scenarios]
        names = [s["name"] for s in SCENARIOS]
        for s in made:
            _new_name(s["name"], names, "The scenario")
        return ([{"name": h["name"], "hp": h["hp"]} for h in heroes], made)
    except Refused as e:
        raise ValueError("champions.json: %s" % e)


_OFFERED = [None, None]  # the user's presets last asked for, and what they offer: made once, not each press


def presets(options):
    """(heroes, scenarios) on offer: the built-in ones, then the user's (options["presets"])."""
    users = options.get("presets")
    if _OFFERED[1] is None or _OFFERED[0] is not users:
        heroes, scenarios = users or ([], [])
        _OFFERED[0], _OFFERED[1] = users, (HEROES + heroes, [scenario(s) for s in SCENARIOS] + scenarios)
    return _OFFERED[1]


_PLAYER_HP = const(10)  # a seat's hit points until a hero is chosen for it
PRESETS = "champions.json"  # the user's presets file, read when a game is set up (load_presets)


def _seat(i):
    return "P%d" % (i + 1)  # a player with no hero chosen, named as seated


def _scenario_into(setup, spec):
    """A preset's villain and scheme into the set-up, padded to the rows' fixed number of stages."""
    villain, scheme = spec["villain"], spec["scheme"]
    hp, stages = villain["stages"], scheme["stages"]
    setup["scenario"] = spec["name"]
    setup["villain"] = {
        "name": villain["name"],
        "count": len(hp),
        "per_player": villain["per_player"],
        "final": villain["final"],
        "stages": hp + [hp[-1]] * (_MOST_STAGES - len(hp)),
    }
    setup["scheme"] = {
        "name": scheme["name"],
        "count": len(stages),
        "stages": [list(stages[min(i, len(stages) - 1)]) for i in range(_MOST_STAGES)],
    }
    on = spec.get("own_area") is not None
    own = spec["own_area"] if on else _NO_OWN_AREA
    setup["own"] = {
        "on": on,
        "villain": own["villain"]["name"],
        "scheme": own["scheme"]["name"],
        # Its hit points, then its scheme's target, starting threat and acceleration: the rows' values.
        "figures": [
            own["villain"]["hp"],
            own["scheme"]["target"],
            own["scheme"]["start"],
            own["scheme"]["acceleration"],
        ],
    }


# A scenario without own game areas: the set-up's "own" keeps its shape (the Kang preset's), its rows
# not shown.
_NO_OWN_AREA = SCENARIOS[1]["own_area"]


def setup_default(options):
    setup = {"heroes": [[_seat(i), _PLAYER_HP] for i in range(PLAYERS[1])]}
    _scenario_into(setup, presets(options)[1][0])
    return setup


def setup_rows(setup, count, options):
    heroes, scenarios = presets(options)
    rows = [("Scenario", ("scenario",), [(s["name"], s["name"]) for s in scenarios])]
    seated = [setup["heroes"][i][0] for i in range(count)]
    for i in range(count):
        choices = [(_seat(i), _seat(i))] + [
            (h["name"], h["name"]) for h in heroes if h["name"] == seated[i] or h["name"] not in seated
        ]
        rows.append(("%s hero" % _seat(i), ("heroes", i, 0), choices))
        rows.append(("%s hit points" % _seat(i), ("heroes", i, 1), (1, 99)))
    each = [("per player", True), ("fixed", False)]
    villain, scheme = setup["villain"], setup["scheme"]
    rows.append(("Villain stages", ("villain", "count"), (1, _MOST_STAGES)))
    for i in range(villain["count"]):
        rows.append(("Stage %d hit points" % (i + 1), ("villain", "stages", i), (1, 99)))
    rows.append(("Villain HP", ("villain", "per_player"), each))
    rows.append(("Scheme stages", ("scheme", "count"), (1, _MOST_STAGES)))
    for i in range(scheme["count"]):
        at = ("scheme", "stages", i)
        rows += [
            ("S%d target" % (i + 1), at + (0,), (1, 99)),
            ("S%d target is" % (i + 1), at + (1,), each),
            ("S%d start" % (i + 1), at + (2,), (0, 98)),
            ("S%d start is" % (i + 1), at + (3,), each),
            ("S%d acceleration" % (i + 1), at + (4,), (0, 9)),
        ]
    own = setup["own"]
    if own["on"]:  # each player's own game area's villain and scheme (The Once and Future Kang)
        rows += [
            ("%s HP" % own["villain"], ("own", "figures", 0), (1, 99)),
            ("%s target" % own["scheme"], ("own", "figures", 1), (1, 99)),
            ("%s start" % own["scheme"], ("own", "figures", 2), (0, 98)),
            ("%s accel." % own["scheme"], ("own", "figures", 3), (0, 9)),
        ]
    return rows


def setup_changed(setup, path, options):
    """A scenario chosen brings its figures; a hero chosen, their hit points."""
    heroes, scenarios = presets(options)
    if path[0] == "scenario":
        for spec in scenarios:
            if spec["name"] == setup["scenario"]:
                _scenario_into(setup, spec)
    elif path[0] == "heroes" and path[2] == 0:
        seat = setup["heroes"][path[1]]
        for hero in heroes:
            if hero["name"] == seat[0]:
                seat[1] = hero["hp"]
        if seat[0] == _seat(path[1]):
            seat[1] = _PLAYER_HP


def summary(setup, count):
    """What the count screen's C starts, in a line: "Kang: Spider-Man, She-Hulk, Iron Man"."""
    return "%s: %s" % (setup["scenario"], ", ".join(setup["heroes"][i][0] for i in range(count)))


def start(count, setup, options):
    """The arguments of `Champions.setup` for the game the set-up describes, every figure checked as the
    tracker checks it (core/games/champions/check.py) for `count` players: Refused naming the row to
    change (its `path`), before the form is forgotten."""
    number(count, PLAYERS[0], PLAYERS[1], "Players")
    heroes = []
    for i in range(count):
        name, hp = setup["heroes"][i]
        heroes.append({"name": name, "hp": hp})
        refused_at(("heroes", i, 1), hero, heroes[-1])
    villain, scheme = setup["villain"], setup["scheme"]
    for i in range(villain["count"]):
        refused_at(("villain", "stages", i), villain_hp, villain["stages"][i], "Stage %d" % (i + 1))
    stages = []
    players_ = plural(count, "player")
    for i in range(scheme["count"]):
        target, each_target, start_threat, each_start, acceleration = scheme["stages"][i]
        target *= count if each_target else 1
        start_threat *= count if each_start else 1
        at = ("scheme", "stages", i)
        refused_at(at + (0,), number, target, 1, 99, "S%d target threat for %s" % (i + 1, players_))
        refused_at(at + (2,), number, start_threat, 0, 98, "S%d starting threat for %s" % (i + 1, players_))
        stages.append(
            refused_at(at + (2,), stage, [target, acceleration, start_threat], "S%d for %s" % (i + 1, players_))
        )
    own = None
    if setup["own"]["on"]:
        hp, target, start_threat, acceleration = setup["own"]["figures"]
        name = setup["own"]["scheme"]
        at = ("own", "figures")
        refused_at(at + (0,), villain_hp, hp, setup["own"]["villain"])
        own = (
            {"name": name, "stages": [refused_at(at + (2,), stage, [target, acceleration, start_threat], name)]},
            {"name": setup["own"]["villain"], "stages": [hp]},
        )
    return (
        heroes,
        {"name": scheme["name"], "stages": stages},
        {
            "name": villain["name"],
            "stages": villain["stages"][: villain["count"]],
            "final": villain["final"],
            "fixed": not villain["per_player"],
        },
        own,
    )
