"""The firmware on CircuitPython, without a board: the virtual CircuitPython modules under the firmware's
hw/circuitpy.py and Adafruit's real neopixel library, and `dicetower flash --runtime circuitpython` onto a
temporary folder standing in for the CIRCUITPY drive. (The OLED and LED bytes of whole games are compared
with MicroPython's in test_sim_parity.py.)"""

import errno
import hashlib
import io
import json
import os
import shutil
import sys

import pytest

from conftest import FIRMWARE
from dicetower_host import cli, sim
from dicetower_host.flash import MANIFEST, FlashError
from dicetower_host.flash import circuitpy as flash_circuitpy

BOOT_OUT = "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\r\nBoard ID:raspberry_pi_pico\r\n"


def tower(root=None, hold=None, oled=True, seed=5):
    sim.use_virtual_parts("circuitpython")
    from dicetower.core.entropy import FairDice
    from dicetower.core.replay import SeededSource
    from dicetower_host.virtual_parts.tower import Tower

    dice = FairDice(SeededSource(seed)) if seed is not None else None  # None: the board's own, os.urandom
    return Tower(root or sim.prepare_root(None), "pico", dice, oled=oled, runtime="circuitpython", hold=hold)


@pytest.fixture
def drive(tmp_path):
    path = tmp_path / "CIRCUITPY"
    path.mkdir()
    (path / "boot_out.txt").write_text(BOOT_OUT)
    (path / "code.py").write_text('print("Hello World!")\n')  # what a fresh CircuitPython board has
    return str(path)


def flash_to(path, **kw):
    out = io.StringIO()
    sent = flash_circuitpy.flash(path, out=out, **kw)
    return sent, out.getvalue()


def read(path, rel=None):
    with open(os.path.join(path, rel) if rel else path, "rb") as f:
        return f.read()


def listing(path):
    """Every file on the drive with its bytes' hash: what 'nothing was changed' compares."""
    out = {}
    for here, _dirs, names in os.walk(path):
        for name in names:
            full = os.path.join(here, name)
            out[os.path.relpath(full, path)] = hashlib.sha256(read(full)).hexdigest()
    return out


def main_module():
    sim.use_virtual_parts()
    import main

    return main


# -- the device on CircuitPython -------------------------------------------------


def test_saves_go_to_the_drive_that_boot_py_gave_the_game():
    t = tower()
    assert t.drive_to_code  # C not held at power-up: boot.py remounted the drive for the code
    t.presses("bbc c cc")  # Marvel United, four heroes, a KO token
    assert os.path.exists(t.root + "game.sav")
    assert t.app.message is None or "Saves are off" not in t.app.message


def test_a_read_only_drive_keeps_the_game_in_memory_and_says_saves_are_off():
    t = tower(hold="c")  # C held while plugging in: the computer keeps the drive
    assert not t.drive_to_code
    t.presses("bbc c cc")
    assert "Saves are off (the drive" in " ".join(t.screen())
    assert "game.sav" not in os.listdir(t.root) and "game.sav.tmp" not in os.listdir(t.root)
    t.presses("cbc")  # the game goes on
    assert [line.split(" is ")[0] for line in t.snapshot()["history"]] == ["Black Bolt", "Medusa"]


def test_the_drive_stays_the_computers_when_the_profile_cannot_be_read():
    root = sim.prepare_root(None)
    with open(root + "config.json", "w") as f:
        json.dump({"board": "no_such_board"}, f)
    t = tower(root)
    assert not t.drive_to_code  # so the maker can fix config.json from the computer
    assert "BOARD PROBLEM" in t.screen()[0]


def test_a_missing_neopixel_library_is_named_on_the_oled_and_the_console(monkeypatch):
    monkeypatch.setitem(sys.modules, "neopixel", None)  # as if /lib had no neopixel
    t = tower()
    assert t.screen()[0] == "LIBRARY MISSING"
    errors = [e["error"] for e in t.events("error")]
    assert errors and "neopixel" in errors[0] and "dicetower flash --runtime circuitpython" in errors[0]
    t.presses("c")  # nothing runs, nothing raises


def test_without_an_oled_busio_finds_no_pull_ups_and_the_game_goes_on():
    t = tower(oled=False)
    logs = [e["text"] for e in t.events("log")]
    assert any("No pull up found" in line for line in logs)
    t.presses("bbc c")
    assert t.app.mode != "error" and t.strip.frames > 0


