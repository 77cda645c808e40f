"""A virtual `supervisor`: ticks_ms from the bench's clock, wrapping at 2**29 as CircuitPython's does."""

import devices


def ticks_ms():
    return devices.BENCH.clock.now & ((1 << 29) - 1)
