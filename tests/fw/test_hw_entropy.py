"""The chips' entropy sources, with their registers stood in for. Runs on CPython and the VM."""

import unittest

from sources import LfsrBits

from dicetower.core.dice import D6
from dicetower.core.entropy import EntropyFailure, FairDice
from dicetower.core.replay import SeededSource
from dicetower.hw import entropy as hw
from dicetower.hw.entropy import ROSC_RANDOMBIT, RoscBits, Urandom, chip_of
from dicetower.hw.trng import Rp2350Trng


class Registers:
    """A stand-in for machine.mem32: reads come from `read(address)`."""

    def __init__(self, read):
        self.read = read
        self.writes = []

    def __getitem__(self, address):
        return self.read(address)

    def __setitem__(self, address, value):
        self.writes.append((address, value))


class SeededBits:
    def __init__(self, seed):
        self.source = SeededSource(seed)
        self.buf = bytearray(1)

    def __call__(self, address):
        self.source.fill(self.buf)
        return self.buf[0] & 1


class Chips(unittest.TestCase):
    def test_chip_from_os_uname(self):
        self.assertEqual(chip_of("Raspberry Pi Pico with RP2040"), "RP2040")
        self.assertEqual(chip_of("Raspberry Pi Pico W with RP2040"), "RP2040")
        self.assertEqual(chip_of("Raspberry Pi Pico2 with RP2350"), "RP2350")
        self.assertEqual(chip_of("Raspberry Pi Pico 2 W with RP2350-RISCV"), "RP2350")
        self.assertIsNone(chip_of("JS with Emscripten"))


class Rosc(unittest.TestCase):
    def test_reads_bit_0_of_randombit_one_microsecond_apart(self):
        addresses = []
        sleeps = []

        def read(address):
            addresses.append(address)
            return 0xFFFFFFFE if len(addresses) % 2 else 0x3  # only bit 0 counts

        source = RoscBits("RP2040", mem32=Registers(read), sleep_us=sleeps.append)
        buf = bytearray(4)
        source.fill(buf)
        self.assertEqual(list(buf), [0, 1, 0, 1])
        self.assertEqual(set(addresses), {0x4006001C})
        self.assertEqual(sleeps, [1, 1, 1, 1])
        self.assertEqual(ROSC_RANDOMBIT["RP2350"], 0x400E8020)

    def test_rosc_dice_are_health_tested_and_conditioned(self):
        source = RoscBits("RP2040", mem32=Registers(SeededBits(8)), sleep_us=lambda us: None)
        dice = FairDice(source)
        self.assertIsNone(dice.failure)
        self.assertTrue(dice.binary)
        self.assertTrue(0 <= dice.draw(D6) < 6)

    def test_stuck_rosc_refuses(self):
        source = RoscBits("RP2040", mem32=Registers(lambda a: 1), sleep_us=lambda us: None)
        self.assertIn("repetition count", FairDice(source).failure)

    def test_an_lfsr_on_the_rosc_bit_path_is_caught_before_any_face(self):
        # The ring oscillator locked into a linear feedback pattern: a 15-bit one repeats every
        # 32,767 bits, a 127-bit one never within a game; both follow a recurrence the linear
        # complexity test finds in the start-up test's first 512 bits.
        for length in (15, 127):
            lfsr = LfsrBits(length)
            dice = FairDice(RoscBits("RP2040", mem32=Registers(lfsr), sleep_us=lambda us: None))
            self.assertIn(
                "ROSC random bit failed its start-up test: linear complexity test: the first 512 bits "
                "follow an LFSR of %d bits" % length,
                dice.failure,
            )
            with self.assertRaises(EntropyFailure):
                dice.draw(D6)
            self.assertEqual(dice.bytes_used, 0)

    def test_a_counter_on_the_rosc_bit_path_is_caught_before_any_face(self):
        count = [0]

        def counter_bits(address):  # a byte counter's bits, the highest first
            n = count[0]
            count[0] = n + 1
            return ((n >> 3) >> (7 - (n & 7))) & 1

        dice = FairDice(RoscBits("RP2040", mem32=Registers(counter_bits), sleep_us=lambda us: None))
        with self.assertRaises(EntropyFailure):
            dice.draw(D6)  # the rest of the start-up test first
        self.assertIn("failed its start-up test: period test", dice.failure)
        self.assertEqual(dice.bytes_used, 0)

    def test_unknown_chip(self):
        with self.assertRaises(ValueError):
            RoscBits("ESP32", mem32=Registers(lambda a: 0), sleep_us=lambda us: None)


# The RP2350's TRNG registers, from pico-sdk's trng.h: what the driver (hw/trng.py) must read and write.
TRNG_RNG_ISR = 0x400F0104
TRNG_RNG_ICR = 0x400F0108
TRNG_EHR_DATA0 = 0x400F0114
TRNG_RND_SOURCE_ENABLE = 0x400F012C


class TrngWords:
    """TRNG registers: always valid, EHR words from a seeded generator."""

    def __init__(self, seed):
        self.source = SeededSource(seed)
        self.word = bytearray(4)
        self.reads = []

    def __call__(self, address):
        if address == TRNG_RNG_ISR:
            return 1  # EHR_VALID
        self.reads.append(address)
        self.source.fill(self.word)
        w = self.word
        return w[0] | w[1] << 8 | w[2] << 16 | w[3] << 24


