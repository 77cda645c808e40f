"""What the fuzz harness throws at the parsers of files and streams, and what each must do with it.

Each target is (hypothesis strategy, check): `check(case)` returns quietly when the parser kept its
promise for that input, and raises (an AssertionError, or whatever escaped the parser) when it did not.
The promises:
  save        core/save_reader.decode: a Game or SaveError, nothing else; a game it loads is one its screen
              can show and its actions refuse politely (Refused) or carry out, and it saves back the same
  config      startup.config over a config.json: settings with every value a game relies on in range,
              never an exception; the board it names gives a profile or BoardError
  profile     core/board_check.parse: a Board or BoardError
  heroes      core/roster.load_heroes: a roster or ValueError; a roster it accepts starts a Battlerealm game
              (or is refused by the game's set-up with Refused)
  dice        core/dice.load_overrides: an Attack Die or ValueError; faces it accepts start a Battleworld game
  script      the simulator's scripts (virtual_parts/script.py parse): steps or ScriptError
  monitor     the monitor's event lines (monitor.event_of, then describe): an event or None, or ValueError;
              a described event is one line of text
  presses     the tower booted with starting files (crafted setup.json, champions.json, heroes.json,
              dice.json) and pressed at random through its menus, every game's count screen and set-up
              form, the start and the play (tests/fw/test_no_freeze.py's Run): after every press the
              screen answers the next one (App.press returns, the mode has a screen that draws, the loop
              logs no error and lets time pass)
Inputs that once broke a promise stay in REGRESSIONS, run by tests/test_fuzz.py every time.
benchmarks/fuzz.py runs 10^5 cases a target (presses: benchmarks/press_fuzz.py); tests/test_fuzz.py a
short run in CI.
"""

import json
import tempfile

from hypothesis import strategies as st

from dicetower import startup
from dicetower.core import games, save_reader, savefile
from dicetower.core.board import BoardError
from dicetower.core.board_check import parse
from dicetower.core.dice import load_overrides
from dicetower.core.game import Refused
from dicetower.core.games.battlerealm.roster import load_heroes
from dicetower_host import paths

# -- JSON of any shape --------------------------------------------------------------------------------

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.integers(-3, 30),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["Star", "Blank", "Mutant", "Lucky", "Tough", "=a", "~b", "roll", "pico", ""]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)),
    max_leaves=20,
)


def deep(n, kind):
    return "[" * n + "]" * n if kind == "list" else '{"a":' * n + "1" + "}" * n


DEEP = st.builds(deep, st.integers(1, 3000), st.sampled_from(["list", "dict"]))


@st.composite
def mutated(draw, value):
    """`value` (JSON-like) with a few parts replaced by any JSON, removed, or grown."""
    value = json.loads(json.dumps(value))
    for _ in range(draw(st.integers(1, 3))):
        holder = None
        key = None
        node = value
        while isinstance(node, (dict, list)) and node and draw(st.booleans()):
            keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
            holder, key = node, draw(st.sampled_from(keys))
            node = node[key]
        if holder is None:
            continue
        what = draw(st.sampled_from(["replace", "remove", "grow"]))
        if what == "replace":
            holder[key] = draw(JSON)
        elif what == "remove":
            holder.pop(key)
        elif isinstance(holder, list):
            holder.append(draw(JSON))
        else:
            holder[draw(st.text(max_size=8))] = draw(JSON)
    return value


def text_of(values):
    """Text a user could have written: JSON of the values, or any text, or nesting thousands deep."""
    return st.one_of(
        values.map(json.dumps), st.text(max_size=200), DEEP, values.map(lambda v: json.dumps(v)[:-1])
    )  # a file cut short


# -- the save decoder ---------------------------------------------------------------------------------


def _saved_games():
    out = []
    for _, kind, *_ in games.GAMES:
        module = games.game(kind)
        out.append(module.new_game(games.players(kind)[2], {}))
    from dicetower.core.games.battlerealm.tracker import Battlerealm

    game = Battlerealm.setup(
        [{"name": "Hulk", "pvp": 10, "abilities": ["Tough"]}, {"name": "Thor", "pvp": 12}, {"name": "Vision", "pvp": 8}]
    )
    game.do("move", 3)
    game.do("roll", "YYKKTC", [1])
    game.do("buy", 2)
    game.do("attack", 1, 2, True)
    game.undo()
    out.append(game)
    return out


GAMES = _saved_games()
SAVES = [savefile.encode(g) for g in GAMES]


def seal(body, schema=savefile.SCHEMA):
    """A save around `body` whose checksum holds: what passes the integrity check."""
    if not isinstance(body, bytes):
        body = json.dumps(body).encode()
    tail = (" %d\n" % len(body)).encode()
    if schema < 4:
        return ("DICETOWER %d %08x" % (schema, savefile.checksum(body))).encode() + tail + body
    head = ("DICETOWER %d " % schema).encode()
    return head + ("%08x" % savefile.whole_checksum(head, tail, body)).encode() + tail + body


