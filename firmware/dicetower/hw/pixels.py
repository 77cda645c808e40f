"""The WS2812 ring: one preallocated byte buffer, a brightness cap, no allocation per frame.

Colours are set as (r, g, b) into `set(i, r, g, b)`; `show()` scales them by
the board's cap (see core/board.py for how it is computed from the current
budget), orders them as the strip wants (GRB for most rings) and sends them
with `machine.bitstream`, the call MicroPython's own neopixel module makes.
"""

TIMING = (400, 850, 800, 450)  # WS2812 800 kHz: high/low ns for a 0 and a 1


class Ring:
    def __init__(self, pin, count, order="GRB", cap=1.0, bitstream=None):
        if bitstream is None:
            from machine import bitstream
        self._bitstream = bitstream
        self.pin = pin
        self.count = count
        self.order = order
        self.bpp = len(order)
        self.colours = bytearray(3 * count)  # r, g, b per LED, before the cap
        self.buf = bytearray(self.bpp * count)
        self._scale = int(cap * 256)  # fixed point: small ints, no floats per frame
        self._r = order.index("R")
        self._g = order.index("G")
        self._b = order.index("B")
        self.frames = 0

    def set(self, i, r, g, b):
        c = self.colours
        c[3 * i] = r
        c[3 * i + 1] = g
        c[3 * i + 2] = b

    def fill(self, r, g, b):
        for i in range(self.count):
            self.set(i, r, g, b)

    def show(self):
        c = self.colours
        buf = self.buf
        scale = self._scale
        bpp = self.bpp
        for i in range(self.count):
            at = i * bpp
            buf[at + self._r] = (c[3 * i] * scale) >> 8
            buf[at + self._g] = (c[3 * i + 1] * scale) >> 8
            buf[at + self._b] = (c[3 * i + 2] * scale) >> 8
        self._bitstream(self.pin, 0, TIMING, buf)
        self.frames += 1
