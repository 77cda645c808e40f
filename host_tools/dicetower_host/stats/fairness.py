"""`dicetower stats`, its two sources: a saved event log read a line at a time, or dice rolled on a
board with its own entropy; the report (report.py) and its chart, a PNG that cannot be written said
in one line."""

import io
import sys

from dicetower_host.errors import UserError

MAX_ROLLS = 1000000


def command(log=None, port=None, rolls=6000, png=None, out=None):
    """The fairness report of `log` (a path, or "-": stdin), else of `rolls` rolled on the board on `port`;
    with `png`, its histogram written there too. The exit status."""
    out = out or sys.stdout
    if log:
        out.write(_from_log(log, png) + "\n")
    else:
        out.write(_on_board(port, rolls, png) + "\n")
    if png:
        out.write("histogram: %s\n" % png)
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
