"""Entropy sources, health tests and fair faces. Runs on CPython and the MicroPython VM."""

import unittest
from hashlib import sha256

from sources import BiasedBits, Counter, Cycle, FairBits, LfsrBits, Noise, Pattern

from dicetower.core.dice import ATTACK, BATTLEREALM, D6, DANGER_COIN, plain
from dicetower.core.drbg import HmacDrbg
from dicetower.core.entropy import (
    PAUSED,
    PERSONALIZATION,
    RESEED_INTERVAL,
    RETRY_FIRST_MS,
    STARTUP_SAMPLES,
    STARTUP_TEST_SAMPLES,
    EntropyFailure,
    FairDice,
)
from dicetower.core.entropy_startup import StartupTest
from dicetower.core.health import HealthTests, rct_cutoff
from dicetower.core.replay import ScriptedFaces, SeededSource

ONE_BUFFER = 32  # the samples FairDice reads at a time: what one pass of the loop may read


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

    def test_noise_d6_counts_are_even_and_cost_at_most_040_bytes_of_drbg_output(self):
        dice = FairDice(Noise(11))
        counts = [0] * 6
        for _ in range(6000):
            counts[dice.draw(D6)] += 1
        chi2 = sum((c - 1000) ** 2 / 1000 for c in counts)
        self.assertTrue(chi2 < 20.5, (counts, chi2))
        self.assertTrue(0.32 <= dice.bytes_used / 6000 <= 0.40, dice.bytes_used)

    def test_biased_bits_are_conditioned(self):
        # 75/25 raw bits under a claim they meet (0.5 bits per bit) come out as even coin flips:
        # SHA-256 of 1024 of them (512 claimed bits) seeds the DRBG the faces come from.
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
            self.assertIsNone(tests.check_all(b"\x09"))
        self.assertIn("repetition count", tests.check_all(b"\x09"))

    def test_adaptive_proportion(self):
        tests = HealthTests(False, 7)
        reason = None
        n = 0
        while reason is None and n < 512:
            # 0x42 every other sample, never twice in a row
            reason = tests.check_all(bytes([0x42 if n % 2 == 0 else n % 200 + 1]))
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

    def test_a_short_cycle_fails_the_start_up_test_as_the_dice_are_made(self):
        dice = FairDice(Pattern(b"\x01\x02\x03\x04"))
        self.assertIn("failed its start-up test: period test", dice.failure)
        self.assertIn("came round again after 4", dice.failure)

    def test_biased_bits_fail_under_the_rosc_claim(self):
        dice = FairDice(BiasedBits(0.8))
        dice.recover()  # the whole start-up test: 64 windows of the adaptive proportion test
        self.assertIn("adaptive proportion", dice.failure)

    def test_fallback_source_takes_over(self):
        dice = FairDice(Pattern(b"\x00", name="first"), Noise(name="second"))
        self.assertIsNone(dice.failure)
        self.assertEqual(dice.name, "second")
        self.assertIn("first failed", dice.switched)

    def test_both_sources_failing_refuses(self):
        dice = FairDice(Pattern(b"\x00", name="first"), Pattern(b"\x01", name="second"))
        self.assertIn("second failed", dice.failure)
        with self.assertRaises(EntropyFailure):
            dice.draw(D6)

    def test_failure_mid_game_then_recover(self):
        source = Noise(1)
        dice = FairDice(source)
        for _ in range(400):
            dice.draw(D6)
        source.broken = b"\x07"
        with self.assertRaises(EntropyFailure) as caught:
            for _ in range(5000):  # the noise is read at the next reseed, within 128 bytes
                dice.draw(D6)
        self.assertIn("Dice paused: noise failed its health check: repetition count", str(caught.exception))
        self.assertEqual(caught.exception.screen, PAUSED)
        self.assertFalse(dice.recover())
        source.broken = None
        self.assertTrue(dice.recover())
        self.assertIsNone(dice.failure)
        dice.draw(D6)

    def test_periodic_bits_are_caught_at_start_up(self):
        # 0101... passes the raw health tests; the period test sees it come round.
        source = Pattern(b"\x00\x01", name="alternating bits")
        source.binary = True
        source.min_entropy = 0.5
        dice = FairDice(source)
        self.assertIn("period test", dice.failure)
        with self.assertRaises(EntropyFailure):
            dice.draw(D6)  # not a single face from it

    def test_bit_pairs_that_never_differ_stop_the_dice(self):
        source = Pattern(b"\x00\x00\x01\x01", name="paired bits")
        source.binary = True
        source.min_entropy = 0.5
        dice = FairDice(source)
        self.assertIn("start-up test", dice.failure)

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
    # the press. For a replay, made ahead or made at the draw, the bytes come in the same order: the
    # same faces, so a seeded game is the same in the simulator, the tests and on the VM. (Noise is
    # also read at idle for the start-up test, so a noise source's later reseeds differ.)
    def test_faces_are_the_same_made_ahead_or_at_the_draw(self):
        for direct, primed in ((FairDice(SeededSource(3)), FairDice(SeededSource(3))),):
            made = 0
            while primed.prime():
                made += 1
            self.assertTrue(made > 0)  # then it rests
            self.assertFalse(primed.prime())
            for roll in range(40):
                if roll % 3 == 0:
                    primed.prime()
                self.assertEqual(
                    [direct.draw(BATTLEREALM) for _ in range(6)], [primed.draw(BATTLEREALM) for _ in range(6)], roll
                )
            self.assertEqual(direct.bytes_used, primed.bytes_used)

    def test_a_source_failing_while_priming_moves_to_the_fallback_at_once(self):
        first = Noise(1, name="first")
        dice = FairDice(first, Noise(2, name="second"))
        while dice.prime():
            pass
        first.broken = b"\x07"  # stuck
        for _ in range(200):  # every roll's bytes made ahead, as the loop does; none refused
            self.assertEqual(len([dice.draw(BATTLEREALM) for _ in range(6)]), 6)
            while dice.prime():
                pass
            if dice.switched:
                break
        self.assertEqual(dice.name, "second")
        self.assertIn("first failed its health check", dice.switched)
        dice.draw(D6)

    def test_no_fallback_left_the_dice_pause_and_say_why(self):
        source = Noise(1)
        dice = FairDice(source)
        source.broken = b"\x07"
        with self.assertRaises(EntropyFailure) as caught:
            for _ in range(200):
                dice.draw(D6)
                dice.prime()
        self.assertIn("Dice paused: noise failed its health check", dice.failure)
        self.assertEqual(caught.exception.screen, PAUSED)
        with self.assertRaises(EntropyFailure):
            dice.draw(D6)


