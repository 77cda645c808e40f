"""The toy game's tracker (core/games/__init__.py says what each name is): each player scores points;
the first to GOAL wins."""

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
