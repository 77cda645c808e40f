"""Shared helpers for the host-side tests."""

import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import settings

from dicetower_host import paths, virtual_parts
from dicetower_host.pico import NO_FIRMWARE

# The firmware's `import machine` and the shared helpers' `import tower` / `import devices` (tests/fw
# runs on the MicroPython VM too, where the virtual parts are a folder on its path) give the package's.
virtual_parts.install()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
BIN = os.path.dirname(sys.executable)

# Hypothesis profiles; tasks.py picks one with --hypothesis-profile. A property test that leaves
# max_examples to the profile runs a thousand examples in the full suite ("ci", also plain pytest's)
# and a sample in `tasks.py test --fast`; one that names its own count runs that count in both.
settings.register_profile("ci", max_examples=1000, deadline=None, print_blob=True)
settings.register_profile("fast", max_examples=50, deadline=None)
settings.load_profile("ci")

# Tests that must run in one process under pytest-xdist: they share a module-scoped fixture that is
# too dear to build once per worker (one VM run of every firmware module, a flashed emulated RP2040),
# a tally checked once the whole module ran, or a build cache on disk that two workers would write at once.
ONE_WORKER = {
    "test_on_micropython.py": "micropython_vm",
    "test_advisor_bruteforce.py": "advisor_bruteforce",
    "test_rp2040.py": "rp2040",
    "test_wheel.py": "wheel",  # one wheel built and installed (40 s), not one a worker
}

# The emulated RP2040 boots MicroPython's own firmware file, which the repository does not hold: tests
# marked `chip` need it named in DICETOWER_RP2_FIRMWARE and are skipped without it, said at the end.
CHIP_FIRMWARE = os.environ.get("DICETOWER_RP2_FIRMWARE")
NO_CHIP = "a chip test: DICETOWER_RP2_FIRMWARE names no firmware file"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        group = ONE_WORKER.get(item.path.name)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
        if not CHIP_FIRMWARE and item.get_closest_marker("chip") is not None:
            item.add_marker(pytest.mark.skip(reason=NO_CHIP))
    if hasattr(config, "workerinput"):
        # Under xdist every worker collects this same order and the controller deals tests out in it:
        # the slow ones first, so no long test starts last while the other worker sits idle.
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_terminal_summary(terminalreporter):
    """One line with how many tests the emulated RP2040 would have run, and the file they want."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if NO_CHIP in str(getattr(r, "longrepr", ""))]
    if skipped:
        terminalreporter.write_line(
            "%d chip test%s skipped: %s" % (len(skipped), "" if len(skipped) == 1 else "s", NO_FIRMWARE)
        )


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


def vm_libraries():
    """A folder holding the libraries a board gets beside the firmware (microdot, for a Pico W's
    scoreboard), as the installed ones are: the VM copies a mount whole, so not site-packages."""
    import microdot

    folder = os.path.join(ROOT, "build", "vm-libs")
    if not os.path.exists(os.path.join(folder, "microdot", "__init__.py")):
        staging = folder + ".%d" % os.getpid()  # xdist's workers: each makes its own, the first one stays
        shutil.copytree(
            os.path.dirname(microdot.__file__),
            os.path.join(staging, "microdot"),
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        try:
            os.rename(staging, folder)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
    return folder


def run_on_vm(script, *args, timeout=600):
    """Run a Python file on the MicroPython VM with firmware/ (and microdot) on its path."""
    try:
        command = paths.vm_command(
            script,
            *args,
            mounts=[
                (FIRMWARE, "/fw"),
                (os.path.join(ROOT, "tests", "fw"), "/tests"),
                (paths.BOARDS, "/boards"),
                (paths.VIRTUAL_PARTS, "/virtual"),
                (vm_libraries(), "/libs"),
            ],
        )
    except RuntimeError as e:
        pytest.fail(str(e))
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
