"""`dicetower sim`: the firmware's own main.py on a laptop, with virtual buttons, OLED and ring.

Headless (`--script`): play a script of presses and waits, print the final
state as JSON, and with `--png` picture the tower at each `mark` (or at the
end). Interactive (no script): the terminal UI in dicetower_host/sim/tui.py.

The device's files (boards/, config.json, game.sav...) live in `--state-dir`,
so quitting and starting again with the same folder offers to resume, as the
device does after a power cut. Interactive runs keep them in
~/.dicetower/sim unless told otherwise; scripts start from a fresh folder,
so that a script always plays the same way.
"""

import hashlib
import json
import os
import sys
import tempfile

from dicetower_host import paths, virtual_parts
from dicetower_host.errors import UserError

BOARDS = paths.BOARDS
DEFAULT_STATE = os.path.join(os.path.expanduser("~"), ".dicetower", "sim")


RUNTIMES = ("micropython", "circuitpython")


def use_virtual_parts(runtime="micropython"):
    """Make `import machine` (or CircuitPython's `board`, `busio`... and Adafruit's `neopixel`) and
    `import main` find the virtual parts and the firmware."""
    virtual_parts.install(runtime)


def prepare_root(state_dir=None, notices=None):
    """The device's filesystem root, with every board profile in boards/.

    A profile is written when it is missing, or when it is still what the simulator wrote there
    last (a newer shipped profile replaces it); a profile a maker has edited in the folder is kept,
    and `notices` (a list) gets one line saying which. UserError for a folder that cannot be one."""
    if state_dir is None:
        root = tempfile.mkdtemp(prefix="dicetower-")
    else:
        root = os.path.abspath(state_dir)
        if os.path.exists(root) and not os.path.isdir(root):
            raise UserError(
                "--state-dir %s is a file, not a folder (a new folder is made if it is missing)" % state_dir
            )
    try:
        os.makedirs(os.path.join(root, "boards"), exist_ok=True)
        with tempfile.TemporaryFile(dir=root):  # the device saves its game there: it must be writable
            pass
        kept = _write_profiles(root)
    except OSError as e:
        raise UserError("--state-dir %s: cannot keep the device's files there (%s)" % (state_dir, e.strerror or e))
    if kept and notices is not None:
        notices.append(
            "kept the profile%s you edited in %s: %s (delete one to get the shipped one back)"
            % ("" if len(kept) == 1 else "s", os.path.join(root, "boards"), ", ".join(kept))
        )
    return root + os.sep


# What the simulator last wrote into boards/, by name: the SHA-256 of each profile. A profile that
# no longer matches it was edited there, and is the maker's to keep.
WRITTEN = ".sim-profiles.json"


def _write_profiles(root):
    """Copy the shipped profiles into root/boards/ where that loses nothing; the names kept as edited."""
    record_path = os.path.join(root, WRITTEN)
    record = _read_json(record_path)[0]
    if not isinstance(record, dict):
        record = {}
    written = {}
    kept = []
    for name in sorted(os.listdir(BOARDS)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(BOARDS, name), "rb") as f:
            shipped = f.read()
        dest = os.path.join(root, "boards", name)
        try:
            with open(dest, "rb") as f:
                present = _sha256(f.read())
        except FileNotFoundError:
            present = None
        if present is not None and present != _sha256(shipped) and present != record.get(name):
            kept.append(name)
            written[name] = record.get(name)
            continue
        if present != _sha256(shipped):
            with open(dest, "wb") as f:
                f.write(shipped)
        written[name] = _sha256(shipped)
    if written != record:
        with open(record_path, "w") as f:
            json.dump(written, f, indent=1, sort_keys=True)
    return kept


def _sha256(data):
    return hashlib.sha256(data).hexdigest()


DEEP = "nested too deeply to read"


