"""SSD1306 128x64 over I2C: sends only the columns of the pages that changed.

The canvas (`ui.canvas.Canvas.buf`) is the panel's memory image; `show()`
compares it with what the panel already holds and sends, per page, only the
run of columns from the first to the last changed byte. A full frame costs
1,024 data bytes (about 24 ms at 400 kHz); a menu step usually a few dozen.

A display that does not answer (no ACK at start or later) is survived: the
driver marks itself absent, tells the console once, and tries again every
RETRY_MS, so the LEDs and the game carry on.
"""

INIT = (
    0xAE,        # display off
    0x20, 0x00,  # horizontal addressing
    0x40,        # start line 0
    0xA1,        # column 127 is SEG0
    0xA8, 63,    # multiplex 64
    0xC8,        # scan COM63 to COM0
    0xD3, 0x00,  # no offset
    0xDA, 0x12,  # COM pins: alternative, no remap
    0xD5, 0x80,  # clock
    0xD9, 0xF1,  # pre-charge
    0xDB, 0x30,  # VCOMH
    0x81, 0xCF,  # contrast
    0xA4,        # follow RAM
    0xA6,        # not inverted
    0x8D, 0x14,  # charge pump on
    0xAF,        # display on
)
RETRY_MS = 5000
WIDTH = 128
PAGES = 8


class Oled:
    def __init__(self, i2c, address=0x3C, log=print, diff=None):
        self.i2c = i2c
        self.address = address
        self.log = log
        self.sent = bytearray(WIDTH * PAGES)
        self.present = False
        self.bytes_sent = 0
        self._retry_at = 0
        self._diff = diff or (lambda a, b: a - b)
        self._unknown = True  # what the panel holds is unknown: the first show sends every byte
        self._window = bytearray(b"\x00\x21\x00\x7f\x22\x00\x00")
        self._prefix = b"\x40"
        self._start(0)

    def _start(self, now):
        try:
            self.i2c.writeto(self.address, bytes((0x00,) + INIT))
            self.bytes_sent += len(INIT) + 1
        except OSError as e:
            if self.present or now == 0:
                self.log("OLED: no answer at 0x%02x (%s); carrying on without the screen" % (self.address, e))
            self.present = False
            self._retry_at = now + RETRY_MS
            return False
        self.present = True
        self._unknown = True  # a panel just (re)started holds noise: send everything next
        return True

    def command(self, *codes):
        if self.present:
            try:
                self.i2c.writeto(self.address, bytes((0x00,) + codes))
                self.bytes_sent += len(codes) + 1
            except OSError:
                self.present = False

    def contrast(self, value):
        self.command(0x81, value & 0xFF)

    def show(self, buf, now=0):
        """Send what changed in `buf` (1024 bytes); returns the bytes sent on the bus."""
        if not self.present:
            if self._diff(now, self._retry_at) < 0 or not self._start(now):
                return 0
        sent = self.sent
        if self._unknown:
            for i in range(len(sent)):
                sent[i] = buf[i] ^ 0xFF  # every byte differs: the whole frame goes
            self._unknown = False
        total = 0
        view = memoryview(buf)
        for page in range(PAGES):
            base = page * WIDTH
            first = -1
            last = -1
            for x in range(WIDTH):
                if buf[base + x] != sent[base + x]:
                    if first < 0:
                        first = x
                    last = x
            if first < 0:
                continue
            window = self._window
            window[2] = first
            window[3] = last
            window[5] = page
            window[6] = page
            try:
                self.i2c.writeto(self.address, window)
                self.i2c.writevto(self.address, (self._prefix, view[base + first:base + last + 1]))
            except OSError as e:
                self.log("OLED: lost (%s); the game goes on" % e)
                self.present = False
                self._retry_at = now + RETRY_MS
                return total
            for x in range(first, last + 1):
                sent[base + x] = buf[base + x]
            total += len(window) + 2 + last - first
        self.bytes_sent += total
        return total
