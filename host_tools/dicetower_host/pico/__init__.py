"""Virtual Picos to flash, monitor and press, started and driven from Python.

Two of them, with one interface (board.py): `VirtualPico` (vm.py) is the MicroPython WebAssembly
VM behind a serial port (vm/pico.mjs; its flash a host folder, its clock the host's),
`EmulatedPico` (rp2040.py) the official MicroPython rp2 firmware on an emulated RP2040
(rp2040/emulator.mjs; its flash a 2 MiB image, its clock the chip's). Each one's serial port is
`url` (socket://...), reachable by mpremote, `dicetower flash --port` and `dicetower monitor
--port`, and, where the platform has pseudo-terminals, `open_pty()` gives it a device path as a
USB serial port has (/dev/pts/N), relayed to the same REPL; its OLED, ring and buttons are the
parts the board profile names, read and pressed through the board's control port.

`dicetower pico` itself: session.py runs it from start to stop, launch.py starts the board it
asks for, script_runner.py plays a script on it, view.py is its screen.
"""

from dicetower_host.pico.board import HOLD_MS, TAP_MS, BoardGone, profile_path
from dicetower_host.pico.rp2040 import (
    CHIP_SETTLE_MS,
    NO_FIRMWARE,
    EmulatedPico,
    bootrom_file,
    firmware_file,
    read_littlefs,
    rp2040_bootrom,
)
from dicetower_host.pico.vm import VirtualPico

__all__ = [
    "CHIP_SETTLE_MS",
    "HOLD_MS",
    "NO_FIRMWARE",
    "TAP_MS",
    "BoardGone",
    "EmulatedPico",
    "VirtualPico",
    "bootrom_file",
    "firmware_file",
    "profile_path",
    "read_littlefs",
    "rp2040_bootrom",
]
