"""The re-roll advisor: the keep it gives, its exact chance and the Prison/Explosion risk. CPython and the VM.

The host test tests/test_advisor_bruteforce.py checks thousands of positions
against a brute-force enumerator; these are positions a player can check by hand.
"""

import unittest

from dicetower.core import advisor, cards
from dicetower.core.dice import SYMBOLS

M, S, K, T, C, Y = range(6)
STEALTH = [cards.need(["Mutant", "Cosmic"])]
VISION = [cards.need(["Mutant", "Mutant", "Mystic"])]
THUNDERCLAP = [cards.need(["Mutant", "Science", "Skill", "Skill"])]


def advise(faces, rerolls, needs, lucky=0, location=cards.ELSEWHERE, abilities=(), locked=None):
    faces = bytearray(faces)
    if locked is None:
        locked = bytearray(1 if f in (M, S) else 0 for f in faces)
    return advisor.advise(faces, locked, rerolls, lucky, cards.Goal(needs, abilities, False, location, 3))


def fraction_equal(test, got, num, den):
    test.assertEqual(got[0] * den, num * got[1], "%d/%d is not %d/%d" % (got + (num, den)))


class Advice(unittest.TestCase):
    def test_dice_that_already_pay_are_kept(self):
        advice = advise([M, C, K, K, T, Y], 2, STEALTH)
        self.assertEqual((advice.reroll, advice.lucky, advice.percent()), ([], -1, 100))

    def test_no_reroll_left_nothing_to_gain(self):
        advice = advise([M, K, K, T, T, Y], 0, STEALTH)
        self.assertEqual((advice.reroll, advice.percent()), ([], 0))

    def test_one_reroll_for_a_cosmic_rerolls_every_free_die(self):
        """Rulebook: "Only the Mutant and Science results that have been locked cannot be re-rolled." """
        advice = advise([K, M, K, T, T, Y], 1, STEALTH)
        self.assertEqual(advice.reroll, [0, 2, 3, 4, 5])  # die 2, the Mutant, is locked
        # Paid: at least one Cosmic among five dice, and at most one more Mutant (three go to the Prison).
        pays = 0
        for throw in range(6 ** 5):
            faces = [throw // 6 ** i % 6 for i in range(5)]
            if C in faces and faces.count(M) < 2:
                pays += 1
        fraction_equal(self, advice.chance(), pays, 6 ** 5)

    def test_the_risk_is_the_chance_of_the_prison_or_an_explosion(self):
        # Two Mutant and two Science locked: re-rolling two dice for the Skill and Skill that
        # Thunderclap needs risks a third Mutant or a third Science.
        advice = advise([M, M, S, S, T, C], 1, THUNDERCLAP)
        self.assertEqual(advice.reroll, [4, 5])
        fraction_equal(self, advice.chance(), 1, 36)  # Skill and Skill
        fraction_equal(self, advice.risk(), 36 - 16, 36)  # any Mutant or Science among the two
        self.assertEqual((advice.percent(), advice.percent(risk=True)), (2, 55))

    def test_a_locked_die_is_never_advised_for_a_regular_reroll(self):
        for faces in ([M, S, K, T, C, Y], [S, S, M, K, K, C], [M, M, M, T, T, T]):
            advice = advise(faces, 2, THUNDERCLAP)
            for die in advice.reroll:
                self.assertTrue(faces[die] not in (M, S), (faces, advice.reroll))

    def test_lucky_breaks_a_third_mutant(self):
        """Rulebook: "Lucky: – The Hero may re-roll any single die result one additional time each turn, including both Mutant and Science results, even if there were already three of them rolled." """
        advice = advise([M, M, M, K, K, Y], 0, VISION, lucky=1)
        self.assertEqual(SYMBOLS[[M, M, M, K, K, Y][advice.lucky]], "Mutant")
        fraction_equal(self, advice.chance(), 5, 6)  # anything but a fourth Mutant
        self.assertEqual(advise([M, M, M, K, K, Y], 0, VISION).percent(), 0)

    def test_the_ghost_orchid_counts(self):
        needs = [cards.need(["Mutant", "Mutant", "Tech"])]
        self.assertEqual(advise([M, T, K, K, C, C], 0, needs).percent(), 0)
        self.assertEqual(advise([M, T, K, K, C, C], 0, needs, location=cards.GHOST_ORCHID).percent(), 100)

    def test_honest_and_careful_move_the_thresholds(self):
        odin = [cards.need(["Mutant", "Mutant", "Science", "Science"])]
        faces = [M, M, M, S, S, K]
        self.assertEqual(advise(faces, 0, odin).percent(), 0)
        self.assertEqual(advise(faces, 0, odin, abilities=("Honest",)).percent(), 100)
        self.assertEqual(advise(faces, 0, odin, abilities=("Honest",)).percent(risk=True), 0)

    def test_the_hardest_case_answers_with_chances_between_zero_and_one(self):
        hand = THUNDERCLAP + VISION + STEALTH + [cards.need(["Skill", "Skill", "Mystic", "Mystic"])]
        advice = advise([K, T, C, Y, C, Y], 2, hand)
        num, den = advice.chance()
        self.assertTrue(0 < num < den)
        self.assertTrue(advice.reroll)
        self.assertTrue(advise([K, T, C, Y, C, Y], 2, hand[:1]).percent() < advice.percent())


if __name__ == "__main__":
    unittest.main()
