"""`dicetower sim --script`: headless games, pictures, bad lines, resuming from a state folder."""

import hashlib
import json
import os
import subprocess

from PIL import Image

from conftest import ROOT, tool


def sim(*args, stdin=None, timeout=300):
    return subprocess.run(
        [tool("dicetower"), "sim", *args],
        input=stdin,
        capture_output=True,
        text=not isinstance(stdin, bytes),
        timeout=timeout,
        cwd=ROOT,
    )


def one_line(done):
    """A refusal as the user sees it: status 2 and one line on stderr, no traceback."""
    err = done.stderr if isinstance(done.stderr, str) else done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_each_example_plays_to_its_end(tmp_path):
    endings = {
        "battlerealm": "Hulk reaches",
        "champions": "the players win",
        "united": "the heroes lose",
        "battleworld": "defeat Thanos",
    }
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
        assert result["pictures"][-1] == str(tmp_path / (mode + ".png"))  # the end, where --png says
        assert str(tmp_path / (mode + "-over.png")) in result["pictures"]  # every example marks its end


def test_a_script_from_stdin_and_a_picture_at_the_end(tmp_path):
    # New Battlerealm, two heroes, start; cut and play; Hulk rolls.
    done = sim("--script", "-", "--seed", "3", "--png", str(tmp_path / "end.png"), stdin="keys caac c c\n")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["mode"] == "dice"
    assert result["pictures"] == [str(tmp_path / "end.png")]
    faces = [e for e in result["events"] if e["event"] == "roll"][-1]["faces"]
    assert len(faces) == 6 and len(result["leds"]) == 12
    # The roll's six draws, numbered, from the game's seal: told as they land, before the roll.
    seal, draws, roll = [e for e in result["events"] if e["event"] in ("seal", "draws", "roll")]
    assert (draws, roll) == tuple(result["events"][-2:])
    named = seal["dice"].split("=")[1].split(",")  # the die's faces, in the order the record numbers them
    assert draws["first"] == 1
    assert draws["record"] == "%s:0:%s" % (roll["at"], "".join(str(named.index(f)) for f in faces))


def test_bad_lines_stop_with_their_number_and_reason():
    cases = (
        ("keys caac\npres c\n", "line 2: unknown command 'pres'"),
        ("wait soon\n", "line 1: 'soon' is not milliseconds"),
        ("keys cax\n", "line 1: 'x' is not a key"),
        ("press c sideways\n", "line 1: press takes a button"),
        ("keys c\nseed 4\n", "line 2: seed must come before any press"),
        ("# fine\npress z\n", "line 2: this board has no button 'z'"),
        ("seed 4\nseed 5\nkeys c\n", "line 2: seed is set already, on line 1"),
        ("board pico\nboard pico_w\n", "line 2: board is set already, on line 1"),
    )
    for text, words in cases:
        done = sim("--script", "-", stdin=text)
        assert done.returncode == 2, text
        assert words in done.stderr, (text, done.stderr)


def test_a_huge_bad_line_is_not_echoed_whole():
    """A 10 MB line of nonsense: one line of error, with the start of the word and its length."""
    done = sim("--script", "-", stdin="x" * 10**7 + "\n")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and len(done.stderr) < 300, len(done.stderr)
    assert "line 1: unknown command '%s'... (10000000 characters)" % ("x" * 40) in done.stderr


def test_an_unknown_board_is_a_clear_error():
    done = sim("--script", "-", "--board", "pico9", stdin="keys c\n")
    assert done.returncode == 2
    assert "unknown board 'pico9'" in done.stderr and "pico2_w" in done.stderr


def test_quit_mid_game_and_resume_like_a_power_cut(tmp_path):
    state = str(tmp_path / "tower")
    first = json.loads(
        sim("--script", "-", "--seed", "1", "--state-dir", state, stdin="keys caac c\nkeys bbbbc c bbbb c\n").stdout
    )  # New Battlerealm, two heroes, start, cut; Gain PVP: Thor, 5
    assert first["history"] == ["Thor +5 PVP."]
    again = json.loads(sim("--script", "-", "--state-dir", state, stdin="wait 100\n").stdout)
    assert again["screen"][1] == "Resume Battlerealm"
    # Resume: the game's seal read from flash is revealed (C goes on), and a new seal cut (C).
    resumed = json.loads(sim("--script", "-", "--state-dir", state, stdin="keys c c c\n").stdout)
    assert resumed["mode"] == "play"
    assert resumed["state"] == first["state"]
    assert resumed["history"] == first["history"]


