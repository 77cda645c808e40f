"""Dice any player can check: a game's seal before its first die, every face from the seed in order, the
seed revealed, and `dicetower verify` recomputing every draw from it with CPython's hmac and hashlib
(host_tools/dicetower_host/verify.py, written from docs/fairness.md's steps, not the firmware's code).

An honest game of every kind that rolls dice verifies end to end (the examples: four players each; a
game whose box rolls no dice has nothing to seal), and so does one
cut off by a power cut and undone; a log doctored in any of the ways a cheat would try is refused,
naming the first draw or the commitment that does not hold. The VM's faces and commitment are
CPython's for the same seed.
"""

import glob
import json
import os
import subprocess

import pytest

from conftest import ROOT, run_on_vm, tool
from dicetower.core.actions import draws_dice
from dicetower_host import sim, verify

sim.use_virtual_parts()
from dicetower_host.virtual_parts.script import keystrokes, parse, play, setting  # noqa: E402

EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.sim")))


def write_log(path, lines):
    with open(path, "w") as f:
        for line in lines:
            f.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
    return str(path)


def run_verify(path):
    from dicetower_host import cli

    return cli.main(["verify", str(path)])


def events(lines):
    return [json.loads(line) for line in lines]


def press(tower, keys):
    """Presses ("c ac"), or ROLL: Battlerealm's roll, finalized, its marks and result passed."""
    if keys != ROLL:
        for button, kind in keystrokes(keys):
            tower.press(button, kind)
        return
    press(tower, "c ac")
    for _ in range(20):
        if tower.app.mode == "mark":
            press(tower, "ac")  # the heroes at the location: none marked, done
        elif tower.app.mode == "result":
            press(tower, "c")
    assert tower.app.mode == "play", tower.app.mode


ROLL = "roll"


@pytest.mark.parametrize("path", EXAMPLES, ids=[os.path.basename(p)[:-4] for p in EXAMPLES])
def test_an_example_game_is_sealed_before_its_first_die_and_verifies_at_its_end(path, tmp_path, capsys):
    with open(path) as f:
        steps = parse(f.read())
    tower = sim.boot("pico", setting(steps, "seed"), None, str(tmp_path / "flash"))
    play(tower, steps)
    said = events(tower.platform.lines)
    kinds = [e["event"] for e in said]
    assert tower.app.game.over(), "the example plays to its end"
    if not draws_dice(tower.app.game_module.MENU):
        assert "seal" not in kinds and "reveal" not in [row[1] for row in tower.app.menu]
        return  # a game whose box rolls no dice has nothing to seal (Champions, United)
    seal = said[kinds.index("seal")]
    assert "draws" not in kinds[: kinds.index("seal")], "sealed before the first die"
    assert len(seal["commitment"]) == 64
    reveal = [e for e in said if e["event"] == "reveal"][-1]  # at the game's end, by itself
    assert reveal["commitment"] == seal["commitment"]
    drawn = sum(len(verify.parse_record(e["record"])) for e in said if e["event"] == "draws")
    assert reveal["draws"] == drawn
    assert run_verify(write_log(tmp_path / "log", tower.platform.lines)) == 0
    out = capsys.readouterr().out
    assert "seal %s: %d draw" % (seal["commitment"][:8], drawn) in out
    assert "every face matches, commitment matches" in out


def reveal(tower):
    """Round the menu to "Reveal the seed" and choose it."""
    for _ in range(30):
        menu = tower.app.menu
        if menu[tower.app.cursor % len(menu)][1] == "reveal":
            break
        press(tower, "b")
    press(tower, "c")
    assert tower.app.mode == "seed"


