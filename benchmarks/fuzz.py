"""The fuzz harness at length: 10^5 hostile inputs a target, how fast, and what broke.

    .venv/bin/python benchmarks/fuzz.py [--cases 100000] [TARGET...]

Targets (tests/fuzz_targets.py says what each must do with any input): the save decoder, config.json,
board profiles, heroes.json, dice.json (the device's readers, on CPython), the simulator's scripts
and the monitor's event lines. Prints cases a second and the crashes, each kind once with its
smallest input seen; a crash belongs in fuzz_targets.REGRESSIONS once fixed. Last, the tower pressed
at random through its menus and set-up forms from crafted starting files (benchmarks/press_fuzz.py's
seeded runs, --cases of them, 100 if not given): its presses, the set-up form's share, set-ups started
and refused, and lock-ups.
"""

import argparse
import os
import sys
import time

from hypothesis import HealthCheck, Phase, given, settings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from fuzz_targets import TARGETS  # noqa: E402


def run(name, cases):
    strategy, check = TARGETS[name]
    crashes = {}
    count = [0]

    @settings(
        max_examples=cases,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def fuzz(case):
        count[0] += 1
        try:
            check(case)
        except Exception as e:  # noqa: BLE001 (a crash is tallied, and the run goes on)
            kind = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:100] if str(e) else "")
            seen = crashes.get(kind)
            if seen is None or len(repr(case)) < len(repr(seen[1])):
                crashes[kind] = ((seen[0] if seen else 0) + 1, case)
            else:
                crashes[kind] = (seen[0] + 1, seen[1])

    start = time.perf_counter()
    fuzz()
    seconds = time.perf_counter() - start
    print("%-8s %7d cases  %6.0f cases/s  %d crash kinds" % (name, count[0], count[0] / seconds, len(crashes)))
    for kind, (n, case) in sorted(crashes.items()):
        print("    %5d x %s\n          e.g. %s" % (n, kind, repr(case)[:300]))
    return len(crashes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=None, help="cases a target (100000; presses: runs, 100)")
    parser.add_argument("targets", nargs="*", help="some of: " + ", ".join(TARGETS))
    args = parser.parse_args()
    unknown = [t for t in args.targets if t not in TARGETS]
    if unknown:
        parser.error("no target %s (have: %s)" % (", ".join(unknown), ", ".join(TARGETS)))
    for name in args.targets or list(TARGETS):
        if name == "presses":  # whole runs of the tower, not one input: seeded, tallied
            import press_fuzz  # beside this script

            press_fuzz.fuzz(args.cases)
        else:
            run(name, args.cases or 100000)


if __name__ == "__main__":
    main()
