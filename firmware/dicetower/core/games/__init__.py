"""The games the box plays: a package each (core/games/<game>/), named here, imported only when its
game is chosen, resumed or read.

A game is its line in GAMES below, which is all the start menu and its count screen need, and its
package, everything else the box knows about it. Adding a game is the two (docs/architecture.md's
checklist):
  its line         (start menu label, package name, players, counting, hold B):
    players        (fewest, most, default) players
    counting       what the count screen counts, with %d-%d for its range (None: players)
    hold B         the count screen's line on what holding B sets up: "" for a game that sets up
                   nothing but its count; else its package has a setup.py (ui/setup.py says what it
                   has: loaded while the game is set up, forgotten when it starts)
                   The press that chooses a game shows its count screen from this line alone: importing
                   the game's descriptor at it kept the buttons waiting 26 ms on a Pico.
  __init__.py      its descriptor, small (it stays on the heap while the game is played), the first of
                   its modules the idle passes load once the game is chosen (before its rules):
    AHEAD          its package's modules imported at idle, one a loop pass, once the game is chosen,
                   in the order they import one another: the press that chooses a game shows its
                   count screen without importing them (a game's import is among the loop's longest
                   passes: benchmarks/rp2040_pico.py). A game whose tracker is not listed has it
                   imported after the press that starts it, its set-up forgotten, so that the two need
                   not share the heap (tests/test_heap_budget.py's peaks): in a pass of its own, once
                   the OLED says the game is starting (ui/choosing.py). A dotted name is a module
                   outside the package that they import ("dicetower.core.names"): on a Pico any
                   import is 25 ms or more of looking through the flash's folders, so one in the pass
                   of the module that imports it makes that pass the longer by as much
    STARTS         (optional) for a game whose tracker is not in AHEAD: what of its package the tracker
                   imports, loaded one a pass after the press that starts it, before the tracker (the
                   set-up forgotten first): Champions' play menu, which kept that pass at 97 ms
    ahead_of       (optional) ahead_of(options, game): AHEAD for the app's options and the game of this
                   kind resumed or begun (None while a new one is chosen): Battlerealm's puts Lucky's
                   search among the first when a hero with Lucky may play
    PLAY_ONLY      (optional) what of AHEAD only play needs: launch.py loads it first at power-up when
                   the saved game is Battlerealm's, while the heap is one piece
    set_aside      (optional) what a game waiting to be resumed forgets while a game of another kind is
                   chosen (made again if it is resumed), in that order: PLAY_ONLY, after what holds it;
                   what launch.py loads first for a saved game is among it, and its read adopts that
                   (these two named as the firmware's own functions: on a Pico a new name is a word in
                   the table of names every game holds, and a Champions game sat one word under the
                   table's next part, a 7.7 KB block: `rp2040_pico --heap-map`'s n_qstr)
    SCREENS        (optional) True if it has screens of its own, ui/<game>.py: loaded at idle after
                   AHEAD
    CHECKS         (optional) the dotted name of its checks' module: loaded at idle with a new game's
                   set-up (forgotten with it), else for each check alone (core/scope.py's once)
  help.py          TEXT: Settings -> Help's words on its status lines' short forms (loaded for the help
                   alone)
  table.py         parts(state): (word, text) pairs, every part of the game a page of the play menu's
                   The table (ui/table.py; loaded while that screen is made)
  tracker.py       its score tracker and everything a game in play needs of it:
    TRACKER        a `Game` (core/game.py) with KIND the package's name
    TITLE          its name in full, for the phones' page ("Marvel Champions")
    new_game(count, options)  a new tracker for `count` players from the default roster (options:
                   the device's heroes.json and dice.json, see device.py)
    MENU           its actions as a menu (core/actions.py)
    status(state, lines)  the game at a glance: up to `lines` lines of text for the OLED (and for
                   the phones' page of a game it has no view of its own for)
    gauge(state, out)  the LED ring's gauge into `out`, a list of 4 (filled, not made: it runs every
                   frame): [value, full, lost, alarm], `value` of `full` lit, `lost` lit from the
                   other end, `alarm` 1 when the gauge counts toward a loss
    KEYS, WORDS    state keys and recurring words its saves write in short codes, beyond the shared
                   tables (core/savefile.py); new names go at their end, never reordered
    check(state)   (optional) Refused unless a loaded state can be played (indexes in range)
    migrate(schema, body)  (optional) a save's body from `schema` to the next, for the game's own changes
    scoreboard(state, doc)  (optional) what the phones' page shows of it beyond the status lines
  ui/<game>.py     (optional) its own screens
"""

# (start menu label, package name, players, counting, hold B: above), in the start menu's order: every
# list of games derives from it.
GAMES = (
    ("Battlerealm", "battlerealm", (2, 6, 4), None, "Hold B: pick the heroes"),
    ("Champions", "champions", (1, 4, 2), None, "Hold B: heroes, villain.."),
    ("United", "united", (1, 6, 4), None, "Hold B: mode, villain.."),
    ("Battleworld", "battleworld", (1, 5, 1), "Starting heroes (%d-%d):", ""),
)
PACKAGE = "dicetower.core.games."


def descriptor(kind):
    """The package of the game called `kind` (its descriptor, above); KeyError if there is none."""
    line(kind)
    return __import__(PACKAGE + kind, None, None, ["_"])


def line(kind):
    """The line of GAMES of the game called `kind`; KeyError if there is none."""
    for each in GAMES:
        if each[1] == kind:
            return each
    raise KeyError(kind)


def known(kind):
    """True if `kind` names one of the games (a module name above, as a save's "game" gives it)."""
    try:
        return bool(line(kind))
    except KeyError:
        return False


def players(kind):
    """(fewest, most, default) players of the game called `kind`."""
    return line(kind)[2]


def count_screen(kind):
    """(what the count counts, with %d-%d for its range; the line on what holding B sets up)."""
    each = line(kind)
    return each[3] or "Players (%d-%d):", each[4]


def setup_of(kind):
    """The dotted name of the game's set-up module, or None: a count only."""
    return part(kind, "setup") if line(kind)[4] else None


def ahead_of(kind, options=None, game=None):
    """The dotted names of the modules imported at idle, one a loop pass, once the game is chosen (in
    import order): its descriptor's AHEAD, or what its `ahead_of(options, game)` makes of it for the app's
    options and the game of its kind resumed or begun, if any (Battlerealm's: Lucky's search among the
    first, after the work arrays and what its ranks import, when a hero with Lucky may play)."""
    described = descriptor(kind)
    more = getattr(described, "ahead_of", None)
    names = described.AHEAD if more is None or options is None else more(options, game)
    return [name if "." in name else part(kind, name) for name in names]


def starts_of(kind):
    """The dotted names of the modules imported one a pass after the press that starts a new game, before
    its tracker (its descriptor's STARTS)."""
    return [part(kind, name) for name in getattr(descriptor(kind), "STARTS", ())]


def tracker_of(kind):
    """The dotted name of the game's tracker module."""
    return part(kind, "tracker")


def part(kind, name):
    """The dotted name of the module called `name` in the package of the game called `kind`."""
    return PACKAGE + kind + "." + name


def game(kind):
    """The tracker module of the game called `kind` (above); KeyError if there is none."""
    line(kind)
    return __import__(tracker_of(kind), None, None, ["_"])


def label(kind):
    """The game's name as the start menu gives it ("Battlerealm"), for every screen that names it."""
    return line(kind)[0] if known(kind) else kind
