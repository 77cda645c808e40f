"""Heap and flash wear of the score trackers on the real MicroPython VM.

    .venv/bin/python benchmarks/vm_trackers.py

Plays the four-player game of each mode in tests/fw/scripted_games.py on the
MicroPython 1.27 VM and prints: the live heap the game holds at its end and
at its largest between actions (gc.mem_alloc after gc.collect, beyond what
was allocated before the game), and the bytes one save writes after each
action (the device rewrites the whole save file each time), with the total
for the game. Times include encoding the save after every action and are
the VM's on this machine, not a Pico's. Bytes written count the save files
only; the flash also writes LittleFS metadata, which these figures leave out.
"""

import os
import subprocess
import sys

from dicetower_host import paths

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def main():
    done = subprocess.run(
        paths.vm_command(
            os.path.join(HERE, "vm", "tracker_probe.py"),
            mounts=[(paths.FIRMWARE, "/fw"), (os.path.join(ROOT, "tests", "fw"), "/tests")],
        ),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        sys.exit("the VM run failed:\n" + done.stderr)
    lines = done.stdout.split("\n")
    print("MicroPython VM: a whole four-player game of each mode (targets: heap < 24 KB, < 2 KB per save)")
    print("tracker modules and store imported: %s bytes of heap" % lines[0].split()[1])
    _, undoable, size = lines[1].split()
    print("Battlerealm save, six heroes, %s actions to undo: %s bytes" % (undoable, size))
    _, undoable, size = lines[2].split()
    print(
        "largest Champions save the tracker allows (5 areas, 8 side schemes, %s actions): %s bytes" % (undoable, size)
    )
    print(
        "%-12s %8s %11s %11s %14s %15s %16s %10s"
        % (
            "game",
            "actions",
            "heap at end",
            "heap max",
            "save max (B)",
            "save mean (B)",
            "written/game (B)",
            "us/action",
        )
    )
    for line in lines[3:]:
        if line.strip():
            name, *figures = line.split()
            print("%-12s %8s %11s %11s %14s %15s %16s %10s" % (name, *figures))


if __name__ == "__main__":
    main()
