"""Heap use and speed of the dice engine on the real MicroPython VM.

    .venv/bin/python benchmarks/vm_memory.py [--ops 1000]

Runs benchmarks/vm/memory_probe.py on the MicroPython 1.27 VM (WebAssembly,
Node.js) and prints, per operation, the heap bytes allocated (gc.mem_alloc
deltas with the GC off, averaged) and the VM's time. The VM runs on this
laptop's CPU, so the times are not a Pico's; the bytes are the same code's.
Fractions of a byte per face are the source's 32-byte refills; a whole turn's
bytes are nearly all the Outcome and its sentences, made once per turn.
"""

import argparse

from vmprobe import run_probe

TARGET = 512  # bytes per roll (issue target)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=1000)
    args = parser.parse_args(argv)
    stdout = run_probe("memory_probe.py", args.ops)
    print("MicroPython VM: heap bytes allocated and time per operation (%d operations each)" % args.ops)
    print("%-14s %14s %12s" % ("operation", "heap bytes/op", "VM us/op"))
    for line in stdout.splitlines():
        name, allocated, micros = line.split()
        note = ""
        if name in ("roll", "reroll_one", "lucky_reroll", "roll_urandom"):
            note = "  (target < %d)" % TARGET
        print("%-14s %14s %12s%s" % (name, allocated, micros, note))


if __name__ == "__main__":
    main()
