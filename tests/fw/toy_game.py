"""A toy game, added to the tower the way docs/architecture.md's checklist adds one: this module (its
tracker, menu, status, gauge, save codes) and its line in core/games/__init__.py (`register` makes the
line at run time, so the shipped registry stays the four real games). Used by tests/fw/test_toy_game.py
(the simulated tower on CPython and the MicroPython VM) and tests/test_web_browser.py (the phones' page).

The game: each player scores points; the first to GOAL wins.
"""

import sys

from dicetower.core import games
from dicetower.core.actions import HERO, NUMBER
from dicetower.core.game import Game, Refused, number

GOAL = 5


class Toy(Game):
    KIND = "toy"
    STATE_KEYS = ("heroes", "over")

    @classmethod
    def setup(cls, count):
        number(count, 1, 4, "Players")
        return cls({"heroes": [{"name": "P%d" % (i + 1), "points": 0} for i in range(count)], "over": None})

    def act_score(self, state, player, points):
        number(player, 0, len(state["heroes"]) - 1, "Player")
        number(points, 1, 3, "Points")
        hero = state["heroes"][player]
        hero["points"] += points
        if hero["points"] >= GOAL:
            state["over"] = "%s wins." % hero["name"]
        return "%s +%d (%d)." % (hero["name"], points, hero["points"])


TRACKER = Toy
TITLE = "The Toy Game"
PLAYERS = (1, 4, 2)  # its registry line's (a shipped game's is `players("<name>")`)
KEYS = ("points",)
WORDS = ()
MENU = (("Score", "score", (("Player", HERO, None), ("Points", NUMBER, (1, 3)))),)


def new_game(count, options):
    return Toy.setup(count)


def status(state, lines):
    return [" ".join("%s:%d" % (h["name"], h["points"]) for h in state["heroes"]), "First to %d" % GOAL][:lines]


def gauge(state, out):
    out[0] = max(h["points"] for h in state["heroes"])
    out[1] = GOAL
    out[2] = 0
    out[3] = 0


def check(state):
    for hero in state["heroes"]:
        number(hero["points"], 0, GOAL + 2, "Points")
    if not 1 <= len(state["heroes"]) <= 4:
        raise Refused("The players are damaged.")


def register():
    """The registry's line for the toy (as a new game's line in core/games/__init__.py), and its module
    where the registry imports it from. Returns what `unregister` needs to put things back."""
    module = sys.modules[__name__]
    sys.modules["dicetower.core.games.toy"] = module
    before = games.GAMES
    games.GAMES = before + (("Toy", "toy"),)
    games.COUNTS["toy"] = (PLAYERS, None, None, "", ())
    return before


def unregister(before):
    games.GAMES = before
    del games.COUNTS["toy"]
    del sys.modules["dicetower.core.games.toy"]
