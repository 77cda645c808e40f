"""Peak memory of `dicetower stats` on a long log, and its figures against the whole-log way.

    .venv/bin/python benchmarks/stats_memory.py [--rolls 1000000] [--seed 1]

Writes a log of N Battlerealm roll events (six dice each) with a re-roll of one die and an
Attack Die and Danger Coin throw every tenth roll, runs `dicetower stats LOG` on it as a
process of its own and prints that process's peak resident memory and time. The peak is the
process's own high-water mark (VmHWM in /proc/self/status, read as it ends): ru_maxrss of a
child would also count the pages of this process, which it shares until it starts.
Then it computes the same figures the way `stats` did before it streamed (every face in a
list: chi-square of the counts, the runs test of the sequence) and checks that the report
prints exactly those. The target (issue 19): at most 50 MiB for 10^6 rolls.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from dicetower.core.dice import ATTACK, BATTLEREALM, DANGER_COIN
from dicetower_host.stats import maths as fairness_maths

LIMIT_MIB = 50


# `dicetower stats LOG`, then its own peak memory on stderr.
STATS = """
import sys
from dicetower_host import cli
status = cli.main(["stats", sys.argv[1]])
with open("/proc/self/status") as f:
    peak = [line.split()[1] for line in f if line.startswith("VmHWM:")]
sys.stderr.write("peak KiB %s\\n" % peak[0])
sys.exit(status)
"""


def write_log(path, rolls, seed):
    """Write the log; return every die kind's faces in order (the whole-log way's input)."""
    rng = random.Random(seed)
    faces = {"Battlerealm": [], "Attack": [], "Danger Coin": []}
    with open(path, "w") as f:
        for n in range(rolls):
            roll = [rng.randrange(6) for _ in range(6)]
            faces["Battlerealm"] += roll
            names = [BATTLEREALM.faces[i] for i in roll]
            f.write(json.dumps({"event": "roll", "hero": "Hulk", "faces": names, "t": n}) + "\n")
            if n % 10 == 0:
                die = rng.randrange(6)
                roll[die] = rng.randrange(6)
                faces["Battlerealm"].append(roll[die])
                names[die] = BATTLEREALM.faces[roll[die]]
                f.write(json.dumps({"event": "reroll", "dice": [die + 1], "faces": names, "t": n}) + "\n")
                attack = rng.randrange(ATTACK.sides)
                faces["Attack"].append(attack)
                f.write(
                    json.dumps(
                        {
                            "event": "action",
                            "game": "battleworld",
                            "action": "attack",
                            "args": [0, ATTACK.faces[attack], 1],
                            "t": n,
                        }
                    )
                    + "\n"
                )
                coin = rng.randrange(2)
                faces["Danger Coin"].append(coin)
                f.write(
                    json.dumps(
                        {
                            "event": "action",
                            "game": "battleworld",
                            "action": "danger",
                            "args": [DANGER_COIN.faces[coin]],
                            "t": n,
                        }
                    )
                    + "\n"
                )
    return faces


def expected_lines(faces):
    """The report's figure lines, computed from whole lists as before streaming."""
    lines = []
    for name, die in (("Battlerealm", BATTLEREALM), ("Attack", ATTACK), ("Danger Coin", DANGER_COIN)):
        counts = [faces[name].count(i) for i in range(die.sides)]
        chi2, dof, p = fairness_maths.chi_square(counts)
        runs, expected, z, runs_p = fairness_maths.runs_test(faces[name], die.sides)
        lines.append("chi-square %.2f (%d df), p = %.4f" % (chi2, dof, p))
        lines.append("runs %d (expected %.1f), p = %.4f" % (runs, expected, runs_p))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolls", type=int, default=1000000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        log = os.path.join(folder, "rolls.jsonl")
        began = time.perf_counter()
        faces = write_log(log, args.rolls, args.seed)
        print(
            "log: %d rolls, %.1f MB, written in %.1f s"
            % (args.rolls, os.path.getsize(log) / 1e6, time.perf_counter() - began)
        )
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", STATS, log], capture_output=True, text=True)
        seconds = time.perf_counter() - began
    if done.returncode != 0 or "peak KiB" not in done.stderr:
        sys.exit("stats failed: %s" % done.stderr)
    peak_mib = int(done.stderr.split("peak KiB")[1].split()[0]) / 1024
    print(done.stdout.rstrip())
    print("dicetower stats: peak RSS %.1f MiB (target at most %d MiB), %.1f s" % (peak_mib, LIMIT_MIB, seconds))
    missing = [line for line in expected_lines(faces) if line not in done.stdout]
    print("figures as the whole-log way computes them: %s" % ("the same" if not missing else "DIFFER: %s" % missing))
    if missing or peak_mib > LIMIT_MIB:
        sys.exit(1)


if __name__ == "__main__":
    main()
