"""Are the dice fair? Chi-square and runs tests of every die kind, from a saved event log
(`dicetower monitor --save`, or the simulator's events), or rolled on a board with its own
entropy (no log: the board plugged in, or --port). The log is read a line at a time, so a log
of millions of rolls needs a few MB; a line with anything wrong in it counts nothing and is named."""

from dicetower_host.commands import find_board, png_file, port, positive
from dicetower_host.errors import UserError
from dicetower_host.stats.fairness import MAX_ROLLS, command

HELP = "fairness of the dice in a saved event log, or rolled on a board"


def add_arguments(parser):
    parser.add_argument(
        "log",
        nargs="?",
        help="a file of the device's JSON event lines (- reads stdin); without one, the board rolls its own dice",
    )
    parser.add_argument(
        "--port",
        type=port,
        help="the board (a device or socket:// URL) to roll on; found by itself if only one is plugged in",
    )
    parser.add_argument(
        "--rolls",
        type=positive(int),
        default=6000,
        help="on a board: rolls per die kind (default 6000, at most %d)" % MAX_ROLLS,
    )
    parser.add_argument("--png", type=png_file, help="write a histogram of each die kind to this .png file")


def run(args, out=None):
    if args.port and args.log:
        raise UserError("give a log file or --port, not both")
    return command(args.log, None if args.log else args.port or find_board(), args.rolls, args.png, out)