class Drbg(unittest.TestCase):
    """HMAC_DRBG against NIST's CAVP answers (HMAC_DRBG.rsp, [SHA-256], PredictionResistance = False,
    EntropyInputLen 256, NonceLen 128, ReturnedBitsLen 1024): instantiate, (reseed,) generate twice,
    the second generate's bits compared; the internal V and Key where the file gives them."""

    def test_no_reseed_count_0(self):
        drbg = HmacDrbg()
        drbg.instantiate(
            h("ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488"), h("659ba96c601dc69fc902940805ec0ca8")
        )
        self.assertEqual(bytes(drbg.value), h("e75855f93b971ac468d200992e211960202d53cf08852ef86772d6490bfb53f9"))
        self.assertEqual(bytes(drbg.key), h("302a4aba78412ab36940f4be7b940a0c728542b8b81d95b801a57b3797f9dd6e"))
        out = bytearray(128)
        drbg.generate(out)
        drbg.generate(out)
        self.assertEqual(
            bytes(out),
            h(
                "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89d54fbb978a15b5c443c9ec21036d2460"
                "b6f73ebad0dc2aba6e624abf07745bc107694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668"
                "961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8"
            ),
        )
        self.assertEqual(drbg.reseed_counter, 3)

    def test_reseed(self):
        drbg = HmacDrbg()
        drbg.instantiate(
            h("06032cd5eed33f39265f49ecb142c511da9aff2af71203bffaf34a9ca5bd9c0d"), h("0e66f71edc43e42a45ad3c6fc6cdc4df")
        )
        drbg.reseed(h("01920a4e669ed3a85ae8a33b35a74ad7fb2a6bb4cf395ce00334a9c9a5a5d552"))
        self.assertEqual(bytes(drbg.value), h("c246fa97570ba2b9d9e5b453fe4632366f146fbd8491146563eb463c9eafe50c"))
        self.assertEqual(bytes(drbg.key), h("ca43e73325de43c41d7e0a7a3163fb04061b09fcee4c7b8884e969e3bdfdff9a"))
        out = bytearray(128)
        drbg.generate(out)
        drbg.generate(out)
        self.assertEqual(
            bytes(out),
            h(
                "76fc79fe9b50beccc991a11b5635783a83536add03c157fb30645e611c2898bb2b1bc215000209208cd506cb28da2a51"
                "bdb03826aaf2bd2335d576d519160842e7158ad0949d1a9ec3e66ea1b1a064b005de914eac2e9d4f2d72a8616a802254"
                "22918250ff66a41bd2f864a6a38cc5b6499dc43f7f2bd09e1e0f8f5885935124"
            ),
        )

    def test_personalization_and_additional_input(self):
        # PersonalizationStringLen = 256, AdditionalInputLen = 256, COUNT = 14.
        drbg = HmacDrbg()
        drbg.instantiate(
            h("3d99f9b7ac3a2fbe9cf15d960bf41f5588fc4db1e0d2a5c9c0fe9059f03593fb"),
            h("411f504bb63a9b3afa7ffa1357bb48be"),
            h("0bb5ebd55981a25ba69164da49fa92f2871fd3fc65eb30d0f0d0b8d798a4f8f2"),
        )
        self.assertEqual(bytes(drbg.key), h("1623adafc2508408ff1e30d57eb03d8e84211295073f43fd59b672b28bf57d6b"))
        out = bytearray(128)
        drbg.generate(out, h("288e948a551284eb3cb23e26299955c2fb8f063c132a92683c1615ecaed80f30"))
        drbg.generate(out, h("d975b22f79e34acf5db25a2a167ef60a10682dd9964e15533d75f7fa9efc5dcb"))
        self.assertEqual(
            bytes(out),
            h(
                "ee8d707eea9bc7080d58768c8c64a991606bb808600cafab834db8bc884f866941b4a7eb8d0334d876c0f1151bccc7ce"
                "8970593dad0c1809075ce6dbca54c4d4667227331eeac97f83ccb76901762f153c5e8562a8ccf12c8a1f2f480ec6f197"
                "5ac097a49770219107d4edea54fb5ee23a8403874929d073d7ef0526a647011a"
            ),
        )
        self.assertEqual(bytes(drbg.value), h("07bcc6f1969262e0e8cbd305d3791d5ef033edd5974e4f490793518e671d5024"))


