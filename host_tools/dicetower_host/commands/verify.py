"""Check a game's dice from its revealed seed: every face recomputed, in order, and the commitment the
tower showed before the first die. The input is the monitor's log (`dicetower monitor --save LOG`) or
the scoreboard's history (http://TOWER/history saved to a file). Exit 0 when every seal checks, 1 when
a face, a draw or a commitment does not (or a seed is not revealed yet), 2 for a file that is not a log."""

import sys

HELP = "check a game's dice from its revealed seed (a monitor log, or the scoreboard's /history)"


def add_arguments(parser):
    parser.add_argument("log", help="the monitor's JSON lines, or the scoreboard's /history document")


def run(args, out=None):
    from dicetower_host.verify import verify

    status, lines = verify(args.log)
    out = out or sys.stdout
    for line in lines:
        out.write(line + "\n")
    return status
