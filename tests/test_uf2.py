"""`dicetower uf2`: one file to install, MicroPython v1.27.0 with the firmware frozen in.

The UF2 is built from the pinned sources in rp2040/sources/ (cached under ~/.cache/dicetower/uf2),
then dropped on an emulated Pico with an empty flash, as a maker drops it on the RPI-RP2 drive: it
boots straight into the game and plays through its buttons. The player's files survive a new UF2,
and a UF2 wins over an older `dicetower flash` copy. The other boards build and carry the firmware.
Bad input (an unknown board, a damaged archive, no cross-compiler) is one clear line.
"""

import io
import os
import shutil
import tarfile

import pytest

from conftest import ROOT
from dicetower_host import cli, flash, uf2
from dicetower_host.pico import EmulatedPico, read_littlefs
from quick_taps import HEROES, twenty_taps_after_a_roll
from test_rp2040 import reboot

FIRMWARE = ["main.py", "dicetower/built_in.py", "dicetower/core/advisor.py", "dicetower/ui/flow.py"]
TOOLS = shutil.which("arm-none-eabi-gcc") is not None
needs_tools = pytest.mark.skipif(not TOOLS and not os.environ.get("CI"),
                                 reason="no arm-none-eabi-gcc here (CI installs it): " + uf2.APT)
_built = {}


def built(board):
    """The UF2 for `board`, built once per test session (the cache makes later builds quick)."""
    if board not in _built:
        out = io.StringIO()
        _built[board] = uf2.build(board, os.path.join(ROOT, "build", "test-%s.uf2" % board), out=out)
        assert "frozen: main.py dicetower/" in out.getvalue(), out.getvalue()
    return _built[board]


def run_cli(*args):
    out = io.StringIO()
    parsed = cli.build_parser().parse_args(list(args))
    return parsed.run(parsed, out=out), out.getvalue()


# -- the sources, and bad input ---------------------------------------------------------------------------

def test_every_pinned_source_is_in_the_repository_with_its_commit_and_licence():
    found = uf2.check_sources()  # each archive's SHA-256 is sources.json's
    assert [s["name"] for s in found] == [pin[0] for pin in uf2.PINS]
    for source, pin in zip(found, uf2.PINS):
        assert source["commit"] == pin[2] and len(pin[2]) == 40
        assert source["licence"]
        with tarfile.open(os.path.join(uf2.SOURCES, source["archive"])) as archive:
            names = archive.getnames()
        assert any(os.path.basename(n).startswith(("LICENSE", "COPYING")) for n in names), source["name"]


def test_an_unknown_board_is_one_clear_line(tmp_path):
    with pytest.raises(ValueError) as raised:
        run_cli("uf2", "--board", "pico3", "--output", str(tmp_path / "x.uf2"))
    assert str(raised.value) == ("unknown board 'pico3'; a UF2 is built for: pico, pico2, pico2_w, pico_w, "
                                 "rp2040_zero")
    assert os.listdir(tmp_path) == []


def test_a_damaged_source_archive_is_named_with_its_sha256(tmp_path, monkeypatch):
    copy = tmp_path / "sources"
    shutil.copytree(uf2.SOURCES, copy)
    source = uf2.sources()[1]
    path = copy / source["archive"]
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    monkeypatch.setattr(uf2, "SOURCES", str(copy))
    monkeypatch.setattr(uf2, "toolchain", lambda: ["gcc"])
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(uf2.UF2Error) as raised:
        uf2.build("pico", str(out / "dicetower-pico.uf2"))
    text = str(raised.value)
    assert text.startswith("source archive damaged: %s has SHA-256 " % path)
    assert text.endswith("sources.json says %s" % source["sha256"])
    assert "\n" not in text
    assert os.listdir(out) == []


def test_a_missing_cross_compiler_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing on it
    with pytest.raises(uf2.UF2Error) as raised:
        uf2.build("pico", str(tmp_path / "x.uf2"))
    assert str(raised.value) == ("arm-none-eabi-gcc not found: install the build tools (Debian/Ubuntu: "
                                 "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi "
                                 "libstdc++-arm-none-eabi-newlib cmake make g++)")
    assert not os.path.exists(tmp_path / "x.uf2")


# -- the Pico's UF2 on the emulated RP2040 ------------------------------------------------------------------

@pytest.mark.slow
@needs_tools
def test_the_pico_uf2_boots_from_an_empty_flash_into_the_game_and_plays(tmp_path):
    path = built("pico")
    names = uf2.frozen_names(path)
    assert all(name in names for name in FIRMWARE), names
    image = str(tmp_path / "flash.img")
    with EmulatedPico(image, uf2=path, seed=5) as pico:
        screen = pico.until_screen("DICETOWER")
        assert screen is not None and screen[1] == "New Battlerealm", pico.screen()
        pico.put("heroes.json", HEROES)  # the player's own heroes
        assert reboot(pico)["event"] == "ready"
        assert pico.until_screen("DICETOWER") is not None
        pico.presses("caac")  # a new Battlerealm game for two
        twenty_taps_after_a_roll(pico, pico.pause)  # roll, then 20 quick taps while the advisor works
    files = read_littlefs(image)
    assert sorted(files) == ["game.sav", "heroes.json"]  # the firmware is in the UF2, not on the flash


