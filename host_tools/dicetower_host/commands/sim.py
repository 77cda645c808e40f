"""The firmware's own main.py on this computer, with virtual buttons, OLED and LED ring.

Without --script it opens the simulator in the terminal (keys a, b, c press the buttons;
Shift+A, B, C are long presses); with --script it plays a file of presses headless and
prints the tower's final state as JSON, and --png pictures it. The device's files (saves,
settings) live in --state-dir, so quitting and starting again with the same folder offers
to resume, as after a power cut.
"""

import math

from dicetower_host.commands import add_source_options
from dicetower_host.errors import UserError

# Past this the device's clock outruns what the laptop can step between two frames of the UI.
MAX_SPEED = 100

HELP = "the firmware on this computer, with virtual buttons, OLED and ring"


def add_arguments(parser):
    add_source_options(parser)
    parser.add_argument("--board", help="board profile from boards/ (default: pico, or the script's)")
    parser.add_argument("--script", help="play this file of presses headless (- reads stdin), print JSON")
    parser.add_argument(
        "--png", help="with --script: write the tower at the end as this PNG (and at each mark as NAME-MARK.png)"
    )
    parser.add_argument("--state-dir", help="the device's files (saves, settings) live here, to resume later")
    parser.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="the clock's speed, above 0 and at most %d (2 runs twice as fast)" % MAX_SPEED,
    )
    parser.add_argument(
        "--web",
        type=int,
        metavar="PORT",
        help="serve the scoreboard's page on this port too (as a Pico W does for the phones at the table)",
    )
    parser.add_argument("--pin", help="with --web: phones that send this PIN may press the tower's buttons")


def run(args, out=None):
    from dicetower_host import sim

    if args.web is None and args.pin is not None:
        raise UserError("--pin goes with --web (the PIN phones send to press the tower's buttons)")
    if args.pin is not None:
        from dicetower.web.access import good_pin

        if not good_pin(args.pin):
            raise UserError(
                "--pin takes 4 to 8 digits, as the tower's own PIN (config.json's wifi.pin), not %r" % args.pin
            )
    if args.script and args.web is not None:
        raise UserError("--web serves the interactive simulator; leave out --script")
    if args.png and not args.script:
        raise UserError("--png pictures a scripted run: give --script too, e.g. --script examples/battlerealm.sim")
    if not (math.isfinite(args.speed) and 0 < args.speed <= MAX_SPEED):
        raise UserError(
            "--speed must be above 0 and at most %d (2 runs twice as fast), not %s" % (MAX_SPEED, args.speed)
        )
    return sim.command(
        args.board, args.seed, args.faces, args.state_dir, args.script, args.png, args.speed, args.web, args.pin, out
    )
