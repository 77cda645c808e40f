"""Nothing that came from another project's repository is kept here: no firmware, ROM or archive, no
source file under another project's copyright, no recipe that builds MicroPython, the pico-sdk or
picotool. Third-party material reaches the product only as registry packages (pyproject.toml,
package.json) that the project's own setup installs; MicroPython's firmware comes from MicroPython.

The patterns are put together from pieces, so that this file does not find itself."""

import os
import re
import subprocess

from conftest import ROOT

# Images a board or chip boots, and archives that carry someone else's tree.
BLOBS = re.compile(r"\.(uf2|bin|elf|hex|img|tar|tgz|tbz2|xz|zst|zip|7z|whl|jar)(\.|$)", re.IGNORECASE)
HEADERS = re.compile(
    "|".join(
        (
            "This file is part of the " + "MicroPython project",
            r"Copyright \(c\) [0-9]{4}.*("
            + "Raspberry Pi"
            + "|"
            + "Damien P. "
            + "George"
            + "|"
            + "Ha "
            + "Thach"
            + ")",
            "SPDX-License-Identifier: " + "BSD-3-Clause",  # the pico-sdk's, TinyUSB's
        )
    )
)
RECIPES = re.compile(
    "|".join(
        (
            r"make\s+(-C\s+)?\S*ports/rp2",  # MicroPython's rp2 port built
            "FROZEN" + "_MANIFEST",
            "PICO" + "_SDK_PATH",
            "PICO" + "_BOARD=",
            r"cmake\s.*pico" + "tool",
            "dicetower " + "uf2",
            r"build\." + "sh",
            r"sources\." + "json",
            r"b1\." + "bin",
            r"git\s+clone\s+\S*(micropython|pico-sdk|picotool|tinyusb)",
        )
    )
)


def tracked_files():
    """The repository's files as git tracks them (a clean clone's), else every file below ROOT but the
    installs (.venv, node_modules) and caches."""
    done = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if done.returncode == 0 and done.stdout:
        return [name for name in done.stdout.decode().split("\0") if name and os.path.exists(os.path.join(ROOT, name))]
    skip = {".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", ".mypy_cache", ".hypothesis", "build"}
    found = []
    for top, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip]
        found += [os.path.relpath(os.path.join(top, name), ROOT) for name in names]
    return found


def text_of(name):
    with open(os.path.join(ROOT, name), "rb") as f:
        data = f.read()
    return None if b"\0" in data else data.decode("utf-8", "replace")


def test_no_firmware_rom_or_archive_is_kept():
    assert [name for name in tracked_files() if BLOBS.search(name)] == []


def test_no_binary_file_is_kept_but_pictures_and_fonts():
    """A firmware image renamed is still one: any file with NUL bytes must be a picture the project draws."""
    allowed = (".png", ".jpg", ".jpeg", ".gif", ".ico", ".ttf", ".otf", ".woff", ".woff2", ".stl", ".3mf")
    binary = [name for name in tracked_files() if not name.lower().endswith(allowed) and text_of(name) is None]
    assert binary == []


def test_no_file_carries_another_projects_copyright_header():
    found = []
    for name in tracked_files():
        text = text_of(name)
        if text is not None and name != "tests/test_outside_material.py":
            found += ["%s: %s" % (name, m.group(0)) for m in HEADERS.finditer(text)]
    assert found == []


def test_no_code_or_doc_builds_micropython_the_pico_sdk_or_picotool():
    found = []
    for name in tracked_files():
        text = text_of(name)
        if text is not None and name != "tests/test_outside_material.py":  # its own examples below
            found += [
                "%s:%d: %s" % (name, text.count("\n", 0, m.start()) + 1, m.group(0)) for m in RECIPES.finditer(text)
            ]
    assert found == []


def test_the_patterns_find_what_they_are_for():
    """A guard that cannot fail guards nothing: each pattern finds the material it is for."""
    for name in (
        "rp2040/firmware/RPI_PICO-v1.27.0.uf2",
        "rp2040/bootrom/b1" + ".bin",
        "rp2040/sources/pico-sdk.tar.xz",
        "dist/x-1.0-py3-none-any.whl",
    ):
        assert BLOBS.search(name), name
    assert not BLOBS.search("docs/binary_dice.md") and not BLOBS.search("firmware/dicetower/hw/bin.py")
    assert HEADERS.search(" * This file is part of the " + "MicroPython project, http://micropython.org/")
    assert HEADERS.search(" * Copy" + "right (c) 2020 Raspberry Pi (Trading) Ltd.")
    for line in (
        "make -C micropython/ports/" + "rp2 BOARD=RPI_PICO",
        "cmake -S pico" + "tool -B build/pico" + "tool",
        "  " + "FROZEN" + "_MANIFEST=/tmp/m.py",
        "git clone https://example.invalid/raspberrypi/" + "pico-sdk",
    ):
        assert RECIPES.search(line), line
