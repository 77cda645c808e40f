"""The `dicetower` command a player types, driven through its real entry point."""

import subprocess

from conftest import tool


def dicetower(*args, stdin=""):
    return subprocess.run([tool("dicetower"), *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_roll_reroll_finalize_with_set_faces():
    done = dicetower("roll", "--faces", "Mutant,Skill,Skill,Tech,Cosmic,Mystic,Mutant,Mutant",
                     stdin="r 2 3\nf\nq\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "1 Mutant    locked" in out
    assert "re-rolls left: 1" in out
    assert "Crystal Prison! 3 Mutant" in out
    assert "+1 PVP (1 Mystic)." in out


def test_refusals_are_explained_and_the_turn_goes_on():
    done = dicetower("roll", "--faces", "Mutant,Skill,Skill,Tech,Cosmic,Mystic,Tech",
                     stdin="r 1\nr 7\nl 2\nzap\nr 2\nf\n")
    assert done.returncode == 0
    assert "Refused: Die 1 is locked (Mutant) for the rest of the turn." in done.stdout
    assert "Refused: There is no die 7; dice are numbered 1 to 6." in done.stdout
    assert "Refused: Only a Lucky hero" in done.stdout
    assert "Refused: Unknown command 'zap'" in done.stdout
    assert "Tech 2: up to 2 damage" in done.stdout


def test_lucky_hero_in_prison_escapes():
    done = dicetower("roll", "--in-prison", "--ability", "Lucky",
                     "--faces", "Cosmic,Cosmic,Skill,Tech,Mystic,Mutant,Cosmic", stdin="l 3\nf\n")
    assert "Escape! Three Cosmic free you from the Crystal Prison" in done.stdout


def test_seeded_rolls_replay():
    first = dicetower("roll", "--seed", "42", stdin="r all\nf\nn\nf\n")
    again = dicetower("roll", "--seed", "42", stdin="r all\nf\nn\nf\n")
    assert first.stdout == again.stdout
    assert first.stdout.count("Dice (finalized)") == 2


def test_os_entropy_rolls():
    done = dicetower("roll", stdin="f\n")
    assert "host os.urandom" in done.stdout
    assert "Dice (finalized)" in done.stdout


def test_running_out_of_set_faces_is_reported():
    done = dicetower("roll", "--faces", "Skill,Skill", stdin="")
    assert done.returncode == 1
    assert "scripted faces ran out" in done.stdout


def test_throw_attack_die_against_a_target():
    done = dicetower("throw", "attack", "3", "--faces", "Star,Blank,5", "--bonus", "4", "--target", "8")
    assert done.stdout.splitlines() == ["Star Blank 5", "Star + 4 vs 8: hit", "Blank + 4 vs 8: miss",
                                        "5 + 4 vs 8: hit"]


def test_throw_coin_and_plain_dice():
    coin = dicetower("throw", "coin", "5", "--seed", "3")
    assert set(coin.stdout.split()) <= {"Energy", "Moon"} and len(coin.stdout.split()) == 5
    d20 = dicetower("throw", "d20", "10", "--seed", "3")
    assert all(1 <= int(f) <= 20 for f in d20.stdout.split())


def test_unknown_die_is_a_clear_error():
    done = dicetower("throw", "d1")
    assert done.returncode == 2
    assert "plain die has 2 to 100 sides" in done.stderr
    done = dicetower("throw", "banana")
    assert "unknown die 'banana'" in done.stderr
