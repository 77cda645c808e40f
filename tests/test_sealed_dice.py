"""Dice no one at the table can throw again or choose (sealed dice, version 2: core/sealed.py, ui/sealing.py,
ui/resealing.py), checked from outside with `dicetower verify` (host_tools/dicetower_host/verify/, written
from docs/fairness.md's steps, not the firmware's code).

- Every game of dice is sealed and cut before its first die; every seal is said on the OLED (16 hex digits)
  before its first die: a new game, a resumed one, a reseal when the record is full, an undo from the game's
  end, a game begun while the noise was paused.
- A die that has landed stays landed: over random presses with undos, redos and power cuts, every throw at a
  place shows the faces that first landed there (Battlerealm: the roll as it last stood), and the log of the
  whole run verifies.
- The phones cut the seal through the scoreboard: 32 hex digits, once an address, while the cut is open.
- A seal read from flash is revealed as far as it can be, and said; the seal counter never repeats.
- A log that is not one is one line and exit 2; the docs' recipe checks a game as printed; the VM's faces
  and commitment are CPython's.
"""

import glob
import json
import os
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, run_on_vm, tool
from dicetower_host import sim, verify

sim.use_virtual_parts()
from dicetower_host.virtual_parts.script import keystrokes, parse, play, setting  # noqa: E402

EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.sim")))
PHONE = "0123456789abcdef0123456789abcdef"


def write_log(path, lines):
    with open(path, "w") as f:
        for line in lines:
            f.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
    return str(path)


def run_verify(path, *more):
    from dicetower_host import cli

    return cli.main(["verify", str(path)] + list(more))


def events(lines):
    return [json.loads(line) for line in lines]


def press(tower, keys):
    for button, kind in keystrokes(keys):
        tower.press(button, kind)


def choose(tower, label):
    """The play menu's row `label`, chosen."""
    menu = tower.app.menu
    for _ in range(len(menu)):
        if menu[tower.app.cursor % len(menu)][0] == label:
            return press(tower, "c")
        press(tower, "b")
    raise AssertionError("no %r in %r" % (label, [row[0] for row in menu]))


def reveal(tower):
    choose(tower, "Reveal the seed")
    assert tower.app.mode == "seed"


def cut(tower):
    """The seal's cut screen up, its seal said whole on the OLED's first line: Cut and play, nothing added."""
    assert tower.app.mode == "cut", tower.app.mode
    assert tower.screen()[0] == "Seal " + tower.app.sealing.dice.commitment[:16]
    press(tower, "c")


@pytest.mark.parametrize("path", EXAMPLES, ids=[os.path.basename(p)[:-4] for p in EXAMPLES])
def test_an_example_game_is_sealed_and_cut_before_its_first_die_and_verifies_at_its_end(path, tmp_path, capsys):
    with open(path) as f:
        steps = parse(f.read())
    tower = sim.boot("pico", setting(steps, "seed"), None, str(tmp_path / "flash"))
    play(tower, steps)
    said = events(tower.platform.lines)
    kinds = [e["event"] for e in said]
    assert tower.app.game.over(), "the example plays to its end"
    if not tower.app.game.dice():
        assert "seal" not in kinds and "reveal" not in [row[1] for row in tower.app.menu]
        return  # a game whose box rolls no dice has nothing to seal (Champions, United)
    seal = said[kinds.index("seal")]
    assert "draws" not in kinds[: kinds.index("cut")], "sealed and cut before the first die"
    assert len(seal["commitment"]) == 64 and seal["version"] == 2
    reveal_event = [e for e in said if e["event"] == "reveal"][-1]  # at the game's end, by itself
    assert reveal_event["commitment"] == seal["commitment"]
    assert run_verify(write_log(tmp_path / "log", tower.platform.lines)) == 0
    out = capsys.readouterr().out
    assert "seal %s: %d draw" % (seal["commitment"][:16], reveal_event["draws"]) in out
    assert "cut by nobody (an empty cut" in out  # said as what it is: the tower alone chose this seed


