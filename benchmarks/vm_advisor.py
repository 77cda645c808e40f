"""Time and heap of the re-roll advisor on the real MicroPython VM.

    .venv/bin/python benchmarks/vm_advisor.py [--runs 15]

Runs benchmarks/vm/advisor_probe.py on the MicroPython 1.27 VM (WebAssembly,
Node.js) and prints, per case, the fastest and median time of one piece of
advice and the heap it allocates (gc.mem_alloc delta with the GC off, so
every byte it asks for, freed or not). The hardest case is six free dice,
two re-rolls, any of four cards. The VM runs on this machine's CPU: its
times are not a Pico's; the bytes are the same code's.
"""

import argparse

from vmprobe import run_probe

TARGET_MS = 50
TARGET_BYTES = 8 * 1024


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    stdout = run_probe("advisor_probe.py", args.runs)
    print("MicroPython VM: one piece of advice (%d runs each; target for the hardest: < %d ms, <= %d bytes)"
          % (args.runs, TARGET_MS, TARGET_BYTES))
    print("%-40s %9s %9s %11s %7s" % ("case", "fastest", "median", "heap bytes", "chance"))
    for line in stdout.splitlines():
        name, fastest, median, heap, percent = line.split()
        print("%-40s %6.1f ms %6.1f ms %11s %6s%%" % (name, int(fastest) / 1000, int(median) / 1000, heap, percent))


if __name__ == "__main__":
    main()