def h(text):
    return bytes(int(text[i : i + 2], 16) for i in range(0, len(text), 2))


class Pressed(unittest.TestCase):
    """Every press's time in microseconds is additional input to the DRBG (SP 800-90A), so that faces depend
    on the players' timing as well as on the noise: a source that fails quietly (a byte cycle that passes
    every test) no longer makes the faces predictable to whoever has seen a few rolls."""

    def faces_after(self, *presses, primed=True):
        dice = FairDice(Cycle(69632))  # the hostile run's quiet failure: the same 69,632 bytes over and over
        while dice.prime():
            pass
        for micros in presses:
            dice.stir(micros)
        if primed:
            while dice.prime():  # the loop's idle passes after the press: its block is made there
                pass
        return [dice.draw(BATTLEREALM) for _ in range(12)]

    def test_two_press_timings_1_us_apart_give_different_faces(self):
        self.assertEqual(self.faces_after(5000000), self.faces_after(5000000))  # nothing else differs
        self.assertNotEqual(self.faces_after(5000000), self.faces_after(5000001))
        self.assertNotEqual(self.faces_after(5000000), self.faces_after())

    def test_the_faces_after_a_press_come_from_output_made_after_it(self):
        # Made at idle or, with no idle pass between the press and the roll, at the draw: the same faces.
        self.assertEqual(self.faces_after(123, 456), self.faces_after(123, 456, primed=False))
        self.assertNotEqual(self.faces_after(123, 456), self.faces_after(456, 123))  # the order counts too

    def test_more_presses_than_are_kept_still_count(self):
        many = list(range(1000, 1040))
        changed = list(many)
        changed[0] += 1  # the first of 40: folded into the 16 kept
        self.assertNotEqual(self.faces_after(*many), self.faces_after(*changed))

    def test_a_replay_is_the_same_whatever_the_timing(self):
        # A seeded game (tests, the simulator's --seed) replays its bytes: no DRBG, the same faces anywhere.
        a, b = FairDice(SeededSource(3)), FairDice(SeededSource(3))
        a.stir(1)
        b.stir(2)
        self.assertEqual([a.draw(BATTLEREALM) for _ in range(12)], [b.draw(BATTLEREALM) for _ in range(12)])