# -- a die that has landed stays landed -----------------------------------------------------------------

OPS = st.lists(st.sampled_from(("throw", "throw", "throw", "other", "undo", "undo", "redo", "cut")), max_size=14)


class Watch:
    """What the players saw land at each place (from the tower's events), checked as the run goes: a throw
    at a place shows what landed there before, whatever was undone, redone or cut off since."""

    def __init__(self):
        self.landed = {}  # (place, die) -> faces as they last stood
        self.seen = 0
        self.checked = 0

    def look(self, tower):
        said = events(tower.platform.lines[self.seen :])
        self.seen = len(tower.platform.lines)
        for event in said:
            kind, at = event["event"], event.get("at")
            if at is None:
                continue
            if kind == "action" and event["action"] in ("attack", "danger"):
                key, faces = (at, event["action"]), [event["args"][1 if event["action"] == "attack" else 0]]
            elif kind in ("roll", "reroll"):
                key, faces = (at, "six dice"), event["faces"]
            else:
                continue
            if kind == "roll" or kind == "action":
                before = self.landed.get(key)
                if before is not None:
                    assert faces == before, "a throw at %s showed %s; %s had landed there" % (at, faces, before)
                    self.checked += 1
            self.landed[key] = faces


def run_world(ops, root):
    tower = sim.boot("pico", 3, None, root)
    press(tower, "bbbc b c")  # New Battleworld, two starting heroes
    cut(tower)
    choose(tower, "New battle")
    press(tower, "ccc")
    return tower


def step_world(tower, op):
    if op == "throw":
        choose(tower, "Attack a battle" if len(tower.app.game.actions) % 3 else "Flip Danger Coin")
        while tower.app.mode == "args":
            press(tower, "c")
    elif op == "other":
        choose(tower, "New battle")
        while tower.app.mode == "args":
            press(tower, "c")


def run_realm(ops, root):
    tower = sim.boot("pico", 5, None, root)
    press(tower, "caac")  # New Battlerealm, two heroes
    cut(tower)
    return tower


def step_realm(tower, op):
    app = tower.app
    if op == "throw":
        if app.mode == "play":
            choose(tower, "Roll the dice")
        if app.mode == "dice":
            for die in range(6):
                if not app.roll.locked[die] and len(tower.platform.lines) % (die + 2) == 0:
                    app.cursor = die
                    press(tower, "c")
            if app.turn.picked:
                app.cursor = 6  # Re-roll picked
                press(tower, "c")
    elif op == "other":
        if app.mode == "dice":
            app.cursor = 10  # Finalize
            press(tower, "c")
            while app.mode in ("mark", "result"):
                press(tower, "ac" if app.mode == "mark" else "c")
        elif app.mode == "play":
            choose(tower, "End turn")


@settings(max_examples=min(settings().max_examples, 120), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS, realm=st.booleans())
def test_a_landed_die_stays_landed_through_undos_redos_and_power_cuts(ops, realm, tmp_path_factory):
    """Random play with undos, redos and power cuts (each cut after the tower's saves, then Resume, past the
    old seal's seed, and a new cut): every throw at a place shows what landed there first, and the log of
    the whole run, revealed at its end, verifies."""
    root = str(tmp_path_factory.mktemp("flash"))
    start, step = (run_realm, step_realm) if realm else (run_world, step_world)
    tower = start(ops, root)
    watch = Watch()
    lines = []
    for op in ops:
        if op in ("undo", "redo"):
            press(tower, "A" if op == "undo" else "B")
        elif op == "cut":
            tower.wait(300)  # the idle saves (a throw is on flash already, before it is shown)
            watch.look(tower)
            lines += list(tower.platform.lines)
            tower = sim.boot("pico", 9, None, root)  # the power back: other noise, the same flash
            watch.seen = 0
            press(tower, "c")  # Resume
            assert tower.app.mode == "seed"  # the seal read from flash, revealed
            press(tower, "c")
            cut(tower)
        else:
            step(tower, op)
        watch.look(tower)
    if tower.app.mode == "dice":
        step(tower, "other")
    if tower.app.game.seal is not None and not tower.app.game.over():
        reveal(tower)
    watch.look(tower)
    lines += list(tower.platform.lines)
    path = write_log(os.path.join(root, "log"), lines)
    assert run_verify(path) == 0, open(path).read()[-3000:]


