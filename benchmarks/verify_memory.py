"""Peak memory and time of `dicetower verify` on long logs of honest sealed games.

    .venv/bin/python benchmarks/verify_memory.py [--sizes 4,16,64] [--seed 1]

Writes, for each size in MB, a monitor log of four-player Battlerealm games as the tower tells them
(a seal, the new game, an empty cut; each turn a roll at its place, sometimes a re-roll of one to three
dice, the roll's action line; the game's end and the seed's reveal), the faces drawn by the published
recipe (docs/fairness.md) from each game's seed, so every log verifies. Runs `dicetower verify LOG` on
each as a process of its own, started by a small process that reads its peak resident memory with
getrusage(RUSAGE_CHILDREN) (so the peaks of two runs never mix), and prints the peak and the seconds.
The target (issue 46): memory flat in the log's size, a 64 MB log under 100 MiB; a log over the limit
dicetower verify reads (MAX_BYTES) is refused in one line with exit 2. Before (5a0a87c: every game's
places kept to the end, a die's faces looked up through every seal so far, a log under 4 MB read whole
to see whether it was a /history): 28, 32 and 60 MiB, 0.5, 2.6 and 29 s for the three sizes.
"""

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile

from dicetower_host import verify

LIMIT_MIB = 100
HEROES = ("Hulk", "Thor", "Storm", "Rogue")
DICE = "Battlerealm=Mutant,Science,Skill,Tech,Cosmic,Mystic"
FACES = DICE.split("=")[1].split(",")
LETTERS = "MSKTCY"  # a roll's saved form, in the faces' order
TURNS = 60  # a game's turns (a four-player Battlerealm game to 23 PVP takes about this many)

# Runs the dicetower command given as its child and prints that child's peak RSS (KiB on Linux) and time.
MEASURE = """
import resource, subprocess, sys, time
began = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
seconds = time.perf_counter() - began
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(repr((done.returncode, done.stdout, done.stderr, peak, seconds)))
"""


def write_log(path, size, seed):
    """Honest games until the log holds `size` bytes; (games, draws) written."""
    rng = random.Random(seed)
    games = draws = 0
    with open(path, "w") as f:

        def tell(event, **fields):
            f.write(json.dumps(dict({"event": event}, **fields, t=0)) + "\n")

        tell("ready", version="0.1.0", board="Raspberry Pi Pico", dice="seeded")
        while f.tell() < size:
            games += 1
            secret = rng.randbytes(32)
            sealed = verify.commitment(secret, "battlerealm", 4, games, DICE)
            tell(
                "seal",
                game="battlerealm",
                version=2,
                players=4,
                counter=games,
                dice=DICE,
                commitment=sealed,
                drawn=0,
            )
            tell("game", game="battlerealm", new=True)
            nonce = hashlib.sha256(b"")
            tell("cut", game="battlerealm", commitment=sealed, cut="", nonce=nonce.hexdigest())
            stream = verify.Stream(secret, nonce.digest())
            drawn = 0
            for turn in range(TURNS):
                place = "%d.%d" % (turn, turn % 4)
                hero = HEROES[turn % 4]
                roll = [stream.face(6) for _ in range(6)]
                tell("draws", game="battlerealm", first=drawn + 1, record="%s:0:%s" % (place, "".join(map(str, roll))))
                drawn += 6
                tell("roll", hero=hero, at=place, faces=[FACES[f] for f in roll])
                for _ in range(rng.choice((0, 0, 1, 2))):
                    dice = sorted(rng.sample(range(6), rng.randint(1, 3)))
                    new = [stream.face(6) for _ in dice]
                    record = "%s:0:%s@%s" % (place, "".join(map(str, new)), "".join(str(d + 1) for d in dice))
                    tell("draws", game="battlerealm", first=drawn + 1, record=record)
                    drawn += len(dice)
                    for d, face in zip(dice, new):
                        roll[d] = face
                    tell("reroll", dice=[d + 1 for d in dice], at=place, faces=[FACES[f] for f in roll])
                labels = " ".join(FACES[f] for f in roll)
                tell(
                    "action",
                    game="battlerealm",
                    action="roll",
                    args=["".join(LETTERS[f] for f in roll), []],
                    line="%s rolls %s." % (hero, labels),
                    at=place,
                )
            tell("over", game="battlerealm", result="Hulk reaches 23 PVP and wins!")
            tell("reveal", game="battlerealm", commitment=sealed, seed=secret.hex(), draws=drawn, throws=TURNS)
            draws += drawn
    return games, draws


def measure(*command):
    """(exit status, stdout, stderr, peak RSS in MiB, seconds) of `command`, run by a process of its own."""
    done = subprocess.run([sys.executable, "-c", MEASURE] + list(command), capture_output=True, text=True, check=True)
    status, out, err, peak, seconds = eval(done.stdout)  # noqa: S307 our own child's repr of a tuple
    return status, out, err, peak / 1024, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="4,16,64", help="the logs' sizes in MB (10^6 bytes), comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    command = os.path.join(os.path.dirname(sys.executable), "dicetower")
    failed = False
    peaks = []
    with tempfile.TemporaryDirectory() as folder:
        log = os.path.join(folder, "game.jsonl")
        for size in [float(s) for s in args.sizes.split(",")]:
            games, draws = write_log(log, int(size * 1e6), args.seed)
            status, out, err, peak, seconds = measure(command, "verify", log)
            lines = out.strip().splitlines()
            verdicts = [line for line in lines if line.startswith("seal ")]
            honest = status == 0 and len(verdicts) == games and all("every face matches" in x for x in verdicts)
            print(
                "%5.1f MB log (%d games, %d draws): peak RSS %.1f MiB, %.1f s%s"
                % (os.path.getsize(log) / 1e6, games, draws, peak, seconds, "" if honest else "; NOT VERIFIED: " + err)
            )
            peaks.append(peak)
            failed = failed or not honest or peak >= LIMIT_MIB
        # One byte over the limit: refused before it is read, in one line.
        with open(log, "r+b") as f:
            f.truncate(verify.MAX_BYTES + 1)
        status, out, err, peak, seconds = measure(command, "verify", log)
        refused = status == 2 and err.count("\n") == 1 and out == ""
        print(
            "a log of %d bytes (the limit + 1): exit %d in %.2f s, peak RSS %.1f MiB: %s"
            % (
                verify.MAX_BYTES + 1,
                status,
                seconds,
                peak,
                err.strip().replace(log, "LOG") if refused else "NOT REFUSED: %r" % (out + err),
            )
        )
        failed = failed or not refused
    print(
        "peak RSS from the smallest log to the largest: %+.1f MiB (target: under %d MiB for 64 MB)"
        % (peaks[-1] - peaks[0], LIMIT_MIB)
    )
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
