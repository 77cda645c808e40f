"""The same script on CPython and on the MicroPython VM: byte-identical OLED memory and LED bytes at every step."""

import glob
import os
import shutil
import subprocess
import tempfile

import pytest

from conftest import FIRMWARE, ROOT
from host_tools import sim

EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.sim")))


def on_cpython(path):
    sim.use_virtual_parts()
    from dicetower.core.entropy import FairDice, SeededSource
    from script import digests, parse, setting
    from tower import Tower

    with open(path) as f:
        steps = parse(f.read())
    root = sim.prepare_root(tempfile.mkdtemp())
    tower = Tower(root, setting(steps, "board", "pico"), FairDice(SeededSource(setting(steps, "seed", 1))))
    return ["STEP %d %s" % pair for pair in digests(tower, steps)]


def on_micropython(path):
    done = subprocess.run(
        [shutil.which("node"), os.path.join(ROOT, "vm", "run.mjs"), "--mount", FIRMWARE + ":/fw",
         "--mount", os.path.join(ROOT, "boards") + ":/boards", "--mount", os.path.join(ROOT, "examples") + ":/examples",
         "--mount", os.path.join(ROOT, "host_tools", "virtual") + ":/virtual",
         os.path.join(ROOT, "host_tools", "virtual", "parity_main.py"), "/examples/" + os.path.basename(path)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if line.startswith("STEP ")]


def test_every_mode_has_an_example():
    names = [os.path.basename(p) for p in EXAMPLES]
    for mode in ("battlerealm", "champions", "united", "battleworld"):
        assert mode + ".sim" in names


@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_same_bytes_on_cpython_and_micropython(path):
    cpython = on_cpython(path)
    micropython = on_micropython(path)
    assert len(cpython) > 5
    assert micropython == cpython
