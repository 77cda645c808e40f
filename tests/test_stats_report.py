"""`dicetower stats` on event logs: fair dice pass, loaded dice are caught, a bad line counts nothing
and is named, the log is streamed, the report says dice and rolls right and its histogram is labelled."""

import io
import json
import subprocess
import time
import tracemalloc

from PIL import Image

from conftest import ROOT, tool
from dicetower.core.dice import ATTACK, BATTLEREALM, DANGER_COIN
from dicetower.core.entropy import FairDice
from dicetower.core.replay import SeededSource
from dicetower_host.stats import report as fairness_report


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
        lines.append(
            json.dumps(
                {
                    "event": "action",
                    "game": "battleworld",
                    "action": "attack",
                    "args": [0, ATTACK.faces[dice.draw(ATTACK)], 2],
                    "t": n,
                }
            )
        )
        lines.append(
            json.dumps(
                {
                    "event": "action",
                    "game": "battleworld",
                    "action": "danger",
                    "args": [DANGER_COIN.faces[dice.draw(DANGER_COIN)]],
                    "t": n,
                }
            )
        )
    return lines


def test_fair_dice_are_called_fair():
    text, results = fairness_report.run(device_log(2000))
    by_die = {r["die"]: r for r in results}
    assert by_die["Battlerealm"]["dice"] == 2000 * 7
    assert by_die["Battlerealm"]["rolls"] == 2 * 2000 and by_die["Battlerealm"]["rerolls"] == 2000
    assert by_die["Attack"]["dice"] == by_die["Attack"]["rolls"] == 2000
    assert by_die["Danger Coin"]["dice"] == 2000
    for r in results:
        assert r["verdict"].startswith("fair"), r
    assert "chi-square" in text and "runs" in text


def test_a_loaded_die_is_caught():
    text, results = fairness_report.run(device_log(2000, loaded=True))
    assert results[0]["verdict"].startswith("suspicious")
    assert results[0]["counts"]["Mystic"] > results[0]["counts"]["Skill"] * 1.15


def test_junk_lines_count_nothing_and_are_named():
    lines = device_log(50) + ["not json", "[1, 2]", '{"event": "roll", "faces": ["Star"]}', ""]
    text, results = fairness_report.run(lines)
    assert (
        "(3 lines refused, none of their dice counted: line 201: not JSON; line 202: not an event (a JSON "
        "object); line 203: roll faces: not all faces of the Battlerealm die)"
    ) in text
    assert results[0]["dice"] == 50 * 7


def one_roll(**event):
    return json.dumps(dict({"event": "roll", "hero": "Hulk", "faces": ["Mutant"] * 6, "t": 1}, **event))


def reroll(dice, faces=None):
    return json.dumps({"event": "reroll", "dice": dice, "faces": faces or ["Skill"] * 6, "t": 2})


def test_a_half_bad_line_counts_nothing_of_itself():
    good = device_log(40)
    _, clean = fairness_report.run(good)
    bad = [
        one_roll(faces=["Mutant"] * 5 + ["Star"]),  # five good faces and one the die does not have
        one_roll(faces=["Mutant"] * 5),  # a roll is six dice
        one_roll(faces=["Mutant"] * 5 + [3]),
        reroll([0]),
        reroll([-1]),
        reroll([True]),
        reroll([7]),
        reroll([2, 2]),
        reroll([1.0]),
        reroll([]),
        reroll([1], faces=["Skill"] * 5 + [None]),
        json.dumps({"event": "action", "game": "battleworld", "action": "attack", "args": [0, 3, 1]}),
        json.dumps({"event": "action", "game": "battleworld", "action": "danger", "args": [True]}),
    ]
    text, results = fairness_report.run(good[:80] + bad + good[80:])
    assert [r["counts"] for r in results] == [r["counts"] for r in clean]  # not one face of the bad lines
    assert [r["rolls"] for r in results] == [r["rolls"] for r in clean]
    assert "(%d lines refused" % len(bad) in text
    assert "line 81: roll faces: not all faces of the Battlerealm die" in text
    assert "line 82: 5 faces, where a roll has 6" in text


