"""The OLED's and the ring's pictures in a terminal (rich Text), from what the virtual parts hold: the
panel's memory as the firmware's driver wrote it, the ring's colours as its frames carried them. Drawn by
the simulator's screen (sim/tui.py) and the virtual Pico's (pico/view.py), each at the terminal's size:
half blocks, quadrant blocks, braille, or the panel's eight lines read back as text.
"""

from rich.text import Text

ON = "rgb(120,200,255)"
OFF = "rgb(10,14,24)"

# Braille dots: (column, row) in a 2 x 4 cell -> the bit of U+2800 + bits that raises it.
DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def oled_text(panel):
    """The panel as 32 rows of half blocks: each cell is two pixels, top and bottom."""
    text = Text()
    styles = ("%s on %s" % (OFF, OFF), "%s on %s" % (ON, OFF), "%s on %s" % (OFF, ON), "%s on %s" % (ON, ON))
    for row in range(panel.pages * 4):
        if row:
            text.append("\n")
        run_style = None
        run = 0
        for x in range(panel.width):
            style = styles[panel.pixel(x, 2 * row) + 2 * panel.pixel(x, 2 * row + 1)]
            if style != run_style and run:
                text.append("▀" * run, run_style)
                run = 0
            run_style = style
            run += 1
        text.append("▀" * run, run_style)
    return text


QUADRANTS = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"  # by bits: 1 top left, 2 top right, 4 bottom left, 8 bottom right


def oled_quadrants(panel):
    """The panel at half width: 32 rows of quadrant blocks, each cell 2 x 2 pixels."""
    rows = []
    for top in range(0, panel.pages * 8, 2):
        cells = []
        for left in range(0, panel.width, 2):
            cells.append(
                QUADRANTS[
                    panel.pixel(left, top)
                    | panel.pixel(left + 1, top) << 1
                    | panel.pixel(left, top + 1) << 2
                    | panel.pixel(left + 1, top + 1) << 3
                ]
            )
        rows.append("".join(cells))
    return Text("\n".join(rows), style="%s on %s" % (ON, OFF))


def oled_braille(panel):
    """The panel at half size: 16 rows of braille, each cell 2 x 4 pixels, every pixel a dot."""
    rows = []
    for top in range(0, panel.pages * 8, 4):
        cells = []
        for left in range(0, panel.width, 2):
            bits = 0
            for dx, dy, bit in DOTS:
                if panel.pixel(left + dx, top + dy):
                    bits |= bit
            cells.append(chr(0x2800 + bits))
        rows.append("".join(cells))
    return Text("\n".join(rows), style="%s on %s" % (ON, OFF))


def oled_lines(panel):
    """The panel as its eight lines of text, read back from its memory against the firmware's font (as
    the tests read the screen); what is drawn inverted (a chosen line, a title, the value being edited)
    is shown inverted. Battlerealm's six dice, icons on the panel, are read back as their symbols' names
    with their marks under them (`L` locked, `^` picked, `*` and `!` the advice's), the die under the
    cursor inverted; a number twice as large (the players' count) as its digits."""
    from dicetower_host.virtual_parts.tower import read_big, read_cells

    columns = panel.width // 5
    rows = [read_cells(panel.ram, page, panel.width) for page in range(panel.pages)]
    dice = read_dice(panel)
    if dice is not None:
        rows[1], rows[2], rows[3] = dice, [], dice_marks(panel)
    for page in range(panel.pages - 1):
        line, below = "".join(c for c, _ in rows[page]), "".join(c for c, _ in rows[page + 1])
        if "~" in line and "~" in below:
            big = read_big(panel.ram, page, panel.width)  # a number twice as large (the players' count)
            if big:
                rows[page], rows[page + 1] = [(c, False) for c in big.center(columns).rstrip()], []
    text = Text()
    styles = ("%s on %s" % (ON, OFF), "%s on %s" % (OFF, ON))
    for page in range(panel.pages):
        if page:
            text.append("\n")
        run, lit = "", False
        for char, inverted in (rows[page] + [(" ", False)] * columns)[:columns]:
            if inverted != lit and run:
                text.append(run, styles[lit])  # one span a run of the same style, not one a character
                run = ""
            run, lit = run + char, inverted
        text.append(run, styles[lit])
    return text


def read_dice(panel):
    """The six dice's icons on pages 1 and 2 (ui/battlerealm.py draws each at 21 * die + 2) as cells of
    their symbols' names ("Mut Sci ..."), the die under the cursor (its icon inverted) inverted; None
    when the panel shows no dice."""
    from dicetower.core.dice import SYMBOLS
    from dicetower.ui.icons import SYMBOL_ICONS

    ram, width = panel.ram, panel.width
    cells = []
    for die in range(6):
        x = die * 21 + 2
        drawn = bytes(ram[width + x : width + x + 16]) + bytes(ram[2 * width + x : 2 * width + x + 16])
        for symbol, icon in zip(SYMBOLS, SYMBOL_ICONS):
            inverted = drawn == bytes(b ^ 0xFF for b in icon)
            if drawn == icon or inverted:
                cells += [(c, inverted) for c in symbol[:3]] + [(" ", False)]
                break
        else:
            return None
    return cells


def dice_marks(panel):
    """The marks under the six dice (page 3: three characters at 21 * die + 3, on a lit bar where the
    die is picked) as cells, four a die."""
    from dicetower_host.virtual_parts.tower import read_cells

    read_cells(panel.ram, 3, panel.width)  # the font's table, made
    from dicetower_host.virtual_parts.tower import _GLYPHS

    row = bytes(panel.ram[3 * panel.width : 4 * panel.width])
    cells = []
    for die in range(6):
        for k in range(3):
            x = die * 21 + 3 + 5 * k
            cols = row[x : x + 5]
            char = _GLYPHS.get(cols) or _GLYPHS.get(bytes(b ^ 0x7F for b in cols)) or "~"
            cells.append((char, False))
        cells.append((" ", False))
    return cells


# The OLED's picture in each layout ("small" draws it for when the terminal grows again).
DRAW = {"full": oled_text, "narrow": oled_quadrants, "compact": oled_braille, "text": oled_lines, "small": oled_text}


def ring_text(strip):
    text = Text()
    count = len(strip.data) // len(strip.order)
    for i in range(count):
        r, g, b = strip.rgb(i)
        peak = max(r, g, b)
        colour = "rgb(%d,%d,%d)" % (r * 255 // peak, g * 255 // peak, b * 255 // peak) if peak else "rgb(40,40,40)"
        text.append("●" if i == count - 1 else "● ", colour)
    return text