def _flipped(data, flips):
    data = bytearray(data)
    for at, byte in flips:
        data[at % len(data)] = byte
    return bytes(data)


_BODIES = [json.loads(s.split(b"\n", 1)[1]) for s in SAVES]
SAVE_CASES = st.one_of(
    st.binary(max_size=400),
    st.builds(
        _flipped,
        st.sampled_from(SAVES),
        st.lists(st.tuples(st.integers(0, 10**4), st.integers(0, 255)), min_size=1, max_size=4),
    ),
    st.builds(lambda data, cut: data[:cut], st.sampled_from(SAVES), st.integers(0, 500)),
    st.builds(seal, JSON, st.integers(1, savefile.SCHEMA)),
    st.builds(seal, st.sampled_from(_BODIES).flatmap(mutated), st.integers(1, savefile.SCHEMA)),
    st.builds(lambda d: seal(d.encode()), DEEP),
)

# Junk arguments for any action: a loaded game refuses them or carries them out, never anything else.
ARGS = st.lists(
    st.one_of(
        st.integers(-2, 8),
        st.booleans(),
        st.none(),
        st.sampled_from(["KTCCTT", "Star", "x"]),
        st.lists(st.integers(-1, 6), max_size=3),
    ),
    max_size=4,
)


def check_save(case):
    data, actions = case
    try:
        game = save_reader.decode(data)
    except savefile.SaveError:
        return
    module = games.game(game.KIND)
    module.status(game.state, 8)
    module.gauge(game.state, [0, 0, 0, 0])
    assert save_reader.decode(savefile.encode(game)).to_dict() == game.to_dict()
    names = sorted(n[4:] for n in dir(game) if n.startswith("act_"))
    for pick, values in actions:
        game.attempt(names[pick % len(names)], values)  # Refused is its answer; anything else escapes
        module.status(game.state, 8)


SAVE = (st.tuples(SAVE_CASES, st.lists(st.tuples(st.integers(0, 50), ARGS), max_size=3)), check_save)

# -- config.json, profiles, heroes.json, dice.json ------------------------------------------------------

_ROOT = tempfile.mkdtemp() + "/"
with open(paths.board_profile("pico")) as _f:
    PICO = json.load(_f)
SETTINGS = st.dictionaries(
    st.sampled_from(["brightness", "sounds", "watchdog", "board", "wifi", "x"]), JSON, max_size=4
)