class Conditioned(unittest.TestCase):
    def test_the_drbg_is_seeded_from_sha256_of_the_noise_after_the_first_start_up_samples(self):
        # After the start-up test's first 1024 samples: SHA-256 of 96 bytes (672 claimed bits, at least
        # 512) is the entropy input, SHA-256 of the next 96 the nonce; the first block of faces' bytes
        # is that HMAC_DRBG's first output. Worked out here from the same noise, independently.
        dice = FairDice(Noise(4))
        dice.draw(D6)
        noise = Noise(4)
        skip = bytearray(STARTUP_SAMPLES)
        noise.fill(skip)
        blocks = []
        for _ in range(2):
            raw = bytearray(96)
            noise.fill(raw)
            blocks.append(sha256(raw).digest())
        drbg = HmacDrbg()
        drbg.instantiate(blocks[0], blocks[1], PERSONALIZATION)
        first = bytearray(32)
        drbg.generate(first)
        self.assertEqual(dice.samples_used, STARTUP_SAMPLES + 2 * 96)
        self.assertEqual(dice._ready[:32], first)

    def test_reseeded_from_fresh_noise_every_few_requests(self):
        dice = FairDice(Noise(4))
        dice.draw(D6)
        seeded = dice.samples_used
        while dice.bytes_used <= 32 * RESEED_INTERVAL:
            before = dice.samples_used
            dice.draw(D6)
        # RESEED_INTERVAL requests from one seed; the draw that needs the next one's first byte
        # has 96 fresh bytes conditioned first.
        self.assertEqual(before, seeded)
        self.assertEqual(dice.samples_used, seeded + 96)

    def test_rosc_bits_are_conditioned_eight_to_a_byte(self):
        dice = FairDice(FairBits(6))
        dice.draw(D6)
        # 0.5 claimed bits a sample: 1024 bits, 128 bytes, for each block of 512 claimed bits.
        self.assertEqual(dice.samples_used, STARTUP_SAMPLES + 2 * 1024)


