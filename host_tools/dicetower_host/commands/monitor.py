"""Follow a device's roll and score events live, as it writes them to its USB console, and
save them (JSON lines, the input of `dicetower stats`). The board is found by itself when only
one is plugged in (else --port). Ctrl-C stops it."""

from dicetower_host.commands import find_board, port, positive

HELP = "follow a device's roll and score events live"


def add_arguments(parser):
    parser.add_argument(
        "--port",
        type=port,
        help="the device (/dev/ttyACM0) or a URL (socket://127.0.0.1:PORT); "
        "found by itself if only one board is plugged in",
    )
    parser.add_argument("--save", help="append the events to this file as JSON lines")
    parser.add_argument("--count", type=positive(int), help="stop after this many events")
    parser.add_argument("--seconds", type=positive(float), help="stop after this long")


def run(args, out=None):
    import os

    from dicetower_host import monitor
    from dicetower_host.errors import UserError

    if args.port and args.port.startswith("/") and not os.path.exists(args.port):
        # A device named that is not there is a typo far more often than a board still to be plugged
        # in: said at once (the monitor waits for a board it has seen go away, not for a name).
        raise UserError("no port %s (a board plugged in? `dicetower monitor` without --port finds it)" % args.port)
    return monitor.watch(args.port or find_board(), args.save, args.count, args.seconds, out)
