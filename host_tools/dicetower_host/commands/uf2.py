"""Build one file to install: MicroPython's rp2 firmware with dicetower frozen in, built from
the pinned sources in rp2040/sources (a checkout of the repository) with the Arm toolchain.
Hold BOOTSEL, plug the board in and copy the UF2 to the RPI-RP2 drive."""

import os
import sys

from dicetower_host.errors import UserError

HELP = "build one file to install: MicroPython with the firmware frozen in (drop it on the RPI-RP2 drive)"


def add_arguments(parser):
    parser.add_argument("--board", default="pico", help="the board profile it boots with: pico (default), "
                                                        "rp2040_zero, pico_w, pico2, pico2_w")
    parser.add_argument("--output", help="where to write the UF2 (default build/dicetower-BOARD.uf2)")
    parser.add_argument("--jobs", type=int, help="parallel compile jobs (default: every core)")


def run(args, out=None):
    from dicetower_host import uf2

    out = out or sys.stdout
    try:
        path = uf2.build(args.board, args.output, args.jobs, out=out)
    except uf2.UF2Error as e:
        raise UserError(str(e))
    out.write("wrote %s (%d bytes): hold BOOTSEL, plug the board in and copy it to the RPI-RP2 drive\n"
              % (path, os.path.getsize(path)))
    return 0
