"""Runs on the MicroPython VM, or on the emulated RP2040: what the dice's entropy path costs, step by step.

Started by benchmarks/vm_entropy.py; prints one `name value unit` line each. On the VM the sources are
stand-ins made in Python; on the chip (sys.platform "rp2") they are the Pico's own: os.urandom and the
ROSC's random bit read through machine.mem32, 1 us apart, as the device reads them.
"""

import gc
import sys
import time

from dicetower.core.dice import D6
from dicetower.core.drbg import HmacDrbg
from dicetower.core.entropy import STARTUP_TEST_SAMPLES, FairDice
from dicetower.core.replay import SeededSource
from dicetower.hw.entropy import RoscBits, Urandom


class Bits:
    """machine.mem32 for the ROSC's register: sfc16's low bits (the Pico's own read costs more)."""

    def __init__(self):
        self.source = SeededSource(3)
        self.byte = bytearray(1)

    def __getitem__(self, address):
        self.source.fill(self.byte)
        return self.byte[0]


seeded = SeededSource(2)


def urandom_like(n):
    buf = bytearray(n)
    seeded.fill(buf)
    return bytes(buf)


def say(name, value, unit):
    print("%s %s %s" % (name, value, unit))


def us_since(start):
    return time.ticks_diff(time.ticks_us(), start)


if sys.platform == "rp2":
    import os

    SOURCES = (("bytes", lambda: Urandom(os.urandom)), ("rosc_bits", lambda: RoscBits("RP2040")))
else:
    SOURCES = (
        ("bytes", lambda: Urandom(urandom_like)),
        ("rosc_bits", lambda: RoscBits("RP2040", mem32=Bits(), sleep_us=lambda us: None)),
    )

