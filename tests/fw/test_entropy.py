"""Entropy sources, health tests and fair faces. Runs on CPython and the MicroPython VM."""

import unittest

from dicetower.core.dice import ATTACK, BATTLEREALM, D6, DANGER_COIN, plain
from dicetower.core.entropy import (EntropyFailure, FairDice, HealthTests, ScriptedFaces,
                                    SeededSource, rct_cutoff)
from sources import BiasedBits, FairBits, Pattern


class Seeded(unittest.TestCase):
    def test_same_seed_same_bytes(self):
        a, b = bytearray(64), bytearray(64)
        SeededSource(2024).fill(a)
        SeededSource(2024).fill(b)
        self.assertEqual(a, b)
        SeededSource(2025).fill(b)
        self.assertNotEqual(a, b)

    def test_known_bytes(self):
        # The same bytes on CPython and on the MicroPython VM (both run this
        # test); tests/test_references.py checks them against a C sfc16.
        buf = bytearray(8)
        SeededSource(1).fill(buf)
        self.assertEqual(bytes(buf), SFC16_SEED1_FIRST8)

    def test_same_seed_same_faces(self):
        a = FairDice(SeededSource(99))
        b = FairDice(SeededSource(99))
        self.assertEqual([a.draw(D6) for _ in range(50)], [b.draw(D6) for _ in range(50)])


class Faces(unittest.TestCase):
    def test_every_face_in_range_and_seen(self):
        dice = FairDice(SeededSource(5))
        for die in (BATTLEREALM, ATTACK, DANGER_COIN, D6, plain(20), plain(100)):
            seen = [0] * die.sides
            for _ in range(die.sides * 40):
                face = dice.draw(die)
                self.assertTrue(0 <= face < die.sides)
                seen[face] += 1
            self.assertEqual(seen.count(0), 0, die.name)

    def test_d6_counts_are_even(self):
        # Seeded, so the figure is fixed: chi-square of 6000 d6 faces with 5
        # degrees of freedom; 20.5 is the 0.1% critical value.
        dice = FairDice(SeededSource(11))
        counts = [0] * 6
        for _ in range(6000):
            counts[dice.draw(D6)] += 1
        chi2 = sum((c - 1000) ** 2 / 1000 for c in counts)
        self.assertTrue(chi2 < 20.5, (counts, chi2))

    def test_d6_costs_at_most_040_bytes(self):
        dice = FairDice(SeededSource(3))
        before = dice.bytes_used
        for _ in range(3000):
            dice.draw(D6)
        per_face = (dice.bytes_used - before) / 3000
        self.assertTrue(0.32 <= per_face <= 0.40, per_face)

    def test_biased_bits_are_debiased(self):
        # 75/25 raw bits under a claim they meet (0.5 bits per bit) come out as
        # even coin flips: von Neumann's pairs 01 and 10 are equally likely.
        dice = FairDice(BiasedBits(0.5, seed=4))
        self.assertIsNone(dice.failure)
        counts = [0, 0]
        for _ in range(4000):
            counts[dice.draw(DANGER_COIN)] += 1
        self.assertTrue(abs(counts[0] - 2000) < 130, counts)

    def test_fair_bits_roll(self):
        dice = FairDice(FairBits())
        self.assertIsNone(dice.failure)
        self.assertTrue(dice.binary)
        self.assertTrue(0 <= dice.draw(D6) < 6)


