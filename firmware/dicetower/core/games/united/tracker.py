"""Marvel United (War of Kings): KO tokens, the Duel trackers, tokens left.

Rules from the War of Kings rulebook:
- Vulcan, Team vs Team: "The Heroes lose if they have a total of 6 KO
  tokens (counting both Teams' KO tokens), regardless of the number of
  Heroes in the game." The threshold is a setting (6 by default), counted
  over every team, and announced the moment it is reached.
- Gladiator's Duel: "If Gladiator won the Duel, advance Gladiator's Duel
  tracker by 1." / "If the Hero won the Duel, advance the Heroes Duel tracker
  by 1."
- "6 Terrigen Mist tokens" and "3 Water tokens": each use discards one.
"""

from dicetower.core.game import Game, Refused, fields, number, plural, text
from dicetower.core.names import short_names
from dicetower.core.actions import CHOICE, HERO, PICK

MIST = 6
WATER = 3
DUELS = 99  # a Duel tracker's last space here: the rulebook gives none; a game sees a few Duels


def seated(spec, teams, roster):
    """A seat's hero as a new game holds it, checked (by the set-up too, before its form goes): named,
    on a team there is, and not at the table already (a box has one of each hero)."""
    name = text(fields(spec, "A hero").get("name"), "A hero's name")
    team = number(spec.get("team", 0), 0, teams - 1, name + "'s team")
    for hero in roster:
        if hero["name"] == name:
            raise Refused("%s is seated twice: each hero plays once." % name)
    return {"name": name, "team": team, "ko": 0}


def duels(state):
    """Refused unless the game has Duels (Gladiator's, not in Team vs Team): said before the picker asks
    for a Duel's winner (the menu's `_winners`), and by the tracker."""
    if state.get("villain", "gladiator") != "gladiator":
        raise Refused("Duels are Gladiator's: the villain is Vulcan.")
    if state["teams"] == 2:
        raise Refused("Gladiator CANNOT be used as the Villain in Team vs Team mode: no Duels.")


class United(Game):
    KIND = "united"
    STATE_KEYS = ("heroes", "teams", "threshold", "gladiator", "heroes_duel", "mist", "water", "over")

    @classmethod
    def setup(cls, heroes, teams=1, threshold=6, villain="gladiator"):
        """heroes: dicts with name and team (0, or 0/1 in Team vs Team). Only a game against Vulcan says
        its villain ("villain"): a game saved before the villain was chosen played Gladiator's Duels."""
        number(teams, 1, 2, "Teams")
        number(threshold, 1, 99, "KO threshold")
        if not isinstance(heroes, list) or not 1 <= len(heroes) <= 8:
            raise Refused("Marvel United takes 1 to 8 heroes.")
        roster = []
        for spec in heroes:
            roster.append(seated(spec, teams, roster))
        state = {
            "heroes": roster,
            "teams": teams,
            "threshold": threshold,
            "gladiator": 0,
            "heroes_duel": 0,
            "mist": MIST,
            "water": WATER,
            "over": None,
        }
        if villain == "vulcan":
            state["villain"] = villain
        return cls(state)

    def team_ko(self, team):
        return sum(h["ko"] for h in self.state["heroes"] if h["team"] == team)

    def _hero(self, state, i):
        number(i, 0, len(state["heroes"]) - 1, "Hero")
        return state["heroes"][i]

    def act_ko(self, state, i):
        """Hero `i` is KO'd: one KO token."""
        hero = self._hero(state, i)
        hero["ko"] += 1
        total = sum(h["ko"] for h in state["heroes"])
        line = "%s is KO'd (%s in all, team %d has %d)." % (
            hero["name"],
            plural(total, "KO token"),
            hero["team"] + 1,
            sum(h["ko"] for h in state["heroes"] if h["team"] == hero["team"]),
        )
        if total >= state["threshold"]:
            state["over"] = "%s: the heroes lose." % plural(total, "KO token")
            line += " " + state["over"]
        return line

    def act_remove_ko(self, state, i):
        """An effect takes a KO token off hero `i`."""
        hero = self._hero(state, i)
        if hero["ko"] == 0:
            raise Refused("%s has no KO token." % hero["name"])
        hero["ko"] -= 1
        return "%s loses a KO token (%d)." % (hero["name"], hero["ko"])

    def act_duel(self, state, winner):
        """A Duel with Gladiator ends: winner "gladiator" or "hero"."""
        duels(state)
        if winner == "gladiator":
            state["gladiator"] = number(state["gladiator"] + 1, 0, DUELS, "Gladiator's Duel tracker")
            return "Gladiator wins the Duel (Gladiator's tracker %d)." % state["gladiator"]
        if winner == "hero":
            state["heroes_duel"] = number(state["heroes_duel"] + 1, 0, DUELS, "The Heroes' Duel tracker")
            return "The hero wins the Duel (Heroes' tracker %d)." % state["heroes_duel"]
        raise Refused('A Duel is won by "gladiator" or "hero".')

    def act_token(self, state, kind):
        """A Terrigen Mist ("mist") or Water ("water") token is used and discarded."""
        if kind not in ("mist", "water"):
            raise Refused('Tokens are "mist" (Terrigen Mist) or "water".')
        if state[kind] == 0:
            raise Refused("No %s tokens are left." % ("Terrigen Mist" if kind == "mist" else "Water"))
        state[kind] -= 1
        return "%s token used (%d left)." % ("Terrigen Mist" if kind == "mist" else "Water", state[kind])


