"""One Battlerealm turn of the six custom dice: roll, re-roll, finalize.

Rulebook: "The acting player rolls the six custom dice and checks the dice
results. The player may choose to re-roll any or all of the six dice up to
two times. Only the Mutant and Science results that have been locked cannot
be re-rolled."

A `Roll` holds the faces (indices into `BATTLEREALM.faces`), which dice are
`locked`, the re-rolls left and whether Lucky's extra re-roll is left. A
request the rules forbid raises `RollRefused` with the reason and changes
nothing; so does a failed entropy source (`EntropyFailure`), because every
face of a request is drawn before any die changes.

Rules choices (docs/rules.md, "Locks and re-rolls"): a die that shows Mutant or
Science after any roll is locked for the rest of the turn, even if Lucky
re-rolls it to another face. Lucky's re-roll is one die, once per turn, at
any time before finalizing, locked or not, and uses no regular re-roll.
Disorientated leaves one re-roll instead of two.

Rolling and re-rolling allocate nothing on the heap (see
benchmarks/vm_memory.py).
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

from dicetower.core.games.battlerealm.triples import check_abilities, judge
from dicetower.core.dice import BATTLEREALM, DICE, MUTANT, SCIENCE
from dicetower.core.game import Refused

_REROLLS = const(2)
_MUTANT = BATTLEREALM.index(MUTANT)
_SCIENCE = BATTLEREALM.index(SCIENCE)


class RollRefused(Refused):
    """A request the dice's rules do not allow; `str(e)` says why, for the screen. A `Refused`, so the
    screens that catch refusals need not load this module."""


def _check_die(die):
    # Dice are 0-5 in code and 1-6 on the box, so the message shows die + 1.
    if not isinstance(die, int) or isinstance(die, bool):
        raise RollRefused("Choose dice by number, 1 to 6.")
    if not 0 <= die < DICE:
        raise RollRefused("There is no die %d; dice are numbered 1 to 6." % (die + 1))


class Roll:
    """Six Battlerealm dice through one turn of one hero.

    dice           a face source: `FairDice` on a device, `ScriptedFaces` in tests
    abilities      the hero's special abilities (names from ABILITIES)
    disorientated  the hero is Disorientated this turn: one re-roll, not two
    in_prison      the hero starts the turn in the Crystal Prison
    """

    def __init__(self, dice, abilities=(), disorientated=False, in_prison=False):
        self.dice = dice
        self.abilities = check_abilities(abilities)
        self.disorientated = bool(disorientated)
        self.in_prison = bool(in_prison)
        self.faces = bytearray(DICE)
        self.locked = bytearray(DICE)
        self.rolled = False
        self.finalized = False
        self.rerolls_left = 1 if self.disorientated else _REROLLS
        self.lucky_left = 1 if "Lucky" in self.abilities else 0
        self.outcome = None
        self._judged = None  # (escape_with, Outcome) of the dice as they stand (see judged)
        self._drawn = bytearray(DICE)

    def symbols(self):
        """The faces by name, e.g. ('Mutant', 'Skill', ...)."""
        return tuple(BATTLEREALM.faces[f] for f in self.faces)

    def _draw(self, count):
        # Draw every face first: if the source fails, no die has changed.
        for i in range(count):
            self._drawn[i] = self.dice.draw(BATTLEREALM)

    def _set(self, die, face):
        self.faces[die] = face
        self._judged = None
        if face == _MUTANT or face == _SCIENCE:
            self.locked[die] = 1

    def _check_open(self):
        if not self.rolled:
            raise RollRefused("Roll the dice first.")
        if self.finalized:
            raise RollRefused("The dice are finalized; no more rolling this turn.")

    def roll(self):
        """The first roll of all six dice."""
        if self.rolled:
            raise RollRefused("The dice are already rolled; re-roll or finalize.")
        self._draw(DICE)
        for die in range(DICE):
            self._set(die, self._drawn[die])
        self.rolled = True

    def reroll(self, dice):
        """Re-roll the dice at the given indices (0-5), using one re-roll."""
        self._check_open()
        if self.rerolls_left == 0:
            if self.disorientated:
                raise RollRefused("No re-rolls left: Disorientated heroes have one re-roll this turn.")
            raise RollRefused("No re-rolls left: two re-rolls per turn.")
        chosen = 0
        count = 0
        try:
            for die in dice:
                _check_die(die)
                if chosen & (1 << die):
                    raise RollRefused("Die %d is chosen twice." % (die + 1))
                if self.locked[die]:
                    face = BATTLEREALM.faces[self.faces[die]]
                    if self.lucky_left:
                        raise RollRefused("Die %d is locked (%s); use Lucky's re-roll for it." % (die + 1, face))
                    raise RollRefused("Die %d is locked (%s) for the rest of the turn." % (die + 1, face))
                chosen |= 1 << die
                count += 1
        except TypeError:  # not a list of dice (iter() would cost a heap object)
            raise RollRefused("Choose the dice to re-roll as a list of numbers.")
        if count == 0:
            raise RollRefused("Choose at least one die to re-roll.")
        self._draw(count)
        n = 0
        for die in range(DICE):
            if chosen & (1 << die):
                self._set(die, self._drawn[n])
                n += 1
        self.rerolls_left -= 1

    def lucky_reroll(self, die):
        """Lucky: re-roll one die, locked or not, once this turn."""
        self._check_open()
        if "Lucky" not in self.abilities:
            raise RollRefused("Only a Lucky hero has the extra single-die re-roll.")
        if not self.lucky_left:
            raise RollRefused("Lucky's re-roll is used for this turn.")
        _check_die(die)
        self._draw(1)
        self._set(die, self._drawn[0])
        self.lucky_left = 0

    def standing(self):
        """The roll as it stands, as a game keeps what landed (core/game.py): its faces, its locks as bits,
        the re-rolls and Lucky left. "014253 3 1 0"."""
        locks = 0
        for die in range(DICE):
            locks |= self.locked[die] << die
        faces = "".join([chr(48 + f) for f in self.faces])
        return "%s %d %d %d" % (faces, locks, self.rerolls_left, self.lucky_left)

    def stand(self, note):
        """The roll as `standing` wrote it, rolled: True, or False (nothing changed) if the note is not
        one this hero's roll can stand as (a damaged save: the roll is thrown anew)."""
        parts = note.split()
        if len(parts) != 4 or len(parts[0]) != DICE or self.rolled:
            return False
        try:
            faces = [int(c) for c in parts[0]]
            locks, rerolls, lucky = int(parts[1]), int(parts[2]), int(parts[3])
        except ValueError:
            return False
        if max(faces) >= len(BATTLEREALM.faces) or min(faces) < 0 or not 0 <= locks < 1 << DICE:
            return False
        if not 0 <= rerolls <= self.rerolls_left or not 0 <= lucky <= self.lucky_left:
            return False
        for die in range(DICE):
            self.faces[die] = faces[die]
            self.locked[die] = locks >> die & 1
        self.rerolls_left, self.lucky_left = rerolls, lucky
        self.rolled = True
        self._judged = None
        return True

    def judged(self, escape_with=None):
        """The `Outcome` the dice would have if finalized now; the rolling goes on. Kept until a die
        changes, so a finalize after it does not judge the dice again (2 ms on a Pico)."""
        if self._judged is None or self._judged[0] != escape_with:
            try:
                self._judged = (escape_with, judge(self.symbols(), self.abilities, self.in_prison, escape_with))
            except ValueError as e:
                raise RollRefused(str(e))
        return self._judged[1]

    def finalize(self, escape_with=None):
        """End the rolling; judge the dice. Returns the `Outcome`."""
        self._check_open()
        outcome = self.judged(escape_with)
        self.finalized = True
        self.outcome = outcome
        return outcome
