"""Are the dice fair? Chi-square, runs and serial-correlation tests of every die kind, from a
saved event log (`dicetower monitor --save`, or the simulator's events), or rolled on a
board with its own entropy (--port)."""

import io
import sys

HELP = "fairness of the dice in a saved event log, or rolled on a board"


def add_arguments(parser):
    parser.add_argument("log", nargs="?", help="a file of the device's JSON event lines (- reads stdin)")
    parser.add_argument("--port", help="instead: roll on this board (a device or socket:// URL) with its own dice")
    parser.add_argument("--rolls", type=int, default=6000, help="with --port: rolls per die kind (default 6000)")
    parser.add_argument("--png", help="write a histogram of each die kind here")


def run(args, out=None):
    from dicetower_host import fairness_report

    out = out or sys.stdout
    if args.port:
        if args.log:
            raise ValueError("give a log file or --port, not both")
        from dicetower_host.flash import FlashError, Session, restart

        if not 1 <= args.rolls <= 1000000:
            raise ValueError("--rolls must be 1 to 1,000,000")
        try:
            with Session(args.port) as on_board:
                faces, source = fairness_report.faces_from_device(on_board.transport, args.rolls)
                try:
                    restart(on_board.transport, io.StringIO())  # back to the game
                    on_board.restarted = True
                except FlashError as e:
                    sys.stderr.write("dicetower: rolled, but the firmware did not restart: %s\n" % e)
        except FlashError as e:
            raise ValueError(str(e))
        text, results = fairness_report.run([], args.png, faces)
        out.write("rolled on the board with its own dice (%s)\n%s\n" % (source, text))
        return 0
    if not args.log:
        raise ValueError("give a saved event log, or --port to roll on a board")
    if args.log == "-":
        lines = sys.stdin.read().splitlines()
    else:
        try:
            with open(args.log) as f:
                lines = f.read().splitlines()
        except OSError as e:
            raise ValueError("cannot read the log: %s" % e)
    text, results = fairness_report.run(lines, args.png)
    out.write(text + "\n")
    if args.png:
        out.write("histogram: %s\n" % args.png)
    return 0
