"""The canvas and the OLED's changed-run search against their first, byte-by-byte versions: the same
canvas bytes after any drawing (clipped ones included) and the same transactions on the I2C bus for any
sequence of frames. Runs on CPython and the MicroPython VM (where it also counts heap allocations)."""

import gc
import unittest

from dicetower.hw import oled as oled_module
from dicetower.hw.oled import Oled
from dicetower.ui import font, icons
from dicetower.ui.canvas import CHAR, COLUMNS, WIDTH, Canvas, wrap


def _double(byte, half):
    out = 0
    for bit in range(4):
        if byte & (1 << (bit + 4 * half)):
            out |= 3 << (2 * bit)
    return out


class Reference:
    """The canvas as it was first written: one column byte at a time."""

    def __init__(self):
        self.buf = bytearray(WIDTH * 8)

    def clear(self):
        for i in range(len(self.buf)):
            self.buf[i] = 0

    def text(self, x, page, string, invert=False):
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
        self.fill_page(page, 0xFF if invert else 0)
        x = (WIDTH - len(string) * CHAR) // 2 if centre else 1  # one column in: see test_inverted_lines...
        self.text(max(1, x), page, string, invert)

    def big(self, x, page, string):
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
        buf = self.buf
        for half in range(2):
            at = (page + half) * WIDTH + x
            for c in range(16):
                if x + c < WIDTH:
                    byte = icon[half * 16 + c]
                    buf[at + c] = byte ^ 0xFF if invert else byte

    def fill_page(self, page, value=0, x0=0, x1=WIDTH):
        for i in range(page * WIDTH + x0, page * WIDTH + x1):
            self.buf[i] = value


def reference_wrap(text, width=COLUMNS):
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


def reference_show(oled, buf):
    """The first Oled.show's search and transfers (present panel, no faults), on `oled`'s bus."""
    sent = oled.sent
    if oled._unknown:
        for i in range(len(sent)):
            sent[i] = buf[i] ^ 0xFF
        oled._unknown = False
    total = 0
    view = memoryview(buf)
    for page in range(8):
        base = page * WIDTH
        first = last = -1
        for x in range(WIDTH):
            if buf[base + x] != sent[base + x]:
                if first < 0:
                    first = x
                last = x
        if first < 0:
            continue
        window = bytearray(b"\x00\x21\x00\x7f\x22\x00\x00")
        window[2] = first
        window[3] = last
        window[5] = page
        window[6] = page
        oled.i2c.writeto(oled.address, window)
        oled.i2c.writevto(oled.address, (b"\x40", view[base + first : base + last + 1]))
        for x in range(first, last + 1):
            sent[base + x] = buf[base + x]
        total += len(window) + 2 + last - first
    return total


class Bus:
    """An I2C bus that records every transaction's bytes."""

    def __init__(self):
        self.log = []

    def writeto(self, address, buf, stop=True):
        self.log.append((address, bytes(buf)))

    def writevto(self, address, vector, stop=True):
        self.log.append((address, b"".join(bytes(part) for part in vector)))


class CountingBus:
    """An I2C bus that only counts its transactions (counting allocates nothing)."""

    def __init__(self):
        self.calls = 0

    def writeto(self, address, buf, stop=True):
        self.calls += 1

    def writevto(self, address, vector, stop=True):
        self.calls += 1


class Random:
    """A small LCG: the same numbers on every runtime."""

    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n

    def text(self, longest):
        alphabet = "abcXYZ 0123456789%:/*!^?-~\x7f\x1f" + chr(233)
        return "".join(alphabet[self.below(len(alphabet))] for _ in range(self.below(longest + 1)))


def draw_random(rng, canvases):
    """One random drawing call, the same on every canvas; returns its name."""
    op = rng.below(6)
    page = rng.below(10) - 1 if rng.below(8) == 0 else rng.below(8)  # now and then off the canvas
    x = rng.below(150) - 10
    invert = rng.below(2) == 1
    if op == 0:
        call = ("text", x, page, rng.text(30), invert)
    elif op == 1:  # half of them from a few strings: lines drawn again as well as new ones
        string = rng.text(28) if rng.below(2) else ("", "DICETOWER", "Die 1: Mutant", "x" * 25, "a b")[rng.below(5)]
        call = ("line", page, string, invert, rng.below(2) == 1)
    elif op == 2:
        call = ("big", x, page, rng.text(7))
    elif op == 3:
        call = ("icon", x, page, icons.SYMBOL_ICONS[rng.below(6)], invert)
    elif op == 4:
        x0 = rng.below(WIDTH + 1)
        call = ("fill_page", page, (0, 0xFF, 0x42, rng.below(256))[rng.below(4)], x0, x0 + rng.below(WIDTH + 1 - x0))
    else:
        call = ("clear",)
    results = []
    for canvas in canvases:
        try:
            results.append(getattr(canvas, call[0])(*call[1:]))
        except (IndexError, ValueError) as e:
            results.append(type(e).__name__)
    return call, results