for label, make in SOURCES:
    dice = FairDice(make())
    # The whole start-up test, as recover() runs it (the loop runs it a slice a pass): per sample.
    start = time.ticks_us()
    dice.recover()
    took = us_since(start)
    say("startup_" + label, took, "us")
    say("startup_sample_" + label, "%.2f" % (took / (STARTUP_TEST_SAMPLES + 1024)), "us")
    # The tests alone, per sample (what the source's read costs is left out: a Pico's is C code).
    probe = FairDice(make())
    bufs = []
    noise = SeededSource(9)
    for _ in range(200):  # distinct samples, made beforehand
        buf = bytearray(32)
        noise.fill(buf)
        if label == "rosc_bits":
            for i in range(32):
                buf[i] &= 1
        bufs.append(buf)
    start = time.ticks_us()
    for buf in bufs:
        probe.health.check_all(buf)
    say("health_sample_" + label, "%.2f" % (us_since(start) / 6400), "us")
    from dicetower.core.entropy_startup import StartupTest

    test = StartupTest(label == "rosc_bits")
    test._bits = 512  # past the linear complexity test: the period test alone
    start = time.ticks_us()
    for buf in bufs:
        test.check(buf)
    say("period_sample_" + label, "%.2f" % (us_since(start) / 6400), "us")
    # Conditioning one seed block (the samples for 512 claimed bits, health-tested, through SHA-256).
    start = time.ticks_us()
    for _ in range(10):
        dice._gather(dice._seed_samples)
    say("condition_" + label, us_since(start) // 10, "us")
    # The longest prime() pass: a start-up slice, a block of output, a reseed's slice; then paused dice
    # tried again (the whole start-up test and two seed blocks, a slice a pass). And the most samples
    # any pass read: the bound (one buffer).
    longest = {}  # by what the loop was doing: the start-up test's rest, rolling, paused dice retried
    longest_reading = 0
    most = 0
    fresh = FairDice(make())

    def timed(now, phase):
        global longest_reading, most
        before = fresh.samples_used
        if gc.mem_free() < 65536:
            gc.collect()
        gc.disable()  # the VM's collections of its large heap, which a Pico's loop makes passes of their own
        start = time.ticks_us()
        worked = fresh.prime(now)
        took = us_since(start)
        gc.enable()
        longest[phase] = max(longest.get(phase, 0), took)
        read = fresh.samples_used - before
        most = max(most, read)
        if read:
            longest_reading = max(longest_reading, took)
        return worked

    while timed(0, "startup"):
        pass
    for _ in range(40):
        for _ in range(30):
            fresh.draw(D6)
        timed(0, "rolling")
    fresh.failure = "paused by the probe"  # as a failed test leaves it: retried after RETRY_FIRST_MS
    timed(0, "retry")
    while fresh.failure is not None:
        timed(10**6, "retry")
    for phase in ("startup", "rolling", "retry"):
        say("longest_prime_%s_%s" % (phase, label), longest[phase], "us")
    say("longest_prime_" + label, max(longest.values()), "us")
    say("samples_prime_" + label, most, "samples")
    say("longest_reading_prime_" + label, longest_reading, "us")

drbg = HmacDrbg()
drbg.instantiate(b"\x01" * 32, b"\x02" * 32, b"dicetower dice")
out = bytearray(32)
gc.collect()
gc.disable()
before = gc.mem_alloc()
start = time.ticks_us()
for _ in range(100):
    drbg.generate(out)
took = us_since(start)
say("drbg_block", took // 100, "us")
say("drbg_block_heap", (gc.mem_alloc() - before) // 100, "bytes")
gc.enable()

# Faces: DRBG output bytes per face, and heap per face with the bytes made ahead at idle (as the loop
# does) and without.
for primed in (True, False):
    dice = FairDice(Urandom(urandom_like))
    dice.draw(D6)
    faces = 3000
    used = dice.bytes_used
    samples = dice.samples_used
    allocated = 0
    for _ in range(faces // 6):
        if primed:
            while dice.prime(0):
                pass
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        for _ in range(6):
            dice.draw(D6)
        allocated += gc.mem_alloc() - before
        gc.enable()
    tag = "primed" if primed else "unprimed"
    say("face_heap_" + tag, "%.1f" % (allocated / faces), "bytes")
    say("bytes_per_face_" + tag, "%.4f" % ((dice.bytes_used - used) / faces), "bytes")
    say("noise_per_face_" + tag, "%.2f" % ((dice.samples_used - samples) / faces), "samples")

# A game's seal, as ui/sealing.py makes it when a game begins (32 bytes of the tower's dice, the
# commitment), and its cut, as "Cut and play" closes it (a phone's part taken, the nonce, the game's DRBG
# instantiated); then a face from it beside one from the tower's dice, each with its DRBG's next request
# made ahead at idle as the device's loop makes it.
from dicetower.core.dice import BATTLEREALM  # noqa: E402
from dicetower.core.sealed import SealedDice  # noqa: E402
from dicetower.ui.resealing import add, dice_text  # noqa: E402

REALM = dice_text([BATTLEREALM])
PHONE = "0123456789abcdef0123456789abcdef"
tower = FairDice(Urandom(urandom_like))
while tower.prime(0):
    pass
gc.collect()
start = time.ticks_us()
game = SealedDice(tower, tower.secret(32), "battlerealm", 4, 1, REALM)
say("seal", us_since(start), "us")
start = time.ticks_us()
add(game, PHONE)
add(game, "#4711")
game.close()
say("cut", us_since(start), "us")
# What a game in play holds for its seal: the modules (ui/sealing.py's too: ui/resealing.py, the seal's
# moments between throws, is let go once the cut is made) and the sealed dice, cut by a phone, with the
# record of a long game's draws (a thousand faces, in throws of six), saved. Then what the moments add while
# they last: ui/resealing.py.
import dicetower.core.actions  # noqa: E402, F401 (what a booted device holds already)
import dicetower.core.game  # noqa: E402, F401
import dicetower.ui.screens  # noqa: E402, F401
from dicetower.core.scope import Scope  # noqa: E402

forgotten = Scope("bench")
for name in ("dicetower.core.sealed", "dicetower.ui.resealing", "dicetower.ui.sealing"):
    forgotten.adopt(name)  # imported again below: counted with the rest
forgotten.close()
del forgotten
del add, dice_text, SealedDice
gc.collect()
before = gc.mem_free()
import dicetower.core.sealed  # noqa: E402, F401
import dicetower.ui.sealing  # noqa: E402, F401

held = dicetower.core.sealed.SealedDice(tower, tower.secret(32), "battlerealm", 4, 2, REALM)
held.cut.append(PHONE)  # as the cut took it
held.close()
for at in range(167):
    held.throw(at, 0, 0)
    for _ in range(6):
        held.draw(BATTLEREALM)
    held.ends()
held.saved()  # as every save has asked it: the record's text, kept between saves (core/sealed.py's text)
gc.collect()
say("seal_heap", before - gc.mem_free(), "bytes")
before = gc.mem_free()
import dicetower.ui.resealing  # noqa: E402, F401

gc.collect()
say("moments_heap", before - gc.mem_free(), "bytes")
# What the seal adds to a save's coding late in a game: one throw more of that 1,000-face record, then
# the seal as the save keeps it (core/game.py's to_dict asks it in the pass the throw's faces wait for).
held.throw(167, 0, 0)
for _ in range(6):
    held.draw(BATTLEREALM)
held.ends()
gc.collect()
start = time.ticks_us()
held.saved()
say("seal_save", us_since(start), "us")
# Six dice as a press throws them: the loop's idle work done before (prime), then the press's time stirred
# in (Device._work stirs before the App's press), then the throw opened (a sealed game's) and the six
# draws. The tower's dice make their next block then, with the press in it; a sealed game's faces take no
# additional input, and the tower's block waits for the next idle pass. Without a stir ("roll_"), the
# faces' own path alone.
for stirred in (False, True):
    for name, dice in (("tower", tower), ("sealed", game)):
        took = 0
        for n in range(100):
            while dice.prime(0):
                pass
            gc.collect()
            if stirred:
                dice.stir(time.ticks_us())
            start = time.ticks_us()
            if name == "sealed":
                dice.throw(n, 0, 0)
            for _ in range(6):
                dice.draw(BATTLEREALM)
            took += us_since(start)
            if name == "sealed":
                dice.ends()
        say(("press_" if stirred else "roll_") + name, took // 100, "us")