class Health(unittest.TestCase):
    def test_cutoffs_follow_sp800_90b(self):
        self.assertEqual(rct_cutoff(7), 6)
        self.assertEqual(rct_cutoff(0.5), 61)
        bits = HealthTests(True, 0.5)
        self.assertEqual((bits.window, bits.apt_cutoff, bits.rct_cutoff), (1024, 810, 61))
        octets = HealthTests(False, 7)
        self.assertEqual((octets.window, octets.apt_cutoff, octets.rct_cutoff), (512, 22, 6))

    def test_unknown_claim_refused(self):
        with self.assertRaises(ValueError):
            HealthTests(False, 3)

    def test_repetition_count(self):
        tests = HealthTests(False, 7)
        for _ in range(5):
            self.assertIsNone(tests.check(9))
        self.assertIn("repetition count", tests.check(9))

    def test_adaptive_proportion(self):
        tests = HealthTests(False, 7)
        reason = None
        n = 0
        while reason is None and n < 512:
            # 0x42 every other sample, never twice in a row
            reason = tests.check(0x42 if n % 2 == 0 else n % 200 + 1)
            n += 1
        self.assertIn("adaptive proportion", reason)
        self.assertEqual(n, 2 * 22 - 1)

    def test_stuck_source_fails_at_startup(self):
        source = Pattern(b"\x00")
        dice = FairDice(source)
        self.assertIn("repetition count", dice.failure)
        self.assertIn("pattern", dice.failure)
        with self.assertRaises(EntropyFailure):
            dice.draw(D6)

    def test_cycling_source_fails_adaptive_proportion(self):
        dice = FairDice(Pattern(b"\x01\x02\x03\x04"))
        self.assertIn("adaptive proportion", dice.failure)

    def test_biased_bits_fail_under_the_rosc_claim(self):
        dice = FairDice(BiasedBits(0.8))
        self.assertIn("adaptive proportion", dice.failure)

    def test_fallback_source_takes_over(self):
        dice = FairDice(Pattern(b"\x00", name="first"), Pattern(bytes(range(256)), name="second"))
        self.assertIsNone(dice.failure)
        self.assertEqual(dice.name, "second")
        self.assertIn("first failed", dice.switched)

    def test_both_sources_failing_refuses(self):
        dice = FairDice(Pattern(b"\x00", name="first"), Pattern(b"\x01", name="second"))
        self.assertIn("second failed", dice.failure)
        with self.assertRaises(EntropyFailure):
            dice.draw(D6)

    def test_failure_mid_game_then_recover(self):
        dice = FairDice(SeededSource(1))
        dice.source = source = Pattern(bytes(range(256)))
        for _ in range(400):
            dice.draw(D6)
        source.pattern = b"\x07"
        with self.assertRaises(EntropyFailure) as caught:
            for _ in range(400):
                dice.draw(D6)
        self.assertIn("Dice off", str(caught.exception))
        self.assertFalse(dice.recover())
        source.pattern = bytes(range(256))
        self.assertTrue(dice.recover())
        self.assertIsNone(dice.failure)
        dice.draw(D6)

    def test_periodic_bits_are_caught_after_debiasing(self):
        # 0101... passes the raw tests, but every debiased bit would be 0.
        source = Pattern(b"\x00\x01", name="alternating bits")
        source.binary = True
        source.min_entropy = 0.5
        dice = FairDice(source)
        self.assertIn("after debiasing", dice.failure)
        with self.assertRaises(EntropyFailure):
            dice.draw(D6)  # not a single face from it

    def test_bit_pairs_that_never_differ_stop_the_dice(self):
        source = Pattern(b"\x00\x00\x01\x01", name="paired bits")
        source.binary = True
        source.min_entropy = 0.5
        dice = FairDice(source)
        self.assertIn("gave no output", dice.failure)

    def test_driver_error_becomes_failure(self):
        class Broken:
            name = "broken"
            binary = False
            min_entropy = 7

            def fill(self, buf):
                raise OSError(5)

        dice = FairDice(Broken())
        self.assertIn("could not be read", dice.failure)


class Primed(unittest.TestCase):
    # The device's loop makes entropy ahead at idle (prime), so that a roll does not gather it inside
    # the press. Made ahead or made at the draw, the bytes come in the same order: the same faces.
    def test_faces_are_the_same_made_ahead_or_at_the_draw(self):
        plain, primed = FairDice(FairBits(3)), FairDice(FairBits(3))
        made = 0
        while primed.prime():
            made += 1
        self.assertEqual(made, 8)  # then it rests
        for roll in range(40):
            if roll % 3 == 0:
                primed.prime()
            self.assertEqual([plain.draw(BATTLEREALM) for _ in range(6)],
                             [primed.draw(BATTLEREALM) for _ in range(6)], roll)
        self.assertEqual(plain.bytes_used, primed.bytes_used)

    def test_a_source_failing_while_priming_moves_to_the_fallback_at_once(self):
        dice = FairDice(SeededSource(1), Pattern(bytes(range(256)), name="second"))
        dice.source = source = Pattern(bytes(range(256)), name="first")
        source.pattern = b"\x07"  # stuck
        while dice.prime():
            pass
        self.assertEqual(dice.name, "second")
        self.assertIn("failed its health check", dice.switched)
        dice.draw(D6)

    def test_no_fallback_left_the_dice_stay_off_and_say_why(self):
        dice = FairDice(SeededSource(1))
        dice.source = source = Pattern(bytes(range(256)))
        source.pattern = b"\x07"
        while dice.prime():
            pass
        self.assertIn("Dice off", dice.failure)
        with self.assertRaises(EntropyFailure):
            dice.draw(D6)


class Scripted(unittest.TestCase):
    def test_gives_the_faces_in_order(self):
        faces = ScriptedFaces(["Mystic", 0, "Star", "Moon"])
        self.assertEqual(faces.draw(BATTLEREALM), 5)
        self.assertEqual(faces.draw(BATTLEREALM), 0)
        self.assertEqual(faces.draw(ATTACK), 0)
        self.assertEqual(faces.draw(DANGER_COIN), 1)
        with self.assertRaises(EntropyFailure):
            faces.draw(D6)

    def test_face_not_on_the_die(self):
        with self.assertRaises(ValueError):
            ScriptedFaces(["Star"]).draw(BATTLEREALM)


SFC16_SEED1_FIRST8 = b'\x1d\xb6\xb6\xf8s\x9c\x9c\xbb'

if __name__ == "__main__":
    unittest.main()
