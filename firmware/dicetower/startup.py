"""Before the game starts: the settings, the board profile, and a problem shown on the OLED; what a cut
left of a file written whole swept (`sweep`), a save cut short told from a damaged one (`cut_short`).

Boot's alone: the device imports it while it starts and forgets it after (a game's heap does not
hold it); a start that fails keeps it, to show the problem. A loop that fails at every pass imports it
again to restart the board, saying why (`restarting`).

Kept to the few modules a display needs (board, oled, canvas, font), so that
main.py can still say "reflash needed" on the OLED when other firmware files
are damaged: launch.BOOT_NEEDS lists these files, and tests/test_layers.py
checks the list against what the notice imports.
"""

import json

from dicetower.core.board import BoardError
from dicetower.core.board_check import parse
from dicetower.hw.oled import Oled
from dicetower.hw.storage import read_text
from dicetower.ui.canvas import Canvas, wrap

FALLBACK_OLED = {"i2c": 0, "sda": 4, "scl": 5, "address": 0x3C, "freq": 400000}  # the Pico profile's
DEFAULTS = {"brightness": 100, "sounds": True, "watchdog": False}
# The most the tower reads of each file (bytes), each several times what it needs: a bigger file
# would not fit the Pico's heap once parsed, so it is refused unread.
CONFIG_BYTES = 4096
PROFILE_BYTES = 8192
MANIFEST_BYTES = 32768  # what `dicetower flash` writes (each file's SHA-256): a few times a release's
MANIFEST = "dicetower.manifest"
RESTARTED = "errors.reset"  # why the loop restarted the board (`restarting`), said and removed by the next boot
RESTART_MS = 1000  # the watchdog `restarting` starts, when none runs: the OLED says why meanwhile
# The files the firmware writes whole through hw/storage.replace (temporary file, then rename), and the
# most each holds: a cut while one is written leaves "<name>.tmp", swept at boot (`sweep`). game.sav's
# own is the save store's (saves.py reads it back). Another file ending in .tmp is not the tower's.
WRITTEN = (("config.json", CONFIG_BYTES), ("heroes.json", 16384), ("setup.json", 4096), (RESTARTED, 512))


def sweep(files, root, log):
    """The temporary files a cut left while the firmware wrote one of WRITTEN: removed, or on a FAT
    drive (where the old file is removed before the rename) taken as the file when it is alone and
    whole (JSON that parses: a file cut short never does). Never raises: a drive that refuses (read-only
    CircuitPython) keeps them for a later boot."""
    for name, limit in WRITTEN:
        temp = root + name + ".tmp"
        try:
            if not files.exists(temp):
                continue
            # errors.reset is text, which cannot show it is whole: its .tmp is never taken for it.
            if name != RESTARTED and not files.exists(root + name) and _parses(files, temp, limit):
                files.rename(temp, root + name)
                log("%s.tmp was whole: it is %s" % (name, name))
            else:
                files.remove(temp)
                log("%s.tmp, cut short by a power cut, removed" % name)
        except OSError:
            pass


def _parses(files, path, limit):
    from dicetower.hw.storage import read_at_most

    try:
        json.loads(read_at_most(files, path, limit))
        return True
    except Exception:  # noqa: BLE001 (too big, not UTF-8, not JSON, cut short: not a file to keep)
        return False


def config(root, log, damaged=None):
    """config.json merged over the defaults; bad values are logged and replaced. A file that cannot be
    used at all is logged, and its reason added to `damaged` (a list) for the caller to keep it aside."""
    settings = dict(DEFAULTS)
    loaded, why = None, None
    try:
        text = read_text(root + "config.json", CONFIG_BYTES)
    except ValueError as e:
        text, why = None, str(e)
    if text is not None:
        try:
            loaded = json.loads(text)
        except Exception:  # noqa: BLE001 (any parser error (too deep, out of memory) is a file not to use)
            why = "config.json is not valid JSON"
        if why is None and not isinstance(loaded, dict):
            why = "config.json holds no settings"
    if why is not None:
        log("%s; defaults used" % why)
        if damaged is not None:
            damaged.append(why)
    if isinstance(loaded, dict):
        settings.update(loaded)
    # Values a game relies on every frame are checked once, here.
    brightness = settings.get("brightness")
    if not isinstance(brightness, int) or isinstance(brightness, bool) or not 10 <= brightness <= 100:
        if brightness != 100:
            log("config.json: brightness must be a whole number 10-100; 100 used")
        settings["brightness"] = 100
    settings["sounds"] = settings.get("sounds") is not False
    settings["watchdog"] = settings.get("watchdog") is True
    name = settings.get("board")
    if name is not None and not (
        isinstance(name, str) and name and all(c.isalpha() or c.isdigit() or c in "_-" for c in name)
    ):
        # A profile's file name (boards/NAME.json): no folders, nothing a path could not hold.
        log("config.json: board must be a profile's name")
        settings["board"] = None
    return settings


def flashed_board(root):
    """The profile the last `dicetower flash` chose (its manifest's "board"), or None."""
    try:
        manifest = json.loads(read_text(root + MANIFEST, MANIFEST_BYTES) or "{}")
        name = manifest.get("board")
    except Exception:  # noqa: BLE001 (a damaged manifest names no board (the launch's check says the rest))
        return None
    return name if isinstance(name, str) else None


