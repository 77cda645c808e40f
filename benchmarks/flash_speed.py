"""What a flash sends, and how long it takes, against the virtual Pico; a plain `mpremote cp -r` beside it.

    .venv/bin/python benchmarks/flash_speed.py

Four runs on fresh virtual Picos (vm/pico.mjs: the MicroPython VM behind a
TCP port, driven by the real mpremote):
- `dicetower flash` onto an empty board, then again after one firmware file
  changed (its reflash), and once more with nothing changed;
- the baseline: `mpremote cp -r` of the source tree (firmware/main.py and
  firmware/dicetower as .py) onto an empty board, then again after the same
  one-file change (mpremote's cp skips files whose SHA-256 matches).
Printed per run: the files copied and their size on disk, the bytes that
crossed the serial line to the board (counted by a relay between the client
and the virtual Pico's port: what a USB cable would carry, REPL commands,
hashes asked for and mpremote's escaping of binary data included) and back,
and the wall time. `dicetower flash` also compiles (.mpy), checks and plans,
writes the manifest, soft-resets and waits for the firmware's ready line;
the baseline does none of that. The VM is not a Pico: times are the
bridge's and the VM's, not USB's: over real USB the copy takes longer per
byte; the proportions are what carry over.
"""

import io
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

from dicetower_host import flash, paths  # noqa: E402
from dicetower_host.pico import VirtualPico  # noqa: E402

CHANGED = "dicetower/ui/screens.py"


class CountingRelay:
    """A TCP relay in front of the board's port that counts the bytes each way, as a USB cable carries them."""

    def __init__(self, port):
        self.port = port
        self.to_board = self.from_board = 0
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = "socket://127.0.0.1:%d" % self.server.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return  # closed
            board = socket.create_connection(("127.0.0.1", self.port))
            threading.Thread(target=self._pipe, args=(client, board, "to_board"), daemon=True).start()
            threading.Thread(target=self._pipe, args=(board, client, "from_board"), daemon=True).start()

    def _pipe(self, source, sink, counter):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                setattr(self, counter, getattr(self, counter) + len(data))
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def reset(self):
        time.sleep(0.5)  # the last run's closing bytes counted in its own row
        self.to_board = self.from_board = 0

    def close(self):
        self.server.close()


def clean_copy(folder, edit=False):
    """firmware/ without __pycache__ (cp -r would send it too), optionally with one file changed."""
    copy = os.path.join(folder, "edited" if edit else "firmware")
    shutil.copytree(paths.FIRMWARE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    if edit:
        with open(os.path.join(copy, CHANGED), "a") as f:
            f.write("\nBENCHMARK_EDIT = 1\n")
    return copy


def dicetower_flash(relay, source):
    flash.FIRMWARE = source
    relay.reset()
    started = time.monotonic()
    sent = flash.flash(relay.url, "pico", out=io.StringIO())
    seconds = time.monotonic() - started
    time.sleep(0.5)
    return sent["files"], sent["bytes"], relay.to_board, relay.from_board, seconds


def mpremote_cp(relay, source):
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    relay.reset()
    started = time.monotonic()
    done = subprocess.run(
        [
            mpremote,
            "connect",
            relay.url,
            "fs",
            "cp",
            os.path.join(source, "main.py"),
            ":main.py",
            "+",
            "fs",
            "cp",
            "-r",
            os.path.join(source, "dicetower"),
            ":",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit("mpremote failed: %s" % done.stderr)
    # mpremote names only the files it skipped ("Up to date: ./core/dice.py"); the rest were sent.
    skipped = {
        line.split(":", 1)[1].strip().lstrip("./")
        for line in done.stdout.splitlines()
        if line.startswith("Up to date:")
    }
    files = nbytes = 0
    for folder, _dirs, names in os.walk(os.path.join(source, "dicetower")):
        for name in names:
            rel = os.path.relpath(os.path.join(folder, name), os.path.join(source, "dicetower")).replace(os.sep, "/")
            if rel not in skipped:
                files += 1
                nbytes += os.path.getsize(os.path.join(folder, name))
    if "main.py" not in skipped:
        files += 1
        nbytes += os.path.getsize(os.path.join(source, "main.py"))
    time.sleep(0.5)
    return files, nbytes, relay.to_board, relay.from_board, seconds


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        original = clean_copy(tmp)
        edited = clean_copy(tmp, edit=True)
        with VirtualPico(os.path.join(tmp, "a")) as pico:
            relay = CountingRelay(pico.port)
            rows.append(("dicetower flash, empty board",) + dicetower_flash(relay, original))
            rows.append(("dicetower flash, one file changed",) + dicetower_flash(relay, edited))
            rows.append(("dicetower flash, nothing changed",) + dicetower_flash(relay, edited))
            relay.close()
        with VirtualPico(os.path.join(tmp, "b")) as pico:
            relay = CountingRelay(pico.port)
            rows.append(("mpremote cp -r, empty board",) + mpremote_cp(relay, original))
            rows.append(("mpremote cp -r, one file changed",) + mpremote_cp(relay, edited))
            relay.close()
    print("files: copied; file bytes: their size on disk; on the wire: bytes the serial line carried")
    print(
        "%-36s %6s %11s %15s %15s %8s" % ("run", "files", "file bytes", "wire to board", "wire from board", "seconds")
    )
    for name, files, nbytes, to_board, from_board, seconds in rows:
        print("%-36s %6d %11d %15d %15d %8.2f" % (name, files, nbytes, to_board, from_board, seconds))
    flashed, copied = rows[0][3], rows[3][3]
    print(
        "on the wire to an empty board, dicetower flash sends %.2fx what mpremote cp -r sends (file bytes: %.2fx)"
        % (flashed / copied, rows[0][2] / rows[3][2])
    )


if __name__ == "__main__":
    main()
