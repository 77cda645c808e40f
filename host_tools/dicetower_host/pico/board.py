"""What both virtual boards share: a Node.js process that prints its ports, the control line that reads
and presses the board's parts, the pty relayed to its REPL, and the process's end.

The node process lives exactly as long as the Python object's process: `close()` ends it, and
if this process ends without closing (a signal, SIGKILL included) the node process notices at
once (its stdin, held open here, reaches its end: --lifeline) and powers off too, so no board is
left holding its ports.
"""

import json
import os
import socket
import subprocess
import tempfile
import threading
import time

from dicetower_host import paths

# A tap is held 100 ms, a long press 900 ms (long ones take 700), as a player's thumb does: the
# firmware latches each edge with its time, so a busy loop loses nothing. A press is answered once
# SETTLE_MS more have passed and the loop has polled its buttons at least that many times over.
TAP_MS = 100
HOLD_MS = 900
SETTLE_MS = 300


class BoardGone(RuntimeError):
    """The board stopped, or stopped answering its control line: not a request it refused (a plain
    RuntimeError), and nothing more can be asked of it."""


def profile_path(board):
    """boards/NAME.json, or a UserError naming the boards there are."""
    path = paths.board_profile(board)
    if not os.path.exists(path):
        raise paths.unknown_board(board)
    return path


