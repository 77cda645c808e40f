"""Run a virtual Pico to flash, monitor and play without a board: the MicroPython VM behind a
serial port (socket://, and a pty where there are pseudo-terminals), its flash a folder, or
(--emulator rp2040) MicroPython's own rp2 firmware on an emulated RP2040, booting the firmware
file you give (--firmware, or DICETOWER_RP2_FIRMWARE: MicroPython's published RPI_PICO UF2). Its
buttons, OLED and ring are the parts the board profile names.

On a terminal it shows the board's OLED and ring and takes its buttons from the keyboard, as
the simulator does (a, b, c tap; A, B, C hold; q quits); --headless only prints its ports;
--script plays a simulator script's presses on it once its firmware runs, printing the OLED at
each mark and at the end, and runs on.

Flash it from another terminal, follow it with dicetower monitor, and play. Ctrl-C (or q, or
any signal) stops it and its board together; its flash is kept for the next run."""

import os

HELP = (
    "run a virtual Pico (the MicroPython VM, or MicroPython's rp2 firmware on an emulated RP2040) to flash, "
    "monitor and play without a board"
)


def add_arguments(parser):
    parser.add_argument(
        "--emulator",
        choices=("vm", "rp2040"),
        default="vm",
        help="vm: the MicroPython WebAssembly VM, its flash a folder (default); rp2040: the "
        "official rp2 firmware on an emulated RP2040 (rp2040js), its flash a 2 MiB image",
    )
    parser.add_argument(
        "--files",
        default=os.path.join(os.path.expanduser("~"), ".dicetower", "pico"),
        help="with --emulator vm: the virtual flash's folder (default ~/.dicetower/pico)",
    )
    parser.add_argument(
        "--firmware",
        help="with --emulator rp2040: MicroPython's RPI_PICO firmware file (a .uf2 "
        "from MicroPython's download page; default $DICETOWER_RP2_FIRMWARE)",
    )
    parser.add_argument(
        "--image",
        help="with --emulator rp2040: the flash image (default ~/.dicetower/rp2040-flash.img, made on first use)",
    )
    parser.add_argument("--board", default="pico", help="the parts wired to it, as a profile names them")
    parser.add_argument(
        "--headless",
        action="store_true",
        help="print its ports and run until stopped, without showing its OLED (the default when "
        "the output is not a terminal)",
    )
    parser.add_argument(
        "--script",
        help="once the firmware runs on it, play this file of presses and waits (as "
        "dicetower sim --script does), print its OLED at each mark and at the end, "
        "and run on (headless)",
    )


def run(args, out=None):
    from dicetower_host.pico.session import run

    return run(args.emulator, args.files, args.image, args.firmware, args.board, args.headless, args.script, out)
