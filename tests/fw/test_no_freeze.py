"""The tower never freezes: random presses from every starting file, and after each one the screen answers.

A run boots the tower (main.py's device on the bench) with a set of starting files on its flash
(STARTING_FILES: crafted setup.json, champions.json, heroes.json, dice.json) and feeds its loop presses
as the buttons or a phone queue them: short, long (held), double, several queued before a pass (a
burst: the device answers them one a pass, with no redraw between), or a few loop passes apart, or
seconds apart. Steps are raw presses or a hand's errands that read the screen's state: back to the start
menu and a new game of a kind, its count changed, its set-up's rows opened (hold B); a row changed; the
set-up started. After every press the tower must answer the next one:
  - App.press returns (a player's press never raises out of it),
  - the app's mode is its screen's (app.screen.MODE), and screens.draw(app, canvas) draws it,
  - the device's loop logs no error and lets time pass.
On CPython tests/fuzz_targets.py's "presses" target draws the steps with hypothesis (tests/test_fuzz.py);
here, on CPython and the MicroPython VM, a seeded run of the same kind (Rand: the same steps on both) goes
through every starting file, with the known lock as its own test. benchmarks/press_fuzz.py tallies many
runs (on the VM too, through `main` below).

A run's presses are written as keys: a b c short, A B C held, a2 a double; "+" joins presses queued
before a pass, "~" presses one or two passes apart, a space the ones seconds apart (presses_text).
"""

import json
import unittest

from script import keystrokes

from dicetower.core.dice import DICE
from dicetower.core.games import GAMES
from dicetower.ui import screens
from dicetower.ui.canvas import Canvas, wrap
from table import PLAYERS_FILES, Table, _root, tidy

FILES = PLAYERS_FILES


# -- the same random steps on CPython and MicroPython ----------------------------------------------------