def _file(name, text):
    path = _ROOT + name
    with open(path, "wb") as f:
        f.write(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    return path


def check_config(text):
    _file("config.json", text)
    damaged = []
    settings = startup.config(_ROOT, lambda line: None, damaged)
    brightness = settings["brightness"]
    assert isinstance(brightness, int) and not isinstance(brightness, bool) and 10 <= brightness <= 100
    assert settings["sounds"] in (True, False) and settings["watchdog"] in (True, False)
    assert settings.get("board") is None or isinstance(settings["board"], str)
    try:
        startup.board(_ROOT, settings.get("board"), "Raspberry Pi Pico with RP2040")
    except BoardError:
        pass


CONFIG = (st.one_of(text_of(SETTINGS), text_of(JSON), st.binary(max_size=100)), check_config)


def check_profile(text):
    try:
        parse(text)
    except BoardError:
        pass


PROFILE = (st.one_of(text_of(mutated(PICO)), text_of(JSON)), check_profile)


def _heroes():
    from dicetower.core.games.battlerealm.roster import heroes

    HEROES = heroes({}, True)  # the file as shipped, notes and all

    return {"heroes": HEROES[:4]}


def check_heroes(text):
    try:
        roster = load_heroes(text)
    except ValueError:
        return
    from dicetower.core.games.battlerealm import tracker as battlerealm

    for count in (2, len(roster)):
        try:
            battlerealm.new_game(count, {"heroes": roster})
        except Refused:
            pass


HEROES = (st.one_of(text_of(mutated(_heroes())), text_of(JSON)), check_heroes)


def check_dice(text):
    try:
        die = load_overrides(text)
    except ValueError:
        return
    from dicetower.core.games.battleworld import tracker as battleworld

    battleworld.new_game(1, {"attack_faces": list(die.faces)})


DICE = (st.one_of(text_of(mutated({"attack": ["Star", "2", "3", "4", "5", "Blank"]})), text_of(JSON)), check_dice)

# -- the host's parsers: sim scripts and monitor events ------------------------------------------------------

WORDS = st.sampled_from(
    [
        "seed",
        "board",
        "press",
        "keys",
        "wait",
        "mark",
        "a",
        "b",
        "c",
        "C",
        "long",
        "double",
        "5",
        "-1",
        "99999999",
        "pico",
        "#",
        "0x10",
        "1e3",
        "\x00",
        "é",
        "",
    ]
)
LINES = st.lists(st.lists(st.one_of(WORDS, st.text(max_size=6)), max_size=4).map(" ".join), max_size=8)


def check_script(text):
    from dicetower_host.virtual_parts.script import ScriptError
    from dicetower_host.virtual_parts.script import parse as parse_script

    try:
        parse_script(text)
    except ScriptError:
        pass


SCRIPT = (st.one_of(LINES.map("\n".join), st.text(max_size=200)), check_script)

EVENTS = st.dictionaries(
    st.sampled_from(["event", "t", "faces", "dice", "hero", "action", "line", "result", "error", "game"]),
    st.one_of(JSON, st.sampled_from(["roll", "reroll", "action", "undo", "over", "ready"])),
    max_size=6,
)


def check_monitor(line):
    from dicetower_host.monitor import describe, event_of

    try:
        event = event_of(line)
    except ValueError:
        return
    if event is not None:
        row = describe(event)
        assert row is None or (isinstance(row, str) and "\n" not in row)


MONITOR = (
    st.one_of(text_of(EVENTS), st.binary(max_size=120), EVENTS.map(lambda e: json.dumps(e).encode())),
    check_monitor,
)

# -- the tower pressed at random from hostile starting files -------------------------------------------------

_SETUP_INTS = st.sampled_from([-1, 0, 1, 2, 3, 4, 5, 7, 9, 10, 12, 15, 98, 99, 100, 1000])
_NAMES = st.sampled_from(
    [
        "Hulk",
        "Thor",
        "She-Hulk",
        "Spider-Man",
        "P1",
        "P2",
        "Hero 1",
        "Medusa",
        "Wasp",
        "Standard",
        "Kang",
        "Doom",
        "",
        "x" * 30,
    ]
)


@st.composite
def _hostile(draw, value):
    """A set-up's default with some leaves replaced by values out of range or of the wrong kind (most of
    the shape kept: a remembered set-up of another shape is not used at all)."""
    if isinstance(value, dict):
        return {key: draw(_hostile(value[key])) for key in value}
    if isinstance(value, list):
        return [draw(_hostile(item)) for item in value]
    if not draw(st.integers(0, 5)) == 0:
        return value
    if isinstance(value, bool):
        return draw(st.one_of(st.booleans(), st.just(1)))
    if isinstance(value, int):
        return draw(st.one_of(_SETUP_INTS, st.just(True)))
    return draw(st.one_of(_NAMES, st.just(None)))


_COUNTS = st.sampled_from([-1, 0, 1, 2, 3, 4, 5, 6, 7, 9, True, False, None, "4"])


@st.composite
def _setup_json(draw):
    from test_no_freeze import DEFAULTS

    saved = {}
    for kind in draw(st.lists(st.sampled_from(sorted(DEFAULTS) + ["battleworld"]), unique=True, max_size=4)):
        saved[kind] = {"count": draw(_COUNTS)}
        if kind in DEFAULTS:
            saved[kind]["setup"] = draw(_hostile(DEFAULTS[kind]))
    return json.dumps(saved)


_STAGE = st.fixed_dictionaries(
    {
        "target": st.sampled_from([1, 10, 24, 33, 99]),
        "target_per_player": st.booleans(),
        "start": st.sampled_from([0, 3, 9, 10, 25, 98]),
        "start_per_player": st.booleans(),
        "acceleration": st.sampled_from([0, 1, 9]),
    }
)
_CHAMPIONS = st.fixed_dictionaries(
    {
        "heroes": st.lists(st.fixed_dictionaries({"name": _NAMES, "hp": st.sampled_from([1, 3, 15, 99])}), max_size=4),
        "scenarios": st.lists(
            st.fixed_dictionaries(
                {
                    "name": _NAMES,
                    "villain": st.fixed_dictionaries(
                        {"name": _NAMES, "stages": st.lists(st.sampled_from([1, 14, 99]), min_size=1, max_size=4)},
                        optional={"per_player": st.booleans(), "final": st.booleans()},
                    ),
                    "scheme": st.fixed_dictionaries(
                        {"name": _NAMES, "stages": st.lists(_STAGE, min_size=1, max_size=4)}
                    ),
                }
            ),
            max_size=3,
        ),
    }
)
_ROSTER = st.lists(
    st.fixed_dictionaries(
        {"name": _NAMES, "pvp": st.sampled_from([1, 10, 20])},
        optional={"abilities": st.sampled_from([[], ["Lucky"], ["Tough"]])},
    ),
    min_size=1,
    max_size=7,
).map(lambda heroes: json.dumps({"heroes": heroes}))
_ATTACK = st.sampled_from(
    [["Star", "Blank"], ["Star", "9" * 40, "Blank", "0"], ["Star", "2", "3", "4", "5", "Blank"]]
).map(lambda faces: json.dumps({"attack": faces}))


def _named(files):
    return ("hypothesis's " + ", ".join(sorted(files)) if files else "no files", files)


def _drawn_files():
    return st.fixed_dictionaries(
        {},
        optional={
            "setup.json": _setup_json(),
            "champions.json": st.one_of(
                _CHAMPIONS.map(json.dumps), text_of(mutated({"heroes": [{"name": "Wasp", "hp": 9}]}))
            ),
            "heroes.json": _ROSTER,
            "dice.json": _ATTACK,
        },
    ).map(_named)


def _starting_files():
    from test_no_freeze import STARTING_FILES

    return st.one_of(st.sampled_from(STARTING_FILES), _drawn_files())


def _steps():
    """Set-ups one after another, as tests/fw/test_no_freeze.py's random_steps makes them: a new game (its
    set-up's rows opened, most often), random presses and rows changed, "Start the game", then presses in
    play."""
    from test_no_freeze import GAME_KINDS, GAPS, KINDS

    press = st.tuples(
        st.just("press"),
        st.sampled_from("abc"),
        st.sampled_from(sorted(set(KINDS))),
        st.sampled_from(sorted(set(GAPS))),
    )
    row = st.tuples(st.just("row"), st.integers(0, 40), st.integers(-12, 12), st.booleans())
    new = st.tuples(st.just("new"), st.sampled_from(GAME_KINDS), st.integers(-4, 4), st.booleans())
    set_up = st.tuples(new, st.lists(st.one_of(press, row), max_size=12), st.lists(press, max_size=8))
    return st.lists(set_up, min_size=1, max_size=5).map(
        lambda set_ups: [step for first, inside, after in set_ups for step in [first] + inside + [("start",)] + after]
    )


def check_presses(case):
    """A run from its starting files: AssertionError with the presses that left a screen not answering."""
    from test_no_freeze import STARTING_FILES, run

    start, steps = case
    if isinstance(start, str):  # one of the crafted sets, by name (REGRESSIONS)
        start = STARTING_FILES[[name for name, _ in STARTING_FILES].index(start)]
    name, files = start
    done = run(files, steps, name=name)
    assert done.failure is None, done.report()


# tests/test_fuzz.py runs the steps from each crafted set of files in turn, and from drawn ones.
STEPS = st.deferred(_steps)
DRAWN_FILES = st.deferred(_drawn_files)
PRESSES = (st.tuples(st.deferred(_starting_files), STEPS), check_presses)

TARGETS = {
    "save": SAVE,
    "config": CONFIG,
    "profile": PROFILE,
    "heroes": HEROES,
    "dice": DICE,
    "script": SCRIPT,
    "monitor": MONITOR,
    "presses": PRESSES,
}

# Every input that once broke a target's promise, with what it broke, kept and run every time.
# (Those of the device's readers broke them before this harness existed, as the issue found them: a body
# without its lists or nested hundreds deep behind a good checksum, JSON deeper than CPython's parser
# recurses, a board name no path can hold.)
REGRESSIONS = {
    "save": [
        (seal({"game": "battlerealm", "base": {}, "redo": []}), []),
        (seal(b'{"game":"united","base":{"~a":[]},"actions":' + b"[" * 500 + b"]" * 500 + b',"redo":[]}'), []),
        (seal({"game": 5, "base": {}, "actions": [], "redo": []}), []),
    ],
    "config": [deep(5000, "list"), '{"board": "pico\u0000"}', '{"board": "../boards/pico"}'],
    "profile": [deep(5000, "dict")],
    "heroes": [deep(5000, "list")],
    "dice": [deep(5000, "dict")],
    "script": [],
    "monitor": [
        '{"a":' * 3000 + "1" + "}" * 3000,
        '{"event": "roll", "hero": "Hulk", "faces": [1, 2]}',
        '{"event": "reroll", "dice": 5, "faces": null}',
        b'{"event": "roll", "faces": null}',
    ],
    # A starting set of files (tests/fw/test_no_freeze.py's STARTING_FILES, by name) and the steps.
    "presses": [
        # The hostile run's lock by the buttons alone: Champions, 4 players, the first stage's start per
        # player (3 each: 12, over its target of 10), "Start the game": the tracker refused it after the
        # form was let go, and every redraw raised AttributeError.
        ("no files", [("new", "champions", 2, True), ("row", "S1 start is", 1, False), ("start",)]),
    ],
}
