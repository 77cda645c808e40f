"""The games the box plays: one module each, named here, imported only when its game is played.

A game's module is everything the box knows about it but its line below, which is what the start menu
and the count screen show before the module is loaded (a new game is a new module and one line):
  TRACKER          its score tracker, a `Game` (core/game.py) with KIND the module's name
  TITLE            its name in full, for the phones' page ("Marvel Champions"; the start menu's
                   short label is its line in GAMES below)
  PLAYERS          its line's (fewest, most, default) players: `PLAYERS = players("<name>")`
  new_game(count, options)  a new tracker for `count` players from the default roster (options:
                   the device's heroes.json and dice.json, see device.py)
  MENU             its actions as a menu (core/actions.py)
  status(state, lines)  the game at a glance: up to `lines` lines of text for the OLED (and for the
                   phones' page of a game it has no view of its own for)
  gauge(state, out)  the LED ring's gauge into `out`, a list of 4 (filled, not made: it runs every
                   frame): [value, full, lost, alarm], `value` of `full` lit, `lost` lit from the
                   other end, `alarm` 1 when the gauge counts toward a loss
  KEYS, WORDS      state keys and recurring words its saves write in short codes, beyond the
                   shared tables (core/savefile.py); new names go at their end, never reordered
  check(state)     (optional) Refused unless a loaded state can be played (indexes in range)
  migrate(schema, body)  (optional) a save's body from `schema` to the next, for the game's own changes
  LET_GO           (optional) modules it imports only to start a game or read a save (its checks): let
                   go once the game is chosen or read (core/game.py's `let_go`): a game played never holds them
"""

# (start menu label, module name), in the start menu's order.
GAMES = (
    ("Battlerealm", "battlerealm"),
    ("Champions", "champions"),
    ("United", "united"),
    ("Battleworld", "battleworld"),
)
# The count screen's, per game: (fewest, most, default) players; what the count counts (with %d-%d for
# the range; None: players); the module of its set-up beyond the count (ui/setup.py says what it has:
# loaded while a game is set up, released when it starts; None: a count only); the count screen's
# line on what holding B sets up; and what is imported at idle, one a loop pass, once the game is chosen,
# in the order they import one another. Here, not in the game's module: the press that chooses a game
# shows its count screen without importing it (a game's import is among the loop's longest passes:
# benchmarks/rp2040_pico.py). A game whose module is not listed is imported at the press that starts it,
# after its set-up module is let go, so that the two need not share the heap (Champions fetches only its
# small allies' part ahead: its rules beside its set-up would raise its peak, benchmarks/vm_heap.py's
# examples row). Battlerealm's are fetched
# while its set-up waits (its start would import them all at once): its peak is its play, not its set-up
# (tests/test_heap_budget.py's peaks, benchmarks/vm_heap.py's figures).
COUNTS = {
    "battlerealm": (
        (2, 6, 4),
        None,
        "battlerealm_setup",
        "Hold B: pick the heroes",
        (
            "dicetower.core.work_arrays",
            "dicetower.core.triples",
            "dicetower.core.cards",
            "dicetower.core.games.battlerealm_powers",
            "dicetower.core.games.battlerealm",
            "dicetower.core.roster",
            "dicetower.core.games.battlerealm_heroes",
            "dicetower.core.turn",
        ),
    ),
    "champions": (
        (1, 4, 2),
        None,
        "champions_setup",
        "Hold B: heroes, villain..",
        ("dicetower.core.games.champions_allies",),
    ),
    "united": ((1, 6, 4), None, "united_setup", "Hold B: mode, villain..", ()),
    # the chart's row (1 to 5); no set-up: its module is fetched at once
    "battleworld": ((1, 5, 1), "Starting heroes (%d-%d):", None, "", ("dicetower.core.games.battleworld",)),
}


# COUNTS is read through these, never by position.


def players(kind):
    """(fewest, most, default) players of the game called `kind` (its COUNTS line)."""
    return COUNTS[kind][0]


def count_screen(kind):
    """(what the count counts, with %d-%d for its range; the line on what holding B sets up)."""
    line = COUNTS[kind]
    return line[1] or "Players (%d-%d):", line[3]


def setup_of(kind):
    """The name of the game's set-up module in core/games/ (<game>_setup), or None: a count only."""
    return COUNTS[kind][2]


def fetched(kind):
    """The modules imported at idle, one a loop pass, once the game is chosen (in import order)."""
    return COUNTS[kind][4]


def known(kind):
    """True if `kind` names one of the games (a module name above, as a save's "game" gives it)."""
    for _, name in GAMES:
        if name == kind:
            return True
    return False


def game(kind):
    """The module of the game called `kind` (its descriptor, above); KeyError if there is none."""
    if not known(kind):
        raise KeyError(kind)
    return __import__("dicetower.core.games." + kind, None, None, [kind])


def label(kind):
    """The game's name as the start menu gives it ("Battlerealm"), for every screen that names it."""
    for name, key in GAMES:
        if key == kind:
            return name
    return kind