def cut_and_undone(tmp_path, setup, before, after):
    """A game set up, dice rolled and an action undone (`before`), the power cut, the game resumed and
    rolled on (`after`), its seed revealed from the menu: the two runs' console lines, in order, and the
    draws made before the cut."""
    root = str(tmp_path / "flash")
    tower = sim.boot("pico", 11, None, root)
    press(tower, setup)
    assert tower.app.sealing.dice.players == 4  # a game of four, as its seal's identity says
    for keys in before:
        press(tower, keys)
    tower.wait(300)  # the save, written at idle
    drawn = tower.app.sealing.dice.draws()
    again = sim.boot("pico", 12, None, root)  # power back on: the tower's own noise is another now
    press(again, "c")  # Resume
    assert again.app.sealing.dice.draws() == drawn  # the same stream, at the same draw
    for keys in after:
        press(again, keys)
    reveal(again)
    return list(tower.platform.lines) + list(again.platform.lines), drawn


# Battlerealm, four heroes: Hulk rolls, ends his turn, Thor rolls; the roll is undone and rolled again
# (its faces come back, not drawn again). After the cut: Thor's turn ends, Vision rolls. Battleworld,
# four starting heroes: the Danger Coin flipped twice, the second undone, flipped again; after the cut,
# flipped twice more.
REALM = ("c c", [ROLL, "aaa c", ROLL, "A", ROLL], ["aaa c", ROLL])
WORLD = ("bbb c bbb c", ["b c", "c", "A", "c"], ["b c", "c"])


@pytest.mark.parametrize("game", [REALM, WORLD], ids=["battlerealm", "battleworld"])
def test_a_game_through_a_power_cut_and_undos_verifies_and_goes_on_from_the_same_draw(game, tmp_path, capsys):
    lines, drawn = cut_and_undone(tmp_path, *game)
    said = events(lines)
    draws = rolled(said)
    assert drawn > 0 and draws
    after = [e["first"] for e in draws if e["first"] > drawn]
    assert after and after[0] == drawn + 1  # numbered on from where the cut left it
    # The game's seal, told again as the game goes on after the cut, and the new one after the reveal.
    assert len({e["commitment"] for e in said if e["event"] == "seal"}) == 2
    resumed = [e for e in said if e["event"] == "seal"][1]
    assert resumed["drawn"] == drawn
    assert run_verify(write_log(tmp_path / "log", lines)) == 0
    assert "every face matches, commitment matches" in capsys.readouterr().out


@pytest.fixture
def honest(tmp_path):
    lines, _ = cut_and_undone(tmp_path, *REALM)
    return events(lines)


def doctored(said, change):
    said = json.loads(json.dumps(said))
    change(said)
    return said


def first(said, kind):
    return [e for e in said if e["event"] == kind][0]


def rolled(said):
    """The draws events that drew (an undo's mark, "~", draws nothing)."""
    return [e for e in said if e["event"] == "draws" and e["record"] != "~"]


def change_a_face(said):
    draws = rolled(said)[1]
    record = draws["record"]
    face = record[4]  # the third draw of the roll (after "6:")
    draws["record"] = record[:4] + str((int(face) + 1) % 6) + record[5:]


def remove_a_draw(said):
    draws = rolled(said)[1]
    draws["record"] = draws["record"][:-1]


def reorder(said):
    draws = rolled(said)
    i, j = said.index(draws[0]), said.index(draws[1])
    said[i], said[j] = said[j], said[i]


def other_seed(said):
    reveal = first(said, "reveal")
    reveal["seed"] = "%064x" % (int(reveal["seed"], 16) ^ 1)


def other_commitment(said):
    seal = first(said, "seal")
    seal["commitment"] = "%064x" % (int(seal["commitment"], 16) ^ 1)
    first(said, "reveal")["commitment"] = seal["commitment"]


@pytest.mark.parametrize(
    "change,says",
    [
        (change_a_face, "draw %d (roll 2, a 6-sided die): the seed gives face"),
        (remove_a_draw, "draw %d is missing"),
        (reorder, "draws out of order"),
        (other_seed, "the commitment does not match"),
        (other_commitment, "the commitment does not match"),
    ],
    ids=["a face changed", "a draw removed", "draws reordered", "another seed", "another commitment"],
)
def test_a_doctored_log_is_refused_naming_the_first_bad_draw(honest, change, says, tmp_path, capsys):
    assert run_verify(write_log(tmp_path / "honest", honest)) == 0
    capsys.readouterr()
    rolls = rolled(honest)
    if "%d" in says:
        # The face changed is the second roll's third draw; a draw removed leaves the next roll's first missing.
        says = says % (rolls[1]["first"] + 2 if change is change_a_face else rolls[2]["first"] - 1)
    assert run_verify(write_log(tmp_path / "doctored", doctored(honest, change))) == 1
    assert says in capsys.readouterr().out