def test_a_throw_is_on_flash_then_on_the_screen_then_told_to_the_console_in_order(tmp_path):
    """Its faces wait for its save; the console's lines wait for the screen (a line is 5 ms of a Pico's
    time that the faces need not wait for), and come in the order they were made."""
    tower = run_world([], str(tmp_path))
    tower.wait(300)
    app = tower.app
    choose(tower, "Attack a battle")
    press(tower, "c")  # the battle; the next C throws the Attack Die
    before = len(tower.platform.lines)
    passes = []  # each pass of the loop: (saving, the OLED's bytes, the console's new events)

    def look():
        passes.append((app.holding, tower.oled(), events(tower.platform.lines[before:])))

    pin = tower.pin("c")
    tower.bench.press(pin)
    tower.wait(60, look)
    tower.bench.release(pin)
    tower.wait(400, look)
    saving = [i for i, (holding, _, _) in enumerate(passes) if holding]
    assert saving, "the throw was never held for its save"
    held_screen = passes[saving[-1]][1]
    shown = next(i for i in range(saving[-1] + 1, len(passes)) if passes[i][1] != held_screen)
    told = next(i for i, (_, _, said) in enumerate(passes) if said)
    assert told > shown > saving[-1]  # saved, then shown, then told
    said = passes[-1][2]
    assert [e["event"] for e in said][:2] == ["draws", "action"] and said[1]["action"] == "attack"


class PowerCut(BaseException):
    """The power goes: nothing after it runs (not the screen, not the monitor's next line)."""


@pytest.mark.parametrize("saved", [False, True], ids=["during the throw's save", "just after it"])
def test_a_power_cut_around_a_throws_save_shows_no_face_that_is_not_on_flash(saved, tmp_path):
    """A throw is on flash before its faces are shown or told: cut before its save is whole, nobody saw
    them (the next throw there is a new one); cut after, the same faces come back once the power does."""
    root = str(tmp_path)
    tower = run_world([], root)
    tower.wait(300)
    app = tower.app
    if saved:
        app.throw_saved = lambda: (_ for _ in ()).throw(PowerCut())  # the save whole, then the power goes
    else:
        app.saves.step = lambda: (_ for _ in ()).throw(PowerCut())  # the power goes as the save starts
    with pytest.raises(PowerCut):
        choose(tower, "Attack a battle")
        press(tower, "cc")
        tower.wait(300)
    assert app.holding  # the throw's faces were held back: never on the screen, the phones or the console
    told = events(tower.platform.lines)
    assert [e for e in told if e["event"] == "draws"] == []
    assert [e for e in told if e["event"] == "action" and e["action"] == "attack"] == []
    landed = app.game.landed.get("0 Attack")
    again = sim.boot("pico", 9, None, root)
    press(again, "c c c")  # Resume; past the old seal's seed (its record as saved); cut
    revealed = [e for e in events(again.platform.lines) if e["event"] == "reveal"][0]
    if not saved:  # nothing of the throw on flash: the Attack is made now, a throw at a new place
        assert again.app.game.landed == {} and revealed["draws"] == 0
        choose(again, "Attack a battle")
        press(again, "cc")
        assert [e["record"][:4] for e in events(again.platform.lines) if e["event"] == "draws"] == ["0:0:"]
    else:  # the throw and its Attack were saved together: the game goes on with the face that landed
        assert again.app.game.actions[-1] == ["attack", 0, again.app.game.state["faces"][landed], 0]
        assert revealed["draws"] == 1 and again.app.game.landed == {"0 Attack": landed}