# -- what the box shows and asks (see core/games/__init__.py) ----------------

TRACKER = United
TITLE = "Marvel United"  # its name in full: the phones' page
KEYS = ()
WORDS = ()
# The War of Kings box's heroes, the first six seated in this order by default.
HEROES = ("Black Bolt", "Medusa", "Crystal", "Karnak", "Gorgon", "Triton", "Lockjaw")


def new_game(count, options):
    return United.setup([{"name": name, "team": 0} for name in HEROES[:count]])


def _winners(state, values):
    duels(state)  # a game without Duels says so at once, before asking who won one
    return [("Gladiator", "gladiator"), ("the hero", "hero")]


MENU = (
    ("KO token", "ko", (("Hero", HERO, None),)),
    ("Remove KO token", "remove_ko", (("Hero", HERO, None),)),
    ("Duel won by", "duel", (("Winner", PICK, _winners),)),
    ("Use a token", "token", (("Token", CHOICE, (("Terrigen Mist", "mist"), ("Water", "water"))),)),
)


def status(state, lines):
    total = 0
    for h in state["heroes"]:
        total += h["ko"]
    rows = ["KO %d/%d" % (total, state["threshold"])]
    names = short_names([h["name"] for h in state["heroes"]], 4)  # told apart: "CMar", "CAme"
    cells = ["%s %d" % (names[i], state["heroes"][i]["ko"]) for i in range(len(names))]
    if state["teams"] == 2:  # Team vs Team: each team's KO tokens, and each hero's team before their name
        ko = [sum(h["ko"] for h in state["heroes"] if h["team"] == team) for team in (0, 1)]
        rows[0] += "  T1 %d  T2 %d" % (ko[0], ko[1])
        cells = ["%d%s" % (state["heroes"][i]["team"] + 1, cells[i]) for i in range(len(cells))]
    rows.append("  ".join(cells[:3]))
    if len(cells) > 3:
        rows.append("  ".join(cells[3:]))
    if state.get("villain", "gladiator") == "gladiator":
        rows.append("Duel G%d H%d" % (state["gladiator"], state["heroes_duel"]))
    else:
        rows.append("Vulcan: no Duels")
    rows.append("Mist %d Water %d" % (state["mist"], state["water"]))
    return rows


def gauge(state, out):
    """KO tokens of every team toward the loss: an alarm."""
    value = 0
    for hero in state["heroes"]:
        value += hero["ko"]
    out[0] = value
    out[1] = state["threshold"]
    out[2] = 0
    out[3] = 1


def check(state):
    """Refused unless a loaded state (its shape already a game's: core/savefile.py) can be played."""
    number(len(state["heroes"]), 1, 8, "Heroes")
    number(state["teams"], 1, 2, "Teams")
    number(state["threshold"], 1, 99, "KO threshold")
    number(state["mist"], 0, MIST, "Terrigen Mist tokens")
    number(state["water"], 0, WATER, "Water tokens")
    # No Duels in Team vs Team (act_duel refuses them).
    vulcan = state.get("villain", "gladiator") != "gladiator"
    if vulcan and state["villain"] != "vulcan":
        raise Refused("The villain is Gladiator or Vulcan.")
    for key in ("gladiator", "heroes_duel"):
        number(state[key], 0, DUELS if state["teams"] == 1 and not vulcan else 0, "A Duel tracker")
    total = 0
    for hero in state["heroes"]:
        text(hero["name"], "A hero's name")
        number(hero["team"], 0, state["teams"] - 1, "A hero's team")
        total += number(hero["ko"], 0, state["threshold"], hero["name"] + "'s KO tokens")
    # Reaching the threshold ends the game (one KO token at a time): below it, or at it and over.
    top = state["threshold"] - (0 if state["over"] else 1)
    number(total, top if state["over"] else 0, top, "KO tokens in all")
