"""hardware/: the BOM, power budget, wiring and enclosure are made from boards/ and parts.json,
and what is committed is what the command makes, so the guide cannot disagree with the firmware."""

import collections
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy
import pytest
from PIL import Image

from conftest import ROOT, tool
from dicetower.core import board as rules
from dicetower.core.board import Board
from dicetower.core.board_check import parse
from dicetower_host.hardware import enclosure, parts, wiring

PROFILES = parts.profile_names()
HARDWARE = os.path.join(ROOT, "hardware")
PARTS = parts.load_parts()


def profile_data(name):
    with open(os.path.join(ROOT, "boards", name + ".json")) as f:
        return json.load(f)


def pins_in_drawing(svg):
    """How often each GPn label is written in an SVG drawing."""
    texts = ["".join(e.itertext()).strip() for e in ET.fromstring(svg).iter() if e.tag.endswith("}text")]
    return collections.Counter(t for t in texts if re.fullmatch(r"GP\d+", t))


def test_every_profile_has_committed_hardware_files():
    assert PROFILES == ["pico", "pico2", "pico2_w", "pico_w", "rp2040_zero"]
    for name in PROFILES:
        for path in (
            "bom/%s.md",
            "wiring/%s.md",
            "wiring/%s.svg",
            "wiring/%s.png",
            "wiring/%s-top.png",
            "enclosure/%s.stl",
            "enclosure/%s.png",
        ):
            assert os.path.exists(os.path.join(HARDWARE, path % name)), path % name


@pytest.mark.parametrize("name", PROFILES)
def test_the_drawing_shows_every_pin_the_profile_uses_once(name):
    board = parts.load_board(name)
    drawn = pins_in_drawing(wiring.drawing(name, PARTS).get_imagedata("svg"))
    assert set(drawn) == {"GP%d" % pin for pin, use in board.pins()}
    assert all(n == 1 for n in drawn.values()), drawn  # one function per pin: the firmware allows no sharing
    table = wiring.pin_table(name, PARTS)
    for pin, use in board.pins():
        assert re.search(r"\| GP%d \|" % pin, table), (pin, use)


@pytest.mark.parametrize("name", PROFILES)
def test_the_drawing_shows_each_of_the_rings_pads_once(name):
    texts = [
        "".join(e.itertext()).strip()
        for e in ET.fromstring(wiring.drawing(name, PARTS).get_imagedata("svg")).iter()
        if e.tag.endswith("}text")
    ]
    header = PARTS["headers"][PARTS["controllers"][name]["header"]]
    # 5V: the ring's pad, plus the board's pin where the board calls it 5V too (not VBUS)
    assert texts.count("5V") == 1 + (header["5V"] == "5V"), texts
    assert texts.count("DIN") == 1 and texts.count("1000 uF") == 1


@pytest.mark.parametrize("name", ["pico", "pico_w", "pico2", "pico2_w"])
def test_the_board_from_above_marks_each_pin_the_tower_uses_and_no_other(name):
    """The top view puts pin 1 at the USB end, top left, and 21 to 40 up the right side: each pin the
    wiring table names (GND and power included) is filled, every other pin is an empty ring."""
    image = wiring.top_view(name, PARTS).convert("RGB")
    used = {number for _, _, _, number, _ in wiring.numbered_wires(parts.load_board(name), name, PARTS)}
    assert {6, 7, 36, 40} <= used  # the OLED's SDA, SCL and 3V3, the ring's 5V
    for number in range(1, 41):
        assert image.getpixel(wiring.pin_xy(number)) == (wiring.USED if number in used else (255, 255, 255)), number


def test_a_pin_given_two_jobs_shows_twice_in_the_drawing():
    # The firmware's parser refuses such a profile; drawn anyway, the check above would catch it.
    data = profile_data("pico")
    data["buzzer"] = data["buttons"]["a"]["pin"]
    drawn = pins_in_drawing(wiring.drawing("pico", PARTS, board=Board(data)).get_imagedata("svg"))
    assert drawn["GP10"] == 2
    with pytest.raises(rules.BoardError, match="GP10 is used twice"):
        parse(json.dumps(data))


