"""Run a probe script from benchmarks/vm/ on the MicroPython VM, with firmware/ on its path."""

import os
import subprocess
import sys

from dicetower_host import paths

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_probe(name, *args):
    """The probe's stdout; a failed run stops the benchmark with the VM's error."""
    done = subprocess.run(paths.vm_command(os.path.join(HERE, "vm", name), *[str(a) for a in args],
                                           mounts=[(paths.FIRMWARE, "/fw")]),
                          capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        sys.exit("the VM run failed:\n" + done.stderr)
    return done.stdout
