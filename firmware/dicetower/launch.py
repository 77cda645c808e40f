"""What main.py runs: the check of the flashed files, the device's boot, and the loop. Compiled to .mpy by
`dicetower flash` like the rest of the package: main.py, which MicroPython compiles from source at every
boot, only imports it. Tests and the simulator call `boot(platform)` with a virtual platform and step the
device themselves.

`dicetower flash` marks the manifest (each file's SHA-256) incomplete before
it copies and completes it after every other file. At boot the files are
checked against it, so a board whose copy was interrupted or whose flash was
damaged says "reflash needed" instead of running half old, half new code. No
manifest means the files were copied by hand (development): they are not
checked. Once the flash has had the board check every file ("checked" in the
complete manifest), boots trust it and skip the hashing (a third of a second
on a Pico): a copy cut short still leaves the manifest incomplete.

So that the notice can always be drawn, a flash writes this module, main.py
and the modules in BOOT_NEEDS first, each whole (to a temporary name, then
renamed; this module before main.py, which imports it); the incomplete manifest keeps the hashes
of the files they replace ("was"): mid-flash every one of them is whole, old or
new, and only a file that is neither (damaged) keeps the notice off the OLED.
This module imports nothing of the firmware until a function runs, so that it
loads whatever else is damaged.
"""

MANIFEST = "dicetower.manifest"
MANIFEST_MOST = 32768  # bytes: over twice a release's manifest, which two releases' make while a flash is cut
# What showing "reflash needed" on the OLED imports (dicetower/startup.py's room); if any of
# these is damaged the notice goes to the console only.
# What a flash writes before the manifest on a board that has a main.py (code.py on CircuitPython).
ENTRY = ("dicetower/launch.mpy", "dicetower/launch.py", "main.py", "code.py")
BOOT_NEEDS = (
    "dicetower/__init__",
    "dicetower/startup",
    "dicetower/core/__init__",
    "dicetower/core/board",
    "dicetower/core/board_check",
    "dicetower/hw/__init__",
    "dicetower/hw/oled",
    "dicetower/hw/platform",
    "dicetower/hw/circuitpy",
    "dicetower/hw/storage",
    "dicetower/hw/pixels",
    "dicetower/ui/__init__",
    "dicetower/ui/canvas",
    "dicetower/ui/font",
)


def check(root="/"):
    """What is wrong with the flashed files, as (problem, damaged paths), or None if nothing is."""
    import json

    try:
        with open(root + MANIFEST) as f:
            text = f.read(MANIFEST_MOST + 1)  # bounded: a huge file must not take the heap at boot
    except OSError:
        return None
    except (UnicodeError, MemoryError):
        return "the manifest is damaged", ()
    if len(text) > MANIFEST_MOST:
        return "the manifest is damaged", ()
    try:
        manifest = json.loads(text)
        files = manifest["files"]
        complete = manifest["complete"] is True
        was = {} if complete else manifest.get("was", {})
    except Exception:  # noqa: BLE001 (whatever the text is (nested past the parser's depth too), boot goes on)
        return "the manifest is damaged", ()
    if not isinstance(files, dict) or not all(isinstance(d, str) for d in files.values()) or not isinstance(was, dict):
        return "the manifest is damaged", ()
    if complete and manifest.get("checked") is True:
        return None  # every file was hashed on the board right after the flash
    damaged = _damaged(root, files, was)
    if damaged is None:
        # A build without hashlib: nothing to check the files with, only the manifest's word.
        return None if complete else ("the last flash did not finish", list(files))
    # A flash replaces this module and main.py (code.py) before anything else, the manifest next: either
    # new under the last flash's complete manifest is a flash cut right after it.
    if not complete or any(path in damaged for path in ENTRY):
        return "the last flash did not finish", damaged  # damaged: neither the new file nor the one it replaces
    if damaged:
        return "%d file%s damaged: %s" % (len(damaged), "" if len(damaged) == 1 else "s", " ".join(damaged)), damaged
    return None


