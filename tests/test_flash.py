"""`dicetower flash`, end to end on the virtual Pico (the real MicroPython VM behind mpremote's transport).

Flash -> the firmware boots on the VM -> buttons pressed -> `dicetower monitor --save` receives the
roll -> `dicetower stats` reads it. Then one changed file is the only one copied; a damaged file is
reported at boot and a second flash repairs it; an interrupted copy says "reflash needed" until a
rerun completes it; the player's files survive every flash.
"""

import hashlib
import io
import json
import os
import shutil
import socket
import threading
import time

import re

import pytest

from conftest import ROOT
from dicetower_host import cli, flash
from dicetower_host.pico import VirtualPico
from quick_taps import HEROES, twenty_taps_after_a_roll


RADIO = ("dicetower/hw/wifi.", "dicetower/ui/qr.", "dicetower/web/")  # what only a board with Wi-Fi runs


def shipped():
    """Files a flash puts on a Pico: main.py, a .mpy per module (not CircuitPython's backend, nor the code
    a board without Wi-Fi never runs), the profile."""
    package = os.path.join(ROOT, "firmware")
    modules = 0
    for folder, _, names in os.walk(os.path.join(package, "dicetower")):
        for name in names:
            rel = os.path.relpath(os.path.join(folder, name), package).replace(os.sep, "/")
            if name.endswith(".py") and name != "circuitpy.py" and not rel.startswith(RADIO):
                modules += 1
    return modules + 2


SHIPPED = shipped()


def tally(out):
    """(copied, removed, up to date) from flash's summary line, read as whole numbers."""
    found = re.search(r"^(\d+) copied \(\d+ B\), (\d+) removed, (\d+) up to date$", out, re.M)
    assert found, out
    return tuple(int(n) for n in found.groups())


def run_cli(*args):
    out = io.StringIO()
    parser = cli.build_parser()
    parsed = parser.parse_args(list(args))
    code = parsed.run(parsed, out=out)
    return code, out.getvalue()


def reboot(pico, seconds=60):
    """Soft-reset the board as a player's power cycle would, and return the first event it prints (`seconds`: a
    bound for a loaded machine, not a wait: it returns as soon as the event comes)."""
    with socket.create_connection(("127.0.0.1", pico.port), timeout=seconds) as conn:
        conn.sendall(b"\r\x03\x02")
        seen = b""
        deadline = time.time() + seconds
        while b">>> " not in seen and time.time() < deadline:  # the friendly REPL's prompt: main.py stopped
            seen += conn.recv(4096)
        conn.sendall(b"\x04")
        seen = b""
        while time.time() < deadline:
            seen += conn.recv(4096)
            for line in seen.split(b"\n"):
                line = line.strip()
                if line.startswith(b"{") and line.endswith(b"}"):
                    event = json.loads(line)
                    if event.get("event") in ("ready", "error"):
                        return event
    raise AssertionError("no ready or error line after the reset: %r" % seen[-500:])


def on_flash(pico, path):
    with open(os.path.join(pico.files, path), "rb") as f:
        return f.read()


def write_on_device(pico, path, data):
    """Change a file as the board's own code would (the flash folder mirrors the VM)."""
    from mpremote.transport_serial import SerialTransport

    transport = SerialTransport(pico.url)
    try:
        transport.enter_raw_repl(soft_reset=True)
        transport.fs_writefile(path, data)
    finally:
        transport.close()


@pytest.fixture
def pico(tmp_path):
    with VirtualPico(str(tmp_path / "flash")) as board:
        yield board


