"""What a flash sends, and how long it takes, against the virtual Pico; a plain `mpremote cp -r` beside it.

    .venv/bin/python benchmarks/flash_speed.py

Four runs on fresh virtual Picos (vm/pico.mjs: the MicroPython VM behind a
TCP port, driven by the real mpremote):
- `dicetower flash` onto an empty board, then again after one firmware file
  changed (its reflash), and once more with nothing changed;
- the baseline: `mpremote cp -r` of the source tree (firmware/main.py and
  firmware/dicetower as .py) onto an empty board, then again after the same
  one-file change (mpremote's cp skips files whose SHA-256 matches).
Printed per run: files and bytes sent, wall time. `dicetower flash` also
compiles (.mpy), checks and plans, writes the manifest, soft-resets and
waits for the firmware's ready line; the baseline does none of that.
The VM is not a Pico: times are the bridge's and the VM's, not USB's.
"""

import io
import os
import shutil
import subprocess
import sys
import tempfile
import time

from dicetower_host import flash, paths  # noqa: E402
from dicetower_host.pico import VirtualPico  # noqa: E402

CHANGED = "dicetower/ui/screens.py"


def clean_copy(folder, edit=False):
    """firmware/ without __pycache__ (cp -r would send it too), optionally with one file changed."""
    copy = os.path.join(folder, "edited" if edit else "firmware")
    shutil.copytree(paths.FIRMWARE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    if edit:
        with open(os.path.join(copy, CHANGED), "a") as f:
            f.write("\nBENCHMARK_EDIT = 1\n")
    return copy


def dicetower_flash(pico, source):
    flash.FIRMWARE = source
    started = time.monotonic()
    sent = flash.flash(pico.url, "pico", out=io.StringIO())
    return sent["files"], sent["bytes"], time.monotonic() - started


def mpremote_cp(pico, source):
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    started = time.monotonic()
    done = subprocess.run([mpremote, "connect", pico.url, "fs", "cp", os.path.join(source, "main.py"), ":main.py",
                           "+", "fs", "cp", "-r", os.path.join(source, "dicetower"), ":"],
                          capture_output=True, text=True, timeout=600)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit("mpremote failed: %s" % done.stderr)
    # mpremote names only the files it skipped ("Up to date: ./core/dice.py"); the rest were sent.
    skipped = {line.split(":", 1)[1].strip().lstrip("./") for line in done.stdout.splitlines()
               if line.startswith("Up to date:")}
    files = nbytes = 0
    for folder, dirs, names in os.walk(os.path.join(source, "dicetower")):
        for name in names:
            rel = os.path.relpath(os.path.join(folder, name), os.path.join(source, "dicetower")).replace(os.sep, "/")
            if rel not in skipped:
                files += 1
                nbytes += os.path.getsize(os.path.join(folder, name))
    if "main.py" not in skipped:
        files += 1
        nbytes += os.path.getsize(os.path.join(source, "main.py"))
    return files, nbytes, seconds


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        original = clean_copy(tmp)
        edited = clean_copy(tmp, edit=True)
        with VirtualPico(os.path.join(tmp, "a")) as pico:
            rows.append(("dicetower flash, empty board",) + dicetower_flash(pico, original))
            rows.append(("dicetower flash, one file changed",) + dicetower_flash(pico, edited))
            rows.append(("dicetower flash, nothing changed",) + dicetower_flash(pico, edited))
        with VirtualPico(os.path.join(tmp, "b")) as pico:
            rows.append(("mpremote cp -r, empty board",) + mpremote_cp(pico, original))
            rows.append(("mpremote cp -r, one file changed",) + mpremote_cp(pico, edited))
    print("%-36s %6s %9s %8s" % ("run", "files", "bytes", "seconds"))
    for name, files, nbytes, seconds in rows:
        print("%-36s %6d %9d %8.2f" % (name, files, nbytes, seconds))


if __name__ == "__main__":
    main()