def test_the_scoreboards_history_verifies_and_a_doctored_one_does_not(tmp_path, capsys):
    from dicetower.web import scoreboard

    tower = sim.boot("pico", 5, None, str(tmp_path / "flash"))
    press(tower, "c a a c")
    press(tower, ROLL)  # a roll, finalized
    reveal(tower)
    history = json.loads(scoreboard.history(tower.app))
    path = tmp_path / "history.json"
    path.write_text(json.dumps(history))
    assert run_verify(path) == 0
    assert "6 draws in 1 roll: every face matches" in capsys.readouterr().out
    seal = history["seals"][0]
    seal["record"] = seal["record"][:-1] + str((int(seal["record"][-1]) + 1) % 6)
    path.write_text(json.dumps(history))
    assert run_verify(path) == 1
    assert "draw 6 (roll 1, a 6-sided die)" in capsys.readouterr().out


def test_a_log_without_the_reveal_says_how_to_reveal_the_seed(honest, tmp_path, capsys):
    cut = honest[: [e["event"] for e in honest].index("reveal")]
    assert run_verify(write_log(tmp_path / "log", cut)) == 1
    assert 'the seed is not revealed yet: choose "Reveal the seed"' in capsys.readouterr().out


@pytest.mark.parametrize("what", ["not JSON", "cut short", "huge", "no seal", "binary", "nested", "odd reveal"])
def test_a_log_that_is_not_one_is_one_line_and_exit_2(what, honest, tmp_path, monkeypatch, capsys):
    path = tmp_path / "log"
    text = "".join(json.dumps(e) + "\n" for e in honest)
    if what == "not JSON":
        text = text + "this is not an event\n"
    elif what == "cut short":
        text = text[: len(text) - 20]
    elif what == "huge":
        monkeypatch.setattr(verify, "MAX_BYTES", 1000)
    elif what == "no seal":
        text = json.dumps({"event": "ready"}) + "\n"
    elif what == "nested":
        text = text + "[" * 30000 + "\n"
    elif what == "odd reveal":
        text = text + json.dumps({"event": "reveal", "commitment": [1], "seed": "zz"}) + "\n"
    path.write_bytes(b"\xff\xfe\x00" if what == "binary" else text.encode())
    assert run_verify(path) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("dicetower: ") and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err


def test_the_vm_gives_cpythons_faces_and_commitment_for_the_same_seed(tmp_path):
    script = tmp_path / "sealed_on_vm.py"
    script.write_text(
        "import sys\n"
        "sys.path.insert(0, '/fw')\n"
        "from dicetower.core.sealed import SealedDice\n"
        "from dicetower.core.dice import BATTLEREALM, DANGER_COIN, plain\n"
        "d = SealedDice(None, bytes(range(32)), 'battleworld', 4, 3)\n"
        "for n in range(40):\n"
        "    d.draw(BATTLEREALM)\n"
        "d.roll_ends()\n"
        "d.draw(DANGER_COIN); d.draw(plain(20)); d.draw(plain(100))\n"
        "print(d.commitment)\n"
        "print(d.text())\n"
    )
    done = run_on_vm(str(script))
    assert done.returncode == 0, done.stderr
    commitment, record = done.stdout.split("\n")[:2]
    from dicetower.core.dice import BATTLEREALM, DANGER_COIN, plain
    from dicetower.core.sealed import SealedDice

    here = SealedDice(None, bytes(range(32)), "battleworld", 4, 3)
    for _ in range(40):
        here.draw(BATTLEREALM)
    here.roll_ends()
    here.draw(DANGER_COIN), here.draw(plain(20)), here.draw(plain(100))
    assert (commitment, record) == (here.commitment, here.text())
    # And both are what the published steps give, independently of the firmware's code.
    assert commitment == verify.commitment(bytes(range(32)), "battleworld", 4, 3)
    stream = verify.faces(bytes(range(32)))
    next(stream)
    assert [face for _, _, sides, face in verify.parse_record(record)] == [
        stream.send(sides) for _, _, sides, _ in verify.parse_record(record)
    ]


