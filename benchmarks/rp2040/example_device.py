"""The start every example probe shares (benchmarks/rp2040_pico.py puts it before app_heap_probe.py and
tap_probe.py): on the emulated RP2040 right after a soft reset, KEYS, NAME and SEEDS set before it. The
chip seals the example's games with the simulator's seeds, so that its faces, and so its path through
the example, are the simulator's (the chip's own noise would take another: a Prison, an early win); the
device boots as main.py boots it, its dice's start-up test done; `settle()` runs its loop for SETTLE_MS
of the chip's time (a press's redraw, the roll's animation, the idle work)."""

import time

import main

SETTLE_MS = 1100  # a roll's animation is about a second (ui/leds.py FRAMES)

if SEEDS:  # noqa: F821 (set before: the seeds the simulator sealed the example's games with, in hex)
    from binascii import unhexlify

    from dicetower.core import entropy

    seeds = [unhexlify(seed) for seed in SEEDS]  # noqa: F821
    entropy.FairDice.secret = lambda self, n: seeds.pop(0)

dev = main.boot()
while dev._prime is not None and dev._prime():
    pass  # the dice's start-up test, as the loop finishes it at idle


def settle():
    began = time.ticks_ms()
    while True:
        now = time.ticks_ms()
        wait = dev.tick(now)
        if wait == 0:
            continue
        left = SETTLE_MS - time.ticks_diff(now, began)
        if left <= 0:
            return
        time.sleep_ms(min(wait, left))
