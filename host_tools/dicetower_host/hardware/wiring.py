"""The wiring of one board profile: a pin table (Markdown) and a drawing (SVG, PNG).

Both are made from the profile as the firmware reads it (`Board.pins()`), so
the drawing shows exactly the pins the firmware drives: one row per wire,
each controller pin on its own row, named as printed on the board (GP4) and,
on a Pico, with its pin number (6). schemdraw draws it: its own SVG backend
for the SVG (text stays text, so the pins can be found in it) and matplotlib
for the PNG.
"""

import os

from dicetower_host.errors import UserError
from dicetower_host.hardware import parts as parts_data

GAP = ""  # a blank row between the parts of the drawing
BUTTON_NAMES = {"enc_a": "encoder A", "enc_b": "encoder B", "enc_push": "encoder push"}


def gp(pin):
    return "GP%d" % pin


def button_label(name):
    return BUTTON_NAMES.get(name, "button " + name.upper())


def is_button(part):
    return part.startswith(("button", "encoder"))


def controller_wires(part, wires):
    """The wires drawn to a controller pin; grounds and a button's other leg end in a symbol instead."""
    return [w for w in wires if w[1] != "GND" and not (is_button(part) and w[0] == "2")]


def connections(board, name, parts):
    """The wires, as groups of (part, part's pin, controller pin, what it is for).

    The controller pin is a GP name, or the header's name for 3V3, 5V or GND.
    A part's pin wired to ground has "GND" as its controller pin.
    """
    header = parts["headers"][parts_data.controller(parts, name)["header"]]
    oled, leds = board.oled, board.leds
    groups = [
        (
            "OLED",
            [
                ("VCC", header["3V3"], "OLED power (3.3 V)"),
                ("SDA", gp(oled["sda"]), "OLED SDA"),
                ("SCL", gp(oled["scl"]), "OLED SCL"),
                ("GND", "GND", "OLED ground"),
            ],
        ),
        # DIN first: the drawing then has room under the 5V wire for the capacitor to ground
        (
            "LED ring",
            [
                ("DIN", gp(leds["pin"]), "LED ring data, through the 330 ohm resistor"),
                ("5V", header["5V"], "LED ring power (5 V from USB)"),
                ("GND", "GND", "LED ring ground"),
            ],
        ),
    ]
    for button in sorted(board.buttons):
        pull = board.buttons[button].get("pull", "up")
        other = {"up": "GND", "down": header["3V3"]}.get(pull, "GND")
        groups.append(
            (
                button_label(button),
                [
                    ("1", gp(board.buttons[button]["pin"]), button_label(button)),
                    ("2", other, "%s, other leg" % button_label(button)),
                ],
            )
        )
    if board.buzzer is not None:
        groups.append(("buzzer", [("+", gp(board.buzzer), "buzzer"), ("-", "GND", "buzzer ground")]))
    if board.status_led:
        groups.append(("status LED (on the board)", [("", gp(board.status_led["pin"]), "status LED")]))
    return groups


def pin_number(parts, name, pin):
    header = parts["headers"][parts_data.controller(parts, name)["header"]]
    return header["numbers"].get(pin)


def pin_table(name, parts=None):
    """The Markdown wiring table of one profile (hardware/wiring/NAME.md)."""
    parts = parts or parts_data.load_parts()
    board = parts_data.load_board(name)
    header = parts["headers"][parts_data.controller(parts, name)["header"]]
    numbered = bool(header["numbers"])
    lines = [
        "# Wiring: %s" % board.name,
        "",
        "Made by `dicetower hardware wiring --board %s` from `boards/%s.json`; do not edit by hand." % (name, name),
        "",
        "![wiring](%s.png)" % name,
        "",
        "The board from above, each pin the tower uses marked:",
        "",
        "![the board from above](%s-top.png)" % name,
        "",
        "| part | its pin | goes to %s pin |%s what for |" % (board.name, " pin number |" if numbered else ""),
        "|---|---|---|%s---|" % ("---|" if numbered else ""),
    ]
    for part, part_pin, pin, number, what in numbered_wires(board, name, parts):
        lines.append(
            "| %s | %s | %s |%s %s |"
            % (part, part_pin or "(nothing to wire)", pin, " %s |" % (number or pin) if numbered else "", what)
        )
    lines += [
        "",
        "Any GND pin will do for a ground wire: they are all joined on the board%s."
        % (" (pins %s)" % ", ".join(map(str, header["grounds"])) if numbered else ""),
        "The LED ring's DIN wire goes through the 330 ohm resistor, and the 1000 uF capacitor sits across the"
        " ring's 5V and GND pads (its stripe, the minus leg, on GND).",
    ]
    return "\n".join(lines) + "\n"


