"""Put the firmware on a board over its USB REPL: compiled for the board's MicroPython, only
the files that changed, saved games and settings kept, and checked at boot. With --dry-run
it says what it would copy and remove and writes nothing. --runtime circuitpython copies
to a CIRCUITPY drive instead."""

from dicetower_host.commands import port
from dicetower_host.flash import READY_SECONDS

HELP = "put the firmware on a board (only what changed; saves kept)"


def add_arguments(parser):
    parser.add_argument(
        "--port", type=port, help="the board (/dev/ttyACM0, COM3) or a URL; found by itself if only one"
    )
    parser.add_argument(
        "--board",
        help="the board profile from boards/ (default: the board's config.json, else the one matching its name)",
    )
    parser.add_argument("--dry-run", action="store_true", help="say what would be copied and removed; write nothing")
    parser.add_argument(
        "--runtime",
        choices=("micropython", "circuitpython"),
        default="micropython",
        help="what runs on the board: MicroPython over its USB REPL (default), or CircuitPython "
        "through its CIRCUITPY drive",
    )
    parser.add_argument(
        "--drive", help="with --runtime circuitpython: the CIRCUITPY drive's folder (found by its name if only one)"
    )
    parser.add_argument(
        "--ready-seconds",
        type=_seconds,
        default=None,
        help="how long to wait for the firmware's ready line after the reset (default %d; an "
        "emulated board on a busy computer may need more)" % READY_SECONDS,
    )


def _seconds(text):
    import argparse

    try:
        seconds = float(text)
    except ValueError:
        seconds = 0
    if not 0 < seconds <= 3600:
        raise argparse.ArgumentTypeError("must be a number of seconds above 0 and at most 3600, not %r" % text)
    return seconds


def run(args, out=None):
    from dicetower_host.flash import FlashError
    from dicetower_host.flash.run import command

    if args.runtime == "circuitpython" and args.port:
        raise FlashError(
            "--port is for MicroPython's REPL; a CircuitPython board is flashed through its CIRCUITPY drive (--drive PATH)"
        )
    if args.runtime != "circuitpython" and args.drive:
        raise FlashError("--drive is for CircuitPython's CIRCUITPY drive: add --runtime circuitpython")
    return command(args.port, args.board, args.dry_run, args.runtime, args.drive, args.ready_seconds, out)
