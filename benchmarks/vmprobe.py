"""Run a probe script from benchmarks/vm/ on the MicroPython VM, with firmware/ on its path, or on the
emulated RP2040 with the firmware flashed as .mpy."""

import os
import subprocess
import sys

from dicetower_host import paths

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_probe(name, *args):
    """The probe's stdout; a failed run stops the benchmark with the VM's error."""
    done = subprocess.run(
        paths.vm_command(os.path.join(HERE, "vm", name), *[str(a) for a in args], mounts=[(paths.FIRMWARE, "/fw")]),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        sys.exit("the VM run failed:\n" + done.stderr)
    return done.stdout


def chip_firmware():
    """MicroPython's RPI_PICO firmware file the emulated RP2040 boots ($DICETOWER_RP2_FIRMWARE: the
    repository holds none); without it the benchmark stops, non-zero, saying which file to give."""
    from dicetower_host.errors import UserError
    from dicetower_host.pico import firmware_file

    try:
        return firmware_file()
    except UserError as e:
        sys.exit("%s: %s" % (os.path.basename(sys.argv[0]), e))


def run_on_rp2040(name, *args):
    """The probe's stdout on MicroPython 1.27's RPI_PICO firmware on an emulated RP2040 at 125 MHz, the
    working tree's firmware flashed as .mpy onto an empty board by `dicetower flash`; the probe finds its
    arguments in PROBE_ARGS, as on the VM in sys.argv[1:]."""
    import io
    import tempfile

    from dicetower_host import flash
    from dicetower_host.pico import EmulatedPico

    with tempfile.TemporaryDirectory() as folder:
        with EmulatedPico(os.path.join(folder, "flash.img"), firmware=chip_firmware()) as pico:
            # Not waiting for the game to boot: the probe runs after a soft reset of its own, and on a
            # loaded machine the emulated boot can outlast the flasher's wait for the ready line.
            flash.flash(pico.url, "pico", out=io.StringIO(), wait_ready=False)
            with open(os.path.join(HERE, "vm", name)) as f:
                return pico.run("PROBE_ARGS = %r\n" % [str(a) for a in args] + f.read())