def test_a_byte_that_is_not_utf8_refuses_only_its_line(tmp_path):
    log = tmp_path / "rolls.jsonl"
    lines = [line.encode() for line in device_log(30)]
    lines[4] = lines[4].replace(b"Hulk", b"Hul\xff")
    log.write_bytes(b"\n".join(lines) + b"\n")
    done = subprocess.run([tool("dicetower"), "stats", str(log)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "(1 line refused, none of their dice counted: line 5: not UTF-8)" in done.stdout
    assert "Battlerealm: 204 dice in 59 rolls, 30 of them re-rolls" in done.stdout  # 29 rolls and 30 re-rolls


def test_a_line_too_long_is_dropped_as_it_comes():
    stream = io.BytesIO(b"a" * 5000 + b"\n" + device_log(1)[0].encode() + b"\n" + b"b" * 3000)
    read = list(fairness_report.lines_of(stream, limit=1000))
    assert [(n, line is None) for n, line in read] == [(1, True), (2, False), (3, True)]
    tallies, refused = fairness_report.faces_from_events(read)
    assert tallies["Battlerealm"].dice == 6 and refused.count == 2


def test_a_long_log_is_streamed_in_bounded_memory():
    def peak(rolls):
        events = device_log(rolls)
        tracemalloc.start()
        fairness_report.faces_from_events(iter(events))
        size = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return size

    small, large = peak(500), peak(5000)
    assert large < small * 1.5 + 4096, (small, large)  # ten times the rolls, not ten times the memory


def test_the_report_says_dice_and_rolls():
    log = device_log(48)
    text, _ = fairness_report.run([line for line in log if '"roll"' in line])
    assert "Battlerealm: 288 dice in 48 rolls" in text.splitlines()  # six dice a roll
    text, _ = fairness_report.run(log[:4])
    assert "Battlerealm: 7 dice in 2 rolls, 1 of them a re-roll" in text.splitlines()
    assert "Attack: 1 roll" in text.splitlines()  # one die a roll: rolls are dice


def test_each_faces_count_is_labelled_as_such():
    attacks = [
        json.dumps({"event": "action", "game": "battleworld", "action": "attack", "args": [0, face, 1]})
        for face in ["2"] * 3 + ["3"] + ["Star"] * 2
    ]
    text, _ = fairness_report.run(attacks)
    assert "  dice per face: Star: 2, 2: 3, 3: 1, 4: 0, 5: 0, Blank: 0" in text.splitlines()


def test_the_histogram_labels_face_and_count_apart_with_an_axis_and_a_legend():
    _, results = fairness_report.run(device_log(300))
    (width, height), items = fairness_report.histogram_layout(results)
    assert width == 640
    for r in results:
        counts = [(face, count) for face, count in r["counts"].items()]
        faces = [i for i in items if i[1] == "face" and i[3] in r["counts"]]
        shown = [i for i in items if i[1] == "count"]
        for face, count in counts:
            under = [i for i in faces if i[3] == face]
            assert under, face
            x, y = under[0][2]
            # the count stands over its bar (in the same panel), the face under it
            above = [i for i in shown if i[2][0] == x and i[3] == str(count) and 0 < y - i[2][1] < 200]
            assert above, (face, count)
    assert sum(1 for i in items if i[:2] == ("text", "legend") and i[3].startswith("expected of fair dice")) == 3
    ticks = [i[3] for i in items if i[0] == "text" and i[1] == "tick"]
    assert ticks and all(t.isdigit() for t in ticks) and "0" in ticks
    assert sum(1 for i in items if i[1] == "axis title" and i[3] == "dice") == 3


def test_thousands_of_rolls_in_under_a_second():
    lines = device_log(3000)
    began = time.perf_counter()
    fairness_report.run(lines)
    assert time.perf_counter() - began < 1.0


def test_the_command_reads_a_log_and_draws_a_histogram(tmp_path):
    log = tmp_path / "rolls.jsonl"
    log.write_text("\n".join(device_log(300)) + "\n")
    done = subprocess.run(
        [tool("dicetower"), "stats", str(log), "--png", str(tmp_path / "h.png")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "Battlerealm: 2100 dice in 600 rolls, 300 of them re-rolls" in done.stdout
    assert "Attack: 300 rolls" in done.stdout
    with Image.open(tmp_path / "h.png") as image:
        assert image.size[0] == 640
    missing = subprocess.run([tool("dicetower"), "stats", str(tmp_path / "nope.jsonl")], capture_output=True, text=True)
    assert missing.returncode == 2 and "cannot read the log" in missing.stderr


def test_a_simulated_game_log_is_read():
    done = subprocess.run(
        [tool("dicetower"), "sim", "--script", "examples/battlerealm.sim"], capture_output=True, text=True, cwd=ROOT
    )
    events = [json.dumps(e) for e in json.loads(done.stdout)["events"]]
    tallies, refused = fairness_report.faces_from_events(events)
    assert tallies["Battlerealm"].dice >= 12 and refused.count == 0
