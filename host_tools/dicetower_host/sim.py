"""`dicetower sim`: the firmware's own main.py on a laptop, with virtual buttons, OLED and ring.

Headless (`--script`): play a script of presses and waits, print the final
state as JSON, and with `--png` picture the tower at each `mark` (or at the
end). Interactive (no script): the terminal UI in dicetower_host/tui.py.

The device's files (boards/, config.json, game.sav...) live in `--state-dir`,
so quitting and starting again with the same folder offers to resume, as the
device does after a power cut. Interactive runs keep them in
~/.dicetower/sim unless told otherwise; scripts start from a fresh folder,
so that a script always plays the same way.
"""

import json
import os
import shutil
import sys
import tempfile

from dicetower_host import paths, virtual_parts

BOARDS = paths.BOARDS
DEFAULT_STATE = os.path.join(os.path.expanduser("~"), ".dicetower", "sim")


RUNTIMES = ("micropython", "circuitpython")


def use_virtual_parts(runtime="micropython"):
    """Make `import machine` (or CircuitPython's `board`, `busio`... and Adafruit's `neopixel`) and
    `import main` find the virtual parts and the firmware."""
    virtual_parts.install(runtime)


def prepare_root(state_dir=None):
    """The device's filesystem root, with every board profile in boards/."""
    root = os.path.abspath(state_dir) if state_dir else tempfile.mkdtemp(prefix="dicetower-")
    os.makedirs(os.path.join(root, "boards"), exist_ok=True)
    for name in os.listdir(BOARDS):
        if name.endswith(".json"):
            shutil.copyfile(os.path.join(BOARDS, name), os.path.join(root, "boards", name))
    return root + os.sep


class TeachingFaces:
    """Set faces first (for teaching), then fair dice."""

    def __init__(self, faces, then):
        from dicetower.core.entropy import ScriptedFaces

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
    from dicetower.core.entropy import FairDice, SeededSource
    from dicetower.hw.entropy import Urandom

    dice = FairDice(SeededSource(seed)) if seed is not None else FairDice(Urandom(name="host os.urandom"))
    if faces:
        from dicetower.core.dice import ATTACK, BATTLEREALM, DANGER_COIN

        names = [f.strip() for f in faces.split(",") if f.strip()]
        known = set(BATTLEREALM.faces) | set(ATTACK.faces) | set(DANGER_COIN.faces)
        for name in names:
            if name not in known:
                raise ValueError("--faces: %r is not a face (%s)" % (name, ", ".join(BATTLEREALM.faces)))
        dice = TeachingFaces(names, dice)
    return dice


def boot(board="pico", seed=None, faces=None, state_dir=None):
    use_virtual_parts()
    from dicetower_host.virtual_parts.tower import Tower

    root = prepare_root(state_dir)
    if not os.path.exists(os.path.join(root, "boards", board + ".json")):
        raise paths.unknown_board(board)
    if board != "pico" or os.path.exists(os.path.join(root, "config.json")):
        _set_config(root, board)
    return Tower(root, board, make_dice(seed, faces))


def _set_config(root, board):
    path = os.path.join(root, "config.json")
    config = {}
    if os.path.exists(path):
        try:
            with open(path) as f:
                config = json.load(f)
        except ValueError:
            config = {}
    config["board"] = board
    with open(path, "w") as f:
        json.dump(config, f)


def run_script(text, board=None, seed=None, faces=None, state_dir=None, png=None, out=sys.stdout):
    """Play a script headless; print the final snapshot as JSON. Returns the exit status."""
    use_virtual_parts()
    from dicetower_host.virtual_parts.script import ScriptError, parse, play, setting

    try:
        steps = parse(text)
    except ScriptError as e:
        sys.stderr.write("dicetower sim: %s\n" % e)
        return 2
    board = board or setting(steps, "board", "pico")
    seed = seed if seed is not None else setting(steps, "seed")
    tower = boot(board, seed, faces, state_dir)
    pictures = []

    def on_step(n, command, args):
        if command == "mark" and png:
            path = _png_path(png, args[0])
            from dicetower_host import picture

            picture.save(tower, path)
            pictures.append(path)

    try:
        play(tower, steps, on_step)
    except ScriptError as e:
        sys.stderr.write("dicetower sim: %s\n" % e)
        return 2
    if png and not pictures:
        from dicetower_host import picture

        picture.save(tower, png)
        pictures.append(png)
    result = tower.snapshot()
    result["pictures"] = pictures
    result["events"] = tower.events()
    out.write(json.dumps(result, indent=1) + "\n")
    return 0


def _png_path(png, mark):
    base, ext = os.path.splitext(png)
    return "%s-%s%s" % (base, mark, ext or ".png")
