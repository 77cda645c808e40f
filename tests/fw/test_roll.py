"""A Battlerealm turn of dice, rule by rule. Runs on CPython and the MicroPython VM.

Each test that enforces a rulebook line quotes it in its docstring after
`Rulebook: "`; tests/test_rule_quotes.py checks that every quote is really in
the rulebook.
"""

import unittest

from sources import Pattern

from dicetower.core.entropy import EntropyFailure, FairDice
from dicetower.core.games.battlerealm.roll import Roll, RollRefused
from dicetower.core.replay import ScriptedFaces, SeededSource

M, S, K, T, C, Y = "Mutant", "Science", "Skill", "Tech", "Cosmic", "Mystic"


def scripted(*faces, **hero):
    return Roll(ScriptedFaces(faces), **hero)


def rolled(*faces, **hero):
    roll = scripted(*faces, **hero)
    roll.roll()
    return roll


class FirstRoll(unittest.TestCase):
    def test_rolls_six_dice(self):
        """Rulebook: "The acting player rolls the six custom dice and checks the dice results." """
        roll = rolled(K, T, C, Y, K, T)
        self.assertEqual(roll.symbols(), (K, T, C, Y, K, T))
        self.assertEqual(roll.rerolls_left, 2)

    def test_cannot_roll_twice(self):
        roll = rolled(K, T, C, Y, K, T)
        with self.assertRaises(RollRefused):
            roll.roll()

    def test_mutant_and_science_lock_when_they_show(self):
        """Rulebook: "When a Mutant is rolled, that individual die is locked and cannot be re-rolled that turn." """
        roll = rolled(M, S, K, T, C, Y)
        self.assertEqual(list(roll.locked), [1, 1, 0, 0, 0, 0])

    def test_science_locks(self):
        """Rulebook: "When a Science is rolled, that individual die is locked and cannot be re-rolled that turn." """
        roll = rolled(K, K, S, K, K, K)
        self.assertEqual(roll.locked[2], 1)
        with self.assertRaises(RollRefused):
            roll.reroll([2])

    def test_seeded_dice_roll_real_faces(self):
        roll = Roll(FairDice(SeededSource(7)))
        roll.roll()
        for face in roll.symbols():
            self.assertIn(face, (M, S, K, T, C, Y))
        for die in range(6):
            self.assertEqual(roll.locked[die], 1 if roll.symbols()[die] in (M, S) else 0)


class Judged(unittest.TestCase):
    def test_the_dice_judged_before_a_reroll_are_judged_again_after_it(self):
        # The app judges the dice before finalizing (to ask who stands in an Explosion); the judgement is
        # kept for the finalize, but never across a die that changed.
        roll = rolled(M, M, K, K, K, K, M)  # then a Mutant for the re-rolled die
        self.assertEqual(roll.judged().prison, False)
        roll.reroll([2])
        self.assertEqual(roll.symbols(), (M, M, M, K, K, K))
        self.assertTrue(roll.judged().prison)  # three Mutants: the Crystal Prison
        outcome = roll.finalize()
        self.assertTrue(outcome.prison)
        self.assertIs(outcome, roll.judged())


class Rerolls(unittest.TestCase):
    def test_two_rerolls_of_any_unlocked_dice(self):
        """Rulebook: "The player may choose to re-roll any or all of the six dice up to two times." """
        roll = rolled(K, T, C, Y, K, T, Y, Y, Y, Y, Y, Y, C, C, C, C, C, C)
        roll.reroll([0, 1, 2, 3, 4, 5])
        self.assertEqual(roll.symbols(), (Y, Y, Y, Y, Y, Y))
        roll.reroll([0, 1, 2, 3, 4, 5])
        self.assertEqual(roll.symbols(), (C, C, C, C, C, C))
        self.assertEqual(roll.rerolls_left, 0)

    def test_third_reroll_refused_and_nothing_changes(self):
        roll = rolled(K, T, C, Y, K, T, Y, Y)
        roll.reroll([0])
        roll.reroll([1])
        before = roll.symbols()
        with self.assertRaises(RollRefused) as caught:
            roll.reroll([2])
        self.assertIn("No re-rolls left", str(caught.exception))
        self.assertEqual(roll.symbols(), before)

    def test_only_chosen_dice_change(self):
        roll = rolled(K, T, C, Y, K, T, M, S)
        roll.reroll([1, 4])
        self.assertEqual(roll.symbols(), (K, M, C, Y, S, T))

    def test_dice_locked_by_a_reroll_stay_locked(self):
        """Rulebook: "Only the Mutant and Science results that have been locked cannot be re-rolled." """
        roll = rolled(K, T, C, Y, K, T, M)
        roll.reroll([0])
        self.assertEqual(roll.locked[0], 1)
        with self.assertRaises(RollRefused) as caught:
            roll.reroll([0, 1])
        self.assertIn("locked", str(caught.exception))
        self.assertEqual(roll.rerolls_left, 1)

    def test_illegal_requests_are_refused_and_change_nothing(self):
        roll = rolled(M, K, T, C, Y, K)
        for bad in ([], [6], [-1], [1, 1], ["1"], [0], [True], 3, None):
            with self.subTest(bad=bad):
                with self.assertRaises(RollRefused):
                    roll.reroll(bad)
                self.assertEqual(roll.symbols(), (M, K, T, C, Y, K))
                self.assertEqual(roll.rerolls_left, 2)

    def test_refusals_number_dice_as_the_box_does(self):
        roll = rolled(M, K, T, C, Y, K)
        with self.assertRaises(RollRefused) as caught:
            roll.reroll([6])
        self.assertEqual(str(caught.exception), "There is no die 7; dice are numbered 1 to 6.")
        with self.assertRaises(RollRefused) as caught:
            roll.reroll([0])
        self.assertEqual(str(caught.exception), "Die 1 is locked (Mutant) for the rest of the turn.")
        with self.assertRaises(RollRefused) as caught:
            roll.reroll([2, 2])
        self.assertEqual(str(caught.exception), "Die 3 is chosen twice.")

    def test_reroll_before_roll_refused(self):
        roll = scripted(K)
        with self.assertRaises(RollRefused) as caught:
            roll.reroll([0])
        self.assertIn("Roll the dice first", str(caught.exception))

    def test_reroll_after_finalize_refused(self):
        roll = rolled(K, T, C, Y, K, T)
        roll.finalize()
        with self.assertRaises(RollRefused):
            roll.reroll([0])
        with self.assertRaises(RollRefused):
            roll.finalize()

    def test_disorientated_has_one_reroll(self):
        """Rulebook: "A Disorientated Hero only has one re-roll, instead of two, during their next turn." """
        roll = rolled(K, T, C, Y, K, T, Y, disorientated=True)
        self.assertEqual(roll.rerolls_left, 1)
        roll.reroll([0])
        with self.assertRaises(RollRefused) as caught:
            roll.reroll([1])
        self.assertIn("Disorientated", str(caught.exception))


