"""Turn a BDF bitmap font into firmware/dicetower/ui/font.py (column bytes, bit 0 at the top).

    .venv/bin/python -m dicetower_host.generate.font 5x7.bdf > firmware/dicetower/ui/font.py

The shipped font is X11's public-domain "5x7" (Misc Fixed, ISO8859-1, from
Debian's xfonts-base, converted with pcf2bdf). Only ASCII 32-126 is kept.
"""

import sys


def glyphs(bdf_text):
    out = {}
    code = None
    rows = None
    for line in bdf_text.splitlines():
        if line.startswith("ENCODING "):
            code = int(line.split()[1])
        elif line.startswith("BBX "):
            _, w, h, x, y = line.split()
            box = (int(w), int(h), int(x), int(y))
        elif line == "BITMAP":
            rows = []
        elif line == "ENDCHAR":
            if 32 <= code <= 126:
                out[code] = (box, rows)
            rows = None
        elif rows is not None:
            rows.append(int(line, 16))
    return out


def columns(box, rows, width=5, height=7, descent=1):
    """Five column bytes for a glyph: bit 0 is the cell's top row."""
    w, h, x, y = box
    top = height - descent - (y + h)  # cell row of the glyph's first bitmap row
    cols = [0] * width
    for r, bits in enumerate(rows):
        for c in range(w):
            if bits & (0x80 >> c) and 0 <= x + c < width and 0 <= top + r < 8:
                cols[x + c] |= 1 << (top + r)
    return cols


def main(path):
    with open(path) as f:
        table = glyphs(f.read())
    data = []
    for code in range(32, 127):
        box, rows = table[code]
        data.extend(columns(box, rows))
    print('"""A 5x7 font, ASCII 32-126, five column bytes per glyph (bit 0 at the top).')
    print()
    print("Made by host_tools/dicetower_host/generate/font.py from X11's public-domain 5x7 font (Misc Fixed).")
    print('"""')
    print()
    print("WIDTH = 5")
    print("FIRST = 32")
    print("GLYPHS = (")
    for i in range(0, len(data), 20):
        print('    b"%s"' % "".join("\\x%02x" % b for b in data[i : i + 20]))
    print(")")


if __name__ == "__main__":
    main(sys.argv[1])
