"""How fast the SP 800-90B health tests catch a broken source, and how rarely they cry wolf.

    .venv/bin/python benchmarks/health.py [--trials 200] [--cap 200000]

Feeds the firmware's `HealthTests` (repetition count + adaptive proportion,
alpha = 2**-30) with raw samples from simulated sources and prints how many
samples pass before the first alarm: a stuck source, a 75/25 biased bit
source under each binary claim, bytes whose bits are each 75/25 biased, and
healthy sources (which should never alarm).
"""

import argparse
import random

from dicetower.core.health import HealthTests  # noqa: E402


def samples_to_alarm(tests, next_sample, cap):
    for n in range(1, cap + 1):
        if tests.check_all(bytes((next_sample(),))) is not None:
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
    ("stuck bits (1 forever)", True, 0.8, lambda rng: 1),
    ("75/25 bits, ROSC claim H=0.8", True, 0.8, biased_bit),
    ("75/25 bits, if claimed H=0.5", True, 0.5, biased_bit),
    ("bytes of 75/25 bits, claim H=7", False, 7, biased_byte),
    ("healthy bytes, claim H=7", False, 7, lambda rng: rng.getrandbits(8)),
    ("healthy bits, ROSC claim H=0.8", True, 0.8, lambda rng: rng.getrandbits(1)),
)


def percentile(found, trials, q, cap):
    """The q-th percentile over all trials, counting a trial with no alarm as beyond the cap."""
    k = int(q * (trials - 1) + 0.5)
    return str(found[k]) if k < len(found) else ">%d" % cap


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--cap", type=int, default=200_000, help="samples per trial before giving up")
    args = parser.parse_args(argv)
    print(
        "Health tests: samples until the first alarm (%d trials, each up to %d samples;"
        " healthy sources: 5 trials)" % (args.trials, args.cap)
    )
    print(
        "%-32s %5s %6s %6s %12s %9s %9s %9s" % ("source", "RCT C", "APT W", "APT C", "alarmed", "median", "p95", "max")
    )
    for label, binary, h, maker in CASES:
        trials = 5 if label.startswith("healthy") else args.trials
        found = []
        for trial in range(trials):
            rng = random.Random(trial)
            tests = HealthTests(binary, h)
            n = samples_to_alarm(tests, lambda: maker(rng), args.cap)
            if n is not None:
                found.append(n)
        found.sort()
        print(
            "%-32s %5d %6d %6d %12s %9s %9s %9s"
            % (
                label,
                tests.rct_cutoff,
                tests.window,
                tests.apt_cutoff,
                "%d of %d" % (len(found), trials),
                percentile(found, trials, 0.5, args.cap),
                percentile(found, trials, 0.95, args.cap),
                percentile(found, trials, 1.0, args.cap),
            )
        )


if __name__ == "__main__":
    main()
