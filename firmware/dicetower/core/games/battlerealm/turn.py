"""The acting Battlerealm hero's dice, from the roll to the result recorded in the game.

A `Turn` drives one hero's turn of the six custom dice over a Battlerealm
tracker: roll (a roll that landed before comes back as it stood), pick dice and re-roll,
Lucky's re-roll, aim the advice at a power card, move where the hero stands
for paying cards, finalize (heroes marked at the roller's location take an
Explosion), then record the roll and what it pays, charging the Warehouse's
results the paid cards use. The ui draws it and turns presses into its
calls; it touches no hardware and draws nothing.

Each call that the rules refuse raises `Refused` or `RollRefused` and
changes nothing. Each action it records in the game is passed to `acted(name,
values, line)`, so the ui saves and reports it as any other action; `save()`
saves the game when it changed without a new action. `message` is what the last call
has to say, for the screen.
"""

from dicetower.core.games.battlerealm import cards
from dicetower.core.dice import BATTLEREALM
from dicetower.core.game import Refused, plural
from dicetower.core.games.battlerealm.tracker import letters_from_symbols

# The re-roll advisor's modules in the order they import one another (see Turn._planned); Lucky's, a
# hero with Lucky's alone (none of the built-in heroes: tests/test_heap_budget.py checks no game holds it).
ADVISOR_MODULES = (
    "dicetower.core.games.battlerealm.ranks",
    "dicetower.core.games.battlerealm.keeps",
    "dicetower.core.games.battlerealm.advisor",
)
LUCKY_MODULE = "dicetower.core.games.battlerealm.lucky"
LUCKY_MODULES = ("dicetower.core.games.battlerealm.lucky_tables", LUCKY_MODULE)


def _nothing(*args):
    pass


