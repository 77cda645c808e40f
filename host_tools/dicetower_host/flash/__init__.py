"""`dicetower flash`: the firmware onto a board over its USB REPL, through mpremote's own transport.

A module a job, in the order of a flash (run.py is the flash itself, step by step):
- board.py: the board found (a Raspberry Pi USB id, or `--port`: a device or a socket:// URL such as
  the virtual Pico's), asked what it is (MicroPython's version, `sys.implementation._mpy`, free
  space), checked that it can run the firmware, and its profile chosen;
- build.py: the files it needs, compiled with mpy-cross;
- plan.py: against the SHA-256 of every file the board has, what to copy, remove (firmware files no
  longer shipped) and keep (game.sav, heroes.json, dice.json, errors.log are the player's), and the
  room that takes, checked before anything is written; the manifest the board checks at boot;
- transfer.py: the copy, in an order that leaves a board cut at any byte running a release or
  saying "reflash needed"; messages.py: FlashError, and what a board cut mid-copy boots;
- connection.py: the REPL session, and the wait for the firmware's ready line after the soft reset.
circuitpy.py flashes a CircuitPython board's drive instead.

Callers use the names below. FIRMWARE (what is flashed) and the steps run.py calls through this
package (compile_firmware, emitted_version, restart, _replace_on_board) are read here at each
flash, so that a test or a benchmark may replace them.
"""

from dicetower_host import paths
from dicetower_host.flash.board import (
    RASPBERRY_PI_VID,
    Board,
    board_code,
    check_runtime,
    choose_profile,
    find_port,
    profiles,
    stock_firmware,
    to_install,
)
from dicetower_host.flash.build import MICRODOT, compile_firmware, emitted_version, libraries, mip_urls, sources
from dicetower_host.flash.connection import READY_SECONDS, Session, read_text, restart, why_not
from dicetower_host.flash.messages import FlashError, after_cut, cut_short, interrupted
from dicetower_host.flash.plan import (
    BLOCK,
    LAUNCH,
    MANIFEST,
    PACKAGE,
    Plan,
    as_object,
    boot_needs,
    digest,
    is_data,
    listed,
)
from dicetower_host.flash.run import flash
from dicetower_host.flash.transfer import _replace_on_board, _write

FIRMWARE = paths.FIRMWARE  # what is flashed (a test may point it at a changed copy)

__all__ = [
    "BLOCK",
    "Board",
    "FIRMWARE",
    "FlashError",
    "LAUNCH",
    "MANIFEST",
    "MICRODOT",
    "PACKAGE",
    "Plan",
    "RASPBERRY_PI_VID",
    "READY_SECONDS",
    "Session",
    "_replace_on_board",
    "_write",
    "after_cut",
    "as_object",
    "board_code",
    "boot_needs",
    "check_runtime",
    "choose_profile",
    "compile_firmware",
    "cut_short",
    "digest",
    "emitted_version",
    "find_port",
    "flash",
    "interrupted",
    "is_data",
    "libraries",
    "listed",
    "mip_urls",
    "profiles",
    "read_text",
    "restart",
    "sources",
    "stock_firmware",
    "to_install",
    "why_not",
]
