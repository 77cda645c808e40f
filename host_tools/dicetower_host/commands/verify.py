"""Check a game's dice from its revealed seeds: every face recomputed, in order, from the seed and the
players' cut; the commitment the tower showed before the cut; every throw at a place given back, never
thrown again; every face a line or an action shows, the record's. The input is the monitor's log
(`dicetower monitor --save LOG`) or the scoreboard's history (http://TOWER/history saved to a file). Exit
0 when everything checks, 1 when a face, a draw, a throw or a commitment does not (or a seed is not
revealed yet), 2 for a file that is not a log."""

import sys

HELP = "check a game's dice from its revealed seeds (a monitor log, or the scoreboard's /history)"


def add_arguments(parser):
    parser.add_argument("log", help="the monitor's JSON lines, or the scoreboard's /history document")
    parser.add_argument(
        "--seal",
        action="append",
        default=[],
        metavar="DIGITS",
        help="a seal the tower announced (the 16 hex digits its OLED showed, or more): with a /history, "
        "each must be one of its seals (repeat for each seal of the game)",
    )


def run(args, out=None):
    from dicetower_host.verify import Bad, verify

    for told in args.seal:
        if len(told) < 8 or len(told) > 64 or any(c not in "0123456789abcdef" for c in told.lower()):
            raise Bad("--seal takes hex digits, 8 to 64 of them (the OLED shows 16), not %r" % told)
    status, lines = verify(args.log, [told.lower() for told in args.seal])
    out = out or sys.stdout
    for line in lines:
        out.write(line + "\n")
    return status
