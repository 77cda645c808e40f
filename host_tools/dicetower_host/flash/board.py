"""The board: found among the serial ports, asked what it is (its MicroPython, .mpy version,
architecture, free space), checked against what the firmware needs, and matched to a profile in boards/.

The firmware needs MicroPython 1.22+; .mpy files load only when their major version matches the
board's (bytecode-only files ignore the sub-version), and `-march` comes from the same number.
"""

import ast
import json

from dicetower_host import paths
from dicetower_host.flash.messages import FlashError

MIN_VERSION = (1, 22, 0)


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


def profiles():
    """{name: profile dict} from boards/."""
    out = {}
    for name in paths.board_names():
        with open(paths.board_profile(name)) as f:
            out[name] = json.load(f)
    return out


CHIPS = ("RP2040", "RP2350")  # as MicroPython names them in the machine's name ("... with RP2040")


def choose_profile(asked, config, machine, known):
    """The profile's name: --board, else config.json's, else the one whose machine name matches; refused
    in one line when the board's MicroPython names another chip than the profile's (its pins, and the
    code compiled for the board's architecture, would be another board's)."""
    name = _profile(asked, config, machine, known)
    chip = known[name].get("chip")
    named = [c for c in CHIPS if c in (machine or "")]
    if chip and named and chip not in named:
        fits = ", ".join(n for n in sorted(known) if known[n].get("chip") in named)
        raise FlashError(
            "the board is an %s (%s), but the %s profile is for an %s; choose the board's own with --board (%s)"
            % (named[0], machine, name, chip, fits or "none here: add a profile to boards/")
        )
    return name


def _profile(asked, config, machine, known):
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
