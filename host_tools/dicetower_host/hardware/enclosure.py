"""The printable tower: `hardware/enclosure/tower.scad` rendered by OpenSCAD to STL and PNG.

The part sizes the model is cut for (the OLED's window, the ring, the
buttons' holes, the USB plug) come from `hardware/parts.json` and the
profile, passed to OpenSCAD with -D, so the openings always fit the parts
the BOM lists. The model reports where it put each opening on OpenSCAD's
console (`echo`); `openings()` reads those lines. `read_stl` and
`open_edges` check the result is a closed mesh.

OpenSCAD writes the same mesh with its triangles in varying orders, and another
build may shade a few edge pixels of the preview differently: a file whose mesh
(or picture) is the same as the one already there is left untouched, so
rendering a checkout leaves it clean.
"""

import os
import re
import shutil
import struct
import subprocess
import time

import numpy

from dicetower_host.errors import UserError
from dicetower_host.hardware import parts as parts_data

SCAD = os.path.join(parts_data.HARDWARE, "enclosure", "tower.scad")
INSTALL = (
    "OpenSCAD is not installed. On Debian or Ubuntu: sudo apt-get install openscad xvfb "
    "(xvfb draws the PNG on a machine without a screen); elsewhere see openscad.org/downloads."
)
# The preview's camera: eye, then the point it looks at (mm): from the front right, above.
CAMERA = "200,-160,160,40,60,50"


def parameters(name, parts=None):
    """OpenSCAD's parameters for the profile NAME, from the parts' data."""
    parts = parts or parts_data.load_parts()
    board = parts_data.load_board(name)
    usb = parts["usb"][parts_data.controller(parts, name)["usb"]]
    return {
        "oled_window": parts["oled"]["window_mm"],
        "oled_board": parts["oled"]["board_mm"],
        "ring_od": parts_data.ring(parts, board.leds["count"])["od_mm"],
        "button_hole": parts["button"]["hole_mm"],
        "button_count": len(board.buttons),
        "usb_plug": usb["plug_mm"],
        "usb_above": usb["above_board_mm"],
        "clearance": parts["clearance_mm"],
    }


def scad_value(value):
    if isinstance(value, list):
        return "[%s]" % ", ".join(scad_value(v) for v in value)
    return repr(value)


def openscad():
    """The command that runs OpenSCAD, or ValueError saying how to install it."""
    found = shutil.which("openscad")
    if not found:
        raise UserError(INSTALL)
    return found


def run_openscad(args, display):
    cmd = [openscad()] + args
    if display and not os.environ.get("DISPLAY"):
        # OpenSCAD draws PNGs with OpenGL, which needs a display: a virtual one when there is none.
        xvfb = shutil.which("xvfb-run")
        if not xvfb:
            raise UserError("OpenSCAD needs a display to draw the PNG: install xvfb (sudo apt-get install xvfb)")
        cmd = [xvfb, "-a"] + cmd
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        said = " / ".join(line.strip() for line in done.stderr.strip().splitlines() if line.strip())
        raise UserError("OpenSCAD failed (%s): %s" % (" ".join(args[:2]), said[-400:]))
    return done.stderr


def render(name, out, parts=None, png=True, kept=None):
    """Render the profile's tower into `out`: NAME.stl (and NAME.png). Returns (paths, openings, seconds).

    A file already there with the same mesh (the same picture) stays as it was; its path is
    appended to the list `kept` when one is given."""
    defines = []
    for key, value in parameters(name, parts).items():
        defines += ["-D", "%s=%s" % (key, scad_value(value))]
    os.makedirs(out, exist_ok=True)
    stl = os.path.join(out, name + ".stl")
    began = time.monotonic()
    fresh = stl + ".new"
    console = run_openscad(["-o", fresh, "--export-format", "binstl"] + defines + [SCAD], display=False)
    _replace_unless(fresh, stl, same_mesh, kept)
    paths = [stl]
    if png:
        paths.append(os.path.join(out, name + ".png"))
        fresh = paths[1][:-4] + ".new.png"  # OpenSCAD picks the format by the name's ending
        run_openscad(
            [
                "-o",
                fresh,
                "--render",
                "--imgsize=800,600",
                "--camera=" + CAMERA,
                "--viewall",
                "--colorscheme=Tomorrow",
                "-D",
                "with_plate=false",
            ]
            + defines
            + [SCAD],
            display=True,
        )
        _replace_unless(fresh, paths[1], same_picture, kept)
    return paths, openings(console), time.monotonic() - began