class Turn:
    def __init__(self, acted=None, save=None):
        self.acted = acted or _nothing
        self.save = save or _nothing  # the game changed without a new action (an undone move)
        # The game's sealed dice (ui/sealing.py's Sealing), or None: it hears of each new throw before it
        # draws and of dice given back as they landed (its record), as core/game.py's `throw` tells it.
        self.seal = None
        self.game = None
        self.heroes = ()  # the roster in play (core/games/battlerealm/roster.py): the acting hero's power cards are there
        self.message = ""
        self.roll = None
        self.outcome = None
        self.picked = 0  # dice chosen for a re-roll, as bits
        self.marked = 0  # heroes marked at the roller's location, as bits
        self.target = 0  # the advisor's aim: 0 any of the hero's cards, n the hero's n-th card to pay
        self.advice = None
        self.advised = 0  # dice the advice re-rolls (or gives Lucky's re-roll), as bits, for the ring
        self._plan = None  # the advisor's work in progress (a generator), while it lasts
        self._advisor = None  # core/games/battlerealm/advisor.py's plan, once a roll needed it (see _planned)

    # -- reading ----------------------------------------------------------------

    def acting(self):
        """The acting hero's state."""
        state = self.game.state
        return state["heroes"][state["turn"]]

    def active_name(self):
        return self.acting()["name"]

    def hero_cards(self):
        """The acting hero's power cards whose dice are known, from the roster (heroes.json)."""
        from dicetower.core.games.battlerealm.roster import cards_of

        return [c for c in cards_of(self.heroes, self.active_name()) if c.get("dice") is not None]

    def target_name(self):
        known = self.hero_cards()
        if not known:
            return "No cards"
        return "Any card" if self.target % (len(known) + 1) == 0 else known[self.target % (len(known) + 1) - 1]["name"]

    def place(self):
        """Where the acting hero stands for paying cards: in the game's state, so saves keep it."""
        return cards.LOCATIONS[self.acting()["place"]]

    def mark_items(self):
        """The heroes who can be marked as sharing the roller's location: the others still in the game."""
        heroes = self.game.state["heroes"]
        turn = self.game.state["turn"]
        return [i for i in range(len(heroes)) if i != turn and not heroes[i]["out"]]

    # -- the dice ------------------------------------------------------------------

    def start(self, dice, told=True):
        """The acting hero rolls the six dice (`dice`: the face source); returns the `Roll`. A roll that
        landed at this place before (undone, or cut off by the power) comes back as it stood: its faces,
        locks and the re-rolls it had left; only a roll at a new place draws (core/game.py). `told`:
        False to bring it back unrecorded (a game resumed: ui/sealing.py seals afresh after)."""
        if self.game.state["rolled"]:
            raise Refused("%s has rolled this turn already." % self.active_name())
        roll = self.game.new_roll(dice)
        note = self.game.landed.get(self.key())
        if isinstance(note, str) and roll.stand(note):
            if told and self.seal is not None:
                self.seal.again(BATTLEREALM, roll.faces)
            self.message = "The dice as they landed. "
        else:
            self._throwing(0)
            roll.roll()  # if the dice fail, nothing changes and the message says why
            self._land(roll)
            self.message = ""
        self.roll = roll
        self.outcome = None
        self.picked = 0
        self.message += self.prompt()
        self.advise()
        return roll

    def _throwing(self, dice):
        if self.seal is not None:
            self.seal.throw(BATTLEREALM, dice)

    def key(self):
        """Where the acting hero's roll lands in the game's `landed` (core/game.py)."""
        return self.game.landed_key(BATTLEREALM)

    def _land(self, roll=None):
        """The roll as it stands, kept with the game at its place: in the save the moment it is thrown."""
        self.game.landed[self.key()] = (roll or self.roll).standing()
        if self.seal is not None:
            self.seal.landed()

    def can_reroll(self):
        return bool(self.roll.rerolls_left or self.roll.lucky_left)

    def prompt(self):
        """What the dice screen asks for next: dice to pick while a re-roll is left, else to finalize."""
        return "Pick dice to re-roll." if self.can_reroll() else "Re-rolls used: finalize."

    def pick(self, die):
        """Pick die `die` (0-5) for a re-roll, or leave it; a locked die only with Lucky's re-roll left.
        Returns False (and says why) if it cannot be picked."""
        if self.roll.locked[die] and not self.roll.lucky_left:
            self.message = "Die %d is locked." % (die + 1)
            return False
        self.picked ^= 1 << die
        return True

    def picked_dice(self):
        return [d for d in range(len(self.roll.faces)) if self.picked & (1 << d)]

    def reroll(self):
        """Re-roll the dice picked; returns them."""
        roll = self.roll
        dice = self.picked_dice()
        self._throwing(self.picked)
        roll.reroll(dice)
        self._land()
        self.picked = 0
        self.message = "Re-rolled %s." % plural(len(dice), "die", "dice") if self.can_reroll() else self.prompt()
        self.advise()
        return dice

    def lucky(self):
        """Lucky's re-roll of the one die picked; returns it."""
        from dicetower.core.games.battlerealm.roll import RollRefused

        dice = self.picked_dice()
        if len(dice) != 1:
            raise RollRefused("Pick exactly one die for Lucky's re-roll.")
        self._throwing(self.picked)
        self.roll.lucky_reroll(dice[0])
        self._land()
        self.picked = 0
        self.message = "Lucky re-roll of die %d." % (dice[0] + 1) if self.can_reroll() else self.prompt()
        self.advise()
        return dice[0]

    def aim(self):
        """The advice's aim to the next of the hero's cards (then any card again)."""
        self.target = (self.target + 1) % (len(self.hero_cards()) + 1)
        self.advise()

    def move(self):
        """The acting hero to the next location, as a tracked move so a power cut keeps it.

        Cycling through the locations leaves one move in the history, not one per press.
        """
        game = self.game
        target = (cards.LOCATIONS.index(self.place()) + 1) % len(cards.LOCATIONS)
        if game.actions and game.actions[-1][0] == "move":
            game.take_back()
            if self.place() == cards.LOCATIONS[target]:
                self.save()
                self.message = "At: %s, as before." % cards.SHORT_NAMES[target]
                self.advise()
                return
        self._do("move", [target])
        self.advise()

    def needs_marks(self):
        """Judge the dice as they stand: True if the heroes at the roller's location must be marked
        before the roll is recorded (an Explosion, with other heroes in the game)."""
        outcome = self.roll.judged()
        self.outcome = outcome
        if outcome.explosion and len(self.game.state["heroes"]) > 1:
            self.marked = 0
            self.message = "Explosion %d: mark the heroes at your location." % outcome.explosion
            return True
        return False

    def mark(self, hero):
        """Mark hero `hero` as at the roller's location, or unmark them."""
        self.marked ^= 1 << hero

    def finalize(self):
        """End the rolling: the dice's `Outcome` (record it with `record`)."""
        outcome = self.roll.finalize()
        self.advice = None
        self._plan = None
        self.advised = 0
        return outcome

    def record(self, outcome):
        """Record the finalized roll, the Explosion's damage to the heroes marked, and the Warehouse's
        results the paid cards use. True if the game took the roll; `message` is the whole result."""
        hero = self.acting()
        # Sent to the Prison, the hero pays cards before going (the roll ends the turn), so the
        # Warehouse is paid first, and never with the last point: the roll must still be recorded.
        pvp = hero["pvp"] - 1 if outcome.prison else hero["pvp"]
        known = self.hero_cards()
        plan = cards.pay(outcome.symbols, outcome.spent, known, self.place(), pvp)
        paid = cards.describe(*plan) if known else ""
        spent = [die for _, dice, _ in plan[0] for die in dice]
        outcome.expend(spent)  # a die that paid a card does no more, here and in the game's dice left
        bought = sum(len(card[2]) for card in plan[0])
        sharing = [i for i in range(len(self.game.state["heroes"])) if self.marked & (1 << i)]
        self.marked = 0
        letters = letters_from_symbols(self.roll.symbols())
        charge = ""
        first = bought and outcome.prison
        if first:
            charge, first = self._buy(bought)
        if not self._do("roll", [letters, sharing, None, spent] if spent else [letters, sharing]):
            if first:
                self.game.undo()  # the roll was refused: nothing bought for it either
                self.save()
            return False
        if bought and not outcome.prison:
            charge = self._buy(bought)[0]
        self.message = " ".join(outcome.lines) or "Nothing happens."
        if paid:
            self.message += " " + paid
        if charge:
            self.message += " " + charge
        return True

    def _do(self, name, values):
        done, self.message = self.game.attempt(name, values)
        if done:
            self.acted(name, values, self.message)
        return done

    def _buy(self, results):
        """Charge the Warehouse's results the paid cards use: (the line or why it was refused, done)."""
        done = self._do("buy", [results])
        return self.message, done

    # -- the advice ----------------------------------------------------------------

    def advise(self):
        """Start the advisor on the current dice (core/games/battlerealm/advisor.py): `think` works it out a slice at a
        time, so the dice show at once and every press is served meanwhile. A new roll, a re-roll or
        a new aim starts again, and the stale work is dropped."""
        self.advice = None
        self.advised = 0
        self._plan = None
        known = self.hero_cards()
        if not known or self.roll is None or self.roll.finalized:
            return
        choice = self.target % (len(known) + 1)
        chosen = known if choice == 0 else [known[choice - 1]]
        roll = self.roll
        goal = cards.Goal(
            [cards.need(c["dice"]) for c in chosen], roll.abilities, roll.in_prison, self.place(), self.acting()["pvp"]
        )
        self._plan = self._planned(roll.faces, roll.locked, roll.rerolls_left, roll.lucky_left, goal)

    def _planned(self, faces, locked, rerolls_left, lucky_left, goal):
        """advisor.plan, with the advisor's import in slices of its own the first time: the roll's
        dice are on the screen before it. Its modules are imported one a slice, each importing
        only what the ones before brought in (from .mpy on a Pico the whole takes tens of ms)."""
        import sys

        if self._advisor is None:
            # Imported when first needed, not at boot: games without the custom dice keep its heap. A game
            # with a Lucky hero seated has them loaded at idle as it begins (ui/battlerealm.py's `begin`).
            for part in ADVISOR_MODULES:
                if part not in sys.modules:
                    __import__(part)
                    yield None
            from dicetower.core.games.battlerealm.advisor import plan

            self._advisor = plan
        if lucky_left:
            for part in LUCKY_MODULES:
                if part not in sys.modules:
                    __import__(part)  # each in a slice of its own, after the modules it imports
                    yield None
        yield from self._advisor(faces, locked, rerolls_left, lucky_left, goal)

    def think(self):
        """One slice of the advisor's work; True while more remains. The advice, once found, is kept."""
        work = self._plan
        if work is None:
            return False
        try:
            advice = next(work)
        except BaseException:
            self._plan = None
            raise
        if advice is None:
            return True
        self._plan = None
        self.advice = advice
        for die in advice.reroll:
            self.advised |= 1 << die
        if advice.lucky >= 0:
            self.advised |= 1 << advice.lucky
        return False

    def thinking(self):
        return self._plan is not None

    def stop_thinking(self):
        """The advice for this roll is not looked for any more (the loop's work raised)."""
        self._plan = None
