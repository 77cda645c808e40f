"""A toy game, added to the tower the way docs/architecture.md's checklist adds one: its package (toy/:
the descriptor in __init__.py, the tracker with its menu, status, gauge and save codes in tracker.py,
the help's words in help.py, the play menu's The table in table.py)
and its line in core/games/__init__.py's GAMES. `register` puts the package where the registry imports
games from and makes the line at run time, so the shipped registry stays the four real games. Used by
tests/fw/test_toy_game.py (the simulated tower on CPython and the MicroPython VM) and
tests/test_web_browser.py (the phones' page).
"""

import sys

import toy
import toy.help
import toy.table
import toy.tracker

from dicetower.core import games

PACKAGE = "dicetower.core.games.toy"


def register():
    """The toy's package where the registry imports games from, and its line in GAMES. Returns what
    `unregister` needs to put things back."""
    sys.modules[PACKAGE] = toy
    sys.modules[PACKAGE + ".tracker"] = toy.tracker
    sys.modules[PACKAGE + ".help"] = toy.help
    sys.modules[PACKAGE + ".table"] = toy.table
    before = games.GAMES
    games.GAMES = before + (("Toy", "toy", (1, 4, 2), None, ""),)
    return before


def unregister(before):
    games.GAMES = before
    del sys.modules[PACKAGE + ".tracker"]
    del sys.modules[PACKAGE + ".help"]
    del sys.modules[PACKAGE + ".table"]
    del sys.modules[PACKAGE]