@pytest.mark.slow
@needs_tools
def test_the_players_files_survive_a_new_uf2(tmp_path):
    path = built("pico")
    image = str(tmp_path / "flash.img")
    with EmulatedPico(image, uf2=path) as pico:
        pico.until_screen("DICETOWER")
        pico.put("config.json", b'{"board": "pico", "brightness": 40}')
        assert reboot(pico)["event"] == "ready"
        assert pico.until_screen("DICETOWER") is not None
        pico.presses("caac c")  # a new Battlerealm game for two; Hulk rolls (saved)
    before = read_littlefs(image)
    with EmulatedPico(image, uf2=path) as pico:  # the UF2 dropped on the drive again
        screen = pico.until_screen("DICETOWER")
        assert screen is not None and screen[1] == "Resume Battlerealm", pico.screen()
    after = read_littlefs(image)
    for name in ("game.sav", "config.json"):
        assert after[name] == before[name], name


@pytest.mark.slow
@needs_tools
def test_a_uf2_runs_its_own_firmware_over_an_older_flashed_copy(tmp_path):
    from dicetower_host import flash

    image = str(tmp_path / "flash.img")
    with EmulatedPico(image) as pico:  # the stock MicroPython and `dicetower flash`: .mpy files on the flash
        flash.flash(pico.url, "pico", out=io.StringIO(), ready_seconds=pico.READY_SECONDS)
    assert "dicetower/ui/flow.mpy" in read_littlefs(image)
    with EmulatedPico(image, uf2=built("pico")) as pico:
        assert pico.until_screen("DICETOWER") is not None, pico.screen()
        found = pico.run("import main\nprint(main.frozen())\nimport dicetower.built_in as b\nprint(b.BOARD)")
    assert found.split() == ["True", "pico"]


@pytest.mark.slow
@needs_tools
def test_the_rp2040_zero_boots_the_picos_build_with_its_own_pins(tmp_path):
    with EmulatedPico(str(tmp_path / "flash.img"), board="rp2040_zero", uf2=built("rp2040_zero")) as pico:
        screen = pico.until_screen("DICETOWER")
        assert screen is not None, pico.screen()
        pico.presses("bc")  # on the Zero's own pins (its profile's, not the Pico's): New Champions
        assert pico.until_screen("New Champions") is not None, pico.screen()


@pytest.mark.slow
@needs_tools
@pytest.mark.parametrize("board", ["pico_w", "pico2", "pico2_w"])
def test_the_other_boards_build_and_carry_the_firmware(board):
    names = uf2.frozen_names(built(board))
    assert all(name in names for name in FIRMWARE), names
    if board.endswith("_w"):
        assert "aioble/__init__.py" in names or any(n.startswith("aioble") for n in names), names
        # The scoreboard's server: microdot frozen beside the firmware (the version pinned in pyproject).
        assert all("microdot/" + name in names for name in flash.MICRODOT), names
    else:
        assert not any(name.startswith("microdot/") for name in names), names


# -- mip: the repository as a package ---------------------------------------------------------------------

def test_package_json_lists_what_a_board_needs():
    import json

    from dicetower_host import flash

    with open(os.path.join(ROOT, "package.json")) as f:
        urls = json.load(f)["urls"]
    assert urls == flash.mip_urls()  # every firmware module and board profile, none stale
    assert ["main.py", "firmware/main.py"] in urls and ["boards/pico.json", "boards/pico.json"] in urls


@pytest.mark.slow
def test_mip_installs_the_firmware_from_the_repository_onto_a_virtual_pico(tmp_path):
    import subprocess

    from conftest import tool

    files = tmp_path / "flash"
    bridge = subprocess.Popen([shutil.which("node"), os.path.join(ROOT, "vm", "pico.mjs"), "--files", str(files)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = bridge.stdout.readline()
        assert line.startswith("listening "), bridge.stderr.read()
        port = "socket://127.0.0.1:%s" % line.split()[1]

        def mpremote(*args):
            return subprocess.run([tool("mpremote"), "connect", port, *args], capture_output=True, text=True,
                                  timeout=300)

        # A local path to package.json is mip's offline index: its relative URLs are files beside it.
        done = mpremote("mip", "install", "--target", "/", os.path.join(ROOT, "package.json"))
        assert done.returncode == 0, done.stdout + done.stderr
        for rel in ("main.py", "dicetower/core/advisor.py", "boards/pico.json"):
            with open(os.path.join(ROOT, "firmware" if not rel.startswith("boards") else "", rel), "rb") as f:
                assert (files / rel).read_bytes() == f.read(), rel
        done = mpremote("exec", "import main\nprint(main.check())")
        assert done.stdout.split() == ["None"], done.stdout + done.stderr  # installed by hand: nothing to check
    finally:
        bridge.terminate()
        bridge.wait(timeout=10)
