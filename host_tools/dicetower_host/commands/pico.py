"""Run a virtual Pico to flash and monitor without a board: the MicroPython WebAssembly VM
behind a serial port (socket://, and a pty where there are pseudo-terminals), its flash a
folder, or (--emulator rp2040) MicroPython's real rp2 firmware on an emulated RP2040. Its
buttons, OLED and ring are the parts the board profile names. Ctrl-C stops it."""

import os
import sys
import time

HELP = ("run a virtual Pico (the MicroPython VM, or MicroPython's rp2 firmware on an emulated RP2040) to flash "
        "and monitor by hand")


def add_arguments(parser):
    parser.add_argument("--emulator", choices=("vm", "rp2040"), default="vm",
                        help="vm: the MicroPython WebAssembly VM, its flash a folder (default); rp2040: the "
                             "official rp2 firmware on an emulated RP2040 (rp2040js), its flash a 2 MiB image")
    parser.add_argument("--files", default=os.path.join(os.path.expanduser("~"), ".dicetower", "pico"),
                        help="with --emulator vm: the virtual flash's folder (default ~/.dicetower/pico)")
    parser.add_argument("--image", help="with --emulator rp2040: the flash image (default "
                                        "~/.dicetower/rp2040-flash.img, made on first use)")
    parser.add_argument("--board", default="pico", help="the parts wired to it, as a profile names them")


def run(args, out=None):
    from dicetower_host.pico import EmulatedPico, VirtualPico

    out = out or sys.stdout
    try:
        if args.emulator == "rp2040":
            image = args.image or os.path.join(os.path.expanduser("~"), ".dicetower", "rp2040-flash.img")
            os.makedirs(os.path.dirname(os.path.abspath(image)), exist_ok=True)
            pico = EmulatedPico(image, args.board)
            what = "an emulated RP2040 running MicroPython 1.27 with a %s's parts" % args.board
            flash_is = "its flash image: %s" % image
        else:
            os.makedirs(args.files, exist_ok=True)
            pico = VirtualPico(args.files, args.board)
            what = "a virtual %s" % args.board
            flash_is = "its flash: %s" % args.files
    except RuntimeError as e:
        out.write("dicetower pico: %s\n" % e)
        return 2
    with pico:
        out.write("%s on %s (%s); Ctrl-C stops it\n" % (what, pico.url, flash_is))
        if hasattr(os, "openpty"):
            out.write("its serial port: %s (the same REPL, as over USB)\n" % pico.open_pty())
        out.write("try: dicetower flash --port %s --board %s\n" % (pico.url, args.board))
        out.flush()
        try:
            while pico.process.poll() is None:
                time.sleep(0.5)
        except KeyboardInterrupt:
            return 0
        out.write("dicetower pico: the board stopped: %s\n" % (pico.stderr() or "exit %d" % pico.process.returncode))
    return 1