class StartUp(unittest.TestCase):
    """SP 800-90B 4.3: the start-up test runs before any face, over 2**16 + 128 samples."""

    def test_a_long_byte_cycle_is_caught_at_idle_and_the_dice_pause(self):
        dice = FairDice(Cycle(40000))
        self.assertIsNone(dice.failure)  # its first 1024 samples look fine: the DRBG is seeded
        dice.draw(D6)  # a roll does not wait for the rest of the start-up test
        while dice.prime(0):
            pass  # the rest, a slice a pass
        self.assertIn("period test: the first 16 samples came round again after 40000", dice.failure)
        with self.assertRaises(EntropyFailure):
            dice.draw(D6)

    def test_cycles_up_to_2_16_samples_are_caught_at_idle(self):
        for period in (256, 3000, 1 << 16):
            dice = FairDice(Cycle(period))
            while dice.prime():
                pass
            self.assertIn("came round again after %d" % period, dice.failure)
        self.assertIsNone(FairDice(Cycle((1 << 16) + 4096)).failure)  # longer: past what the test sees

    def test_counters_are_caught(self):
        self.assertIn("start-up test: period test", FairDice(Counter()).failure)
        self.assertIn("adaptive proportion", FairDice(Counter(width=16)).failure)
        bits = FairDice(Counter(binary=True))  # a byte counter's bits: 2048 before they repeat
        self.assertFalse(bits.recover())
        self.assertIn("start-up test: period test: the first 96 samples came round again after 2048", bits.failure)

    def test_healthy_noise_passes_the_whole_test(self):
        for source in (Noise(9), FairBits(9)):
            dice = FairDice(source)
            self.assertTrue(dice.recover())
            seed = 1024 if source.binary else 96  # samples for 512 claimed bits, at 0.5 or 7 a sample
            # Made: 1024 samples, then two seed blocks; recovered: the whole test, then two more.
            self.assertEqual(dice.samples_used, STARTUP_SAMPLES + STARTUP_TEST_SAMPLES + 4 * seed)

    def test_dice_made_later_read_nothing_until_started_then_start_as_dice_made_at_once(self):
        # A device shows its start menu before its dice start: made `later`, they read no sample until
        # start(), which runs what making them would have (the start-up test's first 1024 samples, then
        # the DRBG's two seed blocks), and they give the faces dice made at once would give.
        later = FairDice(Noise(9), later=True)
        self.assertEqual((later.samples_used, later.failure), (0, None))
        later.start()
        now = FairDice(Noise(9))
        self.assertEqual(later.samples_used, STARTUP_SAMPLES + 2 * 96)  # 96 samples for 512 claimed bits
        self.assertEqual(later.samples_used, now.samples_used)
        self.assertEqual([later.draw(D6) for _ in range(40)], [now.draw(D6) for _ in range(40)])
        later.start()  # once only
        self.assertEqual(later.samples_used, now.samples_used)

    def test_dice_made_later_start_at_their_first_draw_or_idle_pass(self):
        drawn = FairDice(Noise(4), later=True)
        face = drawn.draw(D6)  # no start() came first: the draw starts them before its face
        self.assertTrue(0 <= face < 6)
        self.assertEqual(drawn.samples_used, FairDice(Noise(4)).samples_used)
        primed = FairDice(Noise(4), later=True)
        self.assertTrue(primed.prime(0))  # an idle pass before start(): the start is its work
        self.assertEqual(primed.samples_used, STARTUP_SAMPLES + 2 * 96)
        sealed = FairDice(Noise(4), later=True)
        self.assertEqual(len(sealed.secret(16)), 16)  # a game's seed: as a draw
        self.assertEqual(sealed.samples_used, primed.samples_used)

    def test_a_source_that_fails_its_start_made_later_gives_way_at_start(self):
        stuck = Noise(2, name="stuck")
        stuck.broken = b"\x07"
        dice = FairDice(stuck, Noise(3, name="spare"), later=True)
        self.assertEqual((dice.name, dice.switched), ("stuck", None))  # nothing read yet
        dice.start()
        self.assertEqual(dice.name, "spare")
        self.assertIn("stuck failed its health check: repetition count test", dice.switched)
        self.assertIsNone(dice.failure)
        self.assertTrue(0 <= dice.draw(D6) < 6)

    def test_linear_complexity_of_noise_and_of_an_lfsr(self):
        test = StartupTest(True)
        noise = FairBits(2)
        bit = bytearray(1)
        for _ in range(512):
            noise.fill(bit)
            self.assertIsNone(test.check(bit))
        self.assertTrue(240 <= test.linear_complexity() <= 272, test.linear_complexity())
        test = StartupTest(True)
        lfsr = LfsrBits(127)  # its period is 2**127 - 1: only its linear complexity gives it away
        reasons = [test.check(bytes([lfsr(0)])) for _ in range(512)]
        self.assertEqual(reasons[:511], [None] * 511)
        self.assertEqual(reasons[511], "linear complexity test: the first 512 bits follow an LFSR of 127 bits")

    def test_linear_complexity_is_berlekamp_massey_s_at_every_step(self):
        # The test's words-at-a-time Berlekamp-Massey (machine code on a board) against the textbook one
        # (Massey 1969) on bit lists: the same length l after every bit judged, in buffers of any size.
        lengths = SeededSource(11)
        for binary, bits in (
            (True, _bits_of(FairBits(5), 512)),
            (True, _lfsr_bits(LfsrBits(127, seed=3), 512)),
            (True, _lfsr_bits(LfsrBits(200, seed=5), 512)),
            (False, _bits_of(Noise(6), 64 * 8)),
        ):
            expected = _complexities(bits)
            test = StartupTest(binary)
            fed = 0  # samples given
            size = bytearray(1)
            while test._bits < 512:
                lengths.fill(size)
                n = 1 + size[0] % 40
                if binary:
                    chunk = bytes(bits[fed : fed + n])
                else:  # a byte sample carries 8 bits, the first at its top
                    chunk = bytes(_byte(bits, 8 * (fed + i)) for i in range(n) if 8 * (fed + i) < len(bits))
                fed += len(chunk)
                test.check(chunk)
                self.assertEqual(test.linear_complexity(), expected[test._bits - 1], (binary, test._bits))
            self.assertIsNone(test._v)  # judged: its words back to the heap

    def test_each_prime_call_does_a_slice(self):
        # A press never waits behind the start-up test: the loop runs it a slice a pass.
        dice = FairDice(Noise(3))
        reads = []
        for _ in range(3000):
            before = dice.samples_used
            if not dice.prime():
                break
            reads.append(dice.samples_used - before)
            if len(reads) % 10 == 0:
                for _ in range(60):
                    dice.draw(D6)  # and blocks used up, reseeds among them
        self.assertTrue(max(reads) <= ONE_BUFFER, max(reads))
        self.assertTrue(sum(reads) >= STARTUP_TEST_SAMPLES - STARTUP_SAMPLES - 192)

    def test_a_reseed_from_the_rosc_bits_is_gathered_a_buffer_a_pass(self):
        # 512 claimed bits at 0.5 a ROSC sample are 1024 samples: never all in one pass of the loop.
        dice = FairDice(FairBits(4))
        reads = []
        reseeds = 0
        for _n in range(3000):
            before = dice.samples_used
            counter = dice._drbg.reseed_counter
            if dice.prime():
                reads.append(dice.samples_used - before)
                if dice._drbg.reseed_counter < counter:
                    reseeds += 1
            else:
                for _ in range(30):  # rolls between idle passes, never so many that a roll does the reseed
                    dice.draw(D6)
        self.assertTrue(reseeds >= 3, reseeds)
        self.assertTrue(max(reads) <= ONE_BUFFER, max(reads))


