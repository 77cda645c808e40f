"""A virtual `neopixel_write`: the bytes go to the strip on the output's pin."""

import devices


def neopixel_write(digitalinout, buf):
    if digitalinout.direction != "OUTPUT":
        raise ValueError("the NeoPixel pin must be an output")
    strip = devices.BENCH.strips.get(digitalinout.pin.id)
    if strip is not None:
        strip.receive(buf)
