"""A dice tower on the bench: main.py booted on virtual peripherals, with hands to press its buttons.

Works on CPython (files in a temporary folder) and on the MicroPython VM
(files in the VM's own filesystem, boards/ mounted at /boards).
"""

import json
import os

from dicetower.core.entropy import FairDice
from dicetower.core.replay import ScriptedFaces, SeededSource
from tower import Tower

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


PLAYERS_FILES = ("game", "config", "errors", "dice", "setup", "champions", "heroes")


def tidy(root, kinds=PLAYERS_FILES):
    """Remove the player's files, and those the tower kept aside (game.sav.bad1, game.sav.old1...): on
    the VM every test shares one root, and a kept game would change the start menu."""
    for name in os.listdir(root):
        if name.split(".")[0] in kinds:
            os.remove(root + name)


class Table(Tower):
    """The tower on a test's bench: a fresh root with boards/, seeded dice."""

    def __init__(self, seed=1, board="pico", root=None, keep_files=False, oled=True):
        root = root or _root()
        if not keep_files:
            tidy(root)
        Tower.__init__(self, root, board, FairDice(SeededSource(seed)), oled)

    def screen(self):
        """The OLED's eight text lines, read back from the panel's memory."""
        return [read_line(self.panel.ram, page) for page in range(8)]

    def pick(self, line):
        """Step a picker with B to the value the OLED shows as `line` ("From: power, same loc"), as a
        player reads it, and confirm it with C."""
        for _ in range(40):
            if line in self.screen():
                self.presses("c")
                return
            self.presses("b")
        raise AssertionError("the picker never shows %r: %r" % (line, self.screen()))


class Scripted(Table):
    """The tower with set faces and, if given, the heroes of a heroes.json (Hulk rolls first in a new
    Battlerealm game)."""

    def __init__(self, faces, heroes=None):
        root = _root()
        tidy(root)  # the next test's tower starts without this one's heroes.json
        if heroes is not None:
            with open(root + "heroes.json", "w") as f:
                f.write(json.dumps({"heroes": heroes}))
        Tower.__init__(self, root, "pico", ScriptedFaces(faces))


from tower import read_line  # noqa: E402,F401  (the tests read the screen this way)
