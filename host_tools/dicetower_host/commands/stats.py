"""Are the dice fair? Chi-square and runs tests of every die kind, from a saved event log
(`dicetower monitor --save`, or the simulator's events), or rolled on a board with its own
entropy (no log: the board plugged in, or --port). The log is read a line at a time, so a log
of millions of rolls needs a few MB; a line with anything wrong in it counts nothing and is named."""

import io
import sys

from dicetower_host.commands import find_board, png_file, port, positive
from dicetower_host.errors import UserError

HELP = "fairness of the dice in a saved event log, or rolled on a board"
MAX_ROLLS = 1000000


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
    out = out or sys.stdout
    if args.port and args.log:
        raise UserError("give a log file or --port, not both")
    if args.log:
        out.write(_from_log(args.log, args.png) + "\n")
    else:
        out.write(_on_board(args.port or find_board(), args.rolls, args.png) + "\n")
    if args.png:
        out.write("histogram: %s\n" % args.png)
    return 0


def _report(lines, png, faces=None):
    """fairness_report.run, with a PNG that cannot be written said in one line."""
    from dicetower_host.stats import report as fairness_report

    try:
        text, results = fairness_report.run(lines, png, faces)
    except OSError as e:
        if png is None or getattr(e, "filename", None) != png:
            raise
        raise UserError("cannot write --png %s: %s" % (png, e.strerror or e))
    return text


def _from_log(log, png):
    from dicetower_host.stats import report as fairness_report

    try:
        stream = sys.stdin.buffer if log == "-" else open(log, "rb")
    except OSError as e:
        raise UserError("cannot read the log: %s" % e)
    try:
        with stream:
            return _report(fairness_report.lines_of(stream), png)
    except OSError as e:  # the disk failed half-way through
        raise UserError("cannot read the log: %s" % e)


def _on_board(port, rolls, png):
    from dicetower_host.flash import FlashError, Session, restart
    from dicetower_host.stats import report as fairness_report

    if not 1 <= rolls <= MAX_ROLLS:
        raise UserError("--rolls must be 1 to 1,000,000")
    try:
        with Session(port) as on_board:
            faces, source = fairness_report.faces_from_device(on_board.transport, rolls)
            try:
                restart(on_board.transport, io.StringIO())  # back to the game
                on_board.restarted = True
            except FlashError as e:
                sys.stderr.write("dicetower: rolled, but the firmware did not restart: %s\n" % e)
    except FlashError as e:
        raise UserError(str(e))
    return "rolled on the board with its own dice (%s)\n%s" % (source, _report([], png, faces))
