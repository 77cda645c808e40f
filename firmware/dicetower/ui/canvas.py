"""A 128x64 one-bit canvas in the SSD1306's own layout, with the firmware's font and icons.

The buffer is the panel's GDDRAM image: 8 pages of 128 column bytes, bit 0
at the top of each page (framebuf's MONO_VLSB). Text and icons are drawn on
whole pages, so drawing is copying column bytes: quick in MicroPython, the
same bytes on CPython, and no framebuf needed.
"""

from dicetower.ui import font

WIDTH = 128
PAGES = 8
CHAR = font.WIDTH  # pixels per character, spacing included
COLUMNS = WIDTH // CHAR  # 25 characters per line


def _double(byte, half):
    """The upper (half 0) or lower (half 1) page of a column byte drawn twice as tall."""
    out = 0
    for bit in range(4):
        if byte & (1 << (bit + 4 * half)):
            out |= 3 << (2 * bit)
    return out


def wrap(text, width=COLUMNS):
    """Words into lines of at most `width` characters."""
    lines = []
    line = ""
    for word in text.split():
        while len(word) > width:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


class Canvas:
    def __init__(self):
        self.buf = bytearray(WIDTH * PAGES)

    def clear(self):
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0

    def text(self, x, page, string, invert=False):
        """Draw `string` on text line `page` (0-7) from pixel column x; returns the end column."""
        buf = self.buf
        base = page * WIDTH
        glyphs = font.GLYPHS
        for ch in string:
            code = ord(ch) - font.FIRST
            if not 0 <= code < len(glyphs) // CHAR:
                code = ord("?") - font.FIRST
            for c in range(CHAR):
                if x >= WIDTH:
                    return x
                if x >= 0:
                    byte = glyphs[code * CHAR + c]
                    buf[base + x] = byte ^ 0xFF if invert else byte
                x += 1
        return x

    def line(self, page, string, invert=False, centre=False):
        """A whole text line: cleared, then `string` (left or centred)."""
        self.fill_page(page, 0xFF if invert else 0)
        x = (WIDTH - len(string) * CHAR) // 2 if centre else 0
        self.text(max(0, x), page, string, invert)

    def big(self, x, page, string):
        """Digits (and any character) twice as large, on pages `page` and `page + 1`."""
        buf = self.buf
        glyphs = font.GLYPHS
        for ch in string:
            code = ord(ch) - font.FIRST
            if not 0 <= code < len(glyphs) // CHAR:
                code = 0
            for c in range(CHAR):
                byte = glyphs[code * CHAR + c]
                for half in range(2):
                    at = (page + half) * WIDTH + x
                    value = _double(byte, half)
                    if x < WIDTH:
                        buf[at] = value
                    if x + 1 < WIDTH:
                        buf[at + 1] = value
                x += 2
        return x

    def icon(self, x, page, icon, invert=False):
        """A 16x16 icon: 32 bytes, the top page's 16 columns then the bottom page's."""
        buf = self.buf
        for half in range(2):
            at = (page + half) * WIDTH + x
            for c in range(16):
                if x + c < WIDTH:
                    byte = icon[half * 16 + c]
                    buf[at + c] = byte ^ 0xFF if invert else byte

    def fill_page(self, page, value=0, x0=0, x1=WIDTH):
        buf = self.buf
        for i in range(page * WIDTH + x0, page * WIDTH + x1):
            buf[i] = value

    def bar(self, page, filled, total, x0=0, x1=WIDTH):
        """A gauge on one page: a frame with `filled` of `total` shaded."""
        buf = self.buf
        width = x1 - x0
        fill = 0 if total <= 0 else min(width - 2, (width - 2) * filled // total)
        for x in range(x0, x1):
            edge = x == x0 or x == x1 - 1
            buf[page * WIDTH + x] = 0x7E if edge else (0x7E if x - x0 - 1 < fill else 0x42)