def _profile(path):
    try:
        return read_text(path, PROFILE_BYTES)
    except ValueError as e:
        raise BoardError(str(e))


def board(root, name, machine_name):
    """The profile `name` (from config.json), else the one whose machine name matches this chip.

    The profiles are the flash's boards/ folder, where `dicetower flash` puts the board's own. A board
    found by its name alone has `doubt`: the other profiles (Boards) whose board gives that name too (their
    "also_named": an RP2040-Zero running the Pico's MicroPython says it is a Pico), [] if none."""
    folder = root + "boards/"
    if name:
        text = _profile(folder + name + ".json")
        if text is None:
            raise BoardError("config.json names board %r but %s%s.json is missing" % (name, folder, name))
        return parse(text)
    import os

    try:
        names = [n for n in os.listdir(folder[:-1]) if n.endswith(".json")]
    except OSError:
        raise BoardError("no boards/ folder on the device; copy one profile from boards/")
    chosen = None
    doubt = []
    for n in sorted(names):
        try:
            text = _profile(folder + n)
            found = parse(text)
        except BoardError:
            continue
        found.key = n[:-5]  # its name for config.json's "board"
        if chosen is None and same_machine(found.machine, machine_name):
            chosen = found
        elif _also_named(text, machine_name):
            doubt.append(found)
    if chosen is not None:
        chosen.doubt = doubt
        return chosen
    raise BoardError(
        'no profile for %r; set "board" in config.json (have: %s)'
        % (machine_name, ", ".join(sorted(n[:-5] for n in names)))
    )


def _also_named(text, machine_name):
    """Does a profile's "also_named" (the names its board gives under another board's MicroPython)
    hold this one? A value that is not a list of names holds none."""
    also = json.loads(text).get("also_named")
    return isinstance(also, list) and any(isinstance(n, str) and same_machine(n, machine_name) for n in also)


def same_machine(profile, reported):
    """Does a profile's machine name name this board? Spaces and case aside: CircuitPython says
    "Raspberry Pi Pico 2 with RP2350" where MicroPython says "Raspberry Pi Pico2 with RP2350"."""
    return bool(profile) and profile.replace(" ", "").lower() == reported.replace(" ", "").lower()


def oled(platform, spec, log):
    """The display on the I2C bus the profile names (or the Pico's usual one)."""
    spec = spec or FALLBACK_OLED
    return Oled(platform.i2c(spec), spec["address"], log=log, diff=platform.ticks_diff)


def show_problem(display, canvas, title, text):
    """A title bar and the problem in words, on a display that may or may not be there."""
    canvas.clear()
    canvas.line(0, title, invert=True, centre=True)
    for row, line in enumerate(wrap(text)[:7]):
        canvas.line(row + 1, line)
    display.show(canvas.buf, 0)


def show_on_oled(platform, title, text):
    """Show a problem on the OLED (if one answers) when the game itself cannot start."""
    settings = config(platform.root, lambda line: None)
    try:
        spec = board(platform.root, settings.get("board") or flashed_board(platform.root), platform.machine_name).oled
    except BoardError:
        spec = None
    show_problem(oled(platform, spec, lambda line: None), Canvas(), title, text)


def restarting(dev, error, fails):
    """The device's loop failed at every pass, `fails` in a row (Device._crash; `error`, the last, as the
    log says it): why, on the console, in errors.log, on flash for the next boot to say (wiring.py), and
    on the OLED; then the board restarts through the watchdog, fed no more (one started if none runs;
    without one, the platform's reset). Imported again for it: boot's code, not a game's heap."""
    from dicetower.hw.storage import replace

    why = "%d errors in a row, the last %s" % (fails, error[:120])
    dev.console(json.dumps({"event": "error", "error": "Restarting: " + why}))
    dev.keep_log("Restarting: " + why)
    try:
        replace(dev.files, dev.root + RESTARTED, why)
    except OSError:
        pass  # a flash that refuses: the restart comes all the same, unexplained
    show_problem(dev.oled, dev.canvas, "RESTARTING", "An error came back at every step: the tower restarts. " + why)
    if dev.watchdog is None:
        try:
            dev.watchdog = dev.platform.watchdog(RESTART_MS)
        except Exception:  # noqa: BLE001 (a board without one: CircuitPython says so by RuntimeError)
            dev.reset()


def cut_short(fs, path):
    """What to say of a save found alone at boot that will not load (saves.py), when it is the start of a
    save cut by the power, not a damaged one: with no save under it, it was a new game's first. None
    otherwise. core/savefile.py's header: its magic, then the schema, checksum and body's length on one
    line, then the body."""
    from dicetower.core.savefile import LARGEST, MAGIC
    from dicetower.hw.storage import read_at_most

    try:
        data = read_at_most(fs, path, LARGEST)
    except ValueError:  # too big (TooBig) to be a save cut short
        return None
    end = data.find(b"\n")
    if len(data) <= len(MAGIC):
        cut = MAGIC.startswith(data)
    elif not data.startswith(MAGIC):
        cut = False
    elif end < 0:
        cut = True  # its header's line was being written
    else:
        parts = data[len(MAGIC) : end].split()
        try:
            cut = len(parts) == 3 and len(data) - end - 1 < int(parts[2])
        except ValueError:
            cut = False
    return "The new game's first save was cut short: start it again" if cut else None