class CanvasBytes(unittest.TestCase):
    def test_lines_drawn_again_in_any_style_and_after_their_slot_is_reused(self):
        fast, slow = Canvas(), Reference()
        for step in range(240):
            text = "Item %d" % (step % 11 if step < 120 else step % 5)  # more lines than are kept, then fewer
            for canvas in (fast, slow):
                canvas.line(step % 8, text, invert=step % 3 == 0, centre=step % 7 == 0)
            self.assertEqual(fast.buf, slow.buf, step)

    def test_every_call_draws_what_the_byte_by_byte_canvas_drew(self):
        rng = Random(14)
        fast, slow = Canvas(), Reference()
        for step in range(600):
            call, results = draw_random(rng, (fast, slow))
            self.assertEqual(results[0], results[1], call)
            self.assertEqual(len(fast.buf), 1024, call)
            if fast.buf != slow.buf:
                self.fail("step %d: %r drew different bytes" % (step, call))

    def test_glyphs_that_would_run_past_their_line_are_refused_before_a_byte_is_copied(self):
        # On a board the copy is machine code that checks no bounds: past the page it would write over
        # the heap. Every Canvas method checks first; _glyphs itself is the last guard.
        from dicetower.ui import canvas as module

        c = Canvas()
        row = c._pages[3]
        for x, text in ((WIDTH - CHAR + 1, "A"), (-1, "A"), (0, "W" * (COLUMNS + 1))):
            with self.assertRaises(ValueError):
                module._glyphs(row, x, text, module._PLAIN)
            self.assertEqual(bytes(c.buf), bytes(1024))
        module._glyphs(row, WIDTH - CHAR, "A", module._PLAIN)  # the last column that fits
        self.assertNotEqual(bytes(row[WIDTH - CHAR :]), bytes(CHAR))

    def test_a_screen_of_lines(self):
        fast, slow = Canvas(), Reference()
        for canvas in (fast, slow):
            canvas.clear()
            canvas.line(0, "DICETOWER", invert=True, centre=True)
            canvas.line(1, "x" * COLUMNS, invert=True)
            canvas.line(2, "x" * (COLUMNS + 1))  # one character too many: clipped
            canvas.line(3, "")
            canvas.big(48, 4, "17")
            canvas.icon(2, 6, icons.TECH, invert=True)
            canvas.icon(120, 6, icons.MYSTIC)  # half off the right edge
            canvas.text(-3, 0, "ab")
        self.assertEqual(fast.buf, slow.buf)


class Margin(unittest.TestCase):
    def test_an_inverted_line_shows_the_left_stroke_of_its_first_letter(self):
        # At column 0 the stroke of "B", "R" or "D" was dark against the panel's dark edge: the player
        # read "3: more", "koll", "Jie". One lit column before it shows the stroke.
        canvas = Canvas()
        for string in ("B: more  C: go on", "Roll the dice", "Die 1: Mutant", "x" * COLUMNS):
            canvas.line(4, string, invert=True)
            row = canvas.buf[4 * WIDTH : 5 * WIDTH]
            first = (ord(string[0]) - font.FIRST) * CHAR
            stroke = font.GLYPHS[first]
            self.assertEqual(row[0], 0xFF, string)  # lit before the letter
            self.assertEqual(row[1], stroke ^ 0xFF, string)  # the stroke itself, dark on lit
            self.assertNotEqual(stroke, 0, string)  # (a letter whose first column has pixels)

    def test_plain_lines_start_in_the_same_column_so_a_moving_cursor_does_not_shift_the_text(self):
        canvas = Canvas()
        canvas.line(1, "Roll the dice")
        canvas.line(2, "Roll the dice", invert=True)
        plain = canvas.buf[WIDTH : 2 * WIDTH]
        inverted = canvas.buf[2 * WIDTH : 3 * WIDTH]
        self.assertEqual(bytes(b ^ 0xFF for b in inverted), bytes(plain))


class Wrapping(unittest.TestCase):
    def test_wrap_splits_as_the_word_by_word_version_did(self):
        rng = Random(25)
        pieces = (
            "a",
            "bb",
            "word",
            "re-roll,",
            "1234567",
            "x" * 25,
            "y" * 26,
            "z" * 60,
            " ",
            " ",
            " ",
            "  ",
            "\t",
            "\n",
            chr(233),
            "?!",
        )
        texts = [
            "",
            " ",
            "Pick dice to re-roll, or finalize.",
            "A/B move  C choose",
            "x" * 25,
            "x" * 26,
            "x" * 24 + " y",
            "x" * 25 + " y",
            " lead",
            "trail ",
            "a" + " " * 3 + "b",
        ]
        for _ in range(300):
            texts.append("".join(pieces[rng.below(len(pieces))] for _ in range(rng.below(30))))
        for text in texts:
            for width in (COLUMNS, 7, 1):
                self.assertEqual(wrap(text, width), reference_wrap(text, width), (text, width))