def _damaged(root, files, was):
    """The manifest's files whose SHA-256 is neither its own nor the one it replaces (`was`), or that
    cannot be read; None on a build without hashlib."""
    try:
        import hashlib
        from binascii import hexlify
    except ImportError:
        return None
    buf = bytearray(512)
    view = memoryview(buf)
    damaged = []
    for path in sorted(files):
        digest = hashlib.sha256()
        try:
            with open(root + path, "rb") as f:
                while True:
                    n = f.readinto(buf)
                    if not n:
                        break
                    digest.update(view[:n])
        except OSError:
            damaged.append(path)
            continue
        found = hexlify(digest.digest()).decode()
        if found != files[path] and found != was.get(path):
            damaged.append(path)
    return damaged


def boot(platform=None):
    import gc

    if platform is None:
        from dicetower.hw.platform import make

        platform = make()
    # What only a saved Battlerealm game's play needs, first, while the heap is still one piece
    # (core/games/battlerealm/work_arrays.py says why); the App's read of the save adopts it.
    _saved_battlerealm(platform.root)
    # Loading the device's code (most of the firmware) leaves as much garbage as code: collected only once
    # the heap is full, what stays would be spread over all of it. Collected every 64 KB while it loads
    # (and, by wiring.py, before a saved game's modules and the start menu's are loaded), what stays is
    # packed low, and the largest free piece stays large enough for the next part of the VM's table of
    # names, which grows by doubling (tests/test_rp2040.py's power cut test resumes a Battlerealm game;
    # `rp2040_pico --heap-map` shows the pieces).
    threshold = getattr(gc, "threshold", None)  # CPython's gc has none
    if threshold is not None:
        gc.collect()
        threshold(65536)
    from dicetower.device import Device

    if threshold is not None:
        threshold(-1)
    return Device(platform)


def _saved_battlerealm(root):
    """Loads what a saved Battlerealm game needs first and returns its names: its descriptor's PLAY_ONLY
    (the advisor's work arrays) and, with a Lucky hero seated, all of the advice; () for any other save,
    or none. Told by the save's "game" key (core/savefile.py's encode; where it comes in the body is the
    dict's order, which MicroPython does not keep: a string in JSON cannot hold the key's quotes
    unescaped, so only the key matches), and Lucky by its code among the words (a word a value, "=g":
    names a player gives never start with "="). Lucky's search is machine code, a block a function:
    loaded at idle once a press at the start menu had resumed the game, it found no 1.5 KB block on a
    Pico (MemoryError; tests/test_rp2040.py resumes a Lucky hero's game)."""
    try:
        with open(root + "game.sav", "rb") as f:
            data = f.read(8192)  # core/savefile.py's LARGEST
    except OSError:
        return ()
    if b'"game":"battlerealm"' not in data:
        return ()
    from dicetower.core.games.battlerealm import PLAY_ONLY, set_aside
    from dicetower.core.savefile import MARKS, WORDS, code

    names = PLAY_ONLY
    if b'"' + code(WORDS.index("Lucky"), MARKS[1]).encode() + b'"' in data:
        names = tuple(reversed(set_aside))  # the work arrays, then the advice as its modules import one another
    for name in names:
        __import__("dicetower.core.games.battlerealm." + name)
    return names


def reflash_needed(problem, damaged):
    import json

    text = "Reflash needed: %s. Run dicetower flash again." % problem
    print(json.dumps({"event": "error", "error": text}))
    if any(path.rsplit(".", 1)[0] in BOOT_NEEDS for path in damaged):
        return  # a damaged module could crash the VM when loaded: the console has said it
    try:
        from dicetower.startup import show_on_oled
        from dicetower.hw.platform import make

        show_on_oled(make(), "REFLASH NEEDED", text)
    except Exception as e:  # noqa: BLE001 mid-flash, whole modules of two releases that do not fit together
        print("reflash needed: the OLED could not show it (%s: %s)" % (type(e).__name__, e))
