"""The re-roll advisor: the keep it gives, its exact chance and the Prison/Explosion risk. CPython and the VM.

The host test tests/test_advisor_bruteforce.py checks thousands of positions
against a brute-force enumerator; these are positions a player can check by hand.
"""

import unittest

from dicetower.core.dice import SYMBOLS
from dicetower.core.games.battlerealm import advisor, cards, lucky_tables, ranks
from kept_modules import firmware_modules, put_back

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


# The advice's modules as these tests imported them: each test runs with them, whatever an earlier test in
# this process loaded afresh (a device's scopes forget and load them as games come and go).
ADVICE = tuple(
    "dicetower.core.games.battlerealm." + name
    for name in ("work_arrays", "ranks", "keeps", "lucky_tables", "lucky", "advisor")
)
KEPT = firmware_modules()


class Kept(unittest.TestCase):
    def setUp(self):
        put_back(KEPT, ADVICE)


class Advice(Kept):
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
        for throw in range(6**5):
            faces = [throw // 6**i % 6 for i in range(5)]
            if C in faces and faces.count(M) < 2:
                pays += 1
        fraction_equal(self, advice.chance(), pays, 6**5)

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


HAND = THUNDERCLAP + VISION + STEALTH + [cards.need(["Skill", "Skill", "Mystic", "Mystic"])]
HARDEST = (bytearray([K, T, C, Y, C, Y]), bytearray(6))  # six free dice; two re-rolls, four cards


def steps(work):
    """Every value a plan yields, in order (it must end after the last)."""
    return [out for out in work]


def same(test, got, want):
    test.assertEqual(
        (got.reroll, got.lucky, got.chance(), got.risk()), (want.reroll, want.lucky, want.chance(), want.risk())
    )


class Plan(Kept):
    """advisor.plan: the same search in slices, for the device's loop (each next() a few ms on a Pico)."""

    def test_the_hardest_case_comes_in_slices_then_the_advice(self):
        goal = cards.Goal(HAND, (), False, cards.ELSEWHERE, 3)
        for lucky in (0, 1):
            out = steps(advisor.plan(HARDEST[0], HARDEST[1], 2, lucky, goal))
            self.assertTrue(len(out) > 10, len(out))
            self.assertEqual(out[:-1], [None] * (len(out) - 1))
            self.assertTrue(isinstance(out[-1], advisor.Advice))
            same(self, out[-1], advisor.advise(HARDEST[0], HARDEST[1], 2, lucky, goal))

    def test_a_plan_dropped_midway_leaves_nothing_behind(self):
        goal = cards.Goal(HAND, (), False, cards.ELSEWHERE, 3)
        want = advisor.advise(HARDEST[0], HARDEST[1], 2, 1, goal)
        work = advisor.plan(HARDEST[0], HARDEST[1], 2, 1, goal)
        for _ in range(5):
            self.assertEqual(next(work), None)
        del work  # the device drops a stale plan when the dice change
        same(self, steps(advisor.plan(HARDEST[0], HARDEST[1], 2, 1, goal))[-1], want)

    def test_plans_made_together_each_answer_when_run_one_after_the_other(self):
        """A plan takes the work arrays at its first step, not when it is made."""
        goal = cards.Goal(HAND, (), False, cards.ELSEWHERE, 3)
        other = (bytearray([M, S, K, T, T, Y]), bytearray([1, 1, 0, 0, 0, 0]))
        first = advisor.plan(HARDEST[0], HARDEST[1], 2, 0, goal)
        second = advisor.plan(other[0], other[1], 2, 1, goal)
        same(self, steps(second)[-1], advisor.advise(other[0], other[1], 2, 1, goal))
        same(self, steps(first)[-1], advisor.advise(HARDEST[0], HARDEST[1], 2, 0, goal))

    def test_a_plan_overtaken_midway_by_a_newer_one_fails_loudly(self):
        """Plans share the module's work arrays (made once, kept: no large block per advice). The
        device runs one at a time; run in turns, the older raises at its next step instead of
        answering from the newer's tables, and the newer is right."""
        goal = cards.Goal(HAND, (), False, cards.ELSEWHERE, 3)
        other = (bytearray([M, S, K, T, T, Y]), bytearray([1, 1, 0, 0, 0, 0]))
        first = advisor.plan(HARDEST[0], HARDEST[1], 2, 0, goal)
        second = advisor.plan(other[0], other[1], 2, 1, goal)
        self.assertEqual(next(first), None)
        b = next(second)
        with self.assertRaises(RuntimeError):
            next(first)
        while b is None:
            b = next(second)
        same(self, b, advisor.advise(other[0], other[1], 2, 1, goal))
        same(
            self,
            advisor.advise(HARDEST[0], HARDEST[1], 2, 0, goal),
            steps(advisor.plan(HARDEST[0], HARDEST[1], 2, 0, goal))[-1],
        )

    def test_the_work_arrays_are_made_once_and_kept_small(self):
        goal = cards.Goal(HAND, (), False, cards.ELSEWHERE, 3)
        advisor.advise(HARDEST[0], HARDEST[1], 2, 1, goal)  # Lucky and two re-rolls: the most arrays
        # Four for every plan (ranks.py's), three more that only the search with Lucky uses (lucky_tables.py's).
        pool = list(ranks._POOL) + list(lucky_tables.WORK)
        self.assertEqual(len(ranks._POOL), 4)
        self.assertEqual(len(pool), 7)
        self.assertTrue(max(len(a) for a in pool) <= 462)  # 1.8 KB on a Pico
        for lucky in (0, 1):
            advisor.advise(HARDEST[0], HARDEST[1], 2, lucky, goal)
        now = list(ranks._POOL) + list(lucky_tables.WORK)
        self.assertEqual(len(now), 7)
        for a, b in zip(pool, now):
            self.assertTrue(a is b)

    def test_what_a_plan_leaves_in_the_work_arrays_changes_no_answer(self):
        """Every pass writes an entry before it reads it: stale values (here: garbage) do not count."""
        hand = [cards.need(["Mutant", "Science", "Skill"]), cards.need(["Tech", "Cosmic", "Mystic", "Mystic"])]
        positions = [
            (HARDEST[0], HARDEST[1]),
            (bytearray([M, S, K, T, T, Y]), bytearray([1, 1, 0, 0, 0, 0])),
            (bytearray([M, M, S, C, C, Y]), bytearray([1, 1, 1, 0, 0, 0])),
            (bytearray([S, K, T, C, Y, Y]), bytearray([1, 0, 0, 0, 0, 0])),
        ]
        cases = [
            (faces, locked, rerolls, lucky, cards.Goal(needs, (), False, location, 3))
            for faces, locked in positions
            for rerolls in (1, 2)
            for lucky in (0, 1)
            for needs in (hand, HAND[:1])
            for location in (cards.ELSEWHERE, cards.AVENGERS_TOWER)
        ]
        want = [advisor.advise(*case) for case in cases]
        for seed in (0, 1, 2):
            for case, advice in zip(cases, want):
                for array in list(ranks._POOL) + list(lucky_tables.WORK):
                    for i in range(len(array)):  # large keys, below 2^30 (small ints on a Pico)
                        array[i] = 536870911 - (i * 7919 * seed) % 1000003 * 997
                same(self, advisor.advise(*case), advice)

    def test_the_dice_are_copied_when_the_plan_is_made(self):
        goal = cards.Goal(HAND, (), False, cards.ELSEWHERE, 3)
        faces, locked = bytearray(HARDEST[0]), bytearray(HARDEST[1])
        work = advisor.plan(faces, locked, 2, 0, goal)
        faces[:] = bytearray([M, M, M, S, S, S])  # the roll's own bytearrays change meanwhile
        locked[:] = bytearray([1] * 6)
        same(self, steps(work)[-1], advisor.advise(HARDEST[0], HARDEST[1], 2, 0, goal))

    def test_a_bad_number_of_rerolls_is_refused_at_once(self):
        goal = cards.Goal(HAND, (), False, cards.ELSEWHERE, 3)
        with self.assertRaises(ValueError):
            advisor.plan(HARDEST[0], HARDEST[1], 3, 0, goal)

    def test_dice_that_already_pay_at_no_risk_are_finalized_at_once(self):
        goal = cards.Goal(STEALTH, (), False, cards.ELSEWHERE, 3)
        out = steps(advisor.plan(bytearray([M, C, K, K, T, Y]), bytearray([1, 0, 0, 0, 0, 0]), 2, 1, goal))
        self.assertEqual((len(out), out[-1].reroll, out[-1].lucky, out[-1].percent()), (1, [], -1, 100))


class Scoring(Kept):
    """The advisor scores rolls with tables made from the goal (ranks._compile) where it can, for
    speed: on every roll they must say what goal.check says."""

    def test_every_roll_is_scored_as_goal_check_scores_it(self):
        odin = cards.need(["Mutant", "Mutant", "Science", "Science"])
        six = cards.need(["Skill", "Tech", "Cosmic", "Mystic", "Mystic", "Skill"])
        goals = [
            cards.Goal(needs, abilities, False, location, pvp)
            for needs in (HAND, [odin, six], [])
            for abilities in ((), ("Honest",), ("Careful",))
            for location, pvp in (
                (cards.ELSEWHERE, 0),
                (cards.GHOST_ORCHID, 0),
                (cards.WAREHOUSE, 1),
                (cards.WAREHOUSE, 3),
            )
        ]
        for fixed in (bytearray(6), bytearray([1, 1, 0, 0, 0, 0]), bytearray([2, 0, 0, 1, 0, 0])):
            n = 6 - sum(fixed)
            for goal in goals:
                self.assertTrue(ranks._compile(goal, fixed) is not None)
                base = ranks.SIXES if n == 6 else 0  # six dice: the table's upper half
                table = [0] * (ranks.C6[n + 6] - base)
                for _ in ranks._base(table, n, fixed, goal, 1, [0]):
                    pass
                counts = bytearray(6)
                for c in rolls(n):
                    for s in range(6):
                        counts[s] = c[s] + fixed[s]
                    bits = goal.check(counts)
                    want = (ranks.KEY if bits & cards.PAYS else 0) - (1 if bits & cards.RISK else 0)
                    self.assertEqual(table[ranks.rank(c) - base], want, (list(counts), goal.location))


def rolls(n):
    """Every multiset of n dice, as counts."""
    out = []
    for c0 in range(n + 1):
        for c1 in range(n + 1 - c0):
            for c2 in range(n + 1 - c0 - c1):
                for c3 in range(n + 1 - c0 - c1 - c2):
                    for c4 in range(n + 1 - c0 - c1 - c2 - c3):
                        out.append(bytearray([c0, c1, c2, c3, c4, n - c0 - c1 - c2 - c3 - c4]))
    return out


if __name__ == "__main__":
    unittest.main()
