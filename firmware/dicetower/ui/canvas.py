"""A 128x64 one-bit canvas in the SSD1306's own layout, with the firmware's font and icons.

The buffer is the panel's GDDRAM image: 8 pages of 128 column bytes, bit 0
at the top of each page (framebuf's MONO_VLSB). Text and icons are drawn on
whole pages, so drawing is copying column bytes; the same bytes on CPython,
MicroPython and CircuitPython, no framebuf needed.

What makes it quick on MicroPython (a 125 MHz RP2040 runs about a bytecode
a microsecond), without keeping much on a heap the game needs:
- a string's glyphs are copied by a Viper pass (`_copy`; bytecode off a
  board, as_bytecode) from the font laid out for bytes 0-127, or from an
  inverted copy of it (made at import, 1.3 KB): as a slice copy a glyph they
  were a third of a screen's drawing; a cleared page is one copy of a page
  of zeros (or of 0xFF);
- copies go into a view of one page, never into the whole buffer: a slice
  assignment also moves everything after the slice onto itself (about 60 us
  for a glyph near the top of the 1,024 bytes, a few within a page);
- a string is walked as its encoded bytes: walking a str character by
  character costs a qstr lookup each, as does every new string, so wrap()
  slices its lines out of the text and remembers its last answer;
- line() keeps its last eight lines drawn (1 KB, made once) and copies a
  line drawn again back as one page.
Anything that would fall off the canvas (a string too long for its line, a
column outside 0-127, a page outside 0-7) is drawn byte by byte, clipped.

`buf` is made once with its page views: draw into it, never replace it.
"""

import micropython
from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

from dicetower.ui import font

try:
    from micropython import ptr8  # the annotation of a Viper pass: CPython's stand-in
except ImportError:
    pass  # a board's Viper has it built in; bytecode never reads an annotation

WIDTH = const(128)
PAGES = const(8)
CHAR = font.WIDTH  # pixels per character, spacing included
COLUMNS = WIDTH // CHAR  # 25 characters per line
# A line's text starts one column in: a glyph's first column is its left stroke, which on an inverted
# line at column 0 would be dark against the panel's dark edge ("B" read as "3", "R" as "k").
MARGIN = const(1)
_ASCII = const(128)
_KEPT = const(8)  # the last lines drawn, kept to be copied back: 1 KB
# A nibble's four bits drawn twice as tall: big() draws a column byte's low nibble on its upper page.
_TALL = bytes(sum(3 << (2 * bit) for bit in range(4) if n & (1 << bit)) for n in range(16))


def _font_for_ascii():
    """The font's column bytes for every byte 0-127 (CHAR each; "?" where the font has none)."""
    out = bytearray(_ASCII * CHAR)
    count = len(font.GLYPHS) // CHAR
    for code in range(_ASCII):
        index = code - font.FIRST if 0 <= code - font.FIRST < count else ord("?") - font.FIRST
        out[code * CHAR : (code + 1) * CHAR] = font.GLYPHS[index * CHAR : (index + 1) * CHAR]
    return bytes(out)


def _inverted(data):
    out = bytearray(data)
    for i in range(len(out)):
        out[i] ^= 0xFF
    return bytes(out)


_PLAIN = memoryview(_font_for_ascii())  # glyph of byte b at b * CHAR: 640 bytes
_INVERSE = memoryview(_inverted(_PLAIN))
_CLEAR = bytes(WIDTH)
_SET = _inverted(_CLEAR)
_INVERTED_ICONS = {}  # icon -> its bytes inverted, made when first drawn inverted
del _font_for_ascii  # used once: its code need not stay on the heap
_wrapped = [None, None]  # wrap()'s last text and its lines


def _glyphs(row, x, string, glyphs):
    """Copy `string`'s glyphs from `glyphs` (_PLAIN or _INVERSE) into page view `row` from column x
    (the caller checked that it fits)."""
    data = string.encode("utf-8", "replace")  # (CPython: a lone surrogate is a "?" here as before)
    if len(data) != len(string):  # not ASCII: one "?" for each character beyond
        data = bytes(ord(ch) if ord(ch) < _ASCII else 63 for ch in string)
    n = len(data)
    if x < 0 or x + n * CHAR > len(row):  # the machine code checks nothing: a caller's slip is an error
        raise ValueError("%r does not fit its line from column %d" % (string, x))
    _copy(row, x, data, n, glyphs, CHAR)


@micropython.viper
def _copy(row: ptr8, x: int, data: ptr8, n: int, glyphs: ptr8, step: int):
    """The glyphs of data[:n] (bytes under 128) into row from column x, `step` columns each. Machine
    code on a board checks no bounds: _glyphs has checked that the string fits."""
    for i in range(n):
        at = int(data[i]) * step
        for c in range(step):
            row[x] = glyphs[at + c]
            x += 1


def cut(text, width=COLUMNS):
    """`text` in `width` characters: whole if it fits, else its start and the cut mark ">" (the whole
    text is a press away: the table's first page, the history, the phones' page)."""
    return text if len(text) <= width else text[: width - 1] + ">"


def wrap(text, width=COLUMNS):
    """Words into lines of at most `width` characters (separated by single spaces).

    The last text's list is handed out again while the text is the same (a redraw wraps the same
    message again): read it, do not change it."""
    if width == COLUMNS and text == _wrapped[0]:
        return _wrapped[1]
    lines = _wrap(text, width)
    if width == COLUMNS:
        _wrapped[0] = text
        _wrapped[1] = lines
    return lines


