"""`dicetower sim --script`: headless games, pictures, bad lines, resuming from a state folder."""

import json
import os
import subprocess

from PIL import Image

from conftest import ROOT, tool


def sim(*args, stdin=None):
    return subprocess.run([tool("dicetower"), "sim", *args], input=stdin, capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def test_each_example_plays_to_its_end(tmp_path):
    endings = {"battlerealm": "Hulk reaches", "champions": "the players win", "united": "the heroes lose",
               "battleworld": "defeat Thanos"}
    for mode, words in endings.items():
        done = sim("--script", "examples/%s.sim" % mode, "--png", str(tmp_path / (mode + ".png")))
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert words in result["over"]
        assert result["game"] == mode
        assert "GAME OVER" in result["screen"]
        for path in result["pictures"]:
            with Image.open(path) as image:
                assert image.size[0] > 512
        assert result["pictures"][-1].endswith("-over.png")


def test_a_script_from_stdin_and_a_picture_at_the_end(tmp_path):
    done = sim("--script", "-", "--seed", "3", "--png", str(tmp_path / "end.png"), stdin="keys caac c\n")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["mode"] == "dice"
    assert result["pictures"] == [str(tmp_path / "end.png")]
    faces = result["events"][-1]["faces"]
    assert len(faces) == 6 and len(result["leds"]) == 12


def test_bad_lines_stop_with_their_number_and_reason():
    cases = (("keys caac\npres c\n", "line 2: unknown command 'pres'"),
             ("wait soon\n", "line 1: 'soon' is not milliseconds"),
             ("keys cax\n", "line 1: 'x' is not a key"),
             ("press c sideways\n", "line 1: press takes a button"),
             ("keys c\nseed 4\n", "line 2: seed must come before any press"),
             ("# fine\npress z\n", "line 2: this board has no button 'z'"))
    for text, words in cases:
        done = sim("--script", "-", stdin=text)
        assert done.returncode == 2, text
        assert words in done.stderr, (text, done.stderr)


def test_an_unknown_board_is_a_clear_error():
    done = sim("--script", "-", "--board", "pico9", stdin="keys c\n")
    assert done.returncode == 2
    assert "unknown board 'pico9'" in done.stderr and "pico2_w" in done.stderr


def test_quit_mid_game_and_resume_like_a_power_cut(tmp_path):
    state = str(tmp_path / "tower")
    first = json.loads(sim("--script", "-", "--seed", "1", "--state-dir", state,
                           stdin="keys caac\nkeys bbbbc c bbbb c\n").stdout)
    again = json.loads(sim("--script", "-", "--state-dir", state, stdin="wait 100\n").stdout)
    assert again["screen"][1] == "Resume battlerealm"
    resumed = json.loads(sim("--script", "-", "--state-dir", state, stdin="keys c\n").stdout)
    assert resumed["state"] == first["state"]
    assert resumed["history"] == first["history"]


def test_forced_attack_die_faces_in_battleworld():
    # The box throws the Attack Die for an Attack; set faces name its faces too.
    done = sim("--script", "-", "--faces", "Blank,Star", stdin="keys bbbc c\nkeys bbcccc aa ccc\nkeys ccc\n")
    assert done.returncode == 0, done.stderr
    history = json.loads(done.stdout)["history"]
    assert history[1].startswith("Blank + 1 vs 2 at Battle 1: miss") and history[2].startswith("Star + 1")


def test_forced_faces_for_teaching():
    done = sim("--script", "-", "--faces", "Mutant,Mutant,Mutant,Skill,Tech,Cosmic", stdin="keys caac c ac\n")
    result = json.loads(done.stdout)
    assert result["state"]["heroes"][0]["prison"] == 1
    assert "Crystal Prison" in " ".join(result["history"])
