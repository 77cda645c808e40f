"""The hardware entropy sources, one per chip: each an entropy source as core/entropy.py writes it down.

Facts, from MicroPython's rp2 port (1.22-1.27) and the pico-sdk registers:
- `os.urandom` on rp2 reads the ring oscillator's RANDOMBIT eight times per
  byte, 1 us apart, through an 8-bit CRC (ports/rp2/main.c); the same code on
  RP2040 and RP2350. We claim 7 bits of min-entropy per byte.
- The ROSC RANDOMBIT register is bit 0 of 0x4006001C on RP2040 (0x400E8020 on
  RP2350). Raw, it is biased and periodic when read fast, so we read it 1 us
  apart, and `FairDice` tests the raw bits (health tests, then a start-up
  test that catches a ring oscillator locked into a cycle or an LFSR-like
  pattern) and conditions them with SHA-256 for its DRBG. Because the tests
  see the raw bits here, it is the RP2040's default source; `os.urandom`'s
  CRC would hide a dead oscillator from them, so it is only the fallback.
- MicroPython does not expose the RP2350 TRNG; `Rp2350Trng` (hw/trng.py) drives its
  registers through `machine.mem32` (addresses from pico-sdk's trng.h),
  keeping the TRNG's own checks on and taking its conditioned output; a
  collection the TRNG flags as bad is discarded, and only a run of them is
  an error. Not yet tried on a board.
Hardware objects (mem32, sleep_us) are injected so tests can stand in for them.
"""

ROSC_RANDOMBIT = {"RP2040": 0x4006001C, "RP2350": 0x400E8020}


class Urandom:
    """`os.urandom`: on rp2, CRC-mixed ring-oscillator bits; on a host, the OS."""

    binary = False
    min_entropy = 7

    def __init__(self, urandom=None, name="os.urandom"):
        if urandom is None:
            import os

            urandom = os.urandom
        self._urandom = urandom
        self.name = name

    def fill(self, buf):
        data = self._urandom(len(buf))
        for i in range(len(buf)):
            buf[i] = data[i]


class RoscBits:
    """The ring oscillator's random bit, read directly: raw binary samples.

    We claim 0.8 bits of min-entropy per raw bit, so that a source as bad as
    75/25 fails the adaptive proportion test within a few thousand samples;
    a ROSC that cannot keep that up is left for `os.urandom`.
    """

    binary = True
    min_entropy = 0.8

    def __init__(self, chip="RP2040", mem32=None, sleep_us=None):
        if chip not in ROSC_RANDOMBIT:
            raise ValueError("no ROSC random bit known for chip %r" % (chip,))
        if mem32 is None:
            import machine

            mem32 = machine.mem32
        if sleep_us is None:
            import time

            sleep_us = time.sleep_us
        self._mem32 = mem32
        self._sleep_us = sleep_us
        self._address = ROSC_RANDOMBIT[chip]
        self.name = "%s ROSC random bit" % chip

    def fill(self, buf):
        mem32 = self._mem32  # locals: the dice's start-up test reads 2**16 bits through here
        address = self._address
        sleep_us = self._sleep_us
        for i in range(len(buf)):
            buf[i] = mem32[address] & 1
            sleep_us(1)


def _random_bytes(n):
    import random

    return bytes(random.getrandbits(8) for _ in range(n))


def chip_of(machine_name):
    """'RP2040' or 'RP2350' from `os.uname().machine`, else None.

    MicroPython names the board then the chip: "Raspberry Pi Pico with
    RP2040", "Raspberry Pi Pico2 with RP2350" (or "... RP2350-RISCV").
    """
    for chip in ("RP2350", "RP2040"):
        if chip in machine_name:
            return chip
    return None


def sources_for(machine_name, mem32=None, sleep_us=None, urandom=None):
    """The chip's own noise source, then `os.urandom` behind it: the sources `FairDice` takes.

    RP2040: the raw ROSC bit. RP2350: the TRNG. The dice move to the second
    source if the first fails its start-up test or a health test later.
    `mem32`, `sleep_us` and `urandom` stand in for the hardware in tests.
    """
    chip = chip_of(machine_name)
    if urandom is None:
        import os

        urandom = getattr(os, "urandom", None)
    if urandom is None:
        # MicroPython's WebAssembly port (the virtual Pico) has no os.urandom: its `random`
        # module, seeded by the browser's or node's crypto, stands in. Named so in every event.
        fallback = Urandom(_random_bytes, name="VM random module (no hardware noise)")
    else:
        fallback = Urandom(urandom, name="%s os.urandom" % (chip or "host"))
    if chip == "RP2350":
        from dicetower.hw.trng import Rp2350Trng  # an RP2040's heap and table of names never hold it

        return Rp2350Trng(mem32), fallback
    if chip == "RP2040":
        return RoscBits(chip, mem32, sleep_us), fallback
    return (fallback,)
