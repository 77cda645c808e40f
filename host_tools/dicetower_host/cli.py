"""dicetower: fair electronic dice and score keeping for Marvel tabletop games on a Raspberry Pi
Pico; the simulator, the flasher and the tools that go with it.

Each subcommand is a module of dicetower_host.commands; `dicetower COMMAND --help` says more.
"""

import argparse
import importlib
import os
import sys

# In the order `dicetower --help` lists them: playing, the board, the build, dice at the table.
COMMANDS = ("sim", "monitor", "stats", "flash", "uf2", "pico", "hardware", "roll", "throw")


def build_parser():
    parser = argparse.ArgumentParser(prog="dicetower", description=__doc__.split("\n\n")[0].replace("\n", " "),
                                     epilog="dicetower COMMAND --help describes a command.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        command = importlib.import_module("dicetower_host.commands." + name)
        p = sub.add_parser(name, help=command.HELP, description=command.__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        command.add_arguments(p)
        p.set_defaults(run=command.run)
    return parser


def main(argv=None):
    from dicetower.core.entropy import EntropyFailure
    from dicetower.core.roll import RollRefused

    from dicetower_host.errors import UserError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (UserError, ValueError, RollRefused, EntropyFailure) as e:
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
