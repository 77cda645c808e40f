"""A virtual Pico to flash, monitor and press: vm/pico.mjs started and driven from Python.

Its serial port is `url` (socket://...), reachable by mpremote, `dicetower
flash --port` and `dicetower monitor --port`, and, where the platform has
pseudo-terminals, `open_pty()` gives it a device path as a USB serial port
has (/dev/pts/N), relayed to the same REPL; its flash is the host folder
`files`; its OLED, ring and buttons are the virtual parts the board profile
names, read and pressed through the bridge's control port.
"""

import json
import os
import shutil
import socket
import subprocess
import time

from host_tools import REPO

# A press held this long is a short one (long ones take 700 ms). Real time runs on: a press must
# outlast a pause of the firmware's loop (a GC pass, the first advice after a roll) to be seen.
SHORT_S = 0.3
LONG_S = 0.9


class VirtualPico:
    def __init__(self, files, board="pico", capacity=None):
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("the virtual Pico needs Node.js 20 (node) on PATH")
        self.files = files
        self.board = board
        with open(os.path.join(REPO, "boards", board + ".json")) as f:
            self.profile = json.load(f)
        args = [node, os.path.join(REPO, "vm", "pico.mjs"), "--files", files,
                "--mount", os.path.join(REPO, "host_tools", "virtual") + ":/virtual",
                "--board", os.path.join(REPO, "boards", board + ".json"), "--control"]
        if capacity:
            args += ["--capacity", str(capacity)]
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
        ports = {}
        while len(ports) < 2:
            line = self.process.stdout.readline()  # "listening PORT" and "control PORT", in either order
            words = line.split()
            if len(words) != 2 or words[0] not in ("listening", "control") or not words[1].isdigit():
                self.process.kill()
                raise RuntimeError("the virtual Pico did not start: %r %s" % (line, self.process.stderr.read()))
            ports[words[0]] = int(words[1])
        self.port = ports["listening"]
        self.url = "socket://127.0.0.1:%d" % self.port
        self._control = socket.create_connection(("127.0.0.1", ports["control"]), timeout=10)
        self._replies = self._control.makefile("r")

    def ask(self, request):
        self._control.sendall((json.dumps(request) + "\n").encode())
        answer = json.loads(self._replies.readline())
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer

    def press(self, button, kind="short"):
        self.ask({"press": button})
        time.sleep(LONG_S if kind == "long" else SHORT_S)
        self.ask({"release": button})
        time.sleep(0.3)

    def presses(self, keys):
        """'a', 'b', 'c' short, 'A', 'B', 'C' long, as in sim scripts."""
        from host_tools.sim import use_virtual_parts

        use_virtual_parts()
        from tower import keystrokes

        for button, kind in keystrokes(keys):
            self.press(button, kind)

    def oled(self):
        """The panel's memory: 1,024 bytes."""
        return bytes.fromhex(self.ask({"oled": True})["ram"])

    def screen(self):
        """The OLED's eight text lines, read with the host's copy of the font."""
        from host_tools.sim import use_virtual_parts

        use_virtual_parts()
        from tower import read_line

        ram = self.oled()
        return [read_line(ram, page) for page in range(8)]

    def leds(self):
        return self.ask({"leds": True})["leds"]

    def open_pty(self):
        """A pseudo-terminal relayed to the board's REPL: its path works as a serial port's does."""
        import pty
        import threading
        import tty

        master, slave = pty.openpty()
        tty.setraw(slave)  # bytes pass as they are: no echo, no line editing, no CR/LF changes
        self._pty = (master, slave)
        threading.Thread(target=self._relay, args=(master,), daemon=True).start()
        return os.ttyname(slave)

    def _relay(self, master):
        import select

        conn = socket.create_connection(("127.0.0.1", self.port))
        os.set_blocking(master, False)  # with no program reading, the board's output is dropped, as over USB
        while self.process.poll() is None:
            ready, _, _ = select.select([master, conn], [], [], 0.5)
            try:
                if conn in ready:
                    data = conn.recv(4096)
                    if not data:
                        return
                    os.write(master, data)
                if master in ready:
                    conn.sendall(os.read(master, 4096))
            except OSError:
                time.sleep(0.05)  # no one has the terminal open (EIO): wait for the next program

    def close(self):
        try:
            self._control.close()
        except OSError:
            pass
        for fd in getattr(self, "_pty", ()):
            try:
                os.close(fd)
            except OSError:
                pass
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
