"""Battlerealm's score: PVP Points, turns, Attacks, the Crystal Prison, eliminations, and what power cards
and locations do to it (PVP spent, the Warehouse, moves, Block, Negate, Disorientate, Escape).

Heroes are numbered in turn order from 0. The acting hero is `state["turn"]`.
Rulebook lines are quoted where they decide something; gaps follow
docs/rules.md and the choices below.

- Damage within a turn from the acting hero to one target from the same
  location is one Attack, and from another location another, however many
  pieces it comes in (dice, power cards, location abilities): Tough, Elusive
  and Block, as they stood when its first point landed, come off the
  Attack's total once. An Explosion is not an Attack and nothing reduces it;
  it reaches the heroes marked at the roller's location (the Crystal Prison
  is a location of its own). A hero never damages itself.
- A Negated hero's special abilities are off until the start of the
  negating hero's next turn; a Block already in place stays (it triggered
  before).
- The hero who deals the last point gets the final blow's 3 PVP, Explosion
  included; a hero who spends their own last point gives it to nobody.
- A Survivor at 0 stays in the game, at 0, until the end of their next turn,
  unless they are in the Prison or one of the last two heroes in the game
  (then, or as soon as only two are left, they go); if they end that turn
  still at 0, the hero who hit them last gets the final blow. A Negate ends
  when the hero who made it is eliminated.
- "Remains standing" means in the game and not in the Crystal Prison; the
  game ends when one hero stands, or the moment one reaches 21 PVP.
- Each hero's "place" is where they stand for paying power cards, an index
  in `cards.LOCATIONS` (0: a location that changes no price). A hero sent to
  the Crystal Prison is there, not at a location (place 0), and cannot move.
- The Warehouse sells up to 3 results a turn in all ("spend up to 3 PVP
  points"), counted in "bought" and reset when the turn ends.
- "dice" holds the Skill and Tech the turn's roll left for damage ("For each
  Skill rolled, the Hero can do one PVP Point of damage"), after the dice that
  paid power cards ("expending those dice results"). An Attack from the dice
  spends them; one from a power or a location ability ("This can include
  damage caused by his Power Cards, dice results and location abilities")
  needs no die.
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

from dicetower.core.games.battlerealm.triples import judge
from dicetower.core.dice import BATTLEREALM, SYMBOLS
from dicetower.core.game import Game, Refused, number, plural
from dicetower.core.names import short_names
from dicetower.core.games.battlerealm import ATTACK_MOST, CHECKS, MOST, ROUNDS, WIN_PVP
from dicetower.core.scope import once
from dicetower.core.games.battlerealm.cards import LOCATIONS, WAREHOUSE, WAREHOUSE_BUYS
from dicetower.core.actions import FOE, NUMBER, OTHER, PICK, SIX_DICE

_FINAL_BLOW = const(3)
_CUNNING = const(3)
LETTERS = "MSKTCY"  # one letter per symbol, in SYMBOLS order, to keep saves small
# Where an Attack's damage comes from: the roll's Skill (same location) or Tech (another), else a power
# card or location ability from the same location (True) or another (False, a Blast).
FROM_DICE = ("Skill", "Tech")


def symbols_from_letters(letters):
    if not isinstance(letters, str) or len(letters) != 6:
        raise Refused("A roll is six dice, e.g. 'MSKTCY'.")
    out = []
    for letter in letters:
        i = LETTERS.find(letter)
        if i < 0:
            raise Refused("%r is not a die face letter (M S K T C Y)." % letter)
        out.append(SYMBOLS[i])
    return out


def letters_from_symbols(symbols):
    return "".join(LETTERS[SYMBOLS.index(s)] for s in symbols)


class Battlerealm(Game):
    KIND = "battlerealm"
    STATE_KEYS = ("heroes", "turn", "round", "rolled", "attacks", "bought", "over", "dice")
    THROWS = ("roll",)  # a hero's roll of the six dice, recorded once it is finalized
    HERO_PLACES = True  # each hero's roll at a position is their own (core/game.py)

    def dice(self):
        return (BATTLEREALM,)

    @classmethod
    def setup(cls, heroes, state=None):
        """A new game. `heroes`: 2 to 6 dicts with name, pvp (optional), abilities (core/games/battlerealm/check.py).
        `state`: the new state check.py's `new_state` made of them already (the set-up's start, which checks
        them before its form is forgotten: the press that starts the game imports check.py once), else made
        here."""
        return cls(state if state is not None else once(CHECKS, "new_state", heroes))

    # -- reading the state ------------------------------------------------

    def new_roll(self, dice):
        """The acting hero's `Roll` of the six dice, with their Lucky, Disorientated and Prison.

        When it is finalized, `do("roll", letters_from_symbols(roll.symbols()), ...)`
        records it here.
        """
        from dicetower.core.games.battlerealm.roll import Roll

        hero = self.state["heroes"][self.state["turn"]]
        abilities = hero["abilities"] if hero["negated_by"] < 0 else ()
        return Roll(dice, abilities, hero["disorientated"] == 1, hero["prison"])

    @staticmethod
    def _hero(state, i, what="hero"):
        """Hero i, who must still be in the game."""
        number(i, 0, len(state["heroes"]) - 1, what)
        hero = state["heroes"][i]
        if hero["out"]:
            raise Refused("%s is eliminated." % hero["name"])
        return hero

    @staticmethod
    def _has(state, hero, ability):
        return ability in hero["abilities"] and hero["negated_by"] < 0

    # -- changes of PVP -----------------------------------------------------

    def _gain(self, state, i, amount):
        hero = state["heroes"][i]
        hero["pvp"] += amount
        if hero["pvp"] > 0:
            hero["survivor"] = 0
        if hero["pvp"] >= WIN_PVP and not state["over"]:
            state["over"] = "%s reaches %d PVP and wins!" % (hero["name"], hero["pvp"])

    def _lose(self, state, i, amount, by):
        """Take `amount` PVP from hero i; `by` is who dealt it (-1: nobody)."""
        hero = state["heroes"][i]
        taken = min(amount, hero["pvp"])
        hero["pvp"] -= taken
        if by >= 0 and by != i and taken:
            hero["last_hit_by"] = by
        elif by < 0 and hero["pvp"] == 0:
            hero["last_hit_by"] = -1  # they spent their own last point
        if hero["pvp"] == 0 and not hero["out"] and not hero["survivor"]:
            in_game = sum(1 for h in state["heroes"] if not h["out"])
            if self._has(state, hero, "Survivor") and not hero["prison"] and in_game > 2:
                # Removed at the end of their next turn: if this is their own
                # turn, that is the end of the turn after it.
                hero["survivor"] = 2 if i == state["turn"] else 1
            else:
                self._eliminate(state, i, by)
        return taken

    def _eliminate(self, state, i, by):
        heroes = state["heroes"]
        hero = heroes[i]
        hero["out"] = 1
        hero["survivor"] = 0
        for h in heroes:
            if h["negated_by"] == i:
                h["negated_by"] = -1  # a Negate ends with the hero who made it
        notes = ["%s is eliminated" % hero["name"]]
        if 0 <= by != i and not heroes[by]["out"]:
            notes.append("final blow +%d to %s" % (_FINAL_BLOW, heroes[by]["name"]))
            self._gain(state, by, _FINAL_BLOW)
        for j in range(len(heroes)):
            if j != i and not heroes[j]["out"] and self._has(state, heroes[j], "Cunning"):
                notes.append("Cunning +%d to %s" % (_CUNNING, heroes[j]["name"]))
                self._gain(state, j, _CUNNING)
        state.setdefault("notes", []).append(", ".join(notes) + ".")
        # A Survivor waiting at 0 goes now if only two heroes are left.
        if sum(1 for h in heroes if not h["out"]) <= 2:
            for j in range(len(heroes)):
                if heroes[j]["survivor"] and heroes[j]["pvp"] == 0 and not heroes[j]["out"]:
                    self._eliminate(state, j, heroes[j]["last_hit_by"])
        self._check_standing(state)

    def _check_standing(self, state):
        if state["over"]:
            return
        standing = [h for h in state["heroes"] if not h["out"] and not h["prison"]]
        if len(standing) == 1:
            state["over"] = "%s is the last hero standing and wins!" % standing[0]["name"]

    def _line(self, state, line):
        notes = state.pop("notes", None)
        if notes:
            line += " " + " ".join(notes)
        if state["over"]:
            line += " " + state["over"]
        return line

    # -- actions -------------------------------------------------------------

    def act_roll(self, state, letters, sharing=None, escape_with=None, paid=None):
        """The acting hero's finalized dice (letters M S K T C Y).

        `sharing`: the heroes at the roller's location, who take an Explosion. `paid`: the dice
        (indices) that paid power cards, left for no dice action.
        Applies Mystic, Gifted and Peaceful PVP; entering the Prison ends the turn.
        """
        i = state["turn"]
        hero = state["heroes"][i]
        if state["rolled"]:
            raise Refused("%s has already rolled this turn." % hero["name"])
        symbols = symbols_from_letters(letters)
        sharing = self._heroes_list(state, sharing or [], i)
        abilities = hero["abilities"] if hero["negated_by"] < 0 else ()
        try:
            outcome = judge(symbols, abilities, hero["prison"], escape_with)
            if paid:
                outcome.expend(self._paid(paid))
        except ValueError as e:
            raise Refused(str(e))
        state["rolled"] = 1
        state["dice"] = [0, 0] if outcome.held else [outcome.skill, outcome.tech]
        parts = ["%s rolls %s." % (hero["name"], " ".join(symbols))]
        if outcome.escaped:
            hero["prison"] = 0
            parts.append("Escapes the Crystal Prison.")
        if outcome.explosion:
            hit = []
            for j in sharing:
                taken = self._lose(state, j, outcome.explosion, i)
                hit.append("%s -%d" % (state["heroes"][j]["name"], taken))
            parts.append("Explosion %d: %s." % (outcome.explosion, ", ".join(hit) if hit else "nobody else here"))
        if outcome.pvp:
            self._gain(state, i, outcome.pvp)
            parts.append("+%d PVP." % outcome.pvp)
        if outcome.prison and not state["over"]:
            # "As soon as a Hero enters the Crystal Prison, their turn is over."
            hero["prison"] = 1
            hero["place"] = 0  # the Crystal Prison is a location of its own
            parts.append("To the Crystal Prison; the turn ends.")
            self._check_standing(state)
            self._finish_turn(state)
        return self._line(state, " ".join(parts))

    @staticmethod
    def _paid(paid):
        if not isinstance(paid, list) or len(paid) > 6:
            raise Refused("The dice that paid cards are a list of up to six.")
        for die in paid:
            number(die, 0, 5, "A die that paid a card")
        return paid

    def _heroes_list(self, state, heroes, roller):
        if not isinstance(heroes, list):
            raise Refused("Mark the heroes sharing the location as a list.")
        seen = []
        for j in heroes:
            hero = self._hero(state, j)
            if j == roller:
                raise Refused("A hero can never cause damage to themself.")
            if hero["prison"] != state["heroes"][roller]["prison"]:
                raise Refused(
                    "%s is not at your location (the Crystal Prison is a location of its own)." % hero["name"]
                )
            if j in seen:
                raise Refused("%s is marked twice." % hero["name"])
            seen.append(j)
        return seen

    def act_attack(self, state, target, amount, source):
        """Damage by the acting hero to `target`, as part of one Attack. `source`: "Skill" or "Tech",
        the roll's dice (one point each, spent); True or False, a power from the same or another
        location."""
        i = state["turn"]
        attacker = state["heroes"][i]
        victim = self._hero(state, target, "target")
        number(amount, 1, 99, "Damage")
        if target == i:
            raise Refused("A hero can never cause damage to themself.")
        if attacker["prison"] or victim["prison"]:
            raise Refused("Heroes in the Crystal Prison cannot Attack or be Attacked.")
        if source in FROM_DICE:
            kind = FROM_DICE.index(source)
            left = state["dice"][kind]
            if amount > left:
                raise Refused(
                    "%s left from this turn's roll: %d. An Attack by a power needs no die (From: power)."
                    % (source, left)
                )
            state["dice"][kind] = left - amount
            same = 1 - kind  # Skill reaches the same location, Tech another
        elif source is True or source is False:
            same = 1 if source else 0
        else:
            raise Refused("An Attack comes from Skill, Tech or a power.")
        record = None
        for a in state["attacks"]:
            if a[0] == target and a[1] == same:
                record = a
        if record is None:
            # The Attack's reductions are fixed when its first point lands: a
            # Negate or Block that comes later does not undo what triggered.
            tough = 1 if same and self._has(state, victim, "Tough") else 0
            elusive = 1 if not same and self._has(state, victim, "Elusive") else 0
            record = [target, same, 0, 0, tough, elusive, victim["block"]]  # raw damage, dealt, reductions
            state["attacks"].append(record)
        record[2] = number(record[2] + amount, 1, ATTACK_MOST, "An Attack's damage this turn")
        owed = max(0, record[2] - record[4] - record[5] - record[6])
        dealt = self._lose(state, target, owed - record[3], i) if owed > record[3] else 0
        record[3] = max(record[3], owed)
        reductions = []
        for label, n in (("Tough", record[4]), ("Elusive", record[5]), ("Block", record[6])):
            if n:
                reductions.append("%s -%d" % (label, n))
        why = "Attack by %s" % attacker["name"]
        if reductions:
            why += ", " + ", ".join(reductions)
        return self._line(state, "%s -%d PVP (%s)." % (victim["name"], dealt, why))

    def act_effect(self, state, target, amount):
        """Damage that is not an Attack (an effect), caused by the acting hero."""
        i = state["turn"]
        victim = self._hero(state, target, "target")
        number(amount, 1, 99, "Damage")
        if target == i:
            raise Refused("A hero can never cause damage to themself.")
        taken = self._lose(state, target, amount, i)
        return self._line(state, "%s -%d PVP (effect by %s)." % (victim["name"], taken, state["heroes"][i]["name"]))

    def act_land(self, state, pvp):
        """The acting hero lands on a location worth 0-3 PVP."""
        i = state["turn"]
        number(pvp, 0, 3, "A location's PVP")
        hero = state["heroes"][i]
        if hero["prison"]:
            raise Refused("%s is in the Crystal Prison." % hero["name"])
        self._gain(state, i, pvp)
        return self._line(state, "%s lands: +%d PVP." % (hero["name"], pvp))

    def act_gain(self, state, target, amount):
        """PVP from a power card or another effect."""
        hero = self._hero(state, target)
        number(amount, 1, MOST, "PVP")
        self._gain(state, target, amount)
        return self._line(state, "%s +%d PVP." % (hero["name"], amount))

    def act_end_turn(self, state):
        """End the acting hero's turn; the next hero in the game acts."""
        line = "%s ends the turn." % state["heroes"][state["turn"]]["name"]
        self._finish_turn(state)
        return self._line(state, line)

    def _finish_turn(self, state):
        heroes = state["heroes"]
        ending = state["turn"]
        hero = heroes[ending]
        if hero["disorientated"]:
            hero["disorientated"] -= 1  # it lasts "during their next turn"
        if hero["survivor"]:
            hero["survivor"] -= 1
            if hero["survivor"] == 0 and hero["pvp"] == 0:
                self._eliminate(state, ending, hero["last_hit_by"])
        if state["over"]:
            return
        i = ending
        for _ in range(len(heroes)):
            i = (i + 1) % len(heroes)
            if not heroes[i]["out"]:
                break
        if i <= ending:
            state["round"] = number(state["round"] + 1, 1, ROUNDS, "Round")
        state["turn"] = i
        state["rolled"] = 0
        state["attacks"] = []
        state["bought"] = 0
        state["dice"] = [0, 0]
        heroes[i]["block"] = 0  # "until the start of their next turn"
        for h in heroes:
            if h["negated_by"] == i:
                h["negated_by"] = -1

    # -- power cards and locations ------------------------------------------

    def act_spend(self, state, amount):
        """The acting hero spends PVP (a power's cost)."""
        hero = self._pay_pvp(state, number(amount, 1, 99, "PVP to spend"))
        return self._line(state, "%s spends %d PVP." % (hero["name"], amount))

    def _pay_pvp(self, state, amount):
        """The acting hero pays `amount` PVP; spending the last point can eliminate them."""
        i = state["turn"]
        hero = state["heroes"][i]
        if amount > hero["pvp"]:
            raise Refused("%s has only %d PVP." % (hero["name"], hero["pvp"]))
        self._lose(state, i, amount, -1)
        if hero["out"]:
            self._finish_turn(state)
        return hero

    def act_move(self, state, place):
        """The acting hero stands at location `place` (an index in cards.LOCATIONS) to pay cards."""
        hero = state["heroes"][state["turn"]]
        number(place, 0, len(LOCATIONS) - 1, "A location")
        if hero["prison"]:
            raise Refused("%s is in the Crystal Prison and cannot move." % hero["name"])
        if place == hero["place"]:
            raise Refused("%s is at %s already." % (hero["name"], LOCATIONS[place]))
        hero["place"] = place
        if place == 0:
            return "%s moves elsewhere." % hero["name"]
        return "%s moves to %s." % (hero["name"], LOCATIONS[place])

    def act_buy(self, state, results):
        """The acting hero buys dice results at the Collector's Cosmic Warehouse, 1 PVP each.

        Rulebook: "Heroes at the Collector's Cosmic Warehouse may spend up to
        3 PVP points to gain additional dice results of their choosing."
        """
        hero = state["heroes"][state["turn"]]
        number(results, 1, WAREHOUSE_BUYS, "Results to buy")
        if hero["prison"] or LOCATIONS[hero["place"]] != WAREHOUSE:
            raise Refused("%s is not at the %s." % (hero["name"], WAREHOUSE))
        if state["bought"] + results > WAREHOUSE_BUYS:
            raise Refused(
                "The Warehouse sells up to %d results a turn; %s has bought %d."
                % (WAREHOUSE_BUYS, hero["name"], state["bought"])
            )
        state["bought"] += results  # before paying: a last point spent ends the turn, which resets it
        self._pay_pvp(state, results)
        return self._line(
            state, "%s buys %s at the Warehouse: -%d PVP." % (hero["name"], plural(results, "result"), results)
        )

    def act_block(self, state, target, amount):
        """`target` takes `amount` off each Attack until the start of their next turn."""
        hero = self._hero(state, target)
        number(amount, 1, 9, "Block")
        hero["block"] = amount
        return "%s Blocks %d until their next turn." % (hero["name"], amount)

    def act_negate(self, state, target):
        """The acting hero Negates `target`'s powers until the acting hero's next turn."""
        i = state["turn"]
        hero = self._hero(state, target)
        if target == i:
            raise Refused("Negate another hero.")
        hero["negated_by"] = i
        return "%s Negates %s." % (state["heroes"][i]["name"], hero["name"])

    def act_disorientate(self, state, target):
        """`target` has one re-roll, not two, on their next turn."""
        hero = self._hero(state, target)
        # Counted in the hero's turn ends: their next turn is the one it affects.
        hero["disorientated"] = 2 if target == state["turn"] else 1
        return "%s is Disorientated." % hero["name"]

    def act_escape(self, state):
        """The acting hero uses an Escape power to leave the Crystal Prison."""
        hero = state["heroes"][state["turn"]]
        if not hero["prison"]:
            raise Refused("%s is not in the Crystal Prison." % hero["name"])
        hero["prison"] = 0
        return "%s Escapes the Crystal Prison." % hero["name"]


