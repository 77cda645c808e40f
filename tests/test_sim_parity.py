"""The same script on three runs: byte-identical OLED memory and LED bytes at every step.

MicroPython's path on CPython, the same on the MicroPython VM, and CircuitPython's path on CPython
(hw/circuitpy.py with Adafruit's real neopixel and adafruit_pixelbuf over the virtual `board`,
`digitalio`, `busio` and `neopixel_write`, feeding the same virtual SSD1306 and strip).
"""

import glob
import os
import subprocess
import tempfile

import pytest

from conftest import FIRMWARE, ROOT
from dicetower_host import paths, sim

EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.sim")))


def on_cpython(path, runtime="micropython"):
    sim.use_virtual_parts(runtime)
    from dicetower.core.entropy import FairDice
    from dicetower.core.replay import SeededSource
    from dicetower_host.virtual_parts.script import digests, parse, setting
    from dicetower_host.virtual_parts.tower import Tower

    with open(path) as f:
        steps = parse(f.read())
    root = sim.prepare_root(tempfile.mkdtemp())
    tower = Tower(
        root, setting(steps, "board", "pico"), FairDice(SeededSource(setting(steps, "seed", 1))), runtime=runtime
    )
    if runtime == "circuitpython":
        # The real library drew the ring: the bytes did not come from the firmware's own Ring.
        assert type(tower.device.ring.pixels).__module__ == "neopixel"
        assert tower.device.ring.pixels.brightness == 1.0
    return ["STEP %d %s" % pair for pair in digests(tower, steps)]


def on_micropython(path):
    done = subprocess.run(
        paths.vm_command(
            os.path.join(paths.VIRTUAL_PARTS, "parity_main.py"),
            "/examples/" + os.path.basename(path),
            mounts=[
                (FIRMWARE, "/fw"),
                (paths.BOARDS, "/boards"),
                (os.path.join(ROOT, "examples"), "/examples"),
                (paths.VIRTUAL_PARTS, "/virtual"),
            ],
        ),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if line.startswith("STEP ")]


def test_every_mode_has_an_example():
    names = [os.path.basename(p) for p in EXAMPLES]
    from dicetower.core.games import GAMES

    for _, mode, *_ in GAMES:
        assert mode + ".sim" in names


@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_same_bytes_on_cpython_and_micropython(path):
    cpython = on_cpython(path)
    micropython = on_micropython(path)
    circuitpython = on_cpython(path, "circuitpython")
    assert len(cpython) > 5
    assert micropython == cpython
    assert circuitpython == cpython