class _Board:
    """What both virtual boards share: a node process that prints its ports, the control line, the pty."""

    def _start(self, program, args):
        """Run the Node.js `program` (vm/pico.mjs, rp2040/emulator.mjs) with `args`."""
        node = paths.node()
        program = paths.node_harness(program)
        # Its stderr goes to a file: a pipe nobody reads would stop node once full. Its stdin is a pipe
        # never written to: its lifeline. Its own session: Ctrl-C at a terminal reaches this process
        # alone, which closes the board in order (its files written) rather than node dying mid-write.
        self._stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [node, program] + args + ["--lifeline"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            cwd=os.path.dirname(os.path.dirname(program)),
            start_new_session=hasattr(os, "setsid"),
        )
        # A board that never gets to print its ports (a main.py that never lets the VM go) is stopped
        # after START_SECONDS, and said so, rather than waited for for ever.
        late = []
        timer = None
        if self.START_SECONDS:
            timer = threading.Timer(self.START_SECONDS, lambda: late.append(True) or self.process.kill())
            timer.daemon = True
            timer.start()
        try:
            self._connect(late)
        except BaseException:  # a start cut short (Ctrl-C, a signal, no ports) leaves no node behind
            self._end()
            raise
        finally:
            if timer is not None:
                timer.cancel()

    START_SECONDS = None  # the longest wall time the board may take to print its ports

    def _connect(self, late=()):
        ports = {}
        while len(ports) < 2:
            line = self.process.stdout.readline()  # "listening PORT" and "control PORT", in either order
            words = line.split()
            if len(words) != 2 or words[0] not in ("listening", "control") or not words[1].isdigit():
                if line:
                    self.process.kill()
                self.process.wait()
                if late:
                    raise RuntimeError(
                        "it gave no port within %d s: the main.py in %s never lets it go (a loop that never "
                        "waits?); move that file away and try again"
                        % (self.START_SECONDS, getattr(self, "files", "its flash"))
                    )
                raise RuntimeError(self.reason() or "the virtual Pico did not start (it said %r)" % line)
            ports[words[0]] = int(words[1])
        self.port = ports["listening"]
        self.url = "socket://127.0.0.1:%d" % self.port
        self._control = socket.create_connection(("127.0.0.1", ports["control"]), timeout=self.CONTROL_TIMEOUT)
        self._replies = self._control.makefile("r")
        self._asking = threading.Lock()  # one request and its answer at a time (a screen's thread, a test's)

    CONTROL_TIMEOUT = 10
    silent = None  # why the board stopped answering, once it has: nothing more is asked of it

    def ask(self, request):
        """The board's answer to a request (a JSON object); RuntimeError for one it refuses, BoardGone once
        it has stopped or goes CONTROL_TIMEOUT seconds without answering."""
        with self._asking:
            if self.silent is not None:
                raise BoardGone(self.silent)
            try:
                self._control.sendall((json.dumps(request) + "\n").encode())
                line = self._replies.readline()
            except TimeoutError:
                # A late answer would be taken for the next request's: the line is done with.
                self.silent = (
                    "the board stopped answering (nothing for %d s): its firmware may be stuck in a loop that "
                    "never waits" % self.CONTROL_TIMEOUT
                )
                raise BoardGone(self.silent) from None
            except OSError:
                line = ""  # the line was cut: the board's process has ended
        if not line:
            try:
                self.process.wait(timeout=5)  # its last words are written once it has ended
            except subprocess.TimeoutExpired:
                pass
            self.silent = "the virtual Pico stopped: %s" % (self.reason() or "its process ended")
            raise BoardGone(self.silent)
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer

    def reason(self):
        """Why the board's process stopped, in one line: its own last line (the rig's lines start
        "rp2040: "; the emulator library's own warnings may come before), else the error of a node
        stack trace (e.g. "Error [ERR_MODULE_NOT_FOUND]: Cannot find package ..."), else its last line."""
        lines = [line.strip() for line in self.stderr().splitlines() if line.strip()]
        own = [line for line in lines if line.startswith("rp2040: ")]
        errors = [line for line in lines if line.split(":")[0].split(" ")[0].endswith("Error")]
        if own:
            return own[-1]
        if errors:
            return errors[0]
        return lines[-1] if lines else ""

    def stderr(self):
        """What the board's process has written to stderr so far (its last 2,000 characters)."""
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace").strip()[-2000:]

    settle_ms = SETTLE_MS

    def _press(self, button, kind):
        from dicetower.hw.buttons import POLL_MS

        return {
            "press": button,
            "ms": HOLD_MS if kind == "long" else TAP_MS,
            "then": self.settle_ms,
            "polls": -(-self.settle_ms // POLL_MS),
        }

    def pause(self):
        """A moment of the board's time between two looks at it: 50 ms."""
        time.sleep(0.05)

    def wait(self, ms):
        """Let `ms` pass on the board (its clock is this computer's)."""
        time.sleep(ms / 1000)

    def press(self, button, kind="short"):
        """Press and release a button ("short", "long" or "double"); answered once the firmware's loop
        has come back to it."""
        if kind == "double":  # two 60 ms taps, the second well within the firmware's DOUBLE_MS
            self.ask({"press": button, "ms": 60, "then": 60, "polls": 1})
            self.ask(dict(self._press(button, "short"), ms=60))
            return
        self.ask(self._press(button, kind))

    def until_screen(self, first_line, checks=200):
        """Let the board run (`pause` between checks) until the OLED's first line is `first_line`: the
        screen, or None."""
        for _ in range(checks):
            screen = self.screen()
            if screen[0] == first_line:
                return screen
            self.pause()
        return None

    def presses(self, keys):
        """'a', 'b', 'c' short, 'A', 'B', 'C' long, as in sim scripts."""
        from dicetower_host.sim import use_virtual_parts

        use_virtual_parts()
        from dicetower_host.virtual_parts.tower import keystrokes

        for button, kind in keystrokes(keys):
            self.press(button, kind)

    def oled(self):
        """The panel's memory: 1,024 bytes."""
        return bytes.fromhex(self.ask({"oled": True})["ram"])

    def screen(self):
        """The OLED's eight text lines, read with the host's copy of the font."""
        from dicetower_host.sim import use_virtual_parts

        use_virtual_parts()
        from dicetower_host.virtual_parts.tower import read_line

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
        os.set_blocking(master, False)  # with no program reading, the board's output is dropped, as over USB
        self._pty = (master, slave)
        # Connected here, not in the relay: a board closed (a signal to `dicetower pico`) before the thread
        # ran had its descriptors gone under it, and the thread's traceback reached stderr.
        conn = socket.create_connection(("127.0.0.1", self.port))
        threading.Thread(target=self._relay, args=(master, conn), daemon=True).start()
        return os.ttyname(slave)

    def _relay(self, master, conn):
        import select

        with conn:
            while self.process.poll() is None and not self._closing:
                try:
                    ready, _, _ = select.select([master, conn], [], [], 0.5)
                except (OSError, ValueError):  # the pty was closed under it: the board is closing
                    return
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

    _closing = False

    def close(self):
        self._closing = True  # the pty's relay stops rather than read a closed descriptor
        try:
            self._control.close()
        except OSError:
            pass
        for fd in getattr(self, "_pty", ()):
            try:
                os.close(fd)
            except OSError:
                pass
        self._end()
        self._stderr.close()

    def _end(self):
        """End the node process (its SIGTERM handler writes its files first) and close its lifeline."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            # A board that stopped answering cannot run its SIGTERM handler either: not waited for long.
            self.process.wait(timeout=10 if self.silent is None else 1)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