# -- what the box shows and asks (see core/games/__init__.py) ----------------

TRACKER = Battlerealm
TITLE = "Battlerealm"  # its name in full: the phones' page
KEYS = ()
WORDS = ()


def scoreboard(state, doc):
    """The phones' page's map of the locations (their short names) and the PVP that wins."""
    from dicetower.core.games.battlerealm.cards import SHORT_NAMES

    doc["places"] = SHORT_NAMES
    doc["goal"] = WIN_PVP


def new_game(count, options):
    from dicetower.core.games.battlerealm.roster import heroes

    return Battlerealm.setup([dict(h) for h in heroes(options)[:count]])


def _sources(state, values):
    """An Attack's sources, the dice this turn's roll left first ("Skill (2 left)"), then a power from
    the same location or another (a Blast): a picker's lines."""
    out = []
    for kind in range(2):
        if state["dice"][kind]:
            out.append(("%s (%d left)" % (FROM_DICE[kind], state["dice"][kind]), FROM_DICE[kind]))
    out.append(("power, same loc", True))
    out.append(("Blast (power)", False))
    return out


MENU = (
    ("Roll the dice", "roll", (("Dice", SIX_DICE, None),)),
    ("Attack", "attack", (("Target", FOE, None), ("Damage", NUMBER, (1, 12)), ("From", PICK, _sources))),
    ("Land on location", "land", (("Location PVP", NUMBER, (0, 3)),)),
    ("Effect damage", "effect", (("Target", FOE, None), ("Damage", NUMBER, (1, 12)))),
    ("Gain PVP", "gain", (("Hero", OTHER, None), ("PVP", NUMBER, (1, 12)))),
    ("Spend PVP", "spend", (("PVP", NUMBER, (1, 12)),)),
    ("Block", "block", (("Hero", OTHER, None), ("Block", NUMBER, (1, 5)))),
    ("Negate", "negate", (("Target", FOE, None),)),
    ("Disorientate", "disorientate", (("Target", OTHER, None),)),
    ("Escape", "escape", ()),
    ("End turn", "end_turn", ()),
    # Results bought for anything but a power card (the dice screen charges a card's purchase itself).
    ("Buy Warehouse results", "buy", (("Results", NUMBER, (1, 3)),)),
)


def status(state, lines):
    heroes = state["heroes"]
    rows = ["R%d %s's turn" % (state["round"], heroes[state["turn"]]["name"])]
    cells = []
    names = short_names([h["name"] for h in heroes], 8)
    for i, h in enumerate(heroes):
        mark = "x" if h["out"] else ("P" if h["prison"] else ("*" if i == state["turn"] else " "))
        cells.append("%s%-8s%3d" % (mark, names[i], h["pvp"]))  # two a line, PVP right-aligned
    for i in range(0, len(cells), 2):
        rows.append(" ".join(cells[i : i + 2]))
    return rows


def gauge(state, out):
    """The acting hero's PVP toward the win."""
    out[0] = state["heroes"][state["turn"]]["pvp"]
    out[1] = WIN_PVP
    out[2] = 0
    out[3] = 0


def migrate(schema, body):
    """A save's body from `schema` to the next (core/games/battlerealm/check.py)."""
    return once(CHECKS, "migrate", schema, body)


def check(state):
    """Refused unless a loaded state can be played (core/games/battlerealm/check.py)."""
    once(CHECKS, "check", state)
