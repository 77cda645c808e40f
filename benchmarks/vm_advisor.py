"""Time and heap of the re-roll advisor on the real MicroPython VM, or on the emulated RP2040.

    .venv/bin/python benchmarks/vm_advisor.py [--runs 15] [--rp2040] [--cases NAME|NAME...]

Runs benchmarks/vm/advisor_probe.py on the MicroPython 1.27 VM (WebAssembly,
Node.js) and prints, per case, the fastest and median time of one piece of
advice, the heap it allocates (gc.mem_alloc delta with the GC off, so
every byte it asks for, freed or not) and the longest single step of
`advisor.plan` (what the device's loop waits for between two polls; the VM's
clock counts whole milliseconds), and, with --rp2040, the most the advisor
holds while a plan runs (live heap after a collection at each step, its work
arrays included: they are made by the first plan that needs them and kept;
the VM's gc.collect() frees little, so there it is not shown). The hardest
case is six free dice, two re-rolls, any of four cards. The VM runs on this
machine's CPU: its times are not a Pico's; the bytes are the same code's.

--rp2040 runs the same probe on MicroPython 1.27's own RPI_PICO firmware on
an emulated RP2040 at 125 MHz (rp2040/, as benchmarks/rp2040_pico.py does),
with the working tree's firmware flashed as .mpy by `dicetower flash`: the
chip's times (about a minute of wall time; use a few runs).
"""

import argparse

from vmprobe import run_on_rp2040, run_probe

TARGET_MS = 50
TARGET_BYTES = 8 * 1024


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--rp2040", action="store_true", help="on the emulated RP2040 at 125 MHz, not the VM")
    parser.add_argument("--cases", help="only these cases, '|' between")
    args = parser.parse_args(argv)
    if args.rp2040:
        stdout = run_on_rp2040("advisor_probe.py", *([args.runs] + ([args.cases] if args.cases else [])))
        print("MicroPython 1.27 rp2 on an emulated RP2040 at 125 MHz: one piece of advice (%d runs each)" % args.runs)
    else:
        stdout = run_probe("advisor_probe.py", *([args.runs] + ([args.cases] if args.cases else [])))
        print(
            "MicroPython VM: one piece of advice (%d runs each; target for the hardest: < %d ms, <= %d bytes)"
            % (args.runs, TARGET_MS, TARGET_BYTES)
        )
    print(
        "%-40s %9s %9s %11s %7s %14s %11s"
        % ("case", "fastest", "median", "heap bytes", "chance", "longest slice", "live bytes")
    )
    for line in stdout.splitlines():
        if not line.strip():
            continue
        name, fastest, median, heap, percent, longest, live = line.split()
        if not args.rp2040:
            live = "-"
        print(
            "%-40s %6.1f ms %6.1f ms %11s %6s%% %11.1f ms %11s"
            % (name, int(fastest) / 1000, int(median) / 1000, heap, percent, int(longest) / 1000, live)
        )


if __name__ == "__main__":
    main()