def _lfsr_bits(lfsr, n):
    """An LfsrBits' first `n` bits, as the ROSC's register would give them."""
    return [lfsr(0) for _ in range(n)]


def _bits_of(source, n):
    """The first `n` bits of a source: its samples if binary, else its bytes' bits, the top first."""
    if source.binary:
        buf = bytearray(n)
        source.fill(buf)
        return list(buf)
    buf = bytearray(n // 8)
    source.fill(buf)
    return [(byte >> (7 - i)) & 1 for byte in buf for i in range(8)]


def _byte(bits, at):
    value = 0
    for i in range(8):
        value = (value << 1) | bits[at + i]
    return value


def _complexities(bits):
    """The linear complexity of each prefix of `bits` (its length - 1 indexing it): Berlekamp-Massey as
    textbooks give it, a bit list for each polynomial."""
    c = [1]
    b = [1]
    span = 0
    m = 1
    out = []
    for n in range(len(bits)):
        d = bits[n]
        for i in range(1, span + 1):
            d ^= c[i] & bits[n - i]
        if d:
            t = list(c)
            if len(c) < len(b) + m:
                c.extend([0] * (len(b) + m - len(c)))
            for i in range(len(b)):
                c[i + m] ^= b[i]
            if 2 * span <= n:
                span = n + 1 - span
                b = t
                m = 1
            else:
                m += 1
        else:
            m += 1
        out.append(span)
    return out


def _loaded(name):
    import sys

    import dicetower.core as package

    return "dicetower.core." + name in sys.modules or hasattr(package, name)


def _forget(name):
    import sys

    import dicetower.core as package

    sys.modules.pop("dicetower.core." + name, None)
    if hasattr(package, name):
        delattr(package, name)


class Memory(unittest.TestCase):
    """On a Pico, code loaded from an .mpy lives on the game's heap: dice load only what they need."""

    def test_a_replay_loads_neither_the_drbg_nor_the_start_up_test(self):
        _forget("drbg")
        _forget("entropy_startup")
        dice = FairDice(SeededSource(3))
        for _ in range(200):
            dice.draw(D6)
            dice.prime(0)
        self.assertFalse(_loaded("drbg"))
        self.assertFalse(_loaded("entropy_startup"))

    def test_the_start_up_test_is_released_once_it_passes(self):
        for source in (Noise(5), FairBits(5)):
            _forget("entropy_startup")
            dice = FairDice(source)
            self.assertTrue(_loaded("entropy_startup"))  # its first 1024 samples done, the rest at idle
            self.assertTrue(_loaded("drbg"))
            while dice.prime(0):
                pass
            self.assertIsNone(dice.failure)
            self.assertFalse(_loaded("entropy_startup"))
            self.assertTrue(dice.recover())  # a start-up test again: loaded for it, released after
            self.assertFalse(_loaded("entropy_startup"))
            self.assertTrue(0 <= dice.draw(D6) < 6)


class Paused(unittest.TestCase):
    """Paused dice retried from the loop with back-off: back when the noise is."""

    def _paused(self):
        source = Noise(1)
        dice = FairDice(source)
        dice.draw(D6)
        source.broken = b"\x07"
        try:
            for _ in range(2000):
                dice.draw(D6)
                dice.prime(0)
        except EntropyFailure:
            pass
        self.assertIsNotNone(dice.failure)
        return source, dice

    def test_retries_back_off_then_the_dice_come_back(self):
        source, dice = self._paused()
        self.assertFalse(dice.prime(10))  # the wait begins
        self.assertFalse(dice.prime(10 + RETRY_FIRST_MS - 1))
        self.assertTrue(dice.prime(10 + RETRY_FIRST_MS))  # a try begins
        self.assertTrue(dice.prime(10 + RETRY_FIRST_MS))  # and fails at once: still stuck
        self.assertEqual(dice.retries, 1)
        later = 10 + RETRY_FIRST_MS
        self.assertFalse(dice.prime(later + 2 * RETRY_FIRST_MS - 1))  # twice as long now
        self.assertTrue(dice.prime(later + 2 * RETRY_FIRST_MS))
        source.broken = None  # the noise recovers
        now = later + 2 * RETRY_FIRST_MS
        calls = 0
        most = 0
        while dice.failure is not None and calls < 3000:
            before = dice.samples_used
            self.assertTrue(dice.prime(now))
            most = max(most, dice.samples_used - before)
            calls += 1
        self.assertIsNone(dice.failure)
        self.assertEqual(dice.retries, 2)
        # The whole test again and the two seed blocks, a buffer a call: the loop's buttons never wait long.
        self.assertTrue(calls > STARTUP_TEST_SAMPLES // ONE_BUFFER)
        self.assertEqual(most, ONE_BUFFER)
        self.assertTrue(0 <= dice.draw(D6) < 6)

    def test_a_paused_dice_refuses_until_then(self):
        source, dice = self._paused()
        source.broken = None
        with self.assertRaises(EntropyFailure) as caught:
            dice.draw(D6)
        self.assertEqual(caught.exception.screen, PAUSED)
        self.assertFalse(dice.prime())  # no clock, no retry

    def test_the_back_off_stops_growing_at_64_s(self):
        source, dice = self._paused()
        now = 0
        dice.prime(now)
        for _ in range(12):
            while not dice.prime(now):
                now += 500
            dice.prime(now)  # the try fails
        waited = now
        while not dice.prime(now):
            now += 500
        self.assertEqual(now - waited, 64000)


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


SFC16_SEED1_FIRST8 = b"\x1d\xb6\xb6\xf8s\x9c\x9c\xbb"

if __name__ == "__main__":
    unittest.main()
