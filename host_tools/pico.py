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


class _Board:
    """What both virtual boards share: a node process that prints its ports, the control line, the pty."""

    def _start(self, args):
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("the virtual Pico needs Node.js 20 (node) on PATH")
        self.process = subprocess.Popen([node] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        cwd=REPO)
        ports = {}
        while len(ports) < 2:
            line = self.process.stdout.readline()  # "listening PORT" and "control PORT", in either order
            if not line:  # it stopped: its own one-line reason is on stderr
                self.process.wait()
                raise RuntimeError(self.process.stderr.read().strip() or "the virtual Pico stopped as it started")
            words = line.split()
            if len(words) != 2 or words[0] not in ("listening", "control") or not words[1].isdigit():
                self.process.kill()
                raise RuntimeError("the virtual Pico did not start: %r %s" % (line, self.process.stderr.read().strip()))
            ports[words[0]] = int(words[1])
        self.port = ports["listening"]
        self.url = "socket://127.0.0.1:%d" % self.port
        self._control = socket.create_connection(("127.0.0.1", ports["control"]), timeout=self.CONTROL_TIMEOUT)
        self._replies = self._control.makefile("r")

    CONTROL_TIMEOUT = 10

    def ask(self, request):
        self._control.sendall((json.dumps(request) + "\n").encode())
        line = self._replies.readline()
        if not line:
            raise RuntimeError("the virtual Pico stopped: %s" % self._stderr_tail())
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer

    def _stderr_tail(self):
        if self.process.poll() is None:
            return "(still running)"
        return self.process.stderr.read().strip()[-2000:]

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


class VirtualPico(_Board):
    """The MicroPython VM behind a serial port: its flash is a host folder, its clock the host's."""

    def __init__(self, files, board="pico", capacity=None):
        self.files = files
        self.board = board
        with open(os.path.join(REPO, "boards", board + ".json")) as f:
            self.profile = json.load(f)
        args = [os.path.join(REPO, "vm", "pico.mjs"), "--files", files,
                "--mount", os.path.join(REPO, "host_tools", "virtual") + ":/virtual",
                "--board", os.path.join(REPO, "boards", board + ".json"), "--control"]
        if capacity:
            args += ["--capacity", str(capacity)]
        self._start(args)

    def press(self, button, kind="short"):
        self.ask({"press": button})
        time.sleep(LONG_S if kind == "long" else SHORT_S)
        self.ask({"release": button})
        time.sleep(0.3)


# On the emulated RP2040 presses are timed in the chip's own time: a tap is held 100 ms, a long
# press 900 ms (long ones take 700), and the answer comes once the firmware has had SETTLE_MS more and
# has polled its buttons at least that many times over (so a press is answered only after the loop
# came back to it, however long the work in between took).
TAP_MS = 100
HOLD_MS = 900
SETTLE_MS = 1200
FLASH_IMAGE_BYTES = 2 * 1024 * 1024
LITTLEFS_OFFSET = 0xA0000  # MicroPython's RPI_PICO: 1,408 KiB of littlefs at the top of 2 MiB
LITTLEFS_BLOCK = 4096


class EmulatedPico(_Board):
    """The official MicroPython rp2 firmware on an emulated RP2040 (rp2040/emulator.mjs).

    `image` is its 2 MiB flash, kept in a file that follows every erase and program: start
    another EmulatedPico on the same file and the board powers up with what was on its flash.
    """

    CONTROL_TIMEOUT = 600  # a request is answered in the chip's time, which compute slows down

    def __init__(self, image, board="pico", seed=None, uf2=None, settle_ms=SETTLE_MS, boot_timeout=60):
        self.image = image
        self.board = board
        self.settle_ms = settle_ms
        with open(os.path.join(REPO, "boards", board + ".json")) as f:
            self.profile = json.load(f)
        args = [os.path.join(REPO, "rp2040", "emulator.mjs"), "--flash", image,
                "--board", os.path.join(REPO, "boards", board + ".json"), "--control",
                "--boot-timeout", str(boot_timeout)]
        if seed is not None:
            args += ["--seed", str(seed)]
        if uf2 is not None:
            args += ["--uf2", uf2]
        self._start(args)

    def press(self, button, kind="short"):
        self.ask({"press": button, "ms": HOLD_MS if kind == "long" else TAP_MS, "then": self.settle_ms})

    def wait(self, ms):
        """Let `ms` pass on the chip."""
        return self.ask({"wait": ms})

    def stats(self):
        """Emulated time and what the rig measured since the last call (see rp2040/emulator.mjs)."""
        return self.ask({"stats": True})

    def buzzer(self):
        return self.ask({"buzzer": True})

    def cut_power_during(self, after, button, kind="short"):
        """Press `button`; the power goes at the `after`-th flash erase or program from now (that one half
        done) and the emulator stops. The answer says whether the cut came before the press was over."""
        cut = json.dumps({"cut": {"after": after}})
        press = json.dumps({"press": button, "ms": HOLD_MS if kind == "long" else TAP_MS, "then": self.settle_ms})
        self._control.sendall((cut + "\n" + press + "\n").encode())
        answer = json.loads(self._replies.readline() or '{"cut": false}')
        self.process.wait(timeout=30) if answer.get("cut") else None
        return {"cut": bool(answer.get("cut")), **answer}

    def files(self):
        """The board's files, read from the littlefs in its flash image: {path: bytes}."""
        return read_littlefs(self.image)


def read_littlefs(image):
    """Every file in a Pico's flash image, as MicroPython's littlefs (v2) holds them."""
    from littlefs import LittleFS

    with open(image, "rb") as f:
        data = f.read()
    if len(data) != FLASH_IMAGE_BYTES:
        raise ValueError("%s is %d bytes; a Pico's flash image is %d" % (image, len(data), FLASH_IMAGE_BYTES))
    region = data[LITTLEFS_OFFSET:]
    fs = LittleFS(block_size=LITTLEFS_BLOCK, block_count=len(region) // LITTLEFS_BLOCK, mount=False)
    fs.context.buffer = bytearray(region)
    fs.mount()
    out = {}
    for top, _dirs, names in fs.walk("/"):
        for name in names:
            path = (top.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out
