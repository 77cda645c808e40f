"""`dicetower stats` on event logs: fair dice pass, loaded dice are caught, junk lines are skipped."""

import json
import subprocess
import time

from PIL import Image

from conftest import ROOT, tool
from dicetower.core.dice import ATTACK, BATTLEREALM, DANGER_COIN
from dicetower.core.entropy import FairDice, SeededSource
from dicetower_host import fairness_report


def device_log(rolls, seed=1, loaded=False):
    """Event lines as the firmware writes them: rolls, re-rolls, Attack Die and Danger Coin."""
    dice = FairDice(SeededSource(seed))
    lines = []
    for n in range(rolls):
        faces = [BATTLEREALM.faces[dice.draw(BATTLEREALM)] for _ in range(6)]
        if loaded and n % 3 == 0:
            faces[0] = "Mystic"  # a die that lands on Mystic too often
        lines.append(json.dumps({"event": "roll", "hero": "Hulk", "faces": faces, "t": n}))
        faces[2] = BATTLEREALM.faces[dice.draw(BATTLEREALM)]
        lines.append(json.dumps({"event": "reroll", "dice": [3], "faces": faces, "t": n}))
        lines.append(json.dumps({"event": "action", "game": "battleworld", "action": "attack",
                                 "args": [0, ATTACK.faces[dice.draw(ATTACK)], 2], "t": n}))
        lines.append(json.dumps({"event": "action", "game": "battleworld", "action": "danger",
                                 "args": [DANGER_COIN.faces[dice.draw(DANGER_COIN)]], "t": n}))
    return lines


def test_fair_dice_are_called_fair():
    text, results = fairness_report.run(device_log(2000))
    by_die = {r["die"]: r for r in results}
    assert by_die["Battlerealm"]["rolls"] == 2000 * 7
    assert by_die["Attack"]["rolls"] == 2000 and by_die["Danger Coin"]["rolls"] == 2000
    for r in results:
        assert r["verdict"].startswith("fair"), r
    assert "chi-square" in text and "runs" in text


def test_a_loaded_die_is_caught():
    text, results = fairness_report.run(device_log(2000, loaded=True))
    assert results[0]["verdict"].startswith("suspicious")
    assert results[0]["counts"]["Mystic"] > results[0]["counts"]["Skill"] * 1.15


def test_junk_lines_are_skipped_and_counted():
    lines = device_log(50) + ["not json", "[1, 2]", '{"event": "roll", "faces": ["Star"]}', ""]
    text, results = fairness_report.run(lines)
    assert "(3 lines were not roll events and were skipped)" in text
    assert results[0]["rolls"] == 50 * 7


def test_thousands_of_rolls_in_under_a_second():
    lines = device_log(3000)
    began = time.perf_counter()
    fairness_report.run(lines)
    assert time.perf_counter() - began < 1.0


def test_the_command_reads_a_log_and_draws_a_histogram(tmp_path):
    log = tmp_path / "rolls.jsonl"
    log.write_text("\n".join(device_log(300)) + "\n")
    done = subprocess.run([tool("dicetower"), "stats", str(log), "--png", str(tmp_path / "h.png")],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "Battlerealm: 2100 rolls" in done.stdout
    with Image.open(tmp_path / "h.png") as image:
        assert image.size[0] == 640
    missing = subprocess.run([tool("dicetower"), "stats", str(tmp_path / "nope.jsonl")], capture_output=True, text=True)
    assert missing.returncode == 2 and "cannot read the log" in missing.stderr


def test_a_simulated_game_log_is_read():
    done = subprocess.run([tool("dicetower"), "sim", "--script", "examples/battlerealm.sim"], capture_output=True,
                          text=True, cwd=ROOT)
    events = [json.dumps(e) for e in json.loads(done.stdout)["events"]]
    faces, skipped = fairness_report.faces_from_events(events)
    assert len(faces["Battlerealm"]) >= 12 and skipped == 0