@pytest.mark.parametrize("name", PROFILES)
def test_committed_bom_and_wiring_are_what_the_command_makes(name, tmp_path):
    done = subprocess.run(
        [tool("dicetower"), "hardware", "wiring", "--board", name, "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    for ext in (".md", ".svg"):
        with open(os.path.join(HARDWARE, "wiring", name + ext)) as a, open(str(tmp_path / (name + ext))) as b:
            assert a.read() == b.read(), "hardware/wiring/%s%s is stale: run dicetower hardware wiring" % (name, ext)
    for ext in (".png", "-top.png"):
        fresh = Image.open(str(tmp_path / (name + ext)))
        kept = Image.open(os.path.join(HARDWARE, "wiring", name + ext))
        assert fresh.size == kept.size and fresh.tobytes() == kept.tobytes(), name + ext
    with open(os.path.join(HARDWARE, "bom", name + ".md")) as f:
        assert f.read() == parts.bom_markdown(name, PARTS)


def test_power_budget_at_the_firmwares_cap_fits_a_usb_port():
    board = parts.load_board("pico")
    rows, at_cap, at_full = parts.power_budget(board, "pico", PARTS)
    # 12 LEDs, cap 300/720: the driver scales 255 to (255 * 106) >> 8 = 105 per colour, 20 mA at 255.
    assert parts.ring_ma(board, PARTS) == pytest.approx(36 * 105 / 255 * 20 + 12)
    assert parts.ring_ma(board, PARTS, capped=False) == pytest.approx(36 * 20 + 12)
    assert at_cap == pytest.approx(36 * 105 / 255 * 20 + 12 + 25 + 20 + 5)
    assert at_cap <= parts.USB_LIMIT_MA < at_full
    assert "within 500 mA" in parts.bom_markdown("pico", PARTS)
    assert "OVER 500 mA" in parts.bom_markdown("pico", PARTS)


def test_the_budget_follows_the_profiles_current_budget():
    data = profile_data("pico")
    data["leds"]["budget_ma"] = 600
    board = Board(data)
    assert parts.ring_ma(board, PARTS) > 580  # the firmware's cap rose with the budget, and so did the current
    rows, at_cap, at_full = parts.power_budget(board, "pico", PARTS)
    assert at_cap > parts.USB_LIMIT_MA


def test_bom_lists_each_profiles_parts():
    zero = parts.bom_markdown("rp2040_zero", PARTS)
    assert "Waveshare RP2040-Zero" in zero and "buzzer" not in zero  # its profile has no buzzer
    pico = parts.bom_markdown("pico", PARTS)
    assert "| 12 mm panel-mount momentary push button (normally open, 2 pins) | 3 |" in pico
    assert "12 LEDs, about 37 mm across" in pico
    data = profile_data("pico")
    data["leds"]["count"] = 7
    with pytest.raises(ValueError, match="leds.count 7"):
        parts.bom_rows(Board(data), "pico", PARTS)


# The enclosure: OpenSCAD renders; CI installs it (.ci/run), elsewhere the test says it was not run.
needs_openscad = pytest.mark.skipif(
    not shutil.which("openscad") and not os.environ.get("CI"),
    reason="openscad is not installed (apt-get install openscad xvfb)",
)


def inside(triangles, point):
    """Is the point inside the closed mesh? A ray's crossings counted (Moller-Trumbore), odd = inside."""
    d = numpy.array([0.0123, 0.0371, 0.9992])
    d /= numpy.linalg.norm(d)  # off every axis, so the ray misses the model's edges
    v0 = triangles[:, 0]
    e1, e2 = triangles[:, 1] - v0, triangles[:, 2] - v0
    h = numpy.cross(d, e2)
    a = (e1 * h).sum(1)
    ok = numpy.abs(a) > 1e-12
    f = numpy.where(ok, 1 / numpy.where(ok, a, 1), 0)
    s = numpy.asarray(point, float) - v0
    u = f * (s * h).sum(1)
    q = numpy.cross(s, e1)
    v = f * (q * d).sum(1)
    t = f * (q * e2).sum(1)
    return bool((ok & (u >= 0) & (u <= 1) & (v >= 0) & (u + v <= 1) & (t > 0)).sum() % 2)


def expected_sizes(name):
    """Each opening's size straight from the BOM data, with the fitting clearance."""
    c = 2 * PARTS["clearance_mm"]
    board = parts.load_board(name)
    usb = PARTS["usb"][PARTS["controllers"][name]["usb"]]
    return {
        "oled": [PARTS["oled"]["window_mm"][0] + c, PARTS["oled"]["window_mm"][1] + c],
        "button": [PARTS["button"]["hole_mm"] + c] * 2,
        "ring": [PARTS["rings"][str(board.leds["count"])]["od_mm"] + c] * 2,
        "usb_width": usb["plug_mm"][0] + c,
    }


def distinct_towers():
    """One profile for each different set of OpenSCAD parameters (the Picos share one tower)."""
    seen = {}
    for name in PROFILES:
        seen.setdefault(json.dumps(enclosure.parameters(name, PARTS), sort_keys=True), name)
    return sorted(seen.values())


@pytest.mark.slow  # OpenSCAD renders a mesh: over a second each
@needs_openscad
@pytest.mark.parametrize("name", distinct_towers())
def test_rendered_tower_is_closed_and_its_openings_fit_the_parts(name, tmp_path):
    (stl,), openings, seconds = enclosure.render(name, str(tmp_path), PARTS, png=False)
    mesh = enclosure.read_stl(stl)
    assert len(mesh) > 100
    assert enclosure.open_edges(mesh) == []
    sizes = expected_sizes(name)
    kinds = collections.Counter(kind for kind, at, size in openings)
    assert kinds == {"oled": 1, "button": len(parts.load_board(name).buttons), "ring": 1, "usb": 1, "skin": 1}
    near, far = 0.3, 0.3  # mm inside and outside an opening's edge
    for kind, at, size in openings:
        at = numpy.array(at)
        if kind == "skin":  # the tray floor over the ring is there: dice cannot fall in
            assert inside(mesh, at)
            continue
        if kind == "usb":
            assert size[0] == pytest.approx(sizes["usb_width"])
        else:
            assert size == pytest.approx(sizes[kind]), kind
        assert not inside(mesh, at), kind
        # Across: x for every opening; up: z for the front and back walls, y for the ring's pocket.
        up = numpy.array([0, 1, 0]) if kind == "ring" else numpy.array([0, 0, 1])
        for axis, extent in ((numpy.array([1, 0, 0]), size[0]), (up, size[1])):
            # the USB slot is open at the bottom edge, so that the board slides in with its plug
            for sign in (1,) if kind == "usb" and axis is up else (1, -1):
                edge = at + sign * axis * extent / 2
                assert not inside(mesh, edge - sign * axis * near), (kind, axis, sign, "too small")
                assert inside(mesh, edge + sign * axis * far), (kind, axis, sign, "too big")
    assert seconds < 60


@pytest.mark.slow  # OpenSCAD renders a mesh: over a second each
@needs_openscad
@pytest.mark.parametrize("name", PROFILES)
def test_committed_tower_is_what_openscad_makes(name, tmp_path):
    (stl,), _, _ = enclosure.render(name, str(tmp_path), PARTS, png=False)
    kept = enclosure.read_stl(os.path.join(HARDWARE, "enclosure", name + ".stl"))
    assert enclosure.canonical(kept) == enclosure.canonical(enclosure.read_stl(stl)), (
        "run: dicetower hardware enclosure"
    )


@pytest.mark.slow
@needs_openscad
def test_enclosure_command_draws_a_preview(tmp_path):
    done = subprocess.run(
        [tool("dicetower"), "hardware", "enclosure", "--board", "pico", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    fresh = Image.open(str(tmp_path / "pico.png"))
    low, high = fresh.convert("L").getextrema()
    assert fresh.size == (800, 600) and high - low > 100  # not a blank picture
    # The same model and view; a software renderer of another build may shade a few edge pixels
    # differently, so the committed preview is the same picture, not necessarily the same bytes.
    assert enclosure.same_picture(str(tmp_path / "pico.png"), os.path.join(HARDWARE, "enclosure", "pico.png"))
    # Run again over its own output: both files are the same, so neither is written.
    again = subprocess.run(
        [tool("dicetower"), "hardware", "enclosure", "--board", "pico", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "pico.stl (unchanged)" in again.stdout and "pico.png (unchanged)" in again.stdout, again.stdout


@pytest.mark.slow  # OpenSCAD renders a mesh twice
@needs_openscad
def test_rendering_leaves_a_file_with_the_same_mesh_untouched(tmp_path):
    """A fresh clone stays clean: OpenSCAD writes the same triangles in another order, which is no change."""
    committed = os.path.join(HARDWARE, "enclosure", "pico.stl")
    with open(committed, "rb") as f:
        data = f.read()
    count = (len(data) - 84) // 50
    rows = [data[84 + 50 * i : 84 + 50 * (i + 1)] for i in range(count)]
    shuffled = data[:84] + b"".join(reversed(rows))  # the same triangles, another order
    stl = tmp_path / "pico.stl"
    stl.write_bytes(shuffled)
    kept = []
    (path,), _, _ = enclosure.render("pico", str(tmp_path), PARTS, png=False, kept=kept)
    assert kept == [path] and stl.read_bytes() == shuffled and os.listdir(tmp_path) == ["pico.stl"]
    stl.write_bytes(data[: 84 + 50 * (count - 1)])  # a triangle short: another mesh, rewritten
    kept = []
    enclosure.render("pico", str(tmp_path), PARTS, png=False, kept=kept)
    assert kept == [] and enclosure.same_mesh(str(stl), committed)


def test_without_openscad_the_command_says_how_to_install_it(tmp_path):
    env = dict(os.environ, PATH=os.path.dirname(tool("dicetower")))
    done = subprocess.run(
        [tool("dicetower"), "hardware", "enclosure", "--board", "pico", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 2
    assert "apt-get install openscad" in done.stderr


def test_the_models_defaults_are_the_pico_profiles_parts():
    # So tower.scad opened alone in OpenSCAD is the Pico's tower.
    with open(enclosure.SCAD) as f:
        text = f.read()
    for key, value in enclosure.parameters("pico", PARTS).items():
        assert re.search(r"^%s = %s;" % (re.escape(key), re.escape(enclosure.scad_value(value))), text, re.M), key


def test_the_guide_quotes_the_pico_figures_the_tools_make():
    with open(os.path.join(HARDWARE, "README.md")) as f:
        guide = f.read()
    numbers = PARTS["headers"]["pico"]["numbers"]
    used = {"GP%d" % pin for pin, use in parts.load_board("pico").pins()}
    quoted = re.findall(r"(GP\d+), pin (\d+)|(GP\d+|3V3\(OUT\))\s+\(pin\s+(\d+)\)", guide)
    assert len(quoted) >= 8
    for a, an, b, bn in quoted:
        pin, number = a or b, int(an or bn)
        assert numbers[pin] == number and (pin in used or pin == "3V3(OUT)"), pin
    bom = parts.bom_markdown("pico", PARTS)
    figures = re.search(
        r"draws (\d+) mA, everything together\s+(\d+) mA, within 500 mA with (\d+) mA to spare;"
        r" the same ring with no cap would\s+draw (\d+) mA and the box (\d+) mA",
        guide,
    )
    ring, total, spare, ring_full, total_full = figures.groups()
    assert "cap (0.42) | %s |" % ring in bom and "**%s** (within 500 mA, %s mA to spare)" % (total, spare) in bom
    assert "no cap (for comparison) | %s |" % ring_full in bom and "| %s (OVER" % total_full in bom