class Lucky(unittest.TestCase):
    def test_lucky_rerolls_a_locked_die_once(self):
        """Rulebook: "The Hero may re-roll any single die result one additional time each turn, including both Mutant and Science results" """
        roll = rolled(M, M, M, K, T, C, Y, abilities=("Lucky",))
        roll.lucky_reroll(0)
        self.assertEqual(roll.symbols()[0], Y)
        self.assertEqual(roll.rerolls_left, 2)
        with self.assertRaises(RollRefused) as caught:
            roll.lucky_reroll(1)
        self.assertIn("used", str(caught.exception))

    def test_lucky_saves_a_hero_from_three_mutant(self):
        """Rulebook: "even if there were already three of them rolled." """
        roll = rolled(M, M, M, K, T, C, K, abilities=("Lucky",))
        roll.lucky_reroll(2)
        outcome = roll.finalize()
        self.assertFalse(outcome.prison)

    def test_lucky_after_both_rerolls(self):
        roll = rolled(K, T, C, Y, K, T, Y, Y, S, abilities=("Lucky",))
        roll.reroll([0])
        roll.reroll([1])
        roll.lucky_reroll(2)
        self.assertEqual(roll.symbols()[2], S)
        self.assertEqual(roll.locked[2], 1)

    def test_a_locked_die_stays_locked_after_lucky(self):
        roll = rolled(M, K, T, C, Y, K, Y, abilities=("Lucky",))
        roll.lucky_reroll(0)
        self.assertEqual(roll.symbols()[0], Y)
        with self.assertRaises(RollRefused):
            roll.reroll([0])

    def test_locked_refusal_points_to_lucky(self):
        roll = rolled(M, K, T, C, Y, K, abilities=("Lucky",))
        with self.assertRaises(RollRefused) as caught:
            roll.reroll([0])
        self.assertIn("Lucky", str(caught.exception))

    def test_without_lucky_refused(self):
        roll = rolled(M, K, T, C, Y, K)
        with self.assertRaises(RollRefused):
            roll.lucky_reroll(0)
        self.assertEqual(roll.symbols()[0], M)

    def test_lucky_die_out_of_range(self):
        roll = rolled(M, K, T, C, Y, K, abilities=("Lucky",))
        with self.assertRaises(RollRefused):
            roll.lucky_reroll(6)
        self.assertEqual(roll.lucky_left, 1)

    def test_unknown_ability_refused(self):
        with self.assertRaises(ValueError):
            Roll(ScriptedFaces([]), abilities=("Lucy",))


class EntropyFailures(unittest.TestCase):
    def test_script_running_out_changes_nothing(self):
        roll = rolled(K, T, C, Y, K, T, M)
        with self.assertRaises(EntropyFailure):
            roll.reroll([0, 1])
        self.assertEqual(roll.symbols(), (K, T, C, Y, K, T))
        self.assertEqual(roll.rerolls_left, 2)

    def test_stuck_source_refuses_to_roll(self):
        dice = FairDice(Pattern(b"\x55", name="stuck"))
        self.assertIn("repetition count", dice.failure)
        roll = Roll(dice)
        with self.assertRaises(EntropyFailure) as caught:
            roll.roll()
        self.assertIn("stuck", str(caught.exception))
        self.assertFalse(roll.rolled)


if __name__ == "__main__":
    unittest.main()