def test_an_attack_undone_and_made_at_another_battle_shows_the_same_face(tmp_path):
    tower = run_world([], str(tmp_path))
    choose(tower, "New battle")
    press(tower, "ccc")
    faces = []
    for battle in ("c", "bc", "c"):  # Battle 1; undone, Battle 2; undone, Battle 1 again
        choose(tower, "Attack a battle")
        press(tower, battle)
        press(tower, "c")  # no bonus
        faces.append(tower.app.game.actions[-1][2])
        press(tower, "A")
    assert faces[0] == faces[1] == faces[2]
    said = events(tower.platform.lines)
    assert [e["record"][1] for e in said if e["event"] == "draws"] == [":", "=", "="]  # drawn once, given back twice


# -- every seal said before its first die ---------------------------------------------------------------


def test_every_seal_is_said_with_16_hex_digits_before_its_first_die(tmp_path):
    root = str(tmp_path)
    tower = sim.boot("pico", 3, None, root)
    press(tower, "bbbc c")  # New Battleworld
    seals = [e for e in events(tower.platform.lines) if e["event"] == "seal"]
    assert tower.app.mode == "cut" and tower.screen()[0] == "Seal " + seals[-1]["commitment"][:16]
    press(tower, "c")
    choose(tower, "New battle")
    press(tower, "ccc")
    # Reveal the seed: the new seal said (its cut screen) after the revealed seed.
    reveal(tower)
    press(tower, "c")
    cut(tower)
    # A resumed game: the seal read from flash revealed, a new one cut.
    tower.wait(300)
    again = sim.boot("pico", 4, None, root)
    press(again, "c")
    assert again.app.mode == "seed" and "Read from flash, seal" in again.app.message
    press(again, "c")
    cut(again)
    said = [e for e in events(again.platform.lines) if e["event"] in ("seal", "reveal", "cut", "draws")]
    assert [e["event"] for e in said] == ["reveal", "seal", "cut"]
    counters = [e["counter"] for e in events(tower.platform.lines + again.platform.lines) if e["event"] == "seal"]
    assert counters == sorted(set(counters)) and len(counters) == 3  # never the same counter twice


def test_the_seal_counter_never_repeats_without_a_saved_game(tmp_path):
    root = str(tmp_path)
    for _ in range(2):
        tower = sim.boot("pico", 3, None, root)
        press(tower, "bbbc c c")  # a Battleworld game sealed and cut
        os.remove(os.path.join(root, "game.sav"))  # no saved game at the next boot
    counters = []
    for _ in range(2):
        tower = sim.boot("pico", 3, None, root)
        press(tower, "bbbc c")
        counters.append(tower.app.sealing.dice.counter)
        tower.wait(300)
        if not counters[1:]:
            os.remove(os.path.join(root, "game.sav"))
    assert counters == [3, 4]
    with open(os.path.join(root, "config.json"), "w") as f:
        f.write("{not json")  # damaged, and so its count of seals: counted on from the saved game's seal
    tower = sim.boot("pico", 3, None, root)
    press(tower, "c")  # Resume the saved game (its seal, counter 4, still cutting: revealed)
    press(tower, "c")
    assert tower.app.sealing.dice.counter == 5


def test_a_damaged_seal_in_a_save_is_revealed_as_far_as_it_goes_and_said(tmp_path):
    from dicetower.core.save_reader import decode
    from dicetower.core.savefile import encode

    root = str(tmp_path)
    tower = sim.boot("pico", 3, None, root)
    press(tower, "bbbc c c")
    choose(tower, "Flip Danger Coin")
    tower.wait(300)
    path = os.path.join(root, "game.sav")
    with open(path, "rb") as f:
        game = decode(f.read())
    game.seal["record"] = 12  # damaged
    with open(path, "wb") as f:
        f.write(encode(game))
    again = sim.boot("pico", 4, None, root)
    press(again, "c")
    assert again.app.mode == "seed"
    assert "is damaged (its record is damaged): revealed as far as it goes. Seed: " in again.app.message
    reveal_event = [e for e in events(again.platform.lines) if e["event"] == "reveal"][0]
    assert reveal_event["damaged"] == "its record is damaged" and len(reveal_event["seed"]) == 64
    press(again, "c")
    assert again.app.mode == "cut"  # sealed afresh, never silently