class Rand:
    """xorshift32: the VM's and CPython's `random` give different numbers for a seed; this gives the same."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 12345) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x % n

    def pick(self, items):
        return items[self.below(len(items))]


# What a hand does between presses: 0-2 loop passes (0: queued before the pass that answers the last one),
# else milliseconds on the bench's clock.
GAPS = (0, 0, 1, 2, 60, 60, 200, 200, 400, 1500)
BUTTONS = "aaabbbbccc"
KINDS = ("short",) * 7 + ("long",) * 2 + ("double",)
GAME_KINDS = tuple(kind for _, kind, *_ in GAMES)  # the registry's


def random_steps(seed, count):
    """At least `count` steps of a seeded run: set-ups one after another (as tests/fuzz_targets.py draws
    them), each a new game (its set-up's rows opened, most often), random presses and rows changed inside
    it, "Start the game", then random presses in play."""
    rand = Rand(seed)
    steps = []
    while len(steps) < count:
        steps.append(("new", rand.pick(GAME_KINDS), rand.below(9) - 4, rand.below(4) != 0))
        for _ in range(rand.below(13)):
            if rand.below(3) == 0:
                steps.append(("row", rand.below(40), rand.below(25) - 12, rand.below(3) == 0))
            else:
                steps.append(_press(rand))
        steps.append(("start",))
        for _ in range(rand.below(9)):
            steps.append(_press(rand))
    return steps


def _press(rand):
    return ("press", rand.pick(BUTTONS), rand.pick(KINDS), rand.pick(GAPS))


# -- the starting files ----------------------------------------------------------------------------------


def _defaults():
    """Each set-up's default (its remembered set-up must have this shape to be used: ui/setup.py's fits),
    made by the set-up modules, which are then let go as they were not loaded (the runs' towers load them)."""

    from dicetower.core.games import setup_of
    from dicetower.core.scope import Scope

    reading = Scope("defaults")
    out = {}
    for kind in GAME_KINDS:
        name = setup_of(kind)
        if name is not None:
            out[kind] = json.loads(json.dumps(reading.load(name).setup_default({})))
    reading.close()
    return out


def _remembered(kind, count, change=None):
    setup = json.loads(json.dumps(DEFAULTS[kind]))
    if change is not None:
        change(setup)
    return {"count": count, "setup": setup}


def _stage_counts(villain, scheme):
    def change(setup):
        setup["villain"]["count"] = villain
        setup["scheme"]["count"] = scheme

    return change


def _out_of_range(setup):
    setup["heroes"] = [["P1", 0], ["She-Hulk", 500], ["P3", -3], ["Nobody", 99]]
    setup["villain"]["stages"] = [0, 100, -1, 1000]
    setup["villain"]["count"] = 4
    setup["scheme"]["count"] = 4
    setup["scheme"]["stages"] = [
        [0, True, 200, True, 50],
        [99, True, 98, False, -1],
        [100, False, 0, True, 9],
        [1, False, 1, False, 0],
    ]


def _at_target(setup):
    setup["scheme"]["stages"][0] = [10, False, 3, True, 1]  # 3 per player: 12 for 4, at or over 10


def _others(setup):
    setup["heroes"] = ["Nobody", "Hulk", "Hulk", "", "x" * 40, "Thor"]


def _united_forbidden(setup):
    setup["teams"] = 2
    setup["villain"] = "doom"
    setup["heroes"] = ["Medusa"] * 6
    setup["threshold"] = 0


def _she_hulk_seated(setup):
    setup["heroes"][0] = ["She-Hulk", 15]


def _doom(setup):
    """CANNOT_START chosen, with its figures, as the set-up remembers a scenario."""
    setup["scenario"] = "Doom"
    setup["villain"].update(name="Doom villain", count=1, stages=[14] * 4)
    setup["scheme"].update(name="Doom scheme", count=1, stages=[[10, False, 3, True, 1] for _ in range(4)])


def _scenario(name, villain, stages):
    return {
        "name": name,
        "villain": {"name": name + " villain", "stages": villain},
        "scheme": {"name": name + " scheme", "stages": stages},
    }


CANNOT_START = _scenario("Doom", [14], [{"target": 10, "start": 3, "start_per_player": True}])
HEROES3 = [{"name": "Wasp", "pvp": 10}, {"name": "Ant", "pvp": 12, "abilities": ["Tough"]}, {"name": "Bee", "pvp": 8}]


def starting_files():
    """(what they are, {file name: its text}): each run's flash before the power-up."""
    d = json.dumps
    champions = lambda count, change=None: _remembered("champions", count, change)  # noqa: E731
    return [
        ("no files", {}),
        ("setup.json: Champions' stage counts 5", {"setup.json": d({"champions": champions(4, _stage_counts(5, 5))})}),
        (
            "setup.json: Champions' stage counts -1 and 0",
            {"setup.json": d({"champions": champions(1, _stage_counts(-1, 0))})},
        ),
        (
            'setup.json: "count": true',
            {
                "setup.json": d(
                    {
                        "champions": {"count": True, "setup": DEFAULTS["champions"]},
                        "united": _remembered("united", True),
                        "battlerealm": _remembered("battlerealm", True),
                        "battleworld": {"count": True},
                    }
                )
            },
        ),
        (
            'setup.json: a stage\'s "count": true',
            {"setup.json": d({"champions": champions(2, _stage_counts(True, True))})},
        ),
        (
            "setup.json: every Champions figure out of range",
            {"setup.json": d({"champions": champions(4, _out_of_range)})},
        ),
        (
            "setup.json: 4 players, the first stage's start per player at its target",
            {"setup.json": d({"champions": champions(4, _at_target)})},
        ),
        (
            "setup.json: other heroes, a hero twice, what United forbids, 9 players",
            {
                "setup.json": d(
                    {
                        "battlerealm": _remembered("battlerealm", 6, _others),
                        "united": _remembered("united", 1, _united_forbidden),
                        "battleworld": {"count": 9},
                        "champions": champions(9),
                    }
                )
            },
        ),
        (
            "setup.json: wrong shapes",
            {
                "setup.json": d(
                    {
                        "champions": [],
                        "united": {"count": 2, "setup": {"heroes": "Thor"}},
                        "battlerealm": {"count": "4", "setup": None},
                        "battleworld": 5,
                    }
                )
            },
        ),
        ("setup.json: a list", {"setup.json": "[1, 2]"}),
        ("setup.json: not JSON", {"setup.json": "{not json"}),
        (
            "champions.json: a hero and a scenario named like built-ins, a hero named like a seat",
            {
                "champions.json": d(
                    {
                        "heroes": [
                            {"name": "She-Hulk", "hp": 3},
                            {"name": "P1", "hp": 50},
                            {"name": "Spider-Man", "hp": 99},
                        ],
                        "scenarios": [
                            _scenario("Standard", [99], [{"target": 99, "start": 98}]),
                            _scenario("Custom", [1], [{"target": 1}]),
                        ],
                    }
                ),
                "setup.json": d({"champions": champions(3, _she_hulk_seated)}),
            },
        ),
        (
            "champions.json: a scenario whose start reaches its target for 4 players",
            {"champions.json": d({"scenarios": [CANNOT_START]})},
        ),
        (
            "champions.json: that scenario remembered for 4 players",
            {
                "champions.json": d({"scenarios": [CANNOT_START]}),
                "setup.json": d({"champions": champions(4, _doom)}),
            },
        ),
        (
            "champions.json: 40 entries, stages at their limits",
            {
                "champions.json": d(
                    {
                        "heroes": [{"name": "H%d" % i, "hp": 1 + i * 3} for i in range(30)],
                        "scenarios": [
                            _scenario(
                                "Max%d" % i,
                                [99, 1, 99, 1],
                                [
                                    {
                                        "target": 99,
                                        "target_per_player": True,
                                        "start": 98,
                                        "start_per_player": True,
                                        "acceleration": 9,
                                    }
                                ]
                                * 4,
                            )
                            for i in range(10)
                        ],
                    }
                )
            },
        ),
        (
            "heroes.json: 3 heroes beside a remembered set-up of other heroes",
            {"heroes.json": d({"heroes": HEROES3}), "setup.json": d({"battlerealm": _remembered("battlerealm", 4)})},
        ),
        (
            "heroes.json: 2 heroes, one named like a built-in, 6 remembered",
            {
                "heroes.json": d({"heroes": [{"name": "Hulk", "pvp": 1}, {"name": "Wasp", "pvp": 20}]}),
                "setup.json": d({"battlerealm": _remembered("battlerealm", 6)}),
            },
        ),
        (
            "dice.json: a 2-faced Attack Die and one of long numbers; Battleworld's 5 remembered",
            {"dice.json": d({"attack": ["Star", "Blank"]}), "setup.json": d({"battleworld": {"count": 5}})},
        ),
        ("dice.json: long numbers", {"dice.json": d({"attack": ["Star", "9" * 60, "Blank", "0"]})}),
        ("heroes.json and dice.json refused", {"heroes.json": "{", "dice.json": d({"attack": []})}),
    ]


DEFAULTS = _defaults()
STARTING_FILES = starting_files()


# -- a run -----------------------------------------------------------------------------------------------


def presses_text(presses):
    """The presses as keys (the module's docstring says how to read them)."""
    out = ""
    for i in range(len(presses)):
        button, kind, gap = presses[i]
        key = button.upper() if kind == "long" else button + ("2" if kind == "double" else "")
        if i:
            before = presses[i - 1][2]
            out += "+" if before == 0 else "~" if before < 10 else " "
        out += key
    return out


class Run:
    """A tower booted with `files` on its flash, played step by step; `failure` says the first press
    after which the screen did not answer (None: every one did)."""

    def __init__(self, files, seed=1, name=""):
        self.name = name
        root = _root_once()
        tidy(root, FILES)
        for file_name in files:
            with open(root + file_name, "w") as f:
                f.write(files[file_name])
        self.presses = []  # (button, kind, gap) as pressed
        self.failure = None
        self.form_presses = 0  # presses the set-up's rows took
        self.attempts = 0  # presses that start a game from its count screen or its set-up's first row
        self.started = 0
        self.canvas = Canvas()
        self._seen = 0  # console lines read
        self._app = None
        self._attempt = False
        self.t = Table(seed=seed, root=root, keep_files=True)
        tidy(root, ("heroes", "dice"))  # read at power-up: the next test's tower starts without them
        self._watch()
        self._check("at power-up")

    # -- what is checked

    def _watch(self):
        """Every press the loop hands App.press is checked as it returns (looked at again as the loop runs:
        should the device make a new app, its presses are checked too)."""
        app = self.t.device.app
        if app is None or app is self._app:
            return
        self._app = app
        press = app.press

        def checked(button, kind):
            self._before(app, button, kind)
            try:
                press(button, kind)
            except Exception as e:  # noqa: BLE001 (what escapes a press is the failure to report)
                self._fail("App.press(%r, %r) raised %s: %s" % (button, kind, type(e).__name__, e))
                raise
            self._check("after App.press(%r, %r)" % (button, kind))

        app.press = checked

    def _before(self, app, button, kind):
        """Tallies: a press in the set-up's rows; a press that asks for a game to start."""
        mode = app.mode
        if mode == "form":
            self.form_presses += 1
        self._attempt = False
        if button == "c" and kind != "long":
            if mode == "setup" or (
                mode == "form" and app.cursor == 0 and app.form is not None and not app.form.editing
            ):
                self._attempt = True
                self.attempts += 1

    def _check(self, when):
        app = self.t.device.app
        if app is None:
            return self._fail("%s: the device has no app" % when)
        if app.screen is not None and app.screen.MODE != app.mode:
            return self._fail("%s: mode %r is not the screen's, %r" % (when, app.mode, app.screen.MODE))
        try:
            screens.draw(app, self.canvas)
        except Exception as e:  # noqa: BLE001 (a screen that cannot be drawn is the lock)
            return self._fail("%s: the %r screen raises %s: %s" % (when, app.mode, type(e).__name__, e))
        if self._attempt and app.game is not None and app.mode in ("play", "cut", "over"):
            self._attempt = False
            self.started += 1

    def _fail(self, text):
        if self.failure is None:
            self.failure = text

    def _errors(self):
        """The device's own error lines on the console since the last look (a step that raised)."""
        lines = self.t.platform.lines
        while self._seen < len(lines):
            line = lines[self._seen]
            self._seen += 1
            if '"error"' in line:
                event = json.loads(line)
                if event.get("event") == "error":
                    self._fail("the loop logged an error: %s" % event.get("error"))
        return self.failure is not None

    def _passes(self, gap):
        """Run the loop: `gap` passes (0-2), or `gap` ms on the bench's clock."""
        t = self.t
        clock = t.clock
        if gap < 10:
            for _ in range(gap):
                t.device.tick(clock.now)
                if self._errors():
                    return
            return
        try:
            t.wait(gap, self._checked)
        except RuntimeError as e:  # the bench's word for a loop that never lets time pass
            self._fail(str(e))

    def _checked(self):
        """After each pass of a wait: an error logged ends the run; the screen is watched."""
        if self._errors():
            return True
        self._watch()
        return False

    # -- the hand

    def press(self, button, kind="short", gap=200):
        self.presses.append((button, kind, gap))
        self.t.device.press(button, kind)
        self._passes(gap)
        return self.failure is None

    def step(self, step):
        """One step (a raw press or an errand); False once the screen stopped answering."""
        if self.failure is not None:
            return False
        what = step[0]
        if what == "press":
            return self.press(step[1], step[2], step[3])
        app = self.t.device.app
        if app is None:
            return False
        self._passes(200)  # an errand reads the screen: what is queued is answered first
        if what == "new":
            self._new(step[1], step[2], step[3])
        elif what == "start":
            self._start()
        elif what == "row":
            self._row(step[1], step[2], step[3])
        return self.failure is None

    def play(self, steps):
        for step in steps:
            if not self.step(step):
                break
        if self.failure is None:
            self._passes(1500)  # the last press's work done (saves, set-ups written)
            self._check("at the end")
        return self.failure

    def _to_start_menu(self):
        """Back to the start menu the way a player gets there: reading on, finalizing the dice, holding C."""
        FINALIZE = DICE + 4  # the dice screen's last cursor stop (ui/battlerealm.py)

        for _ in range(16):
            app = self.t.device.app
            mode = app.mode
            if mode == "start" or self.failure is not None:
                return
            if mode in ("notice", "help", "phones", "seed", "result", "cut", "over"):
                self.press("c")
            elif mode == "dice":
                self.press("c" if app.cursor == FINALIZE else "a")
            else:
                self.press("c", "long")

    def _new(self, kind, count, form):
        """A new game of `kind` from the start menu, its count changed by `count`, its rows opened (`form`)."""
        from dicetower.core.games import label

        for _ in range(3):  # a file refused is said first, then the start menu again
            self._to_start_menu()
            app = self.t.device.app
            if app.mode != "start" or self.failure is not None:
                return
            labels = [item[0] for item in app.menus.start_items(app)]
            at = labels.index("New " + label(kind))
            for _ in range((at - app.cursor) % len(labels)):
                self.press("b", "short", 60)
            self.press("c")
            if self.t.device.app.mode == "replace":
                self.press("b", "short", 60)
                self.press("c")
            if self.t.device.app.mode != "notice":
                break
        if self.t.device.app.mode != "setup":
            return
        for _ in range(abs(count)):
            self.press("b" if count > 0 else "a", "short", 60)
        if form:
            self.press("b", "long")

    def _start(self):
        """ "Start the game": the set-up's first row, or C on the count screen."""
        app = self.t.device.app
        if app.mode == "form" and app.form is not None:
            if app.form.editing:
                self.press("c")
            rows = len(app.form.rows()) + 1
            for _ in range(rows):
                if self.failure is not None or self.t.device.app.mode != "form" or app.cursor == 0:
                    break
                self.press("a" if app.cursor <= rows // 2 else "b", "short", 60)
        if self.t.device.app.mode in ("form", "setup") and self.failure is None:
            self.press("c")

    def _row(self, row, delta, held):
        """Change a row of the set-up by `delta` (held: ten at a time); `row` its index, or its label's start."""
        app = self.t.device.app
        if app.mode != "form" or app.form is None:
            return
        if app.form.editing:
            self.press("c")
        if self.failure is not None or self.t.device.app.mode != "form":
            return
        rows = app.form.rows()
        if isinstance(row, str):
            found = [i for i in range(len(rows)) if rows[i][0].startswith(row)]
            if not found:
                return
            row = found[0]
        target = 1 + row % len(rows)
        for _ in range(len(rows) + 1):
            if self.failure is not None or self.t.device.app.mode != "form" or app.cursor == target:
                break
            self.press("b" if (target - app.cursor) % (len(rows) + 1) <= (len(rows) + 1) // 2 else "a", "short", 60)
        if app.cursor != target or self.failure is not None:
            return
        self.press("c")
        for _ in range(abs(delta)):
            if self.failure is not None or not (app.mode == "form" and app.form is not None and app.form.editing):
                return
            self.press("b" if delta > 0 else "a", "long" if held else "short", 60)
        if app.mode == "form" and app.form is not None and app.form.editing and self.failure is None:
            self.press("c")

    def report(self):
        return "%s, from %s: %s" % (self.failure, self.name or "its files", presses_text(self.presses))

    def close(self):
        tidy(self.t.root, FILES)


_ROOTS = []


def _root_once():
    """One bench folder for every run of the process (on CPython a fresh one copies boards/ each time)."""
    if not _ROOTS:
        _ROOTS.append(_root())
    return _ROOTS[0]


def run(files, steps, seed=1, name=""):
    """A run's Run, played."""
    r = Run(files, seed, name)
    try:
        r.play(steps)
    finally:
        r.close()
    return r


# The lock a hostile run found by the buttons alone: Champions, 4 players, the first stage's start per player
# (3 each: 12, over its target of 10), "Start the game".
KNOWN_LOCK = [("new", "champions", 2, True), ("row", "S1 start is", 1, False), ("start",)]

# The shortest presses these runs found that left a screen not answering (at 5a0a87c), and their files:
# the set-up's start refused by the tracker after the form was let go (every redraw then raised
# AttributeError), or a remembered stage count past the form's rows (IndexError at its 5th stage's row).
KNOWN_LOCKS = [
    ("setup.json: 4 players, the first stage's start per player at its target", "bcBc"),
    ("setup.json: Champions' stage counts -1 and 0", "bcBc"),
    ("setup.json: Champions' stage counts 5", "bcBa"),
    ("setup.json: every Champions figure out of range", "bcBBcAcac"),  # Custom's figures, P1's 0 hit points
    ("setup.json: other heroes, a hero twice, what United forbids, 9 players", "bbcbBbbcbcaac"),  # Vulcan
    ("champions.json: a scenario whose start reaches its target for 4 players", "bcbbBbcbbbcac"),  # Doom chosen
    ("champions.json: that scenario remembered for 4 players", "bcBc"),
]

# Seeded runs in the tests: every starting file, RUNS_EACH runs of STEPS steps (about 14 s on the VM, 5 on
# CPython; hypothesis draws more on CPython: tests/test_fuzz.py).
RUNS_EACH = 1
STEPS = 80


class KnownLocks(unittest.TestCase):
    def test_a_start_the_tracker_refuses_stays_on_the_form_with_its_reason(self):
        r = run({}, KNOWN_LOCK, name="no files")
        self.assertIsNone(r.failure, r.report())
        app = r.t.device.app
        self.assertEqual(app.mode, "form", r.report())
        self.assertIsNone(app.game)
        self.assertTrue(app.message, r.report())
        self.assertIn(wrap(app.message)[0], r.t.screen())  # the reason, on the OLED

    def test_the_shortest_locks_found_answer_every_press(self):
        names = [name for name, _ in STARTING_FILES]
        failures = []
        for name, keys in KNOWN_LOCKS:
            steps = [("press", button, kind, 200) for button, kind in keystrokes(keys)]
            r = run(STARTING_FILES[names.index(name)][1], steps, name=name)
            if r.failure is not None:
                failures.append(r.report())
        self.assertEqual(failures, [])

    def test_the_remembered_set_up_of_other_heroes_starts_or_is_refused_on_the_screen(self):
        name = "heroes.json: 3 heroes beside a remembered set-up of other heroes"
        files = STARTING_FILES[[n for n, _ in STARTING_FILES].index(name)][1]
        r = run(files, [("new", "battlerealm", 0, True), ("start",)], name=name)
        self.assertIsNone(r.failure, r.report())


class RandomPresses(unittest.TestCase):
    def test_every_starting_file_answers_every_press(self):
        done = tally(len(STARTING_FILES) * RUNS_EACH, STEPS, 0)
        self.assertEqual(done["failures"], [])
        # The runs do reach what they are for: the set-up's rows, games started and starts refused.
        self.assertTrue(done["form"] > done["presses"] // 10, done)
        self.assertTrue(0 < done["started"] < done["attempts"], done)


def tally(runs, steps, first):
    """`runs` seeded runs from the seed `first`, each from the starting files its seed picks (in turn): what
    they pressed and started, and how each that failed failed (benchmarks/press_fuzz.py prints it)."""
    out = {"runs": 0, "presses": 0, "form": 0, "attempts": 0, "started": 0, "failures": []}
    out["files"] = len(STARTING_FILES)
    for n in range(runs):
        seed = first + n
        name, files = STARTING_FILES[seed % len(STARTING_FILES)]
        r = run(files, random_steps(seed, steps), seed, name)
        out["runs"] += 1
        out["presses"] += len(r.presses)
        out["form"] += r.form_presses
        out["attempts"] += r.attempts
        out["started"] += r.started
        if r.failure is not None:
            out["failures"].append([seed, name, r.failure, presses_text(r.presses)])
    return out


def main(argv):
    """On the VM, for benchmarks/press_fuzz.py --vm: `RUNS STEPS FIRST_SEED`; one line of tallies."""
    print("PRESSFUZZ " + json.dumps(tally(int(argv[0]), int(argv[1]), int(argv[2]))))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