@pytest.mark.slow
def test_flash_boot_play_monitor_stats_reflash_repair(pico, tmp_path, monkeypatch):
    # 1. A fresh board: everything is copied, the manifest is written, the firmware says it is ready.
    code, out = run_cli("flash", "--port", pico.url, "--board", "pico")
    assert code == 0
    assert tally(out) == (SHIPPED, 0, 0)
    assert "dicetower 0.1.0 ready on Raspberry Pi Pico" in out
    manifest = json.loads(on_flash(pico, flash.MANIFEST))
    assert manifest["complete"] is True and manifest["board"] == "pico"
    for path, digest in list(manifest["files"].items()) + list(manifest["data"].items()):
        assert hashlib.sha256(on_flash(pico, path)).hexdigest() == digest, path
    assert "main.py" in manifest["files"] and list(manifest["data"]) == ["boards/pico.json"]
    assert on_flash(pico, "dicetower/ui/flow.mpy").startswith(b"M\x06")  # compiled, not source
    assert not os.path.exists(os.path.join(pico.files, "dicetower", "ui", "flow.py"))
    assert json.loads(on_flash(pico, "config.json")) == {"board": "pico"}
    assert pico.screen()[0] == "DICETOWER"

    # 2. Play: a new Battlerealm game and a roll, followed by dicetower monitor --save.
    log = tmp_path / "events.jsonl"
    connected = threading.Event()

    class Watching(io.StringIO):
        def write(self, text):
            if text.startswith("-- connected"):
                connected.set()
            return io.StringIO.write(self, text)

    parsed = cli.build_parser().parse_args(["monitor", "--port", pico.url, "--save", str(log), "--count", "3",
                                            "--seconds", "40"])
    watcher = threading.Thread(target=parsed.run, args=(parsed,), kwargs={"out": Watching()})
    watcher.start()
    assert connected.wait(30)  # the monitor has the port before the first press
    pico.presses("caac")  # New Battlerealm, two heroes, start
    pico.presses("c")  # Hulk rolls
    pico.presses("ac")  # to Finalize, finalize
    if any(line.startswith("Explosion") for line in pico.screen()):
        pico.presses("ac")  # the dice exploded: Thor is not marked (Done), and the roll is recorded
    watcher.join(60)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    rolls = [e for e in events if e["event"] == "roll"]
    assert [e["event"] for e in events] == ["game", "roll", "action"]
    assert rolls[0]["hero"] == "Hulk" and len(rolls[0]["faces"]) == 6
    # The ring is lit: the rolled dice, or the score gauge once the result is up (which of the two
    # depends on the dice and on the moment; tests/test_rp2040.py compares every LED with the sim).
    assert any(any(rgb) for rgb in pico.leds())
    code, report = run_cli("stats", str(log))
    assert "Battlerealm: 6 dice in 1 roll" in report
    for face in set(rolls[0]["faces"]):
        assert "%s: %d" % (face, rolls[0]["faces"].count(face)) in report

    # 3. One firmware file changes: only it is copied, and the saved game is still there.
    assert os.path.exists(os.path.join(pico.files, "game.sav"))
    saved = on_flash(pico, "game.sav")
    changed = tmp_path / "firmware"
    shutil.copytree(os.path.join(ROOT, "firmware"), changed, ignore=shutil.ignore_patterns("__pycache__"))
    screens = changed / "dicetower" / "ui" / "screens.py"
    screens.write_text(screens.read_text() + "\n# a comment changes nothing; a new line number does\nCHANGED = 1\n")
    monkeypatch.setattr(flash, "FIRMWARE", str(changed))
    code, out = run_cli("flash", "--port", pico.url)  # the board is remembered from config.json
    assert tally(out) == (1, 0, SHIPPED - 1)
    assert b"CHANGED" in on_flash(pico, "dicetower/ui/screens.mpy")
    assert on_flash(pico, "game.sav") == saved

    # 4. A damaged file: the board says so at boot instead of running it, and a flash repairs it.
    broken = bytearray(on_flash(pico, "dicetower/ui/flow.mpy"))
    broken[len(broken) // 2] ^= 0xFF
    write_on_device(pico, "dicetower/ui/flow.mpy", bytes(broken))
    event = reboot(pico)
    assert event["event"] == "error"
    assert event["error"] == ("Reflash needed: 1 file damaged: dicetower/ui/flow.mpy. Run dicetower flash again.")
    screen = pico.screen()
    assert screen[0] == "REFLASH NEEDED" and "dicetower/ui/flow.mpy." in " ".join(screen)
    code, out = run_cli("flash", "--port", pico.url)
    assert tally(out)[0] == 1 and "ready" in out
    assert reboot(pico)["event"] == "ready"
    assert on_flash(pico, "game.sav") == saved


@pytest.mark.slow
def test_twenty_quick_taps_while_the_advisor_and_the_animation_run(pico):
    """On the MicroPython VM; tests/quick_taps.py says what is pressed and why."""
    code, out = run_cli("flash", "--port", pico.url, "--board", "pico")
    assert code == 0, out
    write_on_device(pico, "heroes.json", HEROES)
    assert reboot(pico)["event"] == "ready"
    assert pico.until_screen("DICETOWER") is not None
    pico.presses("caac")  # a new Battlerealm game for two
    twenty_taps_after_a_roll(pico, pico.pause)


@pytest.mark.slow
def test_an_interrupted_copy_is_refused_at_boot_and_completed_by_a_rerun(pico):
    def pull_the_cable(path, done, total):
        if path == "dicetower/ui/leds.mpy":  # the display's modules are in; the game's screens are not
            raise KeyboardInterrupt

    with pytest.raises(flash.FlashError) as refused:
        flash.flash(pico.url, "pico", out=io.StringIO(), progress=pull_the_cable)
    assert "interrupted" in str(refused.value) and "reflash needed" in str(refused.value)
    event = reboot(pico)
    assert event == {"event": "error", "error": "Reflash needed: the last flash did not finish. "
                                                 "Run dicetower flash again."}
    assert pico.screen()[0] == "REFLASH NEEDED"
    out = io.StringIO()
    sent = flash.flash(pico.url, "pico", out=out)
    assert 0 < sent["files"] < SHIPPED  # what was copied before the cut is not sent again
    assert sent["ready"]["event"] == "ready"


@pytest.mark.slow
def test_the_players_files_are_kept_and_stale_firmware_removed(pico):
    os.makedirs(os.path.join(pico.files, "dicetower"))
    mine = {"heroes.json": b'{"heroes": [{"name": "Storm"}, {"name": "Rogue"}]}', "notes.txt": b"my notes",
            "config.json": b'{"brightness": 40, "sounds": false}', "dicetower/old_screens.py": b"X = 1\n",
            "dicetower/device.py": b"raise ImportError('an old source copy would shadow device.mpy')\n"}
    for path, data in mine.items():
        with open(os.path.join(pico.files, path), "wb") as f:
            f.write(data)
    code, out = run_cli("flash", "--port", pico.url, "--board", "pico")
    assert "ready" in out
    assert tally(out) == (SHIPPED, 2, 0)
    for path in ("heroes.json", "notes.txt"):
        assert on_flash(pico, path) == mine[path]
    assert json.loads(on_flash(pico, "config.json")) == {"brightness": 40, "sounds": False, "board": "pico"}
    for path in ("dicetower/old_screens.py", "dicetower/device.py"):
        assert not os.path.exists(os.path.join(pico.files, path))
    # A maker's edit of the profile on the board is data, not damaged code: the board still boots.
    profile = json.loads(on_flash(pico, "boards/pico.json"))
    profile["leds"]["count"] = 16
    write_on_device(pico, "boards/pico.json", json.dumps(profile).encode())
    assert reboot(pico)["event"] == "ready"
    # ... and the next flash keeps it, and says so; a config.json that is not UTF-8 is kept byte for byte.
    latin1 = b'{"brightness": 40, "name": "Caf\xe9"}'
    write_on_device(pico, "config.json", latin1)
    code, out = run_cli("flash", "--port", pico.url, "--board", "pico")  # the board it named is unreadable
    assert json.loads(on_flash(pico, "boards/pico.json"))["leds"]["count"] == 16
    assert on_flash(pico, "config.json.bad") == latin1
    assert json.loads(on_flash(pico, "config.json")) == {"board": "pico"}
    assert "ready" in out


def test_dry_run_writes_nothing(pico):
    code, out = run_cli("flash", "--port", pico.url, "--board", "pico", "--dry-run")
    assert code == 0
    assert "copy   dicetower/device.mpy" in out and "%d to copy" % SHIPPED in out and "dry run" in out
    assert os.listdir(pico.files) == []


@pytest.mark.slow
def test_a_dry_run_leaves_the_game_running(pico):
    run_cli("flash", "--port", pico.url, "--board", "pico")
    before = {path: on_flash(pico, path) for path in ("main.py", "dicetower/device.mpy", flash.MANIFEST)}
    code, out = run_cli("flash", "--port", pico.url, "--dry-run", "--board", "pico_w")
    assert "keep" not in out and "copy   boards/pico_w.json" in out and "remove boards/pico.json" in out
    assert {path: on_flash(pico, path) for path in before} == before
    # The soft reset gives the board back to main.py (a minute at most: a loaded machine's VM boots slowly).
    assert pico.until_screen("DICETOWER", checks=1200) is not None, pico.screen()
    pico.presses("c")  # the buttons answer: New Battlerealm
    assert pico.screen()[0] == "New Battlerealm"


def test_stats_on_a_board_without_the_firmware_says_so(pico):
    code = None
    with pytest.raises(ValueError, match="could not roll .*ImportError.*Run dicetower flash first"):
        run_cli("stats", "--port", pico.url, "--rolls", "10")


def unmet_imports(files):
    """The firmware modules that `files` ({path: source}) import at module level but do not hold."""
    import ast

    def held(module):
        path = module.replace(".", "/")
        return path + ".py" in files or path + "/__init__.py" in files

    out = set()
    for data in files.values():
        for node in ast.parse(data).body:
            if isinstance(node, ast.ImportFrom) and node.module.startswith("dicetower"):
                names = [node.module + "." + a.name for a in node.names]
                out |= {n for n in names if not held(n) and not held(node.module)}
    return out


def test_each_board_gets_the_files_it_runs_and_no_others():
    """A Pico without Wi-Fi carries no scoreboard code (RAM and flash it would never use), a Pico W does,
    and CircuitPython gets its own backend and boot.py but no radio code (the firmware has no network
    there). Whatever a board gets, every module its files import when loaded is among them."""
    known = flash.profiles()
    boards = {"pico": flash.sources(profile=known["pico"]), "pico_w": flash.sources(profile=known["pico_w"]),
              "circuitpython": flash.sources(runtime="circuitpython", profile=known["pico_w"])}
    radio = {p for p in boards["pico_w"] if p.startswith(RADIO)}
    assert {"dicetower/web/server.py", "dicetower/hw/wifi.py", "dicetower/ui/qr.py"} <= radio
    assert not radio & set(boards["pico"]) and not radio & set(boards["circuitpython"])
    assert {"boot.py", "dicetower/hw/circuitpy.py"} <= set(boards["circuitpython"])
    assert not {"boot.py", "dicetower/hw/circuitpy.py"} & set(boards["pico_w"])
    assert set(boards["pico_w"]) - radio == set(boards["pico"])
    for board, files in boards.items():
        assert not unmet_imports(files), board
    assert unmet_imports({"dicetower/ui/screens.py": b"from dicetower.ui.qr import encode\n"}) == {"dicetower.ui.qr.encode"}


def test_the_room_for_a_file_that_grows_counts_its_old_and_new_blocks():
    new = {"main.py": b"m" * 100, "dicetower/big.mpy": b"b" * 3 * flash.BLOCK}
    on_board = {"main.py": flash.digest(b"old"), "dicetower/big.mpy": flash.digest(b"small")}
    plan = flash.Plan(new, on_board, [], {}, '{"board": "pico"}', "pico",
                      sizes={"main.py": 3, "dicetower/big.mpy": 5})
    # big.mpy grows from 1 block to 3 and needs its 3 new blocks while the old one still exists;
    # main.py stays within its block; the manifest and its temporary copy take a block each.
    assert plan.space_needed() == (3 + 1 - 1 - 1 + 3) * flash.BLOCK + 2 * flash.BLOCK


def test_a_full_board_is_refused_before_anything_is_written(tmp_path):
    with VirtualPico(str(tmp_path / "flash"), capacity=48 * 1024) as small:
        with pytest.raises(flash.FlashError) as refused:
            flash.flash(small.url, "pico", out=io.StringIO())
    message = str(refused.value)
    assert "flash is full: 48 KB free" in message and "Nothing was changed" in message
    assert os.listdir(tmp_path / "flash") == []


@pytest.mark.slow
def test_stats_rolls_on_the_board_with_its_own_dice(pico):
    run_cli("flash", "--port", pico.url, "--board", "pico")
    code, out = run_cli("stats", "--port", pico.url, "--rolls", "600")
    assert "rolled on the board with its own dice (VM random module" in out
    for die in ("Battlerealm: 600 rolls", "Attack: 600 rolls", "Danger Coin: 600 rolls"):
        assert die in out
    assert out.count("verdict:") == 3


# -- errors that need no board -----------------------------------------------------


class Port:
    def __init__(self, device, vid, description):
        self.device, self.vid, self.description = device, vid, description


def test_no_board_lists_what_was_seen():
    with pytest.raises(flash.FlashError) as none:
        flash.find_port([Port("/dev/ttyUSB0", 0x10C4, "CP2102 USB to UART")])
    assert "no board found" in str(none.value) and "/dev/ttyUSB0 (CP2102 USB to UART)" in str(none.value)
    with pytest.raises(flash.FlashError) as empty:
        flash.find_port([])
    assert "no serial ports at all" in str(empty.value)


def test_several_boards_ask_for_a_port():
    ports = [Port("/dev/ttyACM0", 0x2E8A, "Board in FS mode"), Port("/dev/ttyACM1", 0x2E8A, "Board in FS mode")]
    with pytest.raises(flash.FlashError) as several:
        flash.find_port(ports)
    assert "several boards" in str(several.value) and "--port" in str(several.value)
    assert flash.find_port(ports[:1]) == "/dev/ttyACM0"


def board(version, mpy, machine="Raspberry Pi Pico with RP2040", name="micropython"):
    return flash.Board((name, version, mpy, machine, 1 << 20))


def test_the_runtime_is_checked_before_anything_is_compiled():
    pico_127 = board((1, 27, 0), 6 | 3 << 8 | 4 << 10)
    flash.check_runtime(pico_127, 6)
    assert pico_127.arch == "armv6m"
    assert board((1, 25, 0), 6 | 3 << 8 | 7 << 10, "Raspberry Pi Pico2 with RP2350").arch == "armv7emsp"
    with pytest.raises(flash.FlashError, match="MicroPython 1.18.0 .* is too old: dicetower needs MicroPython 1.22.0"):
        flash.check_runtime(board((1, 18, 0), 5 | 4 << 10), 6)
    with pytest.raises(flash.FlashError, match="loads .mpy v7, this mpy-cross writes v6"):
        flash.check_runtime(board((1, 30, 0), 7 | 4 << 10), 6)
    with pytest.raises(flash.FlashError, match="runs circuitpython, not MicroPython"):
        flash.check_runtime(board((9, 2, 0), 6, name="circuitpython"), 6)


def test_this_mpy_cross_writes_what_the_boards_load():
    assert flash.emitted_version() == 6


@pytest.mark.slow
def test_a_board_that_fills_up_midway_says_so_and_keeps_the_game(tmp_path, monkeypatch):
    files = tmp_path / "flash"
    files.mkdir()
    (files / "game.sav").write_bytes(b"DICETOWER 2 0 0\n")
    monkeypatch.setattr(flash.Plan, "space_needed", lambda plan: 0)  # as if the free-space check were fooled
    with VirtualPico(str(files), capacity=40 * 1024) as small:
        with pytest.raises(flash.FlashError) as full:
            flash.flash(small.url, "pico", out=io.StringIO())
        assert "the board's flash filled up after" in str(full.value)
        assert reboot(small)["error"].startswith("Reflash needed: the last flash did not finish")
    assert (files / "game.sav").read_bytes() == b"DICETOWER 2 0 0\n"


@pytest.mark.slow
def test_a_board_with_wifi_gets_microdot_for_its_scoreboard(pico):
    code, out = run_cli("flash", "--port", pico.url, "--board", "pico_w")
    assert code == 0
    manifest = json.loads(on_flash(pico, flash.MANIFEST))
    for name in flash.MICRODOT:
        path = "lib/microdot/" + name[:-3] + ".mpy"
        assert hashlib.sha256(on_flash(pico, path)).hexdigest() == manifest["files"][path], path
    assert "dicetower/web/server.mpy" in manifest["files"] and "dicetower/ui/qr.mpy" in manifest["files"]
    # and a board without a radio carries none of it, nor the scoreboard's own code
    code, out = run_cli("flash", "--port", pico.url, "--board", "pico")
    radio = sum(1 for p in manifest["files"] if p.startswith(RADIO))
    assert code == 0 and tally(out)[1] == len(flash.MICRODOT) + radio + 1  # and boards/pico_w.json
    assert not any(path.startswith(("lib/microdot/",) + RADIO) for path in json.loads(on_flash(pico, flash.MANIFEST))["files"])
