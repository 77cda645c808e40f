"""A dice tower on the bench: main.py booted on virtual peripherals, with hands to press its buttons.

Works on CPython (files in a temporary folder) and on the MicroPython VM
(files in the VM's own filesystem, boards/ mounted at /boards).
"""

import os

from dicetower.core.entropy import FairDice, SeededSource
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


class Table(Tower):
    """The tower on a test's bench: a fresh root with boards/, seeded dice."""

    def __init__(self, seed=1, board="pico", root=None, keep_files=False, oled=True):
        root = root or _root()
        if not keep_files:
            for name in os.listdir(root):
                # The player's files, and those the tower kept aside (game.sav.bad1, game.sav.old1...):
                # on the VM every test shares one root, and a kept game would change the start menu.
                if name.split(".")[0] in ("game", "config", "errors", "dice"):
                    os.remove(root + name)
        Tower.__init__(self, root, board, FairDice(SeededSource(seed)), oled)

    def screen(self):
        """The OLED's eight text lines, read back from the panel's memory."""
        return [read_line(self.panel.ram, page) for page in range(8)]


from tower import read_line  # noqa: E402,F401  (the tests read the screen this way)
