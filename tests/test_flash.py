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
import re
import shutil
import socket
import time

import pytest
from monitoring import monitor_thread
from quick_taps import HEROES, twenty_taps_after_a_roll

from conftest import ROOT
from dicetower_host import cli, flash, paths
from dicetower_host.flash.board import ARCHES
from dicetower_host.flash.circuitpy import Drive
from dicetower_host.pico import VirtualPico

RADIO = ("dicetower/hw/wifi.", "dicetower/ui/qr.", "dicetower/web/")  # what only a board with Wi-Fi runs


def shipped():
    """Files a flash puts on a Pico: main.py, a .mpy per module and the data files beside them (not
    CircuitPython's backend, nor what a board without Wi-Fi never runs), the profile."""
    package = os.path.join(ROOT, "firmware")
    modules = 0
    for folder, _, names in os.walk(os.path.join(package, "dicetower")):
        for name in names:
            rel = os.path.relpath(os.path.join(folder, name), package).replace(os.sep, "/")
            if name.endswith((".py", ".json")) and name != "circuitpy.py" and not rel.startswith(RADIO):
                modules += 1
    return modules + 2


SHIPPED = shipped()


def tally(out):
    """(copied, removed, up to date) from flash's summary line, read as whole numbers."""
    found = re.search(r"^(\d+) copied \(\d+ B\), (\d+) removed, (\d+) up to date$", out, re.M)
    assert found, out
    return tuple(int(n) for n in found.groups())


# How long a flash waits for the firmware's ready line after its reset: a bound for a loaded machine (the
# virtual Pico boots in a second or two; the flasher's own 20 s ran out once on a busy one), not a wait.
READY_SECONDS = 600