def test_the_ring_keeps_the_profiles_colour_order_and_cap():
    t = tower()
    t.device.ring.fill(255, 0, 0)
    t.device.ring.show()
    # 300 mA for 12 LEDs: a cap of 0.42, 106/256 in fixed point, so full red is 255 * 106 >> 8 = 105.
    assert t.strip.data[:3] == bytes([0, 105, 0])  # GRB: the green byte first
    assert t.strip.rgb(0) == (105, 0, 0)


def test_pins_are_the_boards_gp_names():
    sim.use_virtual_parts("circuitpython")
    import board

    from dicetower.hw import circuitpy

    assert circuitpy.pin(16) is board.GP16
    with pytest.raises(ValueError, match="GP40 is not a pin of this board"):
        circuitpy.pin(40)


def test_ticks_wrap_as_circuitpythons_do():
    from dicetower.hw.circuitpy import TICKS_PERIOD, ticks_diff

    assert ticks_diff(5, TICKS_PERIOD - 5) == 10
    assert ticks_diff(TICKS_PERIOD - 5, 5) == -10


def test_circuitpythons_machine_names_find_the_same_profiles():
    from dicetower.hw.circuitpy import machine_name
    from dicetower.startup import board

    root = sim.prepare_root(None)
    assert board(root, None, machine_name("Raspberry Pi Pico W with rp2040")).name == "Raspberry Pi Pico W"
    assert board(root, None, machine_name("Raspberry Pi Pico 2 with rp2350a")).name == "Raspberry Pi Pico 2"


# -- dicetower flash --runtime circuitpython ---------------------------------------


def test_flash_copies_the_firmware_the_libraries_and_boots_from_the_drive(drive):
    sent, out = flash_to(drive)
    assert "CircuitPython 9.2.1 on Raspberry Pi Pico with RP2040" in out
    assert read(drive, "code.py") == read(FIRMWARE, "main.py")
    assert read(drive, "code.py.bak") == b'print("Hello World!")\n'  # the player's own code.py is kept
    assert read(drive, "boot.py") == read(FIRMWARE, "boot.py")
    assert read(drive, "lib/neopixel.py").find(b'__version__ = "6.4.2"') > 0
    assert b"class PixelBuf" in read(drive, "lib/adafruit_pixelbuf.py")
    assert read(drive, "dicetower/hw/circuitpy.py") == read(FIRMWARE, "dicetower/hw/circuitpy.py")
    assert not [n for n in os.listdir(os.path.join(drive, "dicetower")) if n.endswith(".mpy")]
    assert json.loads(read(drive, "config.json")) == {"board": "pico"}
    assert json.loads(read(drive, MANIFEST))["complete"] is True
    assert main_module().check(drive + "/") is None  # the firmware's own boot check passes
    t = tower(drive + "/", seed=None)
    ready = t.events("ready")
    assert ready and ready[0]["board"] == "Raspberry Pi Pico"
    assert ready[0]["dice"] == "RP2040 os.urandom (CircuitPython)"  # health-tested, from the chip's noise
    t.presses("bbc c cc")  # a game saved on the flashed drive
    assert os.path.exists(os.path.join(drive, "game.sav"))


def test_only_what_changed_is_copied_and_the_players_files_are_kept(drive, tmp_path, monkeypatch):
    flash_to(drive)
    with open(os.path.join(drive, "config.json"), "w") as f:
        json.dump({"board": "pico", "brightness": 40}, f)
    for name, data in (
        ("game.sav", b"a saved game"),
        ("heroes.json", b'{"heroes": []}'),
        ("lib/adafruit_ticks.mpy", b"another library"),
        ("dicetower/old_module.py", b"stale"),
    ):
        with open(os.path.join(drive, name), "wb") as f:
            f.write(data)
    sent, out = flash_to(drive)
    assert sent["files"] == 0 and sent["plan"].remove == ["dicetower/old_module.py"]
    source = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, source)
    with open(source / "dicetower" / "ui" / "screens.py", "a") as f:
        f.write("\n# changed\n")
    monkeypatch.setattr(flash_circuitpy, "FIRMWARE", str(source))
    sent, out = flash_to(drive)
    assert sent["plan"].copy == ["dicetower/ui/screens.py"]
    assert read(drive, "game.sav") == b"a saved game" and read(drive, "heroes.json") == b'{"heroes": []}'
    assert read(drive, "lib/adafruit_ticks.mpy") == b"another library"
    assert json.loads(read(drive, "config.json")) == {"board": "pico", "brightness": 40}
    assert main_module().check(drive + "/") is None


