"""The re-roll advice in the device's loop on the MicroPython VM: ready when, and the longest pass.

    .venv/bin/python benchmarks/vm_loop.py

Boots main.py's device on virtual parts (the test bench) and runs benchmarks/vm/loop_probe.py: from
a roll's dice on screen to the advice shown, passes of `Device.tick`, timed with the VM's
`time.ticks_us` on this machine's CPU (the VM's clock counts whole milliseconds). The bench's clock stands still, so the passes are the
advisor's slices (the figures at 125 MHz come from benchmarks/rp2040_pico.py).
"""

import json
import os
import subprocess
import sys
import tempfile

from dicetower_host import paths

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SCRIPT = """
from table import Table
import loop_probe
loop_probe.run(Table(seed=5).device)
loop_probe.run(Table(seed=5).device, lucky=True)
"""


def main():
    mounts = [
        (paths.FIRMWARE, "/fw"),
        (os.path.join(ROOT, "tests", "fw"), "/tests"),
        (paths.BOARDS, "/boards"),
        (paths.VIRTUAL_PARTS, "/virtual"),
        (os.path.join(HERE, "vm"), "/probes"),
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(SCRIPT)
    try:
        done = subprocess.run(paths.vm_command(f.name, mounts=mounts), capture_output=True, text=True, cwd=ROOT)
    finally:
        os.remove(f.name)
    if done.returncode != 0:
        sys.exit("the VM run failed:\n" + done.stderr[-3000:])
    print("MicroPython VM on this machine: the advice in the device's loop (Device.tick)")
    for line in done.stdout.splitlines():
        item = json.loads(line) if line.startswith("{") else {}
        if "advice" in item:
            print(
                "%-50s ready %7.1f ms  longest pass %5.1f ms  %4d passes  %3d%%"
                % (
                    item["advice"],
                    item["ready_us"] / 1000,
                    item["longest_pass_us"] / 1000,
                    item["passes"],
                    item["percent"],
                )
            )


if __name__ == "__main__":
    main()