class ChangedRuns(unittest.TestCase):
    def test_the_bus_carries_what_the_byte_by_byte_search_sent(self):
        self.same_bus_as_the_reference()

    def test_where_views_cannot_be_compared_the_bytes_are(self):
        fast = oled_module._FAST_COMPARE
        oled_module._FAST_COMPARE = False  # a runtime whose memoryview == is identity
        try:
            self.same_bus_as_the_reference()
        finally:
            oled_module._FAST_COMPARE = fast

    def same_bus_as_the_reference(self):
        rng = Random(5)
        canvas = Canvas()
        fast = Oled(Bus(), 0x3C, log=lambda m: None)
        slow = Oled(Bus(), 0x3C, log=lambda m: None)
        for frame in range(120):
            for _ in range(rng.below(4)):
                draw_random(rng, (canvas,))
            if rng.below(15) == 0:
                fast._unknown = slow._unknown = True  # the panel restarted: every byte goes
            self.assertEqual(fast.show(canvas.buf), reference_show(slow, canvas.buf), frame)
            self.assertEqual(fast.i2c.log, slow.i2c.log, frame)
            self.assertEqual(fast.sent, canvas.buf)
            fast.i2c.log = []
            slow.i2c.log = []

    def test_single_columns_at_the_page_and_chunk_edges(self):
        canvas = Canvas()
        oled = Oled(Bus(), 0x3C, log=lambda m: None)
        oled.show(canvas.buf)
        for at in (0, 15, 16, 127, 128, 511, 512, 1008, 1023):
            oled.i2c.log = []
            canvas.buf[at] ^= 0x81
            self.assertEqual(oled.show(canvas.buf), 7 + 2)
            page, x = divmod(at, WIDTH)
            self.assertEqual(
                oled.i2c.log, [(0x3C, bytes((0, 0x21, x, x, 0x22, page, page))), (0x3C, bytes((0x40, canvas.buf[at])))]
            )

    def test_a_canvas_replaced_by_another_is_compared_afresh(self):
        first, second = Canvas(), Canvas()
        oled = Oled(Bus(), 0x3C, log=lambda m: None)
        first.text(0, 0, "one")
        oled.show(first.buf)
        second.text(0, 0, "ONE")
        self.assertTrue(oled.show(second.buf) > 0)
        self.assertEqual(oled.sent, second.buf)


def allocated(work):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    work()
    used = gc.mem_alloc() - before
    gc.enable()
    return used


class Allocation(unittest.TestCase):
    def test_a_redraw_allocates_little(self):
        if not hasattr(gc, "mem_alloc"):
            self.skipTest("CPython has no gc.mem_alloc; the VM run checks this")
        canvas = Canvas()
        oled = Oled(CountingBus(), 0x3C, log=lambda m: None)
        labels = ["Item %d" % row for row in range(8)]  # made beforehand: formatting allocates

        def screen(cursor):
            canvas.clear()
            canvas.line(0, "DICETOWER", invert=True, centre=True)
            for row in range(1, 6):
                canvas.line(row, labels[row], invert=row == cursor)
            canvas.line(6, "")
            canvas.big(48, 6, "42")
            for die in range(6):
                canvas.text(die * 21 + 5, 7, "L^")
            canvas.icon(2, 6, icons.TECH, invert=cursor == 1)

        screen(1)
        oled.show(canvas.buf)
        # Short-lived views only: each line and text its string's bytes (16 B for a short one) and a
        # view of each glyph it draws (16 B; a line kept from the last redraw is copied back whole),
        # a plain icon three views; the font, pages and big digits come from what was made at import.
        drawn = 2 * len("Item 1") + 6 * len("L^")  # the two lines whose inversion changed, the texts
        used = allocated(lambda: screen(2))
        self.assertTrue(used <= 12 * 16 + drawn * 16 + 48, used)
        calls = oled.i2c.calls
        used = allocated(lambda: oled.show(canvas.buf))
        runs = (oled.i2c.calls - calls) // 2
        self.assertTrue(runs > 0)
        self.assertTrue(used <= 16 * runs, (used, runs))  # a view of each run, nothing else
        self.assertEqual(allocated(lambda: oled.show(canvas.buf)), 0)  # nothing changed: nothing made


if __name__ == "__main__":
    unittest.main()
