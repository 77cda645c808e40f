"""The WS2812 ring: colours, a brightness cap, no allocation per frame.

Colours are set as (r, g, b) into `set(i, r, g, b)`; `show()` scales them by
the board's cap (see core/board.py for how it is computed from the current
budget) in fixed point, the same integers on every runtime, and hands each
LED to the runtime's writer:
- `Ring` (MicroPython) orders them as the strip wants (GRB for most rings)
  into one preallocated buffer and sends it with `machine.bitstream`, the
  call MicroPython's own neopixel module makes;
- `hw/circuitpy.NeoPixelRing` (CircuitPython) gives them to Adafruit's
  `neopixel` library, which orders and sends them.
"""

TIMING = (400, 850, 800, 450)  # WS2812 800 kHz: high/low ns for a 0 and a 1


class Pixels:
    """What every ring shares: the colours before the cap, the cap, the frame count."""

    def __init__(self, count, order="GRB", cap=1.0):
        self.count = count
        self.order = order
        self.bpp = len(order)
        self.colours = bytearray(3 * count)  # r, g, b per LED, before the cap
        self._scale = int(cap * 256)  # fixed point: small ints, no floats per frame
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
        scale = self._scale
        for i in range(self.count):
            self._put(i, (c[3 * i] * scale) >> 8, (c[3 * i + 1] * scale) >> 8, (c[3 * i + 2] * scale) >> 8)
        self._send()
        self.frames += 1

    def _put(self, i, r, g, b):
        raise NotImplementedError

    def _send(self):
        raise NotImplementedError


class Ring(Pixels):
    def __init__(self, pin, count, order="GRB", cap=1.0, bitstream=None):
        Pixels.__init__(self, count, order, cap)
        if bitstream is None:
            from machine import bitstream
        self._bitstream = bitstream
        self.pin = pin
        self.buf = bytearray(self.bpp * count)
        self._r = order.index("R")
        self._g = order.index("G")
        self._b = order.index("B")

    def _put(self, i, r, g, b):
        at = i * self.bpp
        buf = self.buf
        buf[at + self._r] = r
        buf[at + self._g] = g
        buf[at + self._b] = b

    def _send(self):
        self._bitstream(self.pin, 0, TIMING, self.buf)