def test_a_library_deleted_from_the_device_is_reported_at_boot_and_put_back(drive):
    flash_to(drive)
    os.remove(os.path.join(drive, "lib", "neopixel.py"))
    assert main_module().check(drive + "/") == ("1 file damaged: lib/neopixel.py", ["lib/neopixel.py"])
    sent, out = flash_to(drive)
    assert sent["plan"].copy == ["lib/neopixel.py"]
    assert main_module().check(drive + "/") is None


def test_no_drive_found_or_several_say_what_to_do():
    with pytest.raises(FlashError, match="no CIRCUITPY drive found.*--drive PATH"):
        flash_circuitpy.find_drive(["/", "/boot", "/media/me/USBSTICK"])
    with pytest.raises(FlashError, match="several CIRCUITPY drives.*--drive"):
        flash_circuitpy.find_drive(["/media/me/CIRCUITPY", "/media/me/CIRCUITPY1"])
    assert flash_circuitpy.find_drive(["/", "/media/me/CIRCUITPY"]) == "/media/me/CIRCUITPY"


def test_a_folder_that_is_not_a_circuitpy_drive_is_refused(tmp_path):
    with pytest.raises(FlashError, match="no boot_out.txt, so it is not a CIRCUITPY drive"):
        flash_to(str(tmp_path))
    assert os.listdir(tmp_path) == []


class SmallDrive(flash_circuitpy.Drive):
    """A drive of `size` bytes: it reports its free room, and a write past it fails as a full FAT does."""

    def __init__(self, path, size):
        flash_circuitpy.Drive.__init__(self, path)
        self.size = size

    def used(self):
        return sum(os.path.getsize(os.path.join(h, n)) for h, d, names in os.walk(self.path) for n in names)

    def free(self):
        return max(0, self.size - self.used())

    def fs_writefile(self, rel, data, progress_callback=None):
        if self.used() + len(data) > self.size:
            raise OSError(errno.ENOSPC, "No space left on device")
        flash_circuitpy.Drive.fs_writefile(self, rel, data, progress_callback)


def test_a_full_drive_is_refused_before_anything_is_written(drive):
    before = listing(drive)
    with pytest.raises(FlashError) as full:
        flash_circuitpy.flash(drive=SmallDrive(drive, 64 * 1024), out=io.StringIO())
    assert "the CIRCUITPY drive is full" in str(full.value) and "Nothing was changed" in str(full.value)
    assert listing(drive) == before


def test_a_drive_that_fills_midway_says_reflash_needed_until_a_rerun(drive, monkeypatch):
    monkeypatch.setattr(flash_circuitpy.Plan, "space_needed", lambda plan: 0)  # as if the check were fooled
    with pytest.raises(FlashError) as full:
        flash_circuitpy.flash(drive=SmallDrive(drive, 120 * 1024), out=io.StringIO())
    assert "the CIRCUITPY drive filled up after" in str(full.value)
    problem, damaged = main_module().check(drive + "/")
    assert problem == "the last flash did not finish" and damaged
    monkeypatch.undo()
    flash_to(drive)
    assert main_module().check(drive + "/") is None


class ReadOnlyDrive(flash_circuitpy.Drive):
    """CIRCUITPY while the tower's boot.py has given it to the game: the computer's writes fail."""

    def fs_writefile(self, rel, data, progress_callback=None):
        raise OSError(errno.EROFS, "Read-only file system")


def test_a_read_only_drive_is_refused_with_how_to_free_it(drive):
    before = listing(drive)
    with pytest.raises(FlashError) as refused:
        flash_circuitpy.flash(drive=ReadOnlyDrive(drive), out=io.StringIO())
    message = str(refused.value)
    assert "read-only to this computer" in message and "hold C while plugging it back in" in message
    assert listing(drive) == before


def test_a_library_missing_on_this_computer_is_named(tmp_path):
    with pytest.raises(FlashError, match="adafruit-circuitpython-neopixel==6.4.2 is not installed on this computer"):
        flash_circuitpy.library_files(str(tmp_path))


def test_the_command_line(drive):
    parser = cli.build_parser()
    out = io.StringIO()
    args = parser.parse_args(["flash", "--runtime", "circuitpython", "--drive", drive, "--dry-run"])
    assert args.run(args, out=out) == 0
    assert "copy   lib/neopixel.py" in out.getvalue() and "keep   code.py as code.py.bak" in out.getvalue()
    assert not os.path.exists(os.path.join(drive, "dicetower"))
    for wrong, said in (
        (["flash", "--drive", drive], "add --runtime circuitpython"),
        (["flash", "--runtime", "circuitpython", "--port", "/dev/ttyACM0"], "--drive PATH"),
    ):
        args = parser.parse_args(wrong)
        with pytest.raises(ValueError, match=said):
            args.run(args, out=io.StringIO())