class Trng(unittest.TestCase):
    def test_reads_six_words_when_valid(self):
        words = TrngWords(4)
        regs = Registers(words)
        trng = Rp2350Trng(mem32=regs)
        buf = bytearray(30)
        trng.fill(buf)
        self.assertTrue(any(buf))
        self.assertEqual(words.reads[:7], [TRNG_EHR_DATA0 + 4 * i for i in (0, 1, 2, 3, 4, 5, 0)])
        self.assertIn((TRNG_RND_SOURCE_ENABLE, 1), regs.writes)
        dice = FairDice(Rp2350Trng(mem32=regs))
        self.assertIsNone(dice.failure)

    def test_a_flagged_collection_is_discarded(self):
        words = TrngWords(5)
        isr = [0x4, 0x1]  # one CRNGT error, then valid data

        def read(address):
            if address == TRNG_RNG_ISR:
                return isr.pop(0) if isr else 1
            return words(address)

        regs = Registers(read)
        buf = bytearray(6)
        Rp2350Trng(mem32=regs).fill(buf)
        self.assertIn((TRNG_RNG_ICR, 0xFFFFFFFF), regs.writes)
        self.assertEqual(len(words.reads), 6)

    def test_a_run_of_flagged_collections_becomes_a_dice_failure(self):
        regs = Registers(lambda a: 0x4 if a == TRNG_RNG_ISR else 0)
        self.assertIn("flagged 8 collections in a row", FairDice(Rp2350Trng(mem32=regs)).failure)

    def test_silent_trng(self):
        regs = Registers(lambda a: 0)
        self.assertIn("gave no data", FairDice(Rp2350Trng(mem32=regs)).failure)


def counting_urandom(n):
    return bytes((i * 37 + 11) & 0xFF for i in range(n))


_URANDOM = SeededSource(77)


def seeded_urandom(n):
    buf = bytearray(n)
    _URANDOM.fill(buf)
    return bytes(buf)


class Urandoms(unittest.TestCase):
    def test_urandom_fills_the_buffer(self):
        buf = bytearray(8)
        Urandom(counting_urandom).fill(buf)
        self.assertEqual(bytes(buf), b"\x0b\x30\x55\x7a\x9f\xc4\xe9\x0e")

    def test_an_urandom_that_repeats_itself_is_caught(self):
        # The same 32 bytes at every call: each passes the health tests, the start-up test's period test does not.
        dice = FairDice(Urandom(counting_urandom))
        self.assertIn("period test: the first 16 samples came round again after 32", dice.failure)


def fair_dice_for(machine_name, **hardware):
    """The dice a board's device makes: FairDice over the chip's sources (hw/entropy.sources_for)."""
    return FairDice(*hw.sources_for(machine_name, **hardware))


def rosc(bits):
    return dict(mem32=Registers(bits), sleep_us=lambda us: None)


class DefaultDice(unittest.TestCase):
    def test_rp2040_rolls_with_its_raw_ring_oscillator(self):
        dice = fair_dice_for("Raspberry Pi Pico with RP2040", urandom=seeded_urandom, **rosc(SeededBits(2)))
        self.assertEqual(dice.name, "RP2040 ROSC random bit")
        self.assertIsNone(dice.failure)
        self.assertIsNone(dice.switched)

    def test_rp2040_falls_back_to_urandom_when_the_rosc_is_stuck(self):
        dice = fair_dice_for("Raspberry Pi Pico W with RP2040", urandom=seeded_urandom, **rosc(lambda a: 1))
        self.assertEqual(dice.name, "RP2040 os.urandom")
        self.assertIn("ROSC random bit failed its health check", dice.switched)
        self.assertTrue(0 <= dice.draw(D6) < 6)

    def test_rp2350_rolls_with_its_trng(self):
        dice = fair_dice_for("Raspberry Pi Pico2 with RP2350", mem32=Registers(TrngWords(9)), urandom=seeded_urandom)
        self.assertEqual(dice.name, "RP2350 TRNG")
        self.assertIsNone(dice.switched)

    def test_rp2350_falls_back_when_the_trng_fails(self):
        dice = fair_dice_for("Raspberry Pi Pico2 with RP2350", mem32=Registers(lambda a: 0), urandom=seeded_urandom)
        self.assertEqual(dice.name, "RP2350 os.urandom")
        self.assertIn("gave no data", dice.switched)
        self.assertTrue(0 <= dice.draw(D6) < 6)

    def test_a_source_failing_mid_game_hands_over_to_urandom(self):
        bits = SeededBits(3)
        stuck = [False]
        dice = fair_dice_for(
            "Raspberry Pi Pico with RP2040", urandom=seeded_urandom, **rosc(lambda a: 1 if stuck[0] else bits(a))
        )
        for _ in range(20):
            dice.draw(D6)
        stuck[0] = True
        for _ in range(2000):  # no draw fails: the fallback takes over at the next reseed
            self.assertTrue(0 <= dice.draw(D6) < 6)
            if dice.switched:
                break
        self.assertEqual(dice.name, "RP2040 os.urandom")
        self.assertIn("repetition count", dice.switched)

    def test_a_host_rolls_with_os_entropy(self):
        dice = fair_dice_for("JS with Emscripten", urandom=seeded_urandom)
        self.assertEqual(dice.name, "host os.urandom")
