"""Random presses through every menu and every game's set-up form, from crafted starting files: lock-ups.

    .venv/bin/python benchmarks/press_fuzz.py [--runs 100] [--steps 120] [--seed 1] [--vm]

Each run boots the tower (main.py's device on the bench, on CPython, or with --vm on the MicroPython VM)
with one of tests/fw/test_no_freeze.py's sets of starting files (crafted setup.json, champions.json,
heroes.json, dice.json, in turn) and plays its seeded steps: set-ups one after another, each a new game
from the start menu, its count changed, its set-up's form opened by holding B (most often), random
presses inside it (short, held, double, queued several before a loop pass) and rows changed, "Start the
game", then random presses in play. After every press the screen must answer the next one: App.press
returns, the mode has a screen that draws, the loop logs no error and lets time pass. Prints the runs,
the presses (a second, on this machine), the presses the set-up form took per run, the set-ups started
and refused (C on a count screen or on the form's first row that began no game), and the lock-ups: runs
in which a press left a screen that does not answer (each run stops at its first), each kind with its
shortest run's presses (keys as test_no_freeze.py writes them). The same steps on CPython and the VM.
Exits 1 when a run locked up.
"""

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
STEPS = 120
RUNS = 100  # about 900 set-ups, most through the form (the hostile run's figures were of 360)


def _on_cpython(runs, steps, first):
    sys.path[:0] = [os.path.join(ROOT, "tests"), os.path.join(ROOT, "tests", "fw")]
    from dicetower_host import virtual_parts

    virtual_parts.install()  # `import tower`, `import machine`: the bench's parts (tests/conftest.py does it too)
    import test_no_freeze

    return test_no_freeze.tally(runs, steps, first)


def _on_vm(runs, steps, first):
    import subprocess

    from dicetower_host import paths

    command = paths.vm_command(
        os.path.join(ROOT, "tests", "fw", "test_no_freeze.py"),
        str(runs),
        str(steps),
        str(first),
        mounts=[
            (paths.FIRMWARE, "/fw"),
            (os.path.join(ROOT, "tests", "fw"), "/tests"),
            (paths.BOARDS, "/boards"),
            (paths.VIRTUAL_PARTS, "/virtual"),
        ],
    )
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    for line in done.stdout.splitlines():
        if line.startswith("PRESSFUZZ "):
            return json.loads(line[len("PRESSFUZZ ") :])
    sys.exit("the VM's run gave no tallies (exit %d): %s" % (done.returncode, done.stderr.strip()[-2000:]))


def report(tally, where, seconds, steps):
    runs, presses = tally["runs"], tally["presses"]
    refused = tally["attempts"] - tally["started"]
    failures = tally["failures"]
    print(
        "Random presses on %s: %d runs of %d steps from %d sets of starting files"
        % (where, runs, steps, tally["files"])
    )
    print(
        "  %-34s %9s  (%.0f a run, %.0f a second)"
        % ("presses", "{:,}".format(presses), presses / runs, presses / seconds)
    )
    print(
        "  %-34s %9s  (%.1f a run)"
        % ("presses through the set-up form", "{:,}".format(tally["form"]), tally["form"] / runs)
    )
    print(
        "  %-34s %9s"
        % ("set-ups started / refused", "%s / %s" % ("{:,}".format(tally["started"]), "{:,}".format(refused)))
    )
    print("  %-34s %9d  (runs in which a press left a screen that does not answer)" % ("lock-ups", len(failures)))
    kinds = {}
    for seed, name, failure, keys in failures:
        kind = failure.split(": ", 1)[-1][:90]
        seen = kinds.get(kind)
        if seen is None or len(keys) < len(seen[3]):
            kinds[kind] = (seen[0] + 1 if seen else 1, name, failure, keys, seed)
        else:
            kinds[kind] = (seen[0] + 1,) + seen[1:]
    for kind in sorted(kinds):
        count, name, failure, keys, seed = kinds[kind]
        print("    %d x %s\n      e.g. seed %d, from %s: %s" % (count, failure, seed, name, keys[:400]))


def fuzz(runs=None, steps=STEPS, seed=1, vm=False):
    """Run and print; the number of lock-ups."""
    started = time.perf_counter()
    tally = (_on_vm if vm else _on_cpython)(runs or RUNS, steps, seed)
    report(tally, "the MicroPython VM" if vm else "CPython", time.perf_counter() - started, steps)
    return len(tally["failures"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--steps", type=int, default=STEPS, help="steps a run (errands and presses)")
    parser.add_argument("--seed", type=int, default=1, help="the first run's seed (a run's seed picks its files)")
    parser.add_argument("--vm", action="store_true", help="on the MicroPython VM (node_modules), not CPython")
    args = parser.parse_args()
    if args.runs < 1 or args.steps < 1:
        parser.error("--runs and --steps must be 1 or more")
    return 1 if fuzz(args.runs, args.steps, args.seed, args.vm) else 0


if __name__ == "__main__":
    sys.exit(main())