def numbered_wires(board, name, parts):
    """Each wire as (part, part's pin, controller pin, its pin number or None, what for). A part's ground
    goes to the GND pin nearest its power wire (else its first wire): the pair runs together."""
    header = parts["headers"][parts_data.controller(parts, name)["header"]]
    for part, wires in connections(board, name, parts):
        anchor = next((w for w in wires if w[0] in ("5V", "VCC")), wires[0])
        near = header["numbers"].get(anchor[1])
        for part_pin, pin, what in wires:
            number = header["numbers"].get(pin)
            if pin == "GND" and near is not None:
                number = min(header["grounds"], key=lambda g: abs(g - near))
            yield part, part_pin, pin, number, what


PIN_STEP = 24  # px between two pins of a row in the top view
LEFT, RIGHT, TOP = 400, 560, 50  # the two rows of pins, and pin 1's height


def pin_xy(number):
    """Where pin `number` (1 to 40) is in the top view: 1 to 20 down the left, 21 to 40 up the right."""
    if number <= 20:
        return LEFT, TOP + (number - 1) * PIN_STEP
    return RIGHT, TOP + (40 - number) * PIN_STEP


USED = (200, 40, 40)  # a pin the tower uses
FREE = (150, 150, 150)


def top_view(name, parts=None, board=None):
    """The board from above as a PIL image: its two rows of 20 pins (pin 1 at the USB end, top left;
    21 to 40 up the right side), each pin the tower uses filled and labelled with what it is for.
    A board whose pins have no numbers (the RP2040-Zero) gets its pads listed instead."""
    from PIL import Image, ImageDraw

    parts = parts or parts_data.load_parts()
    board = board or parts_data.load_board(name)
    header = parts["headers"][parts_data.controller(parts, name)["header"]]
    used = {}
    for _, _, pin, number, what in numbered_wires(board, name, parts):
        key = number if number is not None else pin
        used.setdefault(key, [pin])
        used[key].append(what)
    image = Image.new("RGB", (1000, 21 * PIN_STEP + 80), "white")
    draw = ImageDraw.Draw(image)
    draw.text((10, 8), "%s from above (USB at the top): the pins the tower uses" % board.name, fill="black")
    if not header["numbers"]:  # no pin numbers to place: the pads, named as on the board
        for row, (_key, said) in enumerate(sorted(used.items(), key=lambda kv: str(kv[0]))):
            y = 40 + row * PIN_STEP
            draw.ellipse((20, y - 6, 32, y + 6), fill=USED)
            draw.text((40, y - 6), "%s: %s" % (said[0], "; ".join(said[1:])), fill="black")
        return image
    draw.rectangle((LEFT - 20, TOP - 30, RIGHT + 20, TOP + 20 * PIN_STEP), outline="black", width=2)
    draw.rectangle(((LEFT + RIGHT) // 2 - 25, TOP - 40, (LEFT + RIGHT) // 2 + 25, TOP - 20), outline="black")  # USB
    for number in range(1, 41):
        x, y = pin_xy(number)
        said = used.get(number)
        draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=USED if said else None, outline=USED if said else FREE, width=2)
        label = str(number)
        draw.text((x + (12 if number <= 20 else -12 - 6 * len(label)), y - 6), label, fill=FREE)
        if said:
            text = "%s (%s): %s" % (said[0], number, "; ".join(sorted(set(said[1:]))))
            width = draw.textlength(text)
            draw.text((x - 24 - width, y - 6) if number <= 20 else (x + 24, y - 6), text, fill="black")
            draw.line((x - 20, y, x - 8, y) if number <= 20 else (x + 8, y, x + 20, y), fill=USED, width=2)
    return image


def where(header, pin):
    number = header["numbers"].get(pin)
    return str(number) if number is not None else pin


ROW = 1.2  # drawing units between rows
BOX = 3.4  # the controller's width
REACH = 6.0  # from the controller's pins to a part's pins


def drawing(name, parts=None, backend="svg", board=None):
    """The schemdraw Drawing of one profile's wiring: a row per controller pin, parts to the right.

    `board` (a `Board`) stands in for the profile's own, for tests."""
    try:
        import schemdraw
        from schemdraw import elements as elm
    except ImportError:
        raise UserError("drawing the wiring needs schemdraw and matplotlib: pip install 'dicetower[hardware]'")

    parts = parts or parts_data.load_parts()
    board = board or parts_data.load_board(name)
    header = parts["headers"][parts_data.controller(parts, name)["header"]]
    groups = connections(board, name, parts)
    schemdraw.use(backend)
    d = schemdraw.Drawing(show=False, fontsize=12)

    def text(at, words, **kw):
        d.add(elm.Label().at(at).label(words, **kw))

    def line(a, b):
        d.add(elm.Line().at(a).to(b))

    def part_box(top, rows, title, left, right=()):
        """A part: a box over `rows` rows from row `top`, pins named inside at its left and right."""
        x0, x1 = BOX + REACH, BOX + REACH + 2.4
        d.add(elm.Rect((x0, -(top - 0.45) * ROW), (x1, -(top + rows - 0.55) * ROW)).at((0, 0)))
        text((x0 + 1.2, -(top - 0.45) * ROW), title, valign="bottom")
        for k, pin in enumerate(left):
            text((x0 + 0.15, -(top + k) * ROW), pin, halign="left")
        for k, pin in enumerate(right):
            text((x1 - 0.15, -(top + k) * ROW), pin, halign="right")
        return x1

    row = 0
    for part, wires in groups:
        drawn = controller_wires(part, wires)
        for k, (part_pin, pin, _what) in enumerate(drawn):
            y = -(row + k) * ROW
            number = header["numbers"].get(pin)
            text((BOX - 0.15, y), pin, halign="right")
            if number is not None:
                text((BOX + 0.1, y + 0.05), str(number), halign="left", valign="bottom", fontsize=9)
            if part_pin == "DIN":  # through the resistor, drawn with the ring
                line((BOX, y), (BOX + 1.5, y))
            elif part_pin:
                line((BOX, y), (BOX + REACH, y))
        y = -row * ROW
        if part == "OLED":
            x1 = part_box(row, len(drawn), "OLED", [w[0] for w in drawn], ["GND"])
            line((x1, y), (x1 + 0.6, y))
            d.add(elm.Ground().at((x1 + 0.6, y)))
        elif part == "LED ring":
            # Each of the ring's pads once: DIN and 5V on the left, GND on the right; the capacitor
            # hangs from the 5V wire to ground (across the 5V and GND pads, as the table says).
            x1 = part_box(row, 2, "LED ring (%d LEDs)" % board.leds["count"], ["DIN", "5V"], ["GND"])
            d.add(elm.Resistor().at((BOX + 1.5, y)).right(2.5).label("330 ohm"))
            line((BOX + 4, y), (BOX + REACH, y))
            line((x1, y), (x1 + 0.6, y))
            d.add(elm.Ground().at((x1 + 0.6, y)))
            tap = (BOX + REACH - 2.2, y - ROW)  # its label clear of the ring's box
            d.add(elm.Dot().at(tap))
            d.add(elm.Capacitor(polar=True).at(tap).down(0.8 * ROW).label("1000 uF", loc="bottom"))
            d.add(elm.Ground())
        elif part == "buzzer":
            x1 = part_box(row, 1, "buzzer", ["+"], ["-"])
            line((x1, y), (x1 + 0.6, y))
            d.add(elm.Ground().at((x1 + 0.6, y)))
        elif is_button(part):
            d.add(elm.Button().at((BOX + REACH, y)).right(1.5).label(part))
            if wires[1][1] == "GND":
                d.add(elm.Ground())
            else:
                d.add(elm.Vdd().label(wires[1][1]))
        else:  # on the board itself: the pin is taken, no wire
            text((BOX + 0.6, y), "%s: nothing to wire" % part, halign="left")
        row += len(drawn) + 1
    y = -row * ROW
    text((BOX - 0.15, y), header["GND"], halign="right")
    if header["numbers"].get(header["GND"]) is not None:
        text((BOX + 0.1, y + 0.05), str(header["numbers"][header["GND"]]), halign="left", valign="bottom", fontsize=9)
    line((BOX, y), (BOX + 0.8, y))
    d.add(elm.Ground().at((BOX + 0.8, y)))
    d.add(elm.Rect((0, 0.6 * ROW), (BOX, y - 0.6 * ROW)).at((0, 0)))
    text((BOX / 2, 0.6 * ROW), board.name, valign="bottom")
    text((0, y - 1.6 * ROW), "Every ground symbol is joined to a GND pin of the board.", halign="left")
    return d


def write(name, out, parts=None):
    """Write NAME.svg, NAME.png and NAME.md into the folder `out`; return their paths."""
    parts = parts or parts_data.load_parts()
    os.makedirs(out, exist_ok=True)
    paths = [os.path.join(out, name + ext) for ext in (".svg", ".png", "-top.png", ".md")]
    with open(paths[0], "wb") as f:
        f.write(drawing(name, parts, "svg").get_imagedata("svg"))
    drawing(name, parts, "matplotlib").save(paths[1], transparent=False, dpi=110)
    top_view(name, parts).save(paths[2])
    with open(paths[3], "w") as f:
        f.write(pin_table(name, parts))
    return paths