def _wrap(text, width):
    # Printable ASCII with its words one space apart: each line is a slice of the text up to the last
    # space that fits (making strings is what costs on MicroPython: each is looked up among the qstrs).
    data = text.encode("utf-8", "replace")
    if (
        text
        and len(data) == len(text)
        and min(data) >= 32
        and max(data) < 127
        and "  " not in text
        and not text.startswith(" ")
        and not text.endswith(" ")
    ):
        lines = []
        start = 0
        end = len(text)
        while end - start > width:
            cut = text.rfind(" ", start, start + width + 1)
            if cut < start:
                break  # a word longer than a line: word by word below
            lines.append(text[start:cut])
            start = cut + 1
        else:
            lines.append(text[start:] if start else text)
            return lines
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
        view = memoryview(self.buf)
        self._pages = tuple(view[at : at + WIDTH] for at in range(0, WIDTH * PAGES, WIDTH))
        # line()'s last _KEPT lines, drawn: a redraw mostly repeats its lines, and copying one back is
        # a few times quicker than its glyphs. Made once; slots are reused in turn.
        view = memoryview(bytearray(WIDTH * _KEPT))
        self._kept = tuple(view[at : at + WIDTH] for at in range(0, WIDTH * _KEPT, WIDTH))
        self._kept_slot = {}  # string -> its slot
        self._kept_strings = [None] * _KEPT
        self._kept_style = bytearray(_KEPT)  # 1 + invert + 2 * centre
        self._next_slot = 0

    def clear(self):
        for row in self._pages:
            row[:] = _CLEAR

    def text(self, x, page, string, invert=False):
        """Draw `string` on text line `page` (0-7) from pixel column x; returns the end column."""
        end = x + len(string) * CHAR
        if 0 <= x and end <= WIDTH and 0 <= page < PAGES:
            _glyphs(self._pages[page], x, string, _INVERSE if invert else _PLAIN)
            return end
        buf = self.buf  # clipped: column by column, what falls off is not drawn
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
        """A whole text line: cleared, then `string` (from MARGIN, or centred)."""
        width = len(string) * CHAR
        if width + MARGIN <= WIDTH and 0 <= page < PAGES:
            row = self._pages[page]
            if not string:
                row[:] = _SET if invert else _CLEAR
                return
            style = (2 if invert else 1) + (2 if centre else 0)
            slot = self._kept_slot.get(string)
            if slot is not None and self._kept_style[slot] == style:
                row[:] = self._kept[slot]
                return
            row[:] = _SET if invert else _CLEAR
            _glyphs(row, (WIDTH - width) // 2 if centre else MARGIN, string, _INVERSE if invert else _PLAIN)
            if slot is None:  # the string takes the next slot, from the one that had it
                slot = self._next_slot
                self._next_slot = (slot + 1) % _KEPT
                old = self._kept_strings[slot]
                if old is not None:
                    del self._kept_slot[old]
                self._kept_strings[slot] = string
                self._kept_slot[string] = slot
            self._kept_style[slot] = style
            self._kept[slot][:] = row
            return
        self.fill_page(page, 0xFF if invert else 0)
        x = (WIDTH - width) // 2 if centre else MARGIN
        self.text(max(MARGIN, x), page, string, invert)

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
                    value = _TALL[(byte >> (4 * half)) & 15]
                    if x < WIDTH:
                        buf[at] = value
                    if x + 1 < WIDTH:
                        buf[at + 1] = value
                x += 2
        return x

    def icon(self, x, page, icon, invert=False):
        """A 16x16 icon: 32 bytes, the top page's 16 columns then the bottom page's."""
        if 0 <= x <= WIDTH - 16 and 0 <= page < PAGES - 1 and len(icon) >= 32 and type(icon) is bytes:
            if invert:
                data = _INVERTED_ICONS.get(icon)
                if data is None:
                    data = _inverted(icon[:32])
                    if len(_INVERTED_ICONS) < 8:
                        _INVERTED_ICONS[icon] = data
                icon = data
            view = memoryview(icon)
            self._pages[page][x : x + 16] = view[:16]
            self._pages[page + 1][x : x + 16] = view[16:32]
            return
        buf = self.buf
        for half in range(2):
            at = (page + half) * WIDTH + x
            for c in range(16):
                if x + c < WIDTH:
                    byte = icon[half * 16 + c]
                    buf[at + c] = byte ^ 0xFF if invert else byte

    def fill_page(self, page, value=0, x0=0, x1=WIDTH):
        if x0 == 0 and x1 == WIDTH and 0 <= page < PAGES and (value == 0 or value == 0xFF):
            self._pages[page][:] = _SET if value else _CLEAR
            return
        buf = self.buf
        for i in range(page * WIDTH + x0, page * WIDTH + x1):
            buf[i] = value

    def paint(self, page, x0, x1, bits, flip=False):
        """Light `bits` (bit 0 the top row) of page `page` in columns x0 to x1 - 1, or flip them (clipped)."""
        if not 0 <= page < PAGES:
            return
        row = self._pages[page]
        for x in range(max(0, x0), min(WIDTH, x1)):
            row[x] = row[x] ^ bits if flip else row[x] | bits

    def square(self, x, y, n, lit):
        """An n x n block of pixels from (x, y), lit or dark (a QR code's module)."""
        buf = self.buf
        for yy in range(y, min(y + n, PAGES * 8)):
            bit = 1 << (yy & 7)
            row = (yy >> 3) * WIDTH
            for xx in range(x, min(x + n, WIDTH)):
                if lit:
                    buf[row + xx] |= bit
                else:
                    buf[row + xx] &= ~bit
