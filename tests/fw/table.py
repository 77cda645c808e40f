"""A dice tower on the bench: main.py booted on virtual peripherals, with hands to press its buttons.

Works on CPython (files in a temporary folder) and on the MicroPython VM
(files in the VM's own filesystem, boards/ mounted at /boards).
"""

import json
import os

import devices
from dicetower.core.entropy import FairDice, SeededSource
from dicetower.ui import font

PINS = {"a": 10, "b": 11, "c": 12}


def _root():
    if "boards" in os.listdir("/"):
        return "/"  # the VM: boards/ is mounted at /boards
    import tempfile

    root = tempfile.mkdtemp() + "/"
    here = __file__.rsplit("/", 3)[0] + "/boards"
    os.mkdir(root + "boards")
    for name in os.listdir(here):
        with open(here + "/" + name) as f, open(root + "boards/" + name, "w") as g:
            g.write(f.read())
    return root


class Table:
    def __init__(self, seed=1, board="pico", root=None, keep_files=False, oled=True):
        self.bench = devices.reset()
        self.root = root or _root()
        if not keep_files:
            for name in ("game.sav", "config.json", "errors.log", "dice.json"):
                try:
                    os.remove(self.root + name)
                except OSError:
                    pass
        with open(self.root + "boards/%s.json" % board) as f:
            self.profile = json.loads(f.read())
        self.panel, self.strip = devices.wire(self.bench, self.profile)
        if not oled:
            self.panel.present = False  # no ACK: as if the OLED were not connected
        self.platform = devices.Platform(self.bench, self.root, FairDice(SeededSource(seed)))
        import main

        self.device = main.boot(self.platform)
        self.app = getattr(self.device, "app", None)
        self.clock = self.bench.clock

    def wait(self, ms):
        """Let time pass, the device polling every 10 ms and lighting a frame every 30 ms."""
        for _ in range(ms // 10):
            self.clock.advance(10)
            self.device.step(self.clock.now)
            if self.clock.now % 30 == 0:
                self.device.frame()

    def press(self, button, kind="short"):
        pin = PINS[button]
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
        """A string of presses: 'a', 'b', 'c' short; 'A', 'B', 'C' long."""
        for key in keys:
            if key == " ":
                continue
            self.press(key.lower(), "long" if key.isupper() else "short")

    def screen(self):
        """The OLED's eight text lines, read back from the panel's memory."""
        return [read_line(self.panel.ram, page) for page in range(8)]

    def events(self, kind=None):
        out = []
        for line in self.platform.lines:
            event = json.loads(line)
            if kind is None or event.get("event") == kind:
                out.append(event)
        return out


def read_line(ram, page, width=128):
    """Text on one page of the panel, matched against the firmware's font (inverted lines too)."""
    glyphs = {}
    for code in range(len(font.GLYPHS) // font.WIDTH):
        cols = bytes(font.GLYPHS[code * 5:code * 5 + 5])
        glyphs.setdefault(cols, chr(code + font.FIRST))
        glyphs.setdefault(bytes(b ^ 0xFF for b in cols), chr(code + font.FIRST))
    row = bytes(ram[page * width:(page + 1) * width])
    best = ""
    for offset in range(5):
        text = ""
        for x in range(offset, width - 4, 5):
            text += glyphs.get(row[x:x + 5], "\x00")
        if text.count("\x00") < best.count("\x00") or not best:
            best = text
    return best.replace("\x00", "~").strip()