def test_a_game_begun_while_the_dice_are_paused_is_sealed_and_cut_when_they_are_back(tmp_path):
    tower = sim.boot("pico", 3, None, str(tmp_path))
    fair = tower.app.fair
    fair.failure = "Dice paused: noise failed its health check."
    prime = tower.device._prime
    tower.device._prime = fair.recover = lambda *now: False  # and the noise stays bad while the game begins
    press(tower, "bbbc c")
    assert tower.app.mode == "play" and tower.app.sealing.dice is None
    choose(tower, "Flip Danger Coin")
    assert "draws" not in [e["event"] for e in events(tower.platform.lines)]  # no die thrown unsealed
    del fair.recover
    tower.device._prime = prime
    fair.failure = None  # the noise back
    press(tower, "b")  # any press once they are back
    assert tower.app.mode == "cut"
    press(tower, "c")
    choose(tower, "Flip Danger Coin")
    assert [e["event"] for e in events(tower.platform.lines)].count("draws") == 1


def test_a_dice_json_attack_die_is_said_before_the_cut_and_named_in_the_verdict(tmp_path, capsys):
    """A dice.json may load the Attack Die: the players are told on the cut screen, the seal's identity
    holds its faces, and the verdict names it (it verifies: the faces are the seed's, on that die)."""
    with open(tmp_path / "dice.json", "w") as f:
        json.dump({"attack": ["Star", "5", "5", "5", "5", "Blank"]}, f)
    tower = sim.boot("pico", 3, None, str(tmp_path))
    press(tower, "bbbc c")
    assert tower.screen()[6] == "Attack Die: dice.json's"
    press(tower, "c")
    assert "The Attack Die is dice.json's: Star 5 5 5 5 Blank." in tower.app.message
    choose(tower, "New battle")
    press(tower, "ccc")
    choose(tower, "Attack a battle")
    press(tower, "cc")
    reveal(tower)
    assert run_verify(write_log(tmp_path / "log", tower.platform.lines)) == 0
    assert "the Attack die is not the game's own: Star,5,5,5,5,Blank" in capsys.readouterr().out


# -- the phones cut the seal ----------------------------------------------------------------------------