def test_forced_attack_die_faces_in_battleworld():
    # The box throws the Attack Die for an Attack; set faces name its faces too.
    done = sim("--script", "-", "--faces", "Blank,Star", stdin="keys bbbc c\nkeys bbcccc aa ccc\nkeys ccc\n")
    assert done.returncode == 0, done.stderr
    history = json.loads(done.stdout)["history"]
    # The Attack Bonus picker starts at 0, the bonus most attacks have: C at once adds nothing.
    assert history[1].startswith("Blank + 0 vs 2 at Battle 1: miss") and history[2].startswith("Star + 0")
    done = sim("--script", "-", "--faces", "Blank", stdin="keys bbbc c\nkeys bbcccc aa cc b c\n")
    assert json.loads(done.stdout)["history"][1].startswith("Blank + 1 vs 2 at Battle 1: miss")  # B: +1


def test_forced_faces_for_teaching():
    done = sim("--script", "-", "--faces", "Mutant,Mutant,Mutant,Skill,Tech,Cosmic", stdin="keys caac c ac\n")
    result = json.loads(done.stdout)
    assert result["state"]["heroes"][0]["prison"] == 1
    assert "Crystal Prison" in " ".join(result["history"])


def test_png_writes_the_path_given_and_lists_the_marks_on_one_stderr_line(tmp_path):
    """--png /tmp/x.png writes /tmp/x.png (the tower at the end); each `mark` is x-MARK.png beside it."""
    given = tmp_path / "x.png"
    done = sim("--script", "examples/battlerealm.sim", "--png", str(given))
    assert done.returncode == 0, done.stderr
    marks = [tmp_path / ("x-%s.png" % mark) for mark in ("start", "roll", "over")]  # the example's marks
    for path in [given] + marks:
        with Image.open(path) as image:
            assert image.format == "PNG"
    wrote = [line for line in done.stderr.splitlines() if "wrote" in line]
    assert len(wrote) == 1 and wrote[0].startswith("dicetower sim: wrote %s (the end)" % given), done.stderr
    assert all(str(path) in wrote[0] for path in marks)
    # The end and the last mark are the same moment of this game: the same picture.
    assert given.read_bytes() == marks[-1].read_bytes()
    # A name without .png is still a PNG, at the name given.
    plain = tmp_path / "tower"
    done = sim("--script", "-", "--png", str(plain), stdin="keys c\n")
    assert done.returncode == 0, done.stderr
    with Image.open(plain) as image:
        assert image.format == "PNG"


def test_png_without_a_script_refuses_in_one_line(tmp_path):
    done = sim("--png", str(tmp_path / "x.png"), timeout=60)  # it used to open the interactive sim
    assert "--png pictures a scripted run: give --script too" in one_line(done)
    assert list(tmp_path.iterdir()) == []


