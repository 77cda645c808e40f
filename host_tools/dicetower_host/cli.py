"""dicetower: fair electronic dice and score keeping for Marvel tabletop games on a Raspberry Pi
Pico; the simulator, the flasher and the tools that go with it.

Each subcommand is a module of dicetower_host.commands; `dicetower COMMAND --help` says more.
"""

import argparse
import importlib
import os
import signal
import sys
import threading

# In the order `dicetower --help` lists them: playing, the board, the build, dice at the table.
COMMANDS = ("sim", "monitor", "stats", "verify", "flash", "pico", "hardware", "roll", "throw")


class Parser(argparse.ArgumentParser):
    """argparse's parser, but a mistake on the command line is one line, like every other mistake."""

    def error(self, message):
        sys.stderr.write("%s: %s (%s --help says more)\n" % (self.prog, message, self.prog))
        sys.exit(2)


def version():
    """The installed package's version (pyproject.toml's), or "unknown" from a bare source tree."""
    from importlib import metadata

    try:
        return metadata.version("dicetower")
    except metadata.PackageNotFoundError:
        return "unknown"


def build_parser():
    parser = Parser(
        prog="dicetower",
        description=__doc__.split("\n\n")[0].replace("\n", " "),
        epilog="dicetower COMMAND --help describes a command.",
    )
    parser.add_argument("--version", action="version", version="dicetower " + version())
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        command = importlib.import_module("dicetower_host.commands." + name)
        p = sub.add_parser(
            name, help=command.HELP, description=command.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        command.add_arguments(p)
        p.set_defaults(run=command.run)
    return parser


def main(argv=None):
    try:
        # From here Ctrl-C is ours (console.py's until now), unless it is ignored (a background job).
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) != signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        from dicetower.core.entropy import EntropyFailure
        from dicetower.core.games.battlerealm.roll import RollRefused
        from dicetower_host.errors import UserError

        parser = build_parser()
        args = parser.parse_args(argv)
        try:
            return args.run(args)
        except (UserError, RollRefused, EntropyFailure) as e:  # a ValueError is a bug: it keeps its traceback
            sys.stderr.write("dicetower: %s\n" % e)
            return 2
    except KeyboardInterrupt:  # Ctrl-C: one line, the shell's usual status for SIGINT
        sys.stderr.write("dicetower: interrupted\n")
        return 130
    except BrokenPipeError:  # e.g. `dicetower roll | head`: the reader left
        sys.stdout = open(os.devnull, "w")
        return 0


if __name__ == "__main__":
    sys.exit(main())
