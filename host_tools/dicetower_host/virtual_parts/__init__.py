"""Virtual parts: what the firmware's hw/ layer talks to when there is no board.

`machine.py` is the virtual `machine` module, `devices.py` the devices behind it (an
SSD1306 that decodes the bytes it is sent, a WS2812 strip, buttons) and a clock the test
moves, `tower.py` a whole tower on the bench, `script.py` the simulator's scripts,
`hands.py` the virtual Pico's control port. circuitpython/ holds CircuitPython's modules.

These files run on CPython and on the MicroPython VM alike, and import one another by
their top-level names (`import devices`), as the firmware imports `machine`: on the VM this
folder is mounted on its sys.path (/virtual). On CPython, `install()` makes those names
resolve to this package's modules, so `import machine` in the firmware gets the virtual one.
"""

import importlib
import importlib.abc
import importlib.util
import os
import sys

from dicetower_host import paths
from dicetower_host.errors import UserError

SHARED = ("devices", "machine", "script", "tower", "hands")
CIRCUITPYTHON = (
    "board",
    "busio",
    "digitalio",
    "microcontroller",
    "neopixel_write",
    "onbench",
    "pwmio",
    "storage",
    "supervisor",
    "watchdog",
)
# The board's own main.py and boot.py, from firmware/: `import main` boots the device as a board does;
# a CircuitPython tower runs boot.py's power-up step first.
FIRMWARE_FILES = ("main", "boot")


class _TopLevel(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Top-level names (machine, devices, board...) that are this package's modules: one module
    object under both names, so the firmware and the tests see the same bench."""

    def __init__(self):
        self.names = {name: __name__ + "." + name for name in SHARED}

    def find_spec(self, name, path=None, target=None):
        if name in FIRMWARE_FILES:
            return importlib.util.spec_from_file_location(name, os.path.join(paths.FIRMWARE, name + ".py"))
        if name in self.names:
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module(self.names[spec.name])

    def exec_module(self, module):
        pass  # run once already, under its package name


_FINDER = _TopLevel()


def install(runtime="micropython"):
    """Make `import machine`, `import devices`, `import tower`, `import main`... give the virtual parts
    and the firmware's own main.py; with "circuitpython", CircuitPython's modules and the pinned Adafruit
    libraries too. Idempotent."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    if runtime == "circuitpython":
        lib = paths.CIRCUITPY_LIB
        if not os.path.exists(os.path.join(lib, "neopixel.py")):
            raise UserError(
                "Adafruit's CircuitPython libraries are not in %s; run python3 tasks.py test once, "
                "or pip install --no-deps --target %s the libraries pyproject.toml names" % (lib, lib)
            )
        _FINDER.names.update({name: __name__ + ".circuitpython." + name for name in CIRCUITPYTHON})
        # Third-party code installed with pip --target: a folder on sys.path is how it is imported.
        if lib not in sys.path:
            sys.path.insert(0, lib)
