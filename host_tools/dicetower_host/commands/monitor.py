"""Follow a device's roll and score events live, as it writes them to its USB console, and
save them (JSON lines, the input of `dicetower stats`). Ctrl-C stops it."""

import sys

HELP = "follow a device's roll and score events live"


def add_arguments(parser):
    parser.add_argument("--port", required=True, help="the device (/dev/ttyACM0) or a URL (socket://127.0.0.1:PORT)")
    parser.add_argument("--save", help="append the events to this file as JSON lines")
    parser.add_argument("--count", type=int, help="stop after this many events")
    parser.add_argument("--seconds", type=float, help="stop after this long")


def run(args, out=None):
    from dicetower_host import monitor

    save = open(args.save, "a") if args.save else None
    try:
        monitor.follow(monitor.open_serial(args.port), out or sys.stdout, save, args.count, args.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        if save is not None:
            save.close()
    return 0