def test_the_docs_recipe_checks_a_game_in_plain_python(honest, tmp_path):
    """docs/fairness.md's recipe, run as it is printed, on an honest game's revealed seal."""
    with open(os.path.join(ROOT, "docs", "fairness.md")) as f:
        doc = f.read()
    recipe = doc.split("<!-- recipe -->")[1].split("```python")[1].split("```")[0]
    seal, opened = first(honest, "seal"), first(honest, "reveal")
    record = " ".join(e["record"] for e in honest if e["event"] == "draws" and e["first"] <= opened["draws"])
    namespace = {}
    exec(recipe, namespace)  # noqa: S102 (the docs' own code, checked as printed)
    check = namespace["check"]
    assert check(opened["seed"], seal["game"], seal["players"], seal["counter"], record) == seal["commitment"]
    bad = record[:3] + str((int(record[3]) + 1) % 6) + record[4:]
    with pytest.raises(ValueError):
        check(opened["seed"], seal["game"], seal["players"], seal["counter"], bad)


def test_dicetower_verify_is_on_the_command_line(honest, tmp_path):
    path = write_log(tmp_path / "log", honest)
    done = subprocess.run([tool("dicetower"), "verify", path], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "every face matches, commitment matches" in done.stdout


def test_the_verifier_shares_no_code_with_the_firmware():
    """It checks the firmware only if it does not repeat it: CPython's hmac and hashlib, nothing of ours
    but the one-line error."""
    import ast

    with open(verify.__file__) as f:
        tree = ast.parse(f.read())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    assert imported == {"hashlib", "hmac", "json", "dicetower_host.errors"}, imported


def test_a_power_cut_before_the_save_draws_the_same_faces_again_and_verifies(tmp_path, capsys):
    """The dice on screen, the power cut before the roll was kept: back on, the same roll gives the same
    faces (the stream goes on from the save's draw: pulling the plug buys no other face)."""
    root = str(tmp_path / "flash")
    tower = sim.boot("pico", 11, None, root)
    press(tower, "c c")
    press(tower, ROLL)  # Hulk's roll, finalized and saved
    press(tower, "aaa c")  # End turn
    tower.wait(300)
    press(tower, "c")  # Thor rolls: the dice on screen, not yet kept
    faces = list(tower.app.roll.faces)
    again = sim.boot("pico", 12, None, root)
    press(again, "c")  # Resume
    press(again, "c")  # Thor rolls again
    assert list(again.app.roll.faces) == faces
    press(again, "ac")
    for _ in range(20):
        press(again, "ac" if again.app.mode == "mark" else "c" if again.app.mode == "result" else "")
    reveal(again)
    lines = list(tower.platform.lines) + list(again.platform.lines)
    assert run_verify(write_log(tmp_path / "log", lines)) == 0
    assert "(6 draws again after a power cut, the same faces)" in capsys.readouterr().out
    said = events(lines)
    for which, says in (
        (-1, "draw 7 (roll 2, a 6-sided die): the seed"),
        (-2, "draw 7 (roll 2, a 6-sided die, lost in"),
    ):
        doctored = json.loads(json.dumps(said))  # the roll drawn again, or the one the cut lost, changed
        roll = [e for e in doctored if e["event"] == "draws" and e["record"] != "~"][which]
        roll["record"] = roll["record"][:2] + str((int(roll["record"][2]) + 1) % 6) + roll["record"][3:]
        assert run_verify(write_log(tmp_path / "doctored", doctored)) == 1
        assert says in capsys.readouterr().out