def test_phones_cut_the_seal_through_the_scoreboard_and_bad_parts_are_refused_with_a_reason(tmp_path):
    import urllib.error
    import urllib.request

    from dicetower_host.sim import web

    tower = sim.boot("pico_w", 3, None, str(tmp_path))
    with web.Served(tower) as served:

        def send(text, raw=None):
            body = raw if raw is not None else json.dumps({"cut": text}).encode()
            request = urllib.request.Request(served.url + "/cut", body, {"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    return answer.status, json.loads(answer.read())
            except urllib.error.HTTPError as e:
                return e.code, json.loads(e.read())

        assert send(PHONE)[0] == 409  # no seal waits for a cut
        served.call(lambda: press(tower, "bbbc c"))
        assert send(PHONE.upper()) == (200, {"ok": True, "cut": PHONE})
        assert send(PHONE[::-1]) == (
            409,
            {"error": "this phone has cut seal %s already" % tower.app.sealing.dice.commitment[:16]},
        )
        for bad in ("0x" + PHONE[2:], PHONE[:31], "z" * 32, 7):
            status, said = send(bad)
            assert status == 409 and "32 hex digits" in said["error"], (bad, said)
        assert send(None, raw=b"not json")[0] == 400
        served.call(lambda: press(tower, "c"))  # Cut and play
        status, said = send("f" * 32)
        assert status == 409 and "is cut already" in said["error"]  # late
    said = events(tower.platform.lines)
    cut_event = [e for e in said if e["event"] == "cut"][0]
    assert cut_event["cut"] == PHONE
    assert "cut by 1 phone: %s." % cut_event["nonce"][:8] in tower.app.message  # on the OLED


def test_a_number_entered_with_the_buttons_is_part_of_the_cut(tmp_path):
    tower = sim.boot("pico", 3, None, str(tmp_path))
    press(tower, "bbbc c")
    press(tower, "b c")  # Enter a number
    press(tower, "c c c bbbb c bbbbbbb c b c")  # 0 0 0 4 7 1
    press(tower, "c")  # Cut and play
    said = [e for e in events(tower.platform.lines) if e["event"] == "cut"][0]
    assert said["cut"] == "#471"
    assert "cut by a number" in tower.app.message


# -- verifying ------------------------------------------------------------------------------------------


def test_a_log_without_the_reveal_says_how_to_reveal_the_seed(tmp_path, capsys):
    tower = sim.boot("pico", 3, None, str(tmp_path))
    press(tower, "bbbc c c")
    choose(tower, "Flip Danger Coin")
    assert run_verify(write_log(tmp_path / "log", tower.platform.lines)) == 1
    assert 'the seed is not revealed yet: choose "Reveal the seed"' in capsys.readouterr().out


def test_draws_told_then_lost_in_a_power_cut_verify_as_such(tmp_path, capsys):
    """Saves off (a full flash), a throw told to the monitor and never saved, then a power cut: the seal read
    back reveals fewer draws than the log told, and the lost ones are still the seed's."""
    tower = sim.boot("pico", 3, None, str(tmp_path))
    press(tower, "bbbc c c")
    choose(tower, "Flip Danger Coin")
    tower.wait(300)
    tower.app.saves.save = lambda game: None  # the flash refuses from here on
    choose(tower, "Flip Danger Coin")
    again = sim.boot("pico", 4, None, str(tmp_path))
    press(again, "c c c")  # Resume; past the old seed; cut
    lines = list(tower.platform.lines) + list(again.platform.lines)
    assert run_verify(write_log(tmp_path / "log", lines)) == 0
    assert "1 draw told before a power cut and not saved (the seed's, checked)" in capsys.readouterr().out


@pytest.mark.parametrize("what", ["not JSON", "cut short", "huge", "no seal", "binary", "nested", "odd reveal"])
def test_a_log_that_is_not_one_is_one_line_and_exit_2(what, tmp_path, monkeypatch, capsys):
    tower = sim.boot("pico", 3, None, str(tmp_path))
    press(tower, "bbbc c c")
    choose(tower, "Flip Danger Coin")
    reveal(tower)
    path = tmp_path / "log"
    text = "".join(line + "\n" for line in tower.platform.lines)
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
        text = text + json.dumps({"event": "reveal", "commitment": "0" * 64, "seed": "zz"}) + "\n"
    path.write_bytes(b"\xff\xfe\x00" if what == "binary" else text.encode())
    assert run_verify(path) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("dicetower: ") and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err


def test_the_vm_gives_cpythons_and_the_verifiers_faces_and_commitment(tmp_path):
    script = tmp_path / "sealed_on_vm.py"
    body = (
        "from dicetower.core.sealed import SealedDice\n"
        "from dicetower.ui.resealing import add, dice_text\n"
        "from dicetower.core.dice import ATTACK, DANGER_COIN, plain\n"
        "d = SealedDice(None, bytes(range(32)), 'battleworld', 4, 3, dice_text([ATTACK, DANGER_COIN, plain(20)]))\n"
        "add(d, '#4711')\n"
        "d.close()\n"
        "for at in range(40):\n"
        "    d.throw(at, 255, at % 3)\n"
        "    d.draw([ATTACK, DANGER_COIN, plain(20)][at % 3])\n"
        "print(d.commitment)\n"
        "print(d.text())\n"
    )
    script.write_text("import sys\nsys.path.insert(0, '/fw')\n" + body)
    done = run_on_vm(str(script))
    assert done.returncode == 0, done.stderr
    commitment, record = done.stdout.split("\n")[:2]
    here = {}
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(body, here)  # noqa: S102 (the same lines on CPython)
    assert out.getvalue().split("\n")[:2] == [commitment, record]
    # And both are what the published steps give, independently of the firmware's code.
    dice = "Attack=Star,2,3,4,5,Blank;Danger Coin=Energy,Moon;d20=%s" % ",".join(str(n) for n in range(1, 21))
    assert commitment == verify.commitment(bytes(range(32)), "battleworld", 4, 3, dice)
    import hashlib

    stream = verify.Stream(bytes(range(32)), hashlib.sha256(b"#4711").digest())
    for token in record.split():
        die, faces = int(token.split(":")[1]), token.split(":")[2]
        assert int(faces) == stream.face((6, 2, 20)[die]), token


def test_the_docs_recipe_checks_a_game_in_plain_python(tmp_path):
    """docs/fairness.md's recipe, run as it is printed, on an honest game's revealed seal."""
    with open(os.path.join(ROOT, "docs", "fairness.md")) as f:
        doc = f.read()
    recipe = doc.split("<!-- recipe -->")[1].split("```python")[1].split("```")[0]
    tower = sim.boot("pico", 5, None, str(tmp_path))
    press(tower, "caac c")  # Battlerealm: two heroes; cut
    choose(tower, "Roll the dice")
    tower.app.cursor = 10
    press(tower, "c")
    while tower.app.mode in ("mark", "result"):
        press(tower, "ac" if tower.app.mode == "mark" else "c")
    press(tower, "A")
    choose(tower, "Roll the dice")  # given back
    tower.app.cursor = 10
    press(tower, "c")
    while tower.app.mode in ("mark", "result"):
        press(tower, "ac" if tower.app.mode == "mark" else "c")
    reveal(tower)
    said = events(tower.platform.lines)
    seal, opened, cut_event = (next(e for e in said if e["event"] == k) for k in ("seal", "reveal", "cut"))
    record = " ".join(e["record"] for e in said if e["event"] == "draws")
    assert "=" in record
    namespace = {}
    exec(recipe, namespace)  # noqa: S102 (the docs' own code, checked as printed)
    check = namespace["check"]
    cut_list = cut_event["cut"].split()
    made = check(opened["seed"], seal["game"], seal["players"], seal["counter"], seal["dice"], cut_list, record)
    assert made == seal["commitment"]
    first = record.split()[0]
    bad = first[:-1] + str((int(first[-1]) + 1) % 6) + record[len(first) :]
    with pytest.raises(ValueError):
        check(opened["seed"], seal["game"], seal["players"], seal["counter"], seal["dice"], cut_list, bad)


def test_dicetower_verify_is_on_the_command_line(tmp_path):
    tower = sim.boot("pico", 3, None, str(tmp_path))
    press(tower, "bbbc c c")
    choose(tower, "Flip Danger Coin")
    reveal(tower)
    path = write_log(tmp_path / "log", tower.platform.lines)
    done = subprocess.run([tool("dicetower"), "verify", path], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "every face matches, commitment matches" in done.stdout


def test_the_verifier_shares_no_code_with_the_firmware():
    """It checks the firmware only if it does not repeat it: CPython's hmac and hashlib, nothing of ours
    but the one-line error."""
    import ast

    folder = os.path.dirname(verify.__file__)  # the package: each of its modules
    imported = set()
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".py")):
        with open(os.path.join(folder, name)) as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                imported.add(node.module)
    imported = {m for m in imported if not m.startswith("dicetower_host.verify.")}  # its own modules
    assert imported == {"hashlib", "hmac", "json", "re", "dicetower_host.errors"}, imported
