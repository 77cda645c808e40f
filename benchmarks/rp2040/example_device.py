"""The start every example probe shares (benchmarks/rp2040_pico.py puts it before app_heap_probe.py and
tap_probe.py): on the emulated RP2040 right after a soft reset, KEYS and NAME set before it, and
example_seeds.py run (the chip seals the example's games with the simulator's seeds); the device boots as
main.py boots it, its dice's start-up test done; `settle()` runs its loop for SETTLE_MS
of the chip's time (a press's redraw, the roll's animation, the idle work)."""

import time

import main

SETTLE_MS = 1100  # a roll's animation is about a second (ui/leds.py FRAMES)

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
