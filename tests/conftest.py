"""Shared helpers for the host-side tests."""

import os
import shutil
import subprocess
import sys

import pytest

from dicetower_host import paths, virtual_parts

# The firmware's `import machine` and the shared helpers' `import tower` / `import devices` (tests/fw
# runs on the MicroPython VM too, where the virtual parts are a folder on its path) give the package's.
virtual_parts.install()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
BIN = os.path.dirname(sys.executable)


def tool(name):
    """A command from the project's venv (where tasks.py installs it), else PATH."""
    path = os.path.join(BIN, name)
    if os.path.exists(path):
        return path
    found = shutil.which(name)
    if not found:
        pytest.fail("%s is not installed; run `python3 tasks.py test`" % name)
    return found


def firmware_files():
    files = []
    for folder, dirs, names in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        files += [os.path.join(folder, n) for n in names if n.endswith(".py")]
    return sorted(files)


def run_on_vm(script, *args, timeout=600):
    """Run a Python file on the MicroPython VM with firmware/ on its path."""
    try:
        command = paths.vm_command(script, *args, mounts=[
            (FIRMWARE, "/fw"), (os.path.join(ROOT, "tests", "fw"), "/tests"), (paths.BOARDS, "/boards"),
            (paths.VIRTUAL_PARTS, "/virtual")])
    except RuntimeError as e:
        pytest.fail(str(e))
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