def _read_json(path):
    """(the JSON value, None) or (None, why it cannot be read); (None, None) for a missing file."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None, None
    try:
        return json.loads(data.decode("utf-8")), None
    except UnicodeError:
        return None, "not UTF-8 text"
    except RecursionError:
        return None, DEEP
    except json.JSONDecodeError as e:
        return None, "not valid JSON at line %d, column %d" % (e.lineno, e.colno)


def check_profile(root, board):
    """The profile the simulator wires its virtual parts from, checked by the firmware's own rules."""
    from dicetower.core.board import BoardError
    from dicetower.core.board_check import parse
    from dicetower_host.virtual_parts.script import is_name

    path = os.path.join(root, "boards", board + ".json")
    if not is_name(board) or not os.path.exists(path):
        raise paths.unknown_board(board)
    data, why = _read_json(path)
    try:
        if why is not None:
            raise BoardError(why)
        parse(json.dumps(data))
    except BoardError as e:
        raise UserError("%s: %s; fix it, or delete it and the simulator writes the shipped one again" % (path, e))
    # The firmware reads every profile in boards/ when config.json names none: one nested past what
    # a JSON reader can follow stops it, so it is named here.
    for name in sorted(os.listdir(os.path.join(root, "boards"))):
        other = os.path.join(root, "boards", name)
        if name.endswith(".json") and _read_json(other)[1] == DEEP:
            raise UserError("%s: %s; fix it or delete it" % (other, DEEP))


class TeachingFaces:
    """Set faces first (for teaching), then fair dice."""

    def __init__(self, faces, then):
        from dicetower.core.replay import ScriptedFaces

        self.scripted = ScriptedFaces(faces)
        self.then = then
        self.name = "set faces, then " + then.name
        self.failure = None

    def draw(self, die):
        if self.scripted.position < len(self.scripted.faces):
            return self.scripted.draw(die)
        return self.then.draw(die)

    def recover(self):
        return True


def make_dice(seed=None, faces=None):
    from dicetower.core.entropy import FairDice
    from dicetower.core.replay import SeededSource
    from dicetower.hw.entropy import Urandom

    dice = FairDice(SeededSource(seed)) if seed is not None else FairDice(Urandom(name="host os.urandom"))
    if faces:
        from dicetower.core.dice import ATTACK, BATTLEREALM, DANGER_COIN

        names = [f.strip() for f in faces.split(",") if f.strip()]
        known = set(BATTLEREALM.faces) | set(ATTACK.faces) | set(DANGER_COIN.faces)
        for name in names:
            if name not in known:
                raise UserError("--faces: %r is not a face (%s)" % (name, ", ".join(BATTLEREALM.faces)))
        dice = TeachingFaces(names, dice)
    return dice


def boot(board="pico", seed=None, faces=None, state_dir=None):
    use_virtual_parts()
    from dicetower_host.virtual_parts.tower import Tower

    notices = []
    dice = make_dice(seed, faces)
    root = prepare_root(state_dir, notices)
    check_profile(root, board)
    if board != "pico" or os.path.exists(os.path.join(root, "config.json")):
        _set_config(root, board, notices)
    tower = Tower(root, board, dice)
    tower.notices = notices  # for the user: the caller prints them (and the terminal UI shows them)
    return tower


def _set_config(root, board, notices):
    """config.json names the board; one that cannot be read is kept aside (never lost) for a new one."""
    path = os.path.join(root, "config.json")
    config, why = _read_json(path)
    if why is None and os.path.exists(path) and not isinstance(config, dict):
        why = 'not an object like {"board": "pico"}'
    if why is not None:
        aside = _aside(path)
        os.replace(path, aside)
        notices.append(
            "%s could not be read (%s); it is kept as %s, and a new one names board %s"
            % (path, why, os.path.basename(aside), board)
        )
        config = None
    config = config or {}
    if config.get("board") == board:
        return
    config["board"] = board
    with open(path, "w") as f:
        json.dump(config, f)


def _aside(path):
    """A free name beside `path` for a file set aside: path.bad1, path.bad2... (as the device names a save)."""
    n = 1
    while os.path.exists("%s.bad%d" % (path, n)):
        n += 1
    return "%s.bad%d" % (path, n)


def failed(when, error):
    """The one line for the firmware raising (or freezing) in the simulator: what, and when; its traceback
    is kept in a file the line names, for whoever fixes it. The exit status is 1."""
    import traceback

    fd, path = tempfile.mkstemp(prefix="dicetower-sim-", suffix=".traceback.txt")
    with os.fdopen(fd, "w") as f:
        f.write("dicetower sim: the firmware failed %s\n\n" % when)
        traceback.print_exception(type(error), error, error.__traceback__, file=f)
    said = " ".join(("%s: %s" % (type(error).__name__, error)).split())
    if len(said) > 300:
        said = said[:300] + "..."
    sys.stderr.write("dicetower sim: the firmware failed %s: %s (its traceback: %s)\n" % (when, said, path))
    return 1


