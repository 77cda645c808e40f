"""SSD1306 128x64 over I2C: sends only the columns of the pages that changed.

The canvas (`ui.canvas.Canvas.buf`) is the panel's memory image; `show()`
compares it with what the panel already holds and sends, per page, only the
run of columns from the first to the last changed byte. A full frame costs
1,024 data bytes (about 24 ms at 400 kHz); a menu step usually a few dozen.
The comparing is done by C, not by a Python loop over bytes: == on views of
whole pages, then of 32-column chunks (views made once, so nothing is
allocated), then byte by byte only inside the first and last changed chunk.

A display that does not answer (no ACK at start or later) is survived: the
driver marks itself absent, tells the console once, and tries again every
RETRY_MS, so the LEDs and the game carry on.
"""

from dicetower.hw.platform import ticks_diff

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


INIT = (
    0xAE,  # display off
    0x20,
    0x00,  # horizontal addressing
    0x40,  # start line 0
    0xA1,  # column 127 is SEG0
    0xA8,
    63,  # multiplex 64
    0xC8,  # scan COM63 to COM0
    0xD3,
    0x00,  # no offset
    0xDA,
    0x12,  # COM pins: alternative, no remap
    0xD5,
    0x80,  # clock
    0xD9,
    0xF1,  # pre-charge
    0xDB,
    0x30,  # VCOMH
    0x81,
    0xCF,  # contrast
    0xA4,  # follow RAM
    0xA6,  # not inverted
    0x8D,
    0x14,  # charge pump on
    0xAF,  # display on
)
RETRY_MS = const(5000)
WIDTH = const(128)
PAGES = const(8)
_CHUNK = const(32)  # columns compared at once while looking for a page's changed run
_CHUNKS = const(4)  # chunks in a page


def _views(buf):
    """Views of `buf`'s pages and of its 32-column chunks, made once (40 views, 0.7 KB): comparing them
    allocates nothing."""
    view = memoryview(buf)
    pages = tuple(view[at : at + WIDTH] for at in range(0, WIDTH * PAGES, WIDTH))
    chunks = tuple(view[at : at + _CHUNK] for at in range(0, WIDTH * PAGES, _CHUNK))
    return view, pages, chunks


def _views_compare_contents():
    """Whether == on two memoryviews compares their bytes (MicroPython 1.2x and CPython do)."""
    try:
        same = memoryview(b"ab") == memoryview(bytearray(b"ab"))
        differ = memoryview(b"ab") == memoryview(bytearray(b"ax"))
    except Exception:  # noqa: BLE001 (a runtime without it)
        return False
    return same is True and differ is False


_FAST_COMPARE = _views_compare_contents()
del _views_compare_contents  # used once: its code need not stay on the heap


class Oled:
    def __init__(self, i2c, address=0x3C, log=print, diff=None):
        self.i2c = i2c
        self.address = address
        self.log = log
        self.sent = bytearray(WIDTH * PAGES)
        self.present = False
        self._retry_at = 0
        self._diff = diff or ticks_diff
        self._unknown = True  # what the panel holds is unknown: the first show sends every byte
        self._sent_views = _views(self.sent)
        self._buf = None  # the last canvas shown, and its views (_views; set by the first show)
        self._buf_views = self._sent_views
        self._window = bytearray(b"\x00\x21\x00\x7f\x22\x00\x00")
        self._vector = [b"\x40", None]  # writevto's parts: the data prefix, then the run of columns
        self._start(0)

    def _start(self, now):
        try:
            self.i2c.writeto(self.address, bytes((0x00,) + INIT))
        except OSError as e:
            if self.present or now == 0:
                self.log("OLED: no answer at 0x%02x (%s); carrying on without the screen" % (self.address, e))
            self.present = False
            self._retry_at = now + RETRY_MS
            return False
        self.present = True
        self._unknown = True  # a panel just (re)started holds noise: send everything next
        return True

    def show(self, buf, now=0):  # noqa: C901 (a kernel: loops in one frame, no call per entry)
        """Send what changed in `buf` (1024 bytes); returns the bytes sent on the bus.

        Each page whose view differs from what was sent is searched 32 columns at a time from both
        ends, then byte by byte inside the first and last differing chunks: a window command, then
        the run from the first to the last changed column. Nothing is allocated but the run's view.
        """
        if not self.present:
            if self._diff(now, self._retry_at) < 0 or not self._start(now):
                return 0
        sent = self.sent
        unknown = self._unknown  # every byte counts as changed: the whole frame goes
        self._unknown = False
        if not unknown and buf == sent:
            return 0
        if buf is not self._buf:
            self._buf = buf
            self._buf_views = _views(buf)
        view, pages, chunks = self._buf_views
        _, sent_pages, sent_chunks = self._sent_views
        fast = _FAST_COMPARE
        window = self._window
        vector = self._vector
        i2c = self.i2c
        address = self.address
        total = 0
        for page in range(PAGES):
            base = page * WIDTH
            if unknown:
                first = 0
                last = WIDTH - 1
            elif fast:
                if pages[page] == sent_pages[page]:
                    continue
                k = page * _CHUNKS
                while chunks[k] == sent_chunks[k]:
                    k += 1
                at = k * _CHUNK
                while buf[at] == sent[at]:
                    at += 1
                first = at - base
                k = page * _CHUNKS + _CHUNKS - 1
                while chunks[k] == sent_chunks[k]:
                    k -= 1
                at = k * _CHUNK + _CHUNK - 1
                while buf[at] == sent[at]:
                    at -= 1
                last = at - base
            else:
                first = -1
                last = -1
                for x in range(WIDTH):
                    if buf[base + x] != sent[base + x]:
                        if first < 0:
                            first = x
                        last = x
                if first < 0:
                    continue
            window[2] = first
            window[3] = last
            window[5] = page
            window[6] = page
            run = pages[page] if first == 0 and last == WIDTH - 1 else view[base + first : base + last + 1]
            vector[1] = run
            try:
                i2c.writeto(address, window)
                i2c.writevto(address, vector)
            except OSError as e:
                vector[1] = None
                self.log("OLED: lost (%s); the game goes on" % e)
                self.present = False
                self._retry_at = now + RETRY_MS
                return total
            vector[1] = None
            sent_pages[page][first : last + 1] = run  # into the page's view: a slice store moves what follows it
            total += len(window) + 2 + last - first
        return total
