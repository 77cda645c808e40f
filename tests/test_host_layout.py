"""The host package's shape (issue 48): no module over 400 lines, and one stand-in for MicroPython's
`micropython` module (its const, native and viper) on the host, the one the firmware's modules get there."""

import ast
import json
import os
import subprocess
import sys

import pytest

from conftest import FIRMWARE, ROOT

HOST = os.path.join(ROOT, "host_tools", "dicetower_host")
MOST_LINES = 400
STAND_IN = os.path.join("host_tools", "dicetower_host", "micropython.py")


def python_files(top):
    for folder, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "data", "node_modules"))
        for name in sorted(names):
            if name.endswith(".py"):
                yield os.path.join(folder, name)


def lines_of(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def test_no_host_module_is_over_400_lines():
    """A module that outgrows the mark is split by job (flash/, pico/, verify/ show how), not squeezed."""
    over = {os.path.relpath(path, ROOT): lines_of(path) for path in python_files(HOST) if lines_of(path) > MOST_LINES}
    assert not over, "over %d lines: %s" % (MOST_LINES, over)


def test_the_line_count_sees_a_long_module(tmp_path):
    (tmp_path / "long.py").write_text("x = 1\n" * (MOST_LINES + 1))
    (tmp_path / "short.py").write_text("x = 1\n" * MOST_LINES)
    assert [lines_of(p) > MOST_LINES for p in python_files(str(tmp_path))] == [True, False]


def defines_const(path):
    """Whether a file defines a `const` of its own (a function, a lambda, a name bound to one)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "const":
            return True
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "const" for t in node.targets):
            return True
    return False


HOST_SIDE = ("host_tools", "tests", "benchmarks", "tasks.py", "hatch_build.py")


def test_the_host_defines_const_once():
    """Host tools, tests (tests/fw too, which the VM also runs) and benchmarks define no const of their own."""
    found = []
    for top in HOST_SIDE:
        path = os.path.join(ROOT, top)
        for each in [path] if path.endswith(".py") else python_files(path):
            if defines_const(each):
                found.append(os.path.relpath(each, ROOT))
    assert found == [STAND_IN], found


@pytest.mark.parametrize("fallback", ["    def const(x):\n        return x\n", "    const = lambda x: x\n"])
def test_the_search_sees_a_const_of_its_own(tmp_path, fallback):
    (tmp_path / "shim.py").write_text("try:\n    from micropython import const\nexcept ImportError:\n" + fallback)
    (tmp_path / "user.py").write_text("from micropython import const\n\nX = const(1)\n")
    assert defines_const(str(tmp_path / "shim.py")) and not defines_const(str(tmp_path / "user.py"))


CHECK = r"""
import importlib, json, sys
from dicetower_host import virtual_parts
virtual_parts.install()  # the firmware's `machine` (hw/), as in every host process that runs it
import micropython
names = json.loads(sys.argv[1])
print(json.dumps({
    "file": micropython.__file__,
    "decorators": micropython.native(len) is len and micropython.viper(len) is len,
    "const": [n for n in names if importlib.import_module(n).const is not micropython.const],
}))
"""


def test_the_firmwares_const_on_the_host_is_the_stand_in():
    """Every firmware module that imports MicroPython's const gets the stand-in's in a fresh host process
    (imported before any firmware module: the package's finder answers `import micropython`)."""
    names = []
    for path in python_files(os.path.join(FIRMWARE, "dicetower")):
        with open(path, encoding="utf-8") as f:
            if "from micropython import const" in f.read():
                names.append(os.path.relpath(path, FIRMWARE)[:-3].replace(os.sep, "."))
    assert names  # the firmware does use it (entropy, canvas, oled...)
    done = subprocess.run(
        [sys.executable, "-c", CHECK, json.dumps(names)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["file"] == os.path.join(ROOT, STAND_IN)
    assert said["decorators"] is True
    assert said["const"] == [], "their const is not the stand-in's: %s" % said["const"]
