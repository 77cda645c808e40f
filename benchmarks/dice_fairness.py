"""Fairness of every die kind through the firmware's real face mapping.

    .venv/bin/python benchmarks/dice_fairness.py [--rolls 1000000] [--seed 1]

For each source and each die kind, rolls the die N times with `FairDice.draw` and prints:
chi-square with its p-value (ours and scipy's), the Wald-Wolfowitz runs test, lag-1 serial
correlation, the bytes each face takes from its pool (of DRBG output, or of the replayed bytes for
the seeded source), the raw noise samples per face, and a plain-words verdict. The sources: a seeded
sfc16 (a replay: health-tested, its bytes straight into the pool, as the simulator's and the tests'
seeded games); the host's os.urandom and random bits read as the RP2040's ROSC register (RoscBits),
both through the start-up test, SHA-256 conditioning and the HMAC_DRBG, as on a Pico; and a game's
sealed dice (core/sealed.py): one 256-bit seed from the tower's dice, a phone's cut as its nonce, then the game's own HMAC_DRBG,
never reseeded, through the same face pool (docs/fairness.md, "Checking a game's dice").
"""

import argparse
import math
import os
import time

from scipy import stats as scipy_stats  # noqa: E402

import dicetower_host  # noqa: F401 (first: the firmware's `from micropython import const` gets the host's)
from dicetower.core.dice import ATTACK, BATTLEREALM, D6, DANGER_COIN, plain  # noqa: E402
from dicetower.core.entropy import FairDice  # noqa: E402
from dicetower.core.replay import SeededSource
from dicetower.core.sealed import SealedDice  # noqa: E402
from dicetower.hw.entropy import RoscBits, Urandom  # noqa: E402
from dicetower.ui.resealing import dice_text  # noqa: E402
from dicetower_host.stats import maths as fairness_maths  # noqa: E402

DICE = (BATTLEREALM, ATTACK, DANGER_COIN, D6, plain(20))


class HostBits:
    """machine.mem32 for the ROSC's random bit register: bits from the host's os.urandom."""

    def __init__(self):
        self.bits = 0
        self.left = 0

    def __getitem__(self, address):
        if self.left == 0:
            self.bits = int.from_bytes(os.urandom(64), "little")
            self.left = 512
        self.left -= 1
        bit = self.bits & 1
        self.bits >>= 1
        return bit


def measure(dice, die, rolls):
    start_bytes = dice.bytes_used
    start_samples = dice.samples_used
    start = time.perf_counter()
    faces = [dice.draw(die) for _ in range(rolls)]
    seconds = time.perf_counter() - start
    counts = [0] * die.sides
    for face in faces:
        counts[face] += 1
    chi2, dof, p = fairness_maths.chi_square(counts)
    _, _, runs_z, runs_p = fairness_maths.runs_test(faces, die.sides)
    r, r_p = fairness_maths.serial_correlation(faces)
    return {
        "die": die.name,
        "chi2": chi2,
        "dof": dof,
        "p": p,
        "scipy_p": scipy_stats.chisquare(counts).pvalue,
        "runs_z": runs_z,
        "runs_p": runs_p,
        "r": r,
        "r_p": r_p,
        "bytes_per_face": (dice.bytes_used - start_bytes) / rolls,
        "samples_per_face": (dice.samples_used - start_samples) / rolls,
        "us_per_face": seconds / rolls * 1e6,
        "counts": counts,
        "verdict": fairness_maths.verdict([p, runs_p, r_p]),
    }


class Unrecorded:
    """A game's sealed dice, their faces straight from the face pool over the game's stream (what
    SealedDice.draw gives in a throw), without writing 10^6 faces to a game's record."""

    def __init__(self, game):
        self.game = game
        self.failure = None
        self.samples_used = 0  # its faces read no noise: the seed's and the cut's alone

    @property
    def bytes_used(self):
        return self.game.bytes_used

    def draw(self, die):
        return self.game._below(die.sides)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolls", type=int, default=10**6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    rosc = RoscBits("RP2040", mem32=HostBits(), sleep_us=lambda us: None)
    rosc.name = "host random bits as the ROSC register"
    sources = (
        ("seeded sfc16 (seed %d), a replay: no DRBG" % args.seed, SeededSource(args.seed)),
        ("host os.urandom, through the conditioner and the HMAC_DRBG", Urandom(name="host os.urandom")),
        ("host random bits read as the RP2040's ROSC bit (RoscBits), through the conditioner and the HMAC_DRBG", rosc),
    )
    print("Fairness: %d rolls of each die kind through FairDice.draw" % args.rolls)
    header = "%-12s %9s %3s %9s %9s %7s %9s %9s %9s %7s %7s %6s  %s" % (
        "die",
        "chi2",
        "df",
        "p",
        "scipy p",
        "runs z",
        "runs p",
        "lag-1 r",
        "r p",
        "B/face",
        "noise",
        "us",
        "verdict",
    )
    games = []
    for _label, source in sources:
        dice = FairDice(source)
        dice.recover()  # the whole start-up test, before the first face
        games.append(dice)
    tower = FairDice(Urandom(name="host os.urandom"))
    tower.recover()
    game = SealedDice(tower, tower.secret(32), "battlerealm", 4, 1, dice_text([BATTLEREALM]))
    game.cut.append("0123456789abcdef0123456789abcdef")  # a phone's part, as the cut takes it
    game.close()
    games.append(Unrecorded(game))
    labels = [label for label, _ in sources] + [
        "a game's sealed dice: a seed from the tower's dice, cut by a phone, its own HMAC_DRBG"
    ]
    for label, dice in zip(labels, games):
        print("\nsource: %s (failure: %s)" % (label, dice.failure))
        print(header)
        for die in DICE:
            m = measure(dice, die, args.rolls)
            print(
                "%-12s %9.2f %3d %9.4f %9.4f %7.2f %9.4f %9.5f %9.4f %7.4f %7.3f %6.2f  %s"
                % (
                    m["die"],
                    m["chi2"],
                    m["dof"],
                    m["p"],
                    m["scipy_p"],
                    m["runs_z"],
                    m["runs_p"],
                    m["r"],
                    m["r_p"],
                    m["bytes_per_face"],
                    m["samples_per_face"],
                    m["us_per_face"],
                    m["verdict"],
                )
            )
        print("entropy floor: log2(6)/8 = %.4f bytes per d6 face; target at most 0.40" % (math.log2(6) / 8))


if __name__ == "__main__":
    main()
