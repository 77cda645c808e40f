"""A dice tower on the bench: main.py's device booted on virtual parts, with hands to press its buttons.

Runs on CPython (the simulator, the tests) and on the MicroPython VM (the
parity check and the firmware tests). `root` is the device's filesystem
root; it must hold boards/ with the profile.
"""

import json

import devices
from script import keystrokes  # noqa: F401 (tower.keystrokes, as callers know it)

from dicetower.ui import font

SPINS = 100000  # passes of the loop without time moving: more means a loop that never sleeps


class Tower:
    def __init__(self, root, board="pico", dice=None, oled=True, runtime="micropython", hold=None):
        """`runtime` "circuitpython" boots the firmware's CircuitPython backend on the virtual
        CircuitPython modules (CPython only), after its boot.py, with `hold` (a button) held at power-up."""
        self.bench = devices.reset()
        self.root = root
        with open(root + "boards/%s.json" % board) as f:
            self.profile = json.loads(f.read())
        self.panel, self.strip = devices.wire(self.bench, self.profile)
        if not oled:
            self.panel.present = False  # no ACK: as if the OLED were not connected
        if runtime == "circuitpython":
            import onbench
            from boot import give_drive_to_code  # firmware/boot.py, as CircuitPython runs it first

            if hold is not None:
                self.bench.press(self.pin(hold))
            self.drive_to_code = give_drive_to_code(root, self.bench.machine_name)
            if hold is not None:
                self.bench.release(self.pin(hold))
            self.platform = onbench.Platform(self.bench, root, dice)
        else:
            self.platform = devices.Platform(self.bench, root, dice)
        import main

        self.device = main.boot(self.platform)
        self.app = getattr(self.device, "app", None)
        self.clock = self.bench.clock

    def pin(self, button):
        spec = self.profile["buttons"].get(button)
        if spec is None:
            raise ValueError(
                "this board has no button %r (it has %s)" % (button, ", ".join(sorted(self.profile["buttons"])))
            )
        return spec["pin"]

    def wait(self, ms, each=None):
        """Let `ms` pass on the bench's clock, running the device's own loop (`Device.tick`): time
        moves to whatever it says is due next; its work between (the advisor) takes no bench time.
        `each()`, if given, is called after every pass: True stops the wait there."""
        clock = self.clock
        end = clock.now + ms
        spins = 0
        while True:
            pause = self.device.tick(clock.now)
            if each is not None and each():
                return
            if clock.now >= end:
                return
            if pause > 0:
                clock.advance(min(pause, end - clock.now))
                spins = 0
            else:
                spins += 1
                if spins > SPINS:
                    raise RuntimeError("the device's loop never lets time pass")

    def press(self, button, kind="short"):
        pin = self.pin(button)
        if kind == "double":
            for _ in range(2):
                self.bench.press(pin)
                self.wait(60)
                self.bench.release(pin)
                self.wait(60)
            self.wait(400)
            return
        self.bench.press(pin)
        self.wait(800 if kind == "long" else 60)
        self.bench.release(pin)
        self.wait(400)

    def presses(self, keys):
        for button, kind in keystrokes(keys):
            self.press(button, kind)

    def oled(self):
        """The panel's memory: what the driver sent, 1,024 bytes."""
        return bytes(self.panel.ram)

    def leds(self):
        """The bytes the ring last received, in its colour order."""
        return self.strip.data

    def events(self, kind=None):
        out = []
        for line in self.platform.lines:
            event = json.loads(line)
            if kind is None or event.get("event") == kind:
                out.append(event)
        return out

    def screen(self):
        """The OLED's eight text lines, read back from the panel's memory."""
        return [read_line(self.panel.ram, page) for page in range(8)]

    def snapshot(self):
        """What a player would report: the screen, the ring, the game."""
        game = self.app.game if self.app is not None else None
        n = len(self.strip.order)
        return {
            "mode": self.app.mode if self.app is not None else "error",
            "game": game.KIND if game is not None else None,
            "over": game.over() if game is not None else None,
            "state": game.state if game is not None else None,
            "history": game.history() if game is not None else [],
            "screen": self.screen(),
            "leds": [list(self.strip.rgb(i)) for i in range(len(self.strip.data) // n)],
            "message": self.app.message if self.app is not None else self.device.error,
        }


_GLYPHS = {}
_INVERTED = {}  # the same glyphs drawn dark on lit


def read_big(ram, page, width=128):
    """Text drawn twice as large (Canvas.big) on pages `page` and `page + 1`, or "" where there is none:
    each column doubled, each bit doubled down both pages, undone and matched as read_line does."""
    read_line(b"", 0, 0)  # the glyph table, made once
    low, high = ram[page * width : (page + 1) * width], ram[(page + 1) * width : (page + 2) * width]
    for offset in range(10):
        text, x = "", offset
        while x + 9 < width:
            cols = bytes(
                sum(((low[x + 2 * c] >> (2 * i)) & 1) << i for i in range(4))
                | sum(((high[x + 2 * c] >> (2 * i)) & 1) << (i + 4) for i in range(4))
                for c in range(5)
            )
            found = _GLYPHS.get(cols)
            if found is None and any(cols):
                break  # not big text here: try the next offset
            text += found or " "
            x += 10
        else:
            if text.strip():
                return text.strip()
    return ""


def read_line(ram, page, width=128):
    """Text on one page of the panel, matched against the firmware's font (inverted lines too)."""
    return "".join(char for char, _ in read_cells(ram, page, width)).strip()


def read_cells(ram, page, width=128):
    """One page of the panel as (character, inverted) a glyph's cell, from its left edge: `~` where no
    glyph matches (an icon, a frame); `inverted` True where the glyph is drawn dark on lit (a chosen
    line, the value being edited)."""
    if not _GLYPHS:
        for code in range(len(font.GLYPHS) // font.WIDTH):
            cols = bytes(font.GLYPHS[code * 5 : code * 5 + 5])
            _GLYPHS.setdefault(cols, chr(code + font.FIRST))
            _INVERTED.setdefault(bytes(b ^ 0xFF for b in cols), chr(code + font.FIRST))
    row = bytes(ram[page * width : (page + 1) * width])
    best = None
    for offset in range(5):
        cells = []
        for x in range(offset, width - 4, 5):
            cols = row[x : x + 5]
            char = _GLYPHS.get(cols)
            cells.append((char, False) if char is not None else (_INVERTED.get(cols), cols in _INVERTED))
        if best is None or sum(c is None for c, _ in cells) < sum(c is None for c, _ in best):
            best = cells
    return [("~" if char is None else char, inverted) for char, inverted in best]
