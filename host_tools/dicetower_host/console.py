"""The `dicetower` command's entry point: Ctrl-C is one line from its first instant.

Loading the commands takes a while (argparse, the firmware's modules, the command's own); a Ctrl-C
then used to end in a traceback from deep inside an import. Until `cli.main` takes over, Ctrl-C
says the same one line it says later and ends the process with the shell's status for SIGINT:
nothing has been done yet that could be left half done.
"""

import os
import sys

try:
    import _signal as signal  # the C module: `signal` makes its enums first, a window of its own
except ImportError:
    import signal


def _interrupted(signum, frame):
    sys.stderr.write("dicetower: interrupted\n")
    sys.stderr.flush()
    os._exit(130)


if signal.getsignal(signal.SIGINT) != signal.SIG_IGN:  # a job started with Ctrl-C ignored keeps it so
    signal.signal(signal.SIGINT, _interrupted)  # on import: the console script imports this module first


def main():
    from dicetower_host import cli

    return cli.main()
