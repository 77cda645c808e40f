"""How fast the SP 800-90B health tests catch a broken source, and how rarely they cry wolf.

    .venv/bin/python benchmarks/health.py [--trials 200] [--cap 2000000]

Feeds the firmware's `HealthTests` (repetition count + adaptive proportion,
alpha = 2**-30) with raw samples from simulated sources and prints how many
samples pass before the first alarm: a stuck source, a 75/25 biased bit
source under each binary claim, bytes whose bits are each 75/25 biased, and
healthy sources (which should never alarm).
"""

import argparse
import os
import random
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "firmware")]

from dicetower.core.entropy import HealthTests  # noqa: E402


def samples_to_alarm(tests, next_sample, cap):
    for n in range(1, cap + 1):
        if tests.check(next_sample()) is not None:
            return n
    return None


def biased_bit(rng):
    return 1 if rng.random() < 0.75 else 0


def biased_byte(rng):
    byte = 0
    for _ in range(8):
        byte = byte << 1 | biased_bit(rng)
    return byte


CASES = (
    # label, binary, claimed H per sample, sample maker
    ("stuck bytes (0x5A forever)", False, 7, lambda rng: 0x5A),
    ("stuck bits (1 forever)", True, 0.5, lambda rng: 1),
    ("75/25 bits, ROSC claim H=0.5", True, 0.5, biased_bit),
    ("75/25 bits, claim H=0.8", True, 0.8, biased_bit),
    ("bytes of 75/25 bits, claim H=7", False, 7, biased_byte),
    ("healthy bytes, claim H=7", False, 7, lambda rng: rng.getrandbits(8)),
    ("healthy bits, claim H=0.5", True, 0.5, lambda rng: rng.getrandbits(1)),
)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--cap", type=int, default=2_000_000, help="samples per trial before giving up")
    args = parser.parse_args(argv)
    print("Health tests: samples until the first alarm (%d trials, cap %d samples)" % (args.trials, args.cap))
    print("%-34s %5s %6s %6s %9s %9s %9s %s" % ("source", "RCT C", "APT W", "APT C", "median", "p95", "max",
                                               "no alarm by the cap"))
    for label, binary, h, maker in CASES:
        healthy = label.startswith("healthy")
        trials = 5 if healthy else args.trials
        found = []
        missed = 0
        for trial in range(trials):
            rng = random.Random(trial)
            tests = HealthTests(binary, h)
            n = samples_to_alarm(tests, lambda: maker(rng), args.cap)
            if n is None:
                missed += 1
            else:
                found.append(n)
        if found:
            found.sort()
            p95 = found[min(len(found) - 1, int(0.95 * len(found)))]
            figures = (statistics.median(found), p95, found[-1])
        else:
            figures = ("-", "-", "-")
        print("%-34s %5d %6d %6d %9s %9s %9s %d of %d" % (
            label, tests.rct_cutoff, tests.window, tests.apt_cutoff, figures[0], figures[1], figures[2],
            missed, trials))


if __name__ == "__main__":
    main()
