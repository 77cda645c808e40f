"""The box's parts for one board profile: the bill of materials and the power budget.

Everything comes from two places of data: the profile (`boards/NAME.json`,
read and checked by the firmware's own `core/board.py`) and the parts
(`hardware/parts.json`). The ring's current at the brightness cap is what
the firmware's own `hw/pixels.Ring` sends for full white, so the budget
cannot drift from the code that sets the LEDs.
"""

import json
import os

from dicetower.core import board as board_rules
from dicetower.core.board_check import parse
from dicetower.hw.pixels import Ring
from dicetower_host import paths
from dicetower_host.errors import UserError

BOARDS = paths.BOARDS
HARDWARE = paths.HARDWARE
PARTS = os.path.join(HARDWARE, "parts.json")
USB_LIMIT_MA = 500  # a USB 2.0 port's promise (USB 2.0 spec, 7.2.1: five unit loads of 100 mA)
MA_PER_CHANNEL = board_rules.MA_PER_LED_WHITE / 3


def load_parts(path=PARTS):
    with open(path) as f:
        return json.load(f)


def profile_names():
    return sorted(n[:-5] for n in os.listdir(BOARDS) if n.endswith(".json"))


def load_board(name):
    """The profile `boards/NAME.json` as the firmware reads it, or ValueError naming the field."""
    path = os.path.join(BOARDS, name + ".json")
    if not os.path.exists(path):
        raise paths.unknown_board(name)
    with open(path) as f:
        text = f.read()
    try:
        return parse(text)
    except board_rules.BoardError as e:
        raise UserError("boards/%s.json: %s" % (name, e))


def controller(parts, name):
    if name not in parts["controllers"]:
        raise UserError("hardware/parts.json has no controller for the profile %r (controllers.%s)" % (name, name))
    return parts["controllers"][name]


def ring(parts, count):
    sizes = parts["rings"].get(str(count))
    if sizes is None:
        known = ", ".join(k for k in sorted(parts["rings"], key=lambda k: (len(k), k)) if not k.startswith("_"))
        raise UserError("leds.count %d: hardware/parts.json knows rings of %s LEDs (rings.%d)" % (count, known, count))
    return sizes


def ring_ma(board, parts, capped=True):
    """Current of the ring showing full white, through the firmware's own Ring driver."""
    sent = []
    strip = Ring(
        board.leds["pin"],
        board.leds["count"],
        board.leds["order"],
        board.cap if capped else 1.0,
        bitstream=lambda pin, mode, timing, buf: sent.append(bytes(buf)),
    )
    strip.fill(255, 255, 255)
    strip.show()
    lit = sum(sent[0]) / 255 * MA_PER_CHANNEL
    return lit + board.leds["count"] * parts["ring"]["ma_idle_per_led"]


def power_budget(board, name, parts):
    """(rows of (what, mA), total at the cap, total at full white)."""
    others = [
        ("%s, running" % board.name, controller(parts, name)["ma"]),
        ("OLED, every pixel lit", parts["oled"]["ma"]),
    ]
    if board.buzzer is not None:
        others.append(("buzzer, sounding", parts["buzzer"]["ma"]))
    capped = ring_ma(board, parts)
    full = ring_ma(board, parts, capped=False)
    rest = sum(ma for _, ma in others)
    rows = [
        ("LED ring, white at the firmware's cap (%.2f)" % board.cap, capped),
        ("LED ring, white with no cap (for comparison)", full),
    ] + others
    return rows, capped + rest, full + rest


def bom_rows(board, name, parts):
    """(part, qty, part number, price each, alternatives) for one profile."""
    ctl = controller(parts, name)
    count = board.leds["count"]
    sizes = ring(parts, count)
    rows = [
        (ctl["part"], 1, ctl["number"], ctl["price_usd"], ctl["alternatives"]),
        (parts["oled"]["part"], 1, parts["oled"]["number"], parts["oled"]["price_usd"], parts["oled"]["alternatives"]),
        (
            "%s, %d LEDs, about %g mm across" % (parts["ring"]["part"], count, sizes["od_mm"]),
            1,
            parts["ring"]["number"] % count,
            sizes["price_usd"],
            parts["ring"]["alternatives"],
        ),
        (
            parts["button"]["part"],
            len(board.buttons),
            parts["button"]["number"],
            parts["button"]["price_usd"],
            parts["button"]["alternatives"],
        ),
    ]
    if board.buzzer is not None:
        b = parts["buzzer"]
        rows.append((b["part"], 1, b["number"], b["price_usd"], b["alternatives"]))
    for extra in parts["extras"]:
        rows.append((extra["part"], extra["qty"], extra["number"], extra["price_usd"], extra["alternatives"]))
    shifter = parts["level_shifter"]
    rows.append((shifter["part"], 0, shifter["number"], shifter["price_usd"], shifter["alternatives"]))
    return rows


def bom_markdown(name, parts=None):
    """The BOM and power budget of one profile, as the Markdown committed in hardware/bom/."""
    parts = parts or load_parts()
    board = load_board(name)
    lines = [
        "# %s: parts and power" % board.name,
        "",
        "Made by `dicetower hardware bom --board %s` from `boards/%s.json` and `hardware/parts.json`;"
        " do not edit by hand." % (name, name),
        "",
        "| part | qty | part number / module | about (USD each) | alternatives |",
        "|---|---|---|---|---|",
    ]
    total = 0.0
    for part, qty, number, price, alternatives in bom_rows(board, name, parts):
        total += qty * price
        lines.append("| %s | %s | %s | %.2f | %s |" % (part, qty if qty else "optional", number, price, alternatives))
    lines += [
        "",
        "About %.0f US dollars in all (the optional part left out)." % total,
        "",
        "## Power from one USB 2.0 port (%d mA)" % USB_LIMIT_MA,
        "",
        "| what | mA |",
        "|---|---|",
    ]
    rows, at_cap, at_full = power_budget(board, name, parts)
    for what, ma in rows:
        lines.append("| %s | %.0f |" % (what, ma))
    lines += [
        "| **everything at once, ring at the cap** | **%.0f** (%s) |" % (at_cap, verdict(at_cap)),
        "| everything at once, ring with no cap | %.0f (%s) |" % (at_full, verdict(at_full)),
        "",
        "The ring's figures include about %d mA per LED that a WS2812 draws even when dark. The cap"
        " (%d mA budget / (%d LEDs x %d mA)) is set in `boards/%s.json` (`leds.budget_ma`) and applied by the"
        " firmware to every colour, so the box stays within the port even when the whole ring is white."
        % (
            parts["ring"]["ma_idle_per_led"],
            board.leds["budget_ma"],
            board.leds["count"],
            board_rules.MA_PER_LED_WHITE,
            name,
        ),
    ]
    return "\n".join(lines) + "\n"


def verdict(ma):
    if ma <= USB_LIMIT_MA:
        return "within %d mA, %.0f mA to spare" % (USB_LIMIT_MA, USB_LIMIT_MA - ma)
    return "OVER %d mA by %.0f mA" % (USB_LIMIT_MA, ma - USB_LIMIT_MA)