def run_cli(*args):
    out = io.StringIO()
    parser = cli.build_parser()
    if args[0] == "flash" and "--ready-seconds" not in args:
        args += ("--ready-seconds", str(READY_SECONDS))
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
    assert manifest["checked"] is True  # the board hashed every file once: its boots skip that
    for path, digest in list(manifest["files"].items()) + list(manifest["data"].items()):
        assert hashlib.sha256(on_flash(pico, path)).hexdigest() == digest, path
    assert "main.py" in manifest["files"] and list(manifest["data"]) == ["boards/pico.json"]
    assert on_flash(pico, "dicetower/ui/flow.mpy").startswith(b"M\x06")  # compiled, not source
    assert not os.path.exists(os.path.join(pico.files, "dicetower", "ui", "flow.py"))
    assert json.loads(on_flash(pico, "config.json")) == {"board": "pico"}
    assert pico.until_screen("DICETOWER", checks=2400) is not None, pico.screen()  # drawn as or after "ready"

    # 2. Play: a new Battlerealm game and a roll, followed by dicetower monitor --save.
    log = tmp_path / "events.jsonl"
    # It ends at its sixth event; its --seconds is only a bound (40 s ran out on a loaded machine).
    watcher, connected = monitor_thread(pico.url, log, 6, 600)
    watcher.start()
    assert connected.wait(120)  # the monitor has the port before the first press
    pico.presses("caac")  # New Battlerealm, two heroes, start
    pico.presses("c")  # cut and play
    pico.presses("c")  # Hulk rolls
    pico.presses("ac")  # to Finalize, finalize
    if any(line.startswith("Explosion") for line in pico.screen()):
        pico.presses("ac")  # the dice exploded: Thor is not marked (Done), and the roll is recorded
    watcher.join(600)
    assert not watcher.is_alive(), log.read_text()
    events = [json.loads(line) for line in log.read_text().splitlines()]
    rolls = [e for e in events if e["event"] == "roll"]
    # the game sealed and cut before its first die, the roll's numbered draws as they land, the roll, the
    # roll recorded
    assert [e["event"] for e in events] == ["seal", "game", "cut", "draws", "roll", "action"]
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

    # 4. A damaged file under a manifest no board check has marked (as a flash older than the mark left
    # it): the board says so at boot instead of running it, and a flash repairs it (found by its hash on
    # the board) and marks the manifest checked again. Under a checked manifest boots do not hash.
    broken = bytearray(on_flash(pico, "dicetower/ui/flow.mpy"))
    broken[len(broken) // 2] ^= 0xFF
    write_on_device(pico, "dicetower/ui/flow.mpy", bytes(broken))
    unmarked = json.loads(on_flash(pico, flash.MANIFEST))
    del unmarked["checked"]
    write_on_device(pico, flash.MANIFEST, json.dumps(unmarked).encode())
    event = reboot(pico)
    assert event["event"] == "error"
    assert event["error"] == ("Reflash needed: 1 file damaged: dicetower/ui/flow.mpy. Run dicetower flash again.")
    screen = pico.screen()
    assert screen[0] == "REFLASH NEEDED" and "dicetower/ui/flow.mpy." in " ".join(screen)
    code, out = run_cli("flash", "--port", pico.url)
    assert tally(out)[0] == 1 and "ready" in out
    assert json.loads(on_flash(pico, flash.MANIFEST))["checked"] is True
    assert reboot(pico)["event"] == "ready"
    assert on_flash(pico, "game.sav") == saved


@pytest.mark.slow
def test_twenty_quick_taps_while_the_advisor_and_the_animation_run(pico):
    """On the MicroPython VM; tests/quick_taps.py says what is pressed and why."""
    code, out = run_cli("flash", "--port", pico.url, "--board", "pico")
    assert code == 0, out
    write_on_device(pico, "heroes.json", HEROES)
    assert reboot(pico)["event"] == "ready"
    assert pico.until_screen("DICETOWER", checks=2400) is not None
    pico.presses("caac c")  # a new Battlerealm game for two, sealed; cut and play
    # Between two looks at the screen while the advisor works: a quarter of a second, so that the helper's
    # 400 looks bound a loaded machine's advisor at 100 s rather than 20 (it returns at the answer).
    twenty_taps_after_a_roll(pico, lambda: time.sleep(0.25))


@pytest.mark.slow
def test_an_interrupted_copy_is_refused_at_boot_and_completed_by_a_rerun(pico):
    def pull_the_cable(path, done, total):
        if path == "dicetower/ui/leds.mpy":  # the display's modules are in; the game's screens are not
            raise KeyboardInterrupt

    with pytest.raises(flash.FlashError) as refused:
        flash.flash(pico.url, "pico", out=io.StringIO(), progress=pull_the_cable, ready_seconds=READY_SECONDS)
    assert "interrupted" in str(refused.value) and "reflash needed" in str(refused.value)
    event = reboot(pico)
    assert event == {
        "event": "error",
        "error": "Reflash needed: the last flash did not finish. Run dicetower flash again.",
    }
    assert pico.screen()[0] == "REFLASH NEEDED"
    out = io.StringIO()
    sent = flash.flash(pico.url, "pico", out=out, ready_seconds=READY_SECONDS)
    assert 0 < sent["files"] < SHIPPED  # what was copied before the cut is not sent again
    assert sent["ready"]["event"] == "ready"


@pytest.mark.slow
def test_the_players_files_are_kept_and_stale_firmware_removed(pico):
    os.makedirs(os.path.join(pico.files, "dicetower"))
    mine = {
        "heroes.json": b'{"heroes": [{"name": "Storm"}, {"name": "Rogue"}]}',
        "notes.txt": b"my notes",
        "config.json": b'{"brightness": 40, "sounds": false}',
        "dicetower/old_screens.py": b"X = 1\n",
        "dicetower/device.py": b"raise ImportError('an old source copy would shadow device.mpy')\n",
    }
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
    with pytest.raises(ValueError, match="could not roll .*ImportError.*Run dicetower flash first"):
        run_cli("stats", "--port", pico.url, "--rolls", "10")


def unmet_imports(files):
    """The firmware modules that `files` ({path: source}) import at module level but do not hold."""
    import ast

    def held(module):
        path = module.replace(".", "/")
        return path + ".py" in files or path + "/__init__.py" in files

    out = set()
    for path, data in files.items():
        if not path.endswith(".py"):
            continue  # the phones' page
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
    boards = {
        "pico": flash.sources(profile=known["pico"]),
        "pico_w": flash.sources(profile=known["pico_w"]),
        "circuitpython": flash.sources(runtime="circuitpython", profile=known["pico_w"]),
    }
    radio = {p for p in boards["pico_w"] if p.startswith(RADIO)}
    assert {"dicetower/web/server.py", "dicetower/web/page.html", "dicetower/hw/wifi.py", "dicetower/ui/qr.py"} <= radio
    assert not radio & set(boards["pico"]) and not radio & set(boards["circuitpython"])
    assert {"boot.py", "dicetower/hw/circuitpy.py"} <= set(boards["circuitpython"])
    assert not {"boot.py", "dicetower/hw/circuitpy.py"} & set(boards["pico_w"])
    assert set(boards["pico_w"]) - radio == set(boards["pico"])
    for board, files in boards.items():
        assert not unmet_imports(files), board
    assert unmet_imports({"dicetower/ui/screens.py": b"from dicetower.ui.qr import encode\n"}) == {
        "dicetower.ui.qr.encode"
    }


def test_the_room_for_a_file_that_grows_counts_its_old_and_new_blocks():
    new = {"main.py": b"m" * 100, "dicetower/big.mpy": b"b" * 3 * flash.BLOCK}
    on_board = {"main.py": flash.digest(b"old"), "dicetower/big.mpy": flash.digest(b"small")}
    plan = flash.Plan(new, on_board, [], {}, '{"board": "pico"}', "pico", sizes={"main.py": 3, "dicetower/big.mpy": 5})
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


def board(version, mpy, machine="Raspberry Pi Pico with RP2040", name="micropython", port="rp2"):
    return flash.Board((name, version, mpy, machine, 1 << 20, port))


def test_the_runtime_is_checked_before_anything_is_compiled():
    pico_127 = board((1, 27, 0), 6 | 3 << 8 | 4 << 10)
    flash.check_runtime(pico_127, 6)
    assert pico_127.arch == "armv6m"
    assert board((1, 25, 0), 6 | 3 << 8 | 7 << 10, "Raspberry Pi Pico2 with RP2350").arch == "armv7emsp"
    with pytest.raises(flash.FlashError, match="MicroPython 1.18.0 .* is too old: dicetower needs MicroPython 1.22.0"):
        flash.check_runtime(board((1, 18, 0), 5 | 4 << 10), 6)
    with pytest.raises(flash.FlashError, match="loads .mpy v7, this mpy-cross writes v6"):
        flash.check_runtime(board((1, 30, 0), 7 | 4 << 10), 6)
    with pytest.raises(flash.FlashError, match="runs CircuitPython, but MicroPython was asked"):
        flash.check_runtime(board((9, 2, 0), 6, name="circuitpython"), 6)
    with pytest.raises(flash.FlashError, match="is a esp32 board, not a Raspberry Pi RP2"):
        flash.check_runtime(
            board((1, 27, 0), 6 | 3 << 8 | 10 << 10, "Generic ESP32 module with ESP32", port="esp32"), 6
        )
    flash.check_runtime(board((1, 27, 0), 6 | 3 << 8, "JS with Emscripten", port="webassembly"), 6)  # the virtual Pico


def test_a_refused_board_is_told_the_file_to_install():
    """One line that names MicroPython's own file for the board: by --board, by the machine it reports, or
    every supported board's when neither says which."""
    known = flash.profiles()
    old_w = board((1, 20, 0), 6 | 1 << 8 | 4 << 10, "Raspberry Pi Pico W with RP2040")
    with pytest.raises(flash.FlashError) as too_old:
        flash.check_runtime(old_w, 6, flash.to_install(None, old_w.machine, known))
    assert str(too_old.value).endswith(
        "Install RPI_PICO_W-20251209-v1.27.0.uf2 from https://micropython.org/download/RPI_PICO_W/"
    )
    assert "\n" not in str(too_old.value)
    cpy = board((9, 2, 1), 0, "Raspberry Pi Pico with rp2040", name="circuitpython")
    with pytest.raises(flash.FlashError) as circuitpython:
        flash.check_runtime(cpy, 6, flash.to_install("pico2", cpy.machine, known))
    assert "install RPI_PICO2-20251209-v1.27.0.uf2 from https://micropython.org/download/RPI_PICO2/" in str(
        circuitpython.value
    )
    assert "--runtime circuitpython" in str(circuitpython.value)
    esp = board((1, 27, 0), 6 | 3 << 8 | 10 << 10, "Generic ESP32 module with ESP32", port="esp32")
    with pytest.raises(flash.FlashError) as other:
        flash.check_runtime(esp, 6, flash.to_install(None, esp.machine, known))
    assert str(other.value).endswith(
        "from https://micropython.org/download/ (RPI_PICO, RPI_PICO2, RPI_PICO2_W, RPI_PICO_W, WAVESHARE_RP2040_ZERO)"
    )


def test_this_mpy_cross_writes_what_the_boards_load():
    assert flash.emitted_version() == 6


KERNELS = ("dicetower/core/games/battlerealm/ranks", "dicetower/core/games/battlerealm/keeps")


def test_a_board_gets_the_advisors_machine_code_and_a_bytecode_board_the_same_lines():
    """The advisor's kernels are `@micropython.native` and `.viper`: compiled for an RP2040 they are
    armv6m machine code (an .mpy's third byte holds its architecture, 4 for armv6m, as MicroPython's
    docs on .mpy files have it); for a board with no native emitter (the VM) and as CircuitPython's
    source, the same source line for line with those decorators comments, which mpy-cross compiles."""
    pico = flash.profiles()["pico"]
    chip = flash.compile_firmware("armv6m", profile=pico)
    bytecode = flash.compile_firmware(None, profile=pico)
    for name in KERNELS:
        assert chip[name + ".mpy"][2] >> 2 == ARCHES.index("armv6m"), name
        assert bytecode[name + ".mpy"][2] >> 2 == 0, name
    circuitpython = flash.sources(runtime="circuitpython", profile=pico)
    micropython = flash.sources(profile=pico)
    for name in KERNELS:
        theirs, ours = circuitpython[name + ".py"].splitlines(), micropython[name + ".py"].splitlines()
        assert len(theirs) == len(ours)
        emitters = [i for i, line in enumerate(ours) if re.match(rb"\s*@micropython\.(native|viper)$", line)]
        assert emitters, name
        for i, line in enumerate(ours):
            expected = line.replace(b"@", b"# @") + b": none here, so bytecode" if i in emitters else line
            assert theirs[i] == expected


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
    assert not any(
        path.startswith(("lib/microdot/",) + RADIO) for path in json.loads(on_flash(pico, flash.MANIFEST))["files"]
    )


# -- a flash cut at any byte (issue: "Flashing can be cut anywhere") ------------------------------
#
# Each cut is replayed on a fresh flash folder: the flash is done once onto a folder through the calls
# the flasher makes on a board (flash_circuitpy.Drive answers them), each call kept; a cut is the first
# calls done and the next write half done (the worst a pulled cable or a power cut leaves: mpremote
# writes a file in place, in chunks). The virtual Pico then powers up on that folder and its OLED is read.


class Recording(Drive):
    """A flash folder answering flash._write's calls, every call kept for replaying any part of it."""

    def __init__(self, path):
        Drive.__init__(self, path)
        self.calls = []

    def fs_writefile(self, rel, data, progress_callback=None):
        self.calls.append(("write", rel, bytes(data)))
        Drive.fs_writefile(self, rel, data, progress_callback)

    def fs_mkdir(self, rel):
        self.calls.append(("mkdir", rel))
        Drive.fs_mkdir(self, rel)

    def fs_rmfile(self, rel):
        self.calls.append(("rmfile", rel))
        Drive.fs_rmfile(self, rel)

    def fs_rmdir(self, rel):
        self.calls.append(("rmdir", rel))
        Drive.fs_rmdir(self, rel)

    def replace(self, old, new):
        self.calls.append(("replace", old, new))
        Drive.replace(self, old, new)


def release(tmp_path, name, changed=(), extra=None):
    """The firmware as `dicetower flash` compiles it for the virtual Pico (bytecode .mpy, its arch), with
    a line added to each file of `changed` and the modules of `extra` ({path: source}) added."""
    source = tmp_path / name
    shutil.copytree(os.path.join(ROOT, "firmware"), source, ignore=shutil.ignore_patterns("__pycache__"))
    for rel in changed:
        with open(source / rel, "a") as f:
            f.write("\nRELEASE = %r\n" % name)
    for rel, text in (extra or {}).items():
        (source / rel).write_text(text)
    files = flash.compile_firmware(None, str(source), profile=flash.profiles()["pico"])
    with open(paths.board_profile("pico"), "rb") as f:
        files["boards/pico.json"] = f.read()
    return files


class Cut(Recording):
    """The same calls, the `at`-th one (counted from 0) failing as a pulled cable fails it."""

    def __init__(self, path, at):
        Recording.__init__(self, path)
        self.at = at

    def _pull(self):
        if len(self.calls) == self.at:
            raise OSError(5, "the cable was pulled")

    def fs_writefile(self, rel, data, progress_callback=None):
        self._pull()
        Recording.fs_writefile(self, rel, data, progress_callback)

    def fs_mkdir(self, rel):
        self._pull()
        Recording.fs_mkdir(self, rel)

    def fs_rmfile(self, rel):
        self._pull()
        Recording.fs_rmfile(self, rel)

    def fs_rmdir(self, rel):
        self._pull()
        Recording.fs_rmdir(self, rel)

    def replace(self, old, new):
        self._pull()
        Recording.replace(self, old, new)


def plan_for(drive, files):
    """dicetower flash's plan for putting `files` on the board `drive` holds."""
    old = flash.as_object(flash.read_text(drive, flash.MANIFEST))
    remote = {p: drive.digest(p) for p in sorted(set(files) | set(flash.listed(old)))}
    return flash.Plan(files, remote, drive.tree(flash.PACKAGE), old, flash.read_text(drive, "config.json"), "pico")


def flash_onto(folder, files, checked=True):
    """Flash `files` onto the flash folder as dicetower flash plans and writes; the calls, in order. `checked`:
    the flash ends as on a board, the board's own check of every file run (the launch's, on CPython here)
    and the manifest marked "checked" (its boots then skip the hashing)."""
    drive = Recording(str(folder))
    flash._write(drive, plan_for(drive, files), {"files": 0, "bytes": 0}, None, replace=lambda d, o, n: d.replace(o, n))
    if checked:
        from dicetower.launch import check

        assert check(str(folder) + os.sep) is None
        with open(os.path.join(folder, flash.MANIFEST)) as f:
            manifest = dict(json.load(f), checked=True)
        with open(os.path.join(folder, flash.MANIFEST), "w") as f:
            json.dump(manifest, f)
    return drive.calls


def said_after_cut(start, files, done, folder):
    """What dicetower flash says when the copy of `files` onto a board holding `start` is cut at call `done`
    (None: the copy has fewer calls)."""
    shutil.copytree(start, folder)
    drive = Cut(str(folder), done)
    plan = plan_for(drive, files)
    sent = {"files": 0, "bytes": 0}
    try:
        flash._write(drive, plan, sent, None, replace=lambda d, o, n: d.replace(o, n))
    except OSError as e:
        return str(flash.cut_short(flash.interrupted(e), sent, plan))
    finally:
        shutil.rmtree(folder)
    return None


def replay(start, calls, folder, done, part=None):
    """`folder`: `start` (a flash folder) with the first `done` calls made and, of the next (a write), its
    first `part` bytes."""
    shutil.copytree(start, folder)

    def at(rel):
        return os.path.join(folder, *rel.split("/"))

    for call in calls[:done]:
        if call[0] == "write":
            with open(at(call[1]), "wb") as f:
                f.write(call[2])
        elif call[0] == "replace":
            os.replace(at(call[1]), at(call[2]))
        else:
            {
                "mkdir": lambda p: os.makedirs(p, exist_ok=True),  # as _write, which asks for folders there already
                "rmfile": os.remove,
                "rmdir": os.rmdir,
            }[call[0]](at(call[1]))
    if part is not None:
        with open(at(calls[done][1]), "wb") as f:
            f.write(calls[done][2][:part])


def cuts(calls, inside=()):
    """(calls done, bytes of the next write) for a cut after every call, and inside each write: halfway, or
    for a file of `inside` after its first byte, halfway and before its last."""
    out = [(n, None) for n in range(len(calls) + 1)]
    for n, call in enumerate(calls):
        if call[0] == "write" and len(call[2]) > 1:
            name = call[1][:-4] if call[1].endswith(".tmp") else call[1]
            out += [
                (n, k) for k in ((1, len(call[2]) // 2, len(call[2]) - 1) if name in inside else (len(call[2]) // 2,))
            ]
    return out


def power_up(folder):
    """The OLED's first line once the virtual Pico has powered up on `folder`: the start menu or the notice
    (None without a main.py: the board stops at its prompt, as an empty board does)."""
    if not os.path.exists(os.path.join(folder, "main.py")):
        return None
    with VirtualPico(str(folder)) as board:
        for _ in range(2400):  # 2 min at most, for a loaded machine; it returns as soon as either shows
            screen = board.screen()
            if screen[0] in ("DICETOWER", "REFLASH NEEDED"):
                return screen[0]
            board.pause()
        raise AssertionError(
            "the OLED shows neither the game nor the notice: %r; at a reset the board says %r"
            % (screen, reboot(board, 30))
        )


def manifest_files(folder):
    with open(os.path.join(folder, flash.MANIFEST)) as f:
        manifest = json.load(f)
    return manifest["files"] if manifest["complete"] is True else None


def runs_whole(folder, files):
    """Every file of a release (its manifest's "files") is on the flash as the manifest has it: the release
    runs itself, not a mix (a new launch and main.py under the old files, say)."""
    for path, want in files.items():
        with open(os.path.join(folder, *path.split("/")), "rb") as f:
            if flash.digest(f.read()) != want:
                return False
    return True


def boots_as_said(said, shown, folder, old_manifest, new, where):
    """What the flasher said of a cut (flash.after_cut's words) is what the board powered up to show."""
    if said is None:  # the copy was over: no cut to speak of
        return
    if "reflash needed" in said:
        assert shown == "REFLASH NEEDED", (where, said, shown)
    elif "no firmware to run yet" in said:
        assert shown is None, (where, said, shown)
    elif "Nothing the board runs has changed" in said and old_manifest is None:  # an empty board stays one
        assert shown is None, (where, said, shown)
    elif "Nothing the board runs has changed" in said or "runs its old release" in said:
        assert shown == "DICETOWER" and manifest_files(folder) == old_manifest, (where, said, shown)
    elif "new release is on the board whole" in said:
        assert shown == "DICETOWER" and manifest_files(folder) == new, (where, said, shown)
    else:
        raise AssertionError("the flasher said what no cut of this flash should leave: %s" % said)


def every_cut_runs_a_release_or_says_reflash_needed(tmp_path, old, new, inside, sample=None):
    """Flash `new` over a board holding `old` (None: an empty board), cut it at each point (every `sample`-th
    boundary when given), and power up: the old release runs, the new one runs, or the OLED says "reflash
    needed" (or, on a board that was empty, nothing runs yet, as before); and at each, what the flasher says
    of the cut is what the board shows."""
    start = tmp_path / "before"
    start.mkdir(parents=True)
    if old is not None:
        flash_onto(start, old)
    old_manifest = manifest_files(start) if old is not None else None
    shutil.copytree(start, tmp_path / "scratch")
    calls = flash_onto(tmp_path / "scratch", new)
    seen = {}
    said = {}  # the flasher's words for a cut at each call
    new_files = {p: flash.digest(d) for p, d in new.items() if not flash.is_data(p)}
    points = cuts(calls, inside)
    if sample:
        points = [p for i, p in enumerate(points) if i % sample == 0 or p[0] == len(calls)]
    for i, (done, part) in enumerate(points):
        folder = tmp_path / ("cut%d" % i)
        replay(start, calls, folder, done, part)
        shown = power_up(folder)
        where = "after %d calls%s (%s)" % (
            done,
            "" if part is None else " and %d bytes of %s" % (part, calls[done][1]),
            calls[done - 1][:2] if done else "nothing",
        )
        if shown is None:
            assert old is None, where  # a board that had a main.py has one at every point
        elif shown == "DICETOWER":  # a release runs: the whole old one or the whole new one
            running = manifest_files(folder)
            assert running is not None and running in (old_manifest, new_files), where
            assert runs_whole(folder, running), where
        if done not in said:
            said[done] = said_after_cut(start, new, done, tmp_path / "said")
        boots_as_said(said[done], shown, folder, old_manifest, new_files, where)
        seen[shown] = seen.get(shown, 0) + 1
        shutil.rmtree(folder)
    return calls, seen


BOOT_CHANGES = (
    "main.py",
    "dicetower/launch.py",
    "dicetower/__init__.py",
    "dicetower/startup.py",
    "dicetower/ui/canvas.py",
)


@pytest.mark.slow  # 22 s: the virtual Pico powered up at every cut
def test_a_flash_cut_anywhere_leaves_a_release_running_or_reflash_needed_on_the_oled(tmp_path):
    """An older release (main.py, the launch, three of the notice's modules, two of the game's and one module
    the new release drops differ) flashed over with the new one, cut after every call to the board, halfway
    through every write, and at three points inside the launch's and main.py's own copies."""
    old = release(
        tmp_path,
        "r1",
        BOOT_CHANGES + ("dicetower/ui/flow.py", "dicetower/device.py"),
        extra={"dicetower/ui/gone.py": "X = 1\n"},
    )
    new = release(tmp_path, "r2")
    calls, seen = every_cut_runs_a_release_or_says_reflash_needed(
        tmp_path, old, new, inside=("dicetower/launch.mpy", "main.py")
    )
    # Nothing the old release runs changes before the launch and main.py are replaced (the manifest loses its
    # "checked" mark first): an older main.py never meets half-new files (a new launch under the old manifest
    # refuses them); the new ones say "reflash needed" from then on, until the manifest is complete.
    changes = [c for c in calls if c[0] != "mkdir" and not (c[0] == "write" and c[1].endswith(".tmp"))]
    assert changes[:3] == [
        ("replace", flash.MANIFEST + ".tmp", flash.MANIFEST),
        ("replace", "dicetower/launch.mpy.tmp", "dicetower/launch.mpy"),
        ("replace", "main.py.tmp", "main.py"),
    ]
    assert changes[-1] == ("replace", flash.MANIFEST + ".tmp", flash.MANIFEST)
    assert seen["DICETOWER"] >= 2 and seen["REFLASH NEEDED"] >= 15, seen


@pytest.mark.slow  # the virtual Pico powered up four times
def test_a_cut_once_the_launch_and_main_py_are_new_boots_what_the_flasher_says(tmp_path):
    """A hostile run's finding: over a release flashed as on a board (its manifest marked "checked", which
    lets its boots skip the hashing), a flash cut once dicetower/launch.mpy and main.py were new said
    "reflash needed" while the board booted its old release under the new launch and main.py (and
    docs/flashing.md said the new launch would refuse the old files). The mark now goes first: cut right
    after it, after the launch, after main.py or after the incomplete manifest, the board boots what the
    flasher says, and the notice from the new launch on."""
    old = release(tmp_path, "r1", BOOT_CHANGES)
    new = release(tmp_path, "r2")
    start = tmp_path / "before"
    start.mkdir()
    flash_onto(start, old)
    old_files = manifest_files(start)
    new_files = {p: flash.digest(d) for p, d in new.items() if not flash.is_data(p)}
    shutil.copytree(start, tmp_path / "scratch")
    calls = flash_onto(tmp_path / "scratch", new)
    renames = [(n, c) for n, c in enumerate(calls) if c[0] == "replace"][:4]
    assert [c[2] for _, c in renames] == [flash.MANIFEST, "dicetower/launch.mpy", "main.py", flash.MANIFEST]
    outcomes = []
    for n, call in renames:
        folder = tmp_path / ("cut%d" % n)
        replay(start, calls, folder, n + 1)  # that rename done, the next call cut
        said = said_after_cut(start, new, n + 1, tmp_path / "said")
        shown = power_up(folder)
        boots_as_said(said, shown, folder, old_files, new_files, "after %s" % call[2])
        outcomes.append((said.split(". ", 1)[1].split(";")[0], shown))
    assert outcomes == [
        ("Nothing the board runs has changed", "DICETOWER"),  # the old release, hashed at boot from now on
        ('The board shows "reflash needed" until dicetower flash runs again', "REFLASH NEEDED"),
        ('The board shows "reflash needed" until dicetower flash runs again', "REFLASH NEEDED"),  # the finding
        ('The board shows "reflash needed" until dicetower flash runs again', "REFLASH NEEDED"),
    ]


@pytest.mark.slow  # 22 s: the virtual Pico powered up at every cut
def test_a_flash_over_a_release_whose_main_py_held_the_check_is_safe_at_every_cut(tmp_path):
    """Releases before dicetower/launch had the check, the notice and the boot in main.py itself (compiled
    from source at every boot). Such a main.py hashes only the files its manifest lists: a new launch
    written before main.py changes nothing it runs, and from the new main.py on the board says "reflash
    needed" until the manifest is complete."""
    with open(os.path.join(ROOT, "firmware", "dicetower", "launch.py")) as f:
        launch = f.read()
    whole_main = (
        launch.replace('"dicetower/launch", ', "")
        + "\n\ndef run():\n    found = check()\n    if found:\n        reflash_needed(*found)\n"
        "        return\n    device = boot()\n    device.platform.run(device)\n\n\n"
        'if __name__ == "__main__":\n    run()\n'
    )
    source = tmp_path / "r0"
    shutil.copytree(os.path.join(ROOT, "firmware"), source, ignore=shutil.ignore_patterns("__pycache__"))
    (source / "main.py").write_text(whole_main)
    (source / "dicetower" / "launch.py").unlink()
    old = flash.compile_firmware(None, str(source), profile=flash.profiles()["pico"])
    with open(paths.board_profile("pico"), "rb") as f:
        old["boards/pico.json"] = f.read()
    assert "dicetower/launch.mpy" not in old
    new = release(tmp_path, "r2")
    calls, seen = every_cut_runs_a_release_or_says_reflash_needed(
        tmp_path / "a", old, new, inside=("dicetower/launch.mpy", "main.py")
    )
    changes = [c for c in calls if c[0] != "mkdir" and not (c[0] == "write" and c[1].endswith(".tmp"))]
    assert changes[:3] == [
        ("replace", flash.MANIFEST + ".tmp", flash.MANIFEST),
        ("replace", "dicetower/launch.mpy.tmp", "dicetower/launch.mpy"),
        ("replace", "main.py.tmp", "main.py"),
    ]
    # The old release runs until the new main.py is in (and the flasher says so); the notice from then until
    # the manifest is complete.
    assert seen["DICETOWER"] >= 2 and seen["REFLASH NEEDED"] >= 3, seen


@pytest.mark.slow
def test_every_cut_of_a_flash_onto_an_empty_board_or_over_a_release_changed_everywhere(tmp_path):
    """The exhaustive version: every file differs (or the board was empty), every boundary and the middle
    of every write."""
    firmware = os.path.join(ROOT, "firmware")
    everything = [
        os.path.relpath(os.path.join(d, n), firmware).replace(os.sep, "/")
        for d, _, names in os.walk(firmware)
        for n in names
        if n.endswith(".py")
    ]
    old = release(tmp_path / "a", "r1", everything)
    new = release(tmp_path / "a", "r2")
    calls, seen = every_cut_runs_a_release_or_says_reflash_needed(tmp_path / "a", old, new, BOOT_CHANGES)
    assert set(seen) == {"DICETOWER", "REFLASH NEEDED"}, seen
    calls, seen = every_cut_runs_a_release_or_says_reflash_needed(tmp_path / "b", None, new, ("main.py",))
    # On an empty board main.py comes once the notice's modules are in, before the game's.
    boot = flash.boot_needs()
    at = {c[2]: n for n, c in enumerate(calls) if c[0] == "replace"}
    game = [
        n
        for n, c in enumerate(calls)
        if c[0] == "write"
        and c[1].startswith("dicetower/")
        and not c[1].endswith(".tmp")
        and c[1].rsplit(".", 1)[0] not in boot | {flash.LAUNCH}
    ]
    assert max(at[p] for p in new if p.rsplit(".", 1)[0] in boot) < at["main.py"] < min(game)
    assert at["dicetower/launch.mpy"] < at["main.py"]
    assert None in seen and "REFLASH NEEDED" in seen and "DICETOWER" in seen, seen


def test_a_rerun_after_a_cut_inside_any_temporary_file_finishes_the_first_time(tmp_path):
    """A cut inside a file written whole leaves its .tmp on the board. One rerun of the flash (the board as
    the cut left it, planned afresh) finishes, leaves no .tmp behind and a complete manifest of the new
    release. (It once copied everything and then failed: the plan removed X.mpy.tmp, which the rerun's
    own write of X.mpy had already renamed into place.)"""
    old = release(tmp_path, "r1", BOOT_CHANGES + ("dicetower/ui/flow.py",))
    new = release(tmp_path, "r2")
    start = tmp_path / "before"
    start.mkdir()
    flash_onto(start, old)
    shutil.copytree(start, tmp_path / "scratch")
    calls = flash_onto(tmp_path / "scratch", new)
    inside = [n for n, call in enumerate(calls) if call[0] == "write" and call[1].endswith(".tmp")]
    # main.py, the manifest (incomplete, then complete) and the notice's modules that changed
    assert sorted({calls[n][1] for n in inside}) == sorted(
        [flash.MANIFEST + ".tmp", "main.py.tmp"] + [p[:-3] + ".mpy.tmp" for p in BOOT_CHANGES[1:]]
    )
    for n in inside:
        folder = tmp_path / ("cut%d" % n)
        replay(start, calls, folder, n, len(calls[n][2]) // 2)
        assert os.path.exists(os.path.join(folder, *calls[n][1].split("/")))
        flash_onto(folder, new)  # the one rerun: raises if it cannot finish
        left = [os.path.join(d, f) for d, _, names in os.walk(folder) for f in names if f.endswith(".tmp")]
        assert left == [], (calls[n][1], left)
        assert manifest_files(folder) == {p: flash.digest(d) for p, d in new.items() if not flash.is_data(p)}, calls[n][
            1
        ]
        shutil.rmtree(folder)


# -- Ctrl-C, ports and boards: one line each ------------------------------------------------------


def cli_stderr(capsys, *args):
    """(exit status, what `dicetower ARGS` printed on stderr)."""
    code = cli.main(list(args))
    return code, capsys.readouterr().err


def test_ctrl_c_before_during_and_after_the_copy_is_one_line(pico, capsys, monkeypatch):
    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    tiny = {"main.py": b'print(\'{"event": "ready", "version": "t", "board": "b", "dice": "d"}\')\n'}
    monkeypatch.setattr(flash, "compile_firmware", lambda *args, **kwargs: dict(tiny))
    with monkeypatch.context() as m:  # while the board is asked what it is
        m.setattr(flash, "emitted_version", ctrl_c)
        code, err = cli_stderr(capsys, "flash", "--port", pico.url, "--board", "pico")
    assert (
        code == 2
        and err
        == "dicetower: interrupted (Ctrl-C) before anything was written: the board on %s is as it was\n" % pico.url
    )
    assert os.listdir(pico.files) == []
    with monkeypatch.context() as m:  # at the first file put in place
        m.setattr(flash, "_replace_on_board", ctrl_c)
        code, err = cli_stderr(capsys, "flash", "--port", pico.url, "--board", "pico")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(
        "dicetower: the copy was interrupted (Ctrl-C) after 0 of 2 files. Nothing the board runs has changed"
    )
    with monkeypatch.context() as m:  # while the board restarts
        m.setattr(flash, "restart", ctrl_c)
        code, err = cli_stderr(capsys, "flash", "--port", pico.url, "--board", "pico")
    assert code == 2 and err == (
        "dicetower: interrupted (Ctrl-C) while the board restarted: the new firmware is "
        "on it; dicetower monitor --port %s shows it start\n" % pico.url
    )
    assert on_flash(pico, "main.py") == tiny["main.py"]


def test_a_real_ctrl_c_is_one_line_and_no_traceback(pico):
    """SIGINT, as a terminal's Ctrl-C sends it, once the flasher has said what the board is (it is then
    compiling or copying)."""
    import signal
    import subprocess
    import sys

    run = subprocess.Popen(
        [sys.executable, "-m", "dicetower_host.cli", "flash", "--port", pico.url, "--board", "pico"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        # Ctrl-C as at a terminal: a job started in the background inherits it ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    first = run.stdout.readline()
    assert first.startswith("MicroPython 1.27.0 on "), first
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 2, (out, err)
    assert err.count("\n") == 1 and err.startswith("dicetower: ") and "Ctrl-C" in err, err
    assert "Traceback" not in out + err


def test_a_port_that_will_not_open_says_why(tmp_path, capsys, monkeypatch):
    import errno
    import pty

    import serial

    code, err = cli_stderr(capsys, "flash", "--port", "/dev/ttyACM9")
    assert code == 2 and err.startswith("dicetower: no such device /dev/ttyACM9: is the board plugged in? ")
    assert err.count("\n") == 1
    master, slave = pty.openpty()
    device = os.ttyname(slave)
    try:
        held = serial.Serial(device, exclusive=True)  # a monitor left running, say
        code, err = cli_stderr(capsys, "flash", "--port", device)
        held.close()
    finally:
        os.close(master)
        os.close(slave)
    assert err == (
        "dicetower: %s is busy: another program has it open (dicetower monitor, mpremote, Thonny, "
        "screen); close it and try again\n" % device
    )
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()  # nothing listens there now
    code, err = cli_stderr(capsys, "flash", "--port", "socket://127.0.0.1:%d" % port)
    assert err == (
        "dicetower: nothing answers at socket://127.0.0.1:%d: is the virtual Pico (dicetower pico) "
        "still running?\n" % port
    )
    plain = tmp_path / "notes.txt"
    plain.write_text("not a port")
    code, err = cli_stderr(capsys, "flash", "--port", str(plain))
    assert err == "dicetower: %s is not a serial port\n" % plain

    def denied(*args, **kwargs):  # as a user outside the dialout group meets it (the tests may run as root)
        raise serial.SerialException(errno.EACCES, "could not open port /dev/ttyACM0: [Errno 13] Permission denied")

    monkeypatch.setattr(serial, "serial_for_url", denied)
    monkeypatch.setattr(os.path, "exists", lambda path: True)
    assert flash.why_not("/dev/ttyACM0") == (
        "permission denied on /dev/ttyACM0: add yourself to the dialout group "
        "(sudo usermod -aG dialout $USER), then log out and in again"
    )


def test_an_unknown_board_is_worded_one_way_everywhere(tmp_path):
    from dicetower_host import sim
    from dicetower_host.hardware import parts

    expected = "unknown board 'picoo'; the boards are: %s" % ", ".join(paths.board_names())
    for call in (
        lambda: flash.choose_profile("picoo", {}, "", flash.profiles()),
        lambda: parts.load_board("picoo"),
        lambda: sim.boot("picoo", state_dir=str(tmp_path)),
    ):
        with pytest.raises(ValueError) as unknown:
            call()
        assert str(unknown.value) == expected


def test_a_profile_for_another_chip_is_refused_in_one_line():
    """A Pico 2's profile on a Pico: its pins and its architecture would be another board's. A board whose
    MicroPython names no chip (the virtual Pico's VM) is taken at its word."""
    known = flash.profiles()
    with pytest.raises(flash.FlashError) as refused:
        flash.choose_profile("pico2", {}, "Raspberry Pi Pico with RP2040", known)
    assert str(refused.value) == (
        "the board is an RP2040 (Raspberry Pi Pico with RP2040), but the pico2 profile is for an RP2350; choose "
        "the board's own with --board (pico, pico_w, rp2040_zero)"
    )
    with pytest.raises(flash.FlashError):
        flash.choose_profile(None, {"board": "pico_w"}, "Raspberry Pi Pico2 with RP2350", known)
    assert flash.choose_profile("pico_w", {}, "Raspberry Pi Pico W with RP2040", known) == "pico_w"
    assert flash.choose_profile("pico2", {}, "JS with Emscripten", known) == "pico2"


def test_on_a_terminal_each_status_line_is_a_line_of_its_own_beside_the_progress_bar(pico):
    """`dicetower flash` with a terminal (a pty) for its output: the progress bar (rich) shows during the copy,
    and the flasher's own lines go above it: never "0/? bytesMicroPython 1.27.0 ..." nor "4.2/4.2 kB1 copied
    ..." on one line. (A small firmware, so that the copy is quick; the bar and the lines are the real ones.)"""
    import pty
    import subprocess
    import sys

    small = (
        "import sys\nfrom dicetower_host import cli, flash\n"
        "flash.compile_firmware = lambda *args, **kwargs: {'dicetower/big.mpy': bytes(40000), 'main.py': "
        'b\'print(\\\'{"event": "ready", "version": "t", "board": "b", "dice": "d"}\\\')\\n\'}\n'
        "sys.exit(cli.main(sys.argv[1:]))\n"
    )
    master, slave = pty.openpty()
    run = subprocess.Popen(
        [sys.executable, "-c", small, "flash", "--port", pico.url, "--board", "pico"],
        stdout=slave,
        stderr=slave,
        env=dict(os.environ, COLUMNS="100"),
    )
    os.close(slave)
    seen = b"".join(iter(lambda: _read(master), b""))  # until the program has ended and closed the terminal
    os.close(master)
    assert run.wait(60) == 0, seen
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode())
    lines = [line.strip() for line in re.split(r"[\r\n]+", text)]
    assert any(line.startswith("MicroPython 1.27.0 on ") for line in lines), lines
    assert any(re.match(r"^3 copied \(\d+ B\), 0 removed, 0 up to date$", line) for line in lines), lines
    assert "dicetower t ready on b (dice: d)" in lines, lines
    assert any("dicetower/big.mpy" in line and "kB" in line for line in lines), lines  # the bar was there


def _read(fd):
    try:
        return os.read(fd, 4096)
    except OSError:  # the terminal closed
        return b""