def _replace_unless(fresh, path, same, kept):
    """Move `fresh` over `path`, unless `path` already holds the same (then `fresh` goes)."""
    try:
        if os.path.exists(path) and same(fresh, path):
            os.remove(fresh)
            if kept is not None:
                kept.append(path)
            return
    except (OSError, ValueError):
        pass  # an unreadable old file is replaced
    os.replace(fresh, path)


def canonical(triangles):
    """The triangles in an order of their own, each from its smallest corner (its winding kept)."""
    rows = []
    for tri in triangles:
        k = min(range(3), key=lambda i: tuple(tri[i]))
        rows.append(tuple(numpy.roll(tri, -k, axis=0).ravel()))
    return sorted(rows)


def same_mesh(a, b):
    """Do the STL files `a` and `b` hold the same triangles, in whatever order?"""
    return canonical(read_stl(a)) == canonical(read_stl(b))


def same_picture(a, b, level=40, share=0.01):
    """Are the PNGs `a` and `b` the same picture: the same size, fewer than `share` of the pixels
    differing by more than `level` in grey (a software renderer of another build may shade a few
    edge pixels differently)?"""
    from PIL import Image, ImageChops

    with Image.open(a) as one, Image.open(b) as other:
        if one.size != other.size:
            return False
        differ = ImageChops.difference(one.convert("L"), other.convert("L")).point(lambda v: 255 if v > level else 0)
        return differ.histogram()[255] < share * one.size[0] * one.size[1]


ECHO = re.compile(r'ECHO: opening = "(\w+)", at = \[([^\]]*)\], size = \[([^\]]*)\]')
SKIN = re.compile(r"ECHO: skin_at = \[([^\]]*)\]")


def openings(console):
    """What the model echoed: [(kind, centre xyz, size)], plus ("skin", xyz, None) over the ring."""
    found = [(kind, numbers(at), numbers(size)) for kind, at, size in ECHO.findall(console)]
    found += [("skin", numbers(at), None) for at in SKIN.findall(console)]
    return found


def numbers(text):
    return [float(v) for v in text.split(",")]


def read_stl(path):
    """The triangles of an STL file (binary or ASCII), as an array of shape (n, 3, 3)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) >= 84:
        count = struct.unpack_from("<I", data, 80)[0]
        if len(data) == 84 + 50 * count:
            rows = numpy.frombuffer(
                data,
                dtype=numpy.dtype([("normal", "<f4", 3), ("v", "<f4", (3, 3)), ("attr", "<u2")]),
                count=count,
                offset=84,
            )
            return rows["v"].astype(float)
    text = data.decode("ascii", "replace")
    values = [float(v) for corner in re.findall(r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", text) for v in corner]
    return numpy.array(values, dtype=float).reshape(-1, 3, 3)


def open_edges(triangles):
    """Edges not shared by exactly one other triangle running the other way (none: closed and oriented)."""
    seen = {}
    for tri in triangles:
        corners = [tuple(v) for v in tri]
        for a, b in ((0, 1), (1, 2), (2, 0)):
            edge = (corners[a], corners[b])
            seen[edge] = seen.get(edge, 0) + 1
    return [edge for edge, n in seen.items() if n != 1 or seen.get((edge[1], edge[0]), 0) != 1]