def run_script(text, board=None, seed=None, faces=None, state_dir=None, png=None, out=sys.stdout):
    """Play a script headless; print the final snapshot as JSON. Returns the exit status.

    With `png`: the tower at the end is written to that very path, and the tower at each `mark`
    beside it (x-MARK.png for x.png); stderr lists what was written, in one line. The firmware
    raising, as it starts or at a step, is one line (`failed`), status 1."""
    use_virtual_parts()
    from dicetower_host.virtual_parts.script import ScriptError, parse, play, setting

    try:
        steps = parse(text)
    except ScriptError as e:
        sys.stderr.write("dicetower sim: %s\n" % e)
        return 2
    if png:
        check_png(png)
    board = board or setting(steps, "board", "pico")
    seed = seed if seed is not None else setting(steps, "seed")
    try:
        tower = boot(board, seed, faces, state_dir)
    except UserError:
        raise
    except Exception as e:  # noqa: BLE001 the firmware's own failure, said in one line
        return failed("as it started", e)
    for line in tower.notices:
        sys.stderr.write("dicetower sim: %s\n" % line)
    pictures = []
    done = [0]  # steps played

    def on_step(n, command, args):
        done[0] += 1
        if command == "mark" and png:
            pictures.append(_picture(tower, _png_path(png, args[0])))

    try:
        play(tower, steps, on_step)
    except ScriptError as e:
        sys.stderr.write("dicetower sim: %s\n" % e)
        return 2
    except UserError:
        raise
    except Exception as e:  # noqa: BLE001
        n, command, args = steps[done[0]]
        return failed("at line %d of the script (%s %s)" % (n, command, " ".join(map(str, args))), e)
    if png:
        marks = list(pictures)
        pictures.append(_picture(tower, png))
        sys.stderr.write(
            "dicetower sim: wrote %s (the end)%s\n" % (png, "; at each mark: " + ", ".join(marks) if marks else "")
        )
    result = tower.snapshot()
    result["pictures"] = pictures
    result["events"] = tower.events()
    out.write(json.dumps(result, indent=1) + "\n")
    return 0


def check_png(png):
    """Before a script plays: --png's folder must be there, and the path not a folder itself."""
    folder = os.path.dirname(os.path.abspath(png))
    if not os.path.isdir(folder):
        raise UserError("--png %s: there is no folder %s (make it first)" % (png, folder))
    if os.path.isdir(png):
        raise UserError("--png %s is a folder; give a file name, e.g. %s" % (png, os.path.join(png, "tower.png")))


def _picture(tower, path):
    from dicetower_host.sim import picture

    try:
        picture.render(tower).save(path, format="PNG")  # a PNG whatever the name ends with
    except OSError as e:
        raise UserError("--png: cannot write %s (%s)" % (path, e.strerror or e))
    return path


def _png_path(png, mark):
    base, ext = os.path.splitext(png)
    return "%s-%s%s" % (base, mark, ext or ".png")


def command(
    board=None, seed=None, faces=None, state_dir=None, script=None, png=None, speed=1.0, web=None, pin=None, out=None
):
    """`dicetower sim`: the script at `script` (a path, or "-": stdin) played headless, else the terminal UI
    (with `web`, the scoreboard served on that port too). The exit status."""
    if script:
        try:
            if script == "-":
                text = sys.stdin.read()
            else:
                with open(script) as f:
                    text = f.read()
        except OSError as e:
            raise UserError("cannot read the script: %s" % e)
        except UnicodeError:
            raise UserError(
                "cannot read the script %s: it is not UTF-8 text" % ("on stdin" if script == "-" else script)
            )
        return run_script(text, board, seed, faces, state_dir, png, out=out or sys.stdout)
    from dicetower_host.sim import tui

    return tui.run(board or "pico", seed, faces, state_dir, speed, web, pin)