def test_ordinary_mistakes_are_one_line_each(tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder\n")
    # As root every folder is writable: /sys is one even root cannot write into.
    if os.geteuid() == 0:
        unwritable = "/sys"
    else:
        unwritable = tmp_path / "locked"
        unwritable.mkdir()
        unwritable.chmod(0o500)
    bad_profile = tmp_path / "bad-profile"
    (bad_profile / "boards").mkdir(parents=True)
    (bad_profile / "boards" / "pico.json").write_text('{"name": "Pico", "machine": 7}')
    deep_profile = tmp_path / "deep-profile"
    (deep_profile / "boards").mkdir(parents=True)
    (deep_profile / "boards" / "pico2.json").write_text("[" * 100000)
    script = ("--script", "-")
    cases = (
        (script + ("--png", str(tmp_path / "no-such-folder" / "x.png")), "there is no folder"),
        (script + ("--png", str(tmp_path)), "is a folder; give a file name"),
        (script + ("--state-dir", str(a_file)), "is a file, not a folder"),
        (("--state-dir", str(a_file)), "is a file, not a folder"),  # interactive: refused before the UI starts
        (script + ("--state-dir", str(unwritable)), "cannot keep the device's files there"),
        (script + ("--state-dir", str(bad_profile)), "pico.json: machine must be text, not 7; fix it, or delete it"),
        (script + ("--state-dir", str(deep_profile)), "pico2.json: nested too deeply to read; fix it or delete it"),
        (("--speed", "0"), "--speed must be above 0 and at most 100"),
        (("--speed", "-1"), "--speed must be above 0"),  # it used to hang
        (("--speed", "nan"), "--speed must be above 0"),
        (("--script", str(tmp_path / "missing.sim")), "cannot read the script"),
        (("--board", "../boards/pico"), "unknown board '../boards/pico'"),
    )
    for args, words in cases:
        done = sim(*args, stdin="keys c\n", timeout=60)
        assert words in one_line(done), (args, done.stderr)
    not_utf8 = tmp_path / "latin1.sim"
    not_utf8.write_bytes(b"# caf\xe9\nkeys c\n")
    assert "it is not UTF-8 text" in one_line(sim("--script", str(not_utf8), timeout=60))
    done = sim("--script", "-", stdin="board ../boards/pico\nkeys c\n", timeout=60)
    assert "line 1: board takes a profile's name" in one_line(done)


def test_an_unreadable_config_is_kept_aside_under_the_name_it_gives(tmp_path):
    state = tmp_path / "tower"
    state.mkdir()
    contents = (b'{"brightness": 50,}', b"[1, 2]", b"[" * 100000, b"\xff\xfe{}")
    for n, content in enumerate(contents, 1):
        (state / "config.json").write_bytes(content)
        done = sim("--script", "-", "--state-dir", str(state), stdin="wait 10\n", timeout=60)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        aside = state / ("config.json.bad%d" % n)  # never one kept before: each is found again
        assert "it is kept as %s" % aside.name in done.stderr, done.stderr
        assert aside.read_bytes() == content
        assert json.loads((state / "config.json").read_text()) == {"board": "pico"}
        assert json.loads(done.stdout)["mode"] == "start"  # the tower came up


def test_a_profile_the_maker_edited_is_kept_and_a_stale_one_the_sim_wrote_is_replaced(tmp_path):
    state = tmp_path / "tower"
    first = sim("--script", "-", "--state-dir", str(state), stdin="wait 10\n", timeout=60)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    profile = state / "boards" / "pico.json"
    edited = json.loads(profile.read_text())
    edited["leds"]["count"] = 16  # a bigger ring
    profile.write_text(json.dumps(edited))
    # pico2.json as an older simulator wrote it (its record says so): not the maker's, so it is updated.
    stale = state / "boards" / "pico2.json"
    stale.write_text('{"name": "an older shipped profile"}')
    record = json.loads((state / ".sim-profiles.json").read_text())
    record["pico2.json"] = hashlib.sha256(stale.read_bytes()).hexdigest()
    (state / ".sim-profiles.json").write_text(json.dumps(record))
    (state / "boards" / "pico_w.json").unlink()  # a missing one is written again

    again = sim("--script", "-", "--state-dir", str(state), stdin="wait 10\n", timeout=60)
    assert again.returncode == 0, again.stderr
    assert json.loads(profile.read_text()) == edited
    assert len(json.loads(again.stdout)["leds"]) == 16  # the sim wired the maker's ring
    assert again.stderr.count("\n") == 1 and "kept the profile you edited" in again.stderr
    assert again.stderr.rstrip().endswith(": pico.json (delete one to get the shipped one back)"), again.stderr
    shipped = os.path.join(ROOT, "boards")
    for name in ("pico2.json", "pico_w.json"):
        with open(os.path.join(shipped, name), "rb") as f:
            assert (state / "boards" / name).read_bytes() == f.read(), name


def test_a_heroes_file_of_the_wrong_shape_is_told_on_the_tower_not_a_traceback(tmp_path):
    state = tmp_path / "tower"
    state.mkdir()
    (state / "heroes.json").write_text('{"heroes": 5}')
    done = sim("--script", "-", "--state-dir", str(state), stdin="wait 10\n", timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "heroes.json" in " ".join(json.loads(done.stdout)["screen"])


def test_a_heroes_file_nested_deeply_is_told_on_the_tower_not_a_traceback(tmp_path):
    state = tmp_path / "tower"
    state.mkdir()
    (state / "heroes.json").write_text("[" * 100000)
    done = sim("--script", "-", "--state-dir", str(state), stdin="wait 10\n", timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "heroes.json" in " ".join(json.loads(done.stdout)["screen"])


def test_the_battleworld_set_up_says_its_range_of_starting_heroes():
    done = sim("--script", "-", stdin="keys bbbc\n")
    screen = json.loads(done.stdout)["screen"]
    assert "Starting heroes (1-5):" in screen, screen
