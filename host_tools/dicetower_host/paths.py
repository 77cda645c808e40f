"""Where the files the commands read are, in a checkout and in an installed wheel alike.

In a checkout (`pip install -e .`, what tasks.py does) they are the repository's own
folders: firmware/, boards/, vm/, hardware/. A built wheel carries them as package data
in dicetower_host/data/ (pyproject.toml's force-include). Every module asks here.

The Node.js packages the MicroPython VM needs (node_modules) are not in the wheel: a
checkout has them from `npm ci` (tasks.py test and bench, or the first command that needs them,
such as `dicetower pico`, which says so first: `python3 tasks.py sim` does not, the simulator
runs the firmware on CPython); an installed `dicetower` installs them once into
~/.dicetower/node/ from the package-lock.json it carries (`node_harness`).
"""

import hashlib
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_DATA = os.path.join(HERE, "data")
# An installed wheel has data/; a checkout has the repository two folders up (host_tools/dicetower_host).
INSTALLED = os.path.isdir(_DATA)
ROOT = _DATA if INSTALLED else os.path.dirname(os.path.dirname(HERE))

FIRMWARE = os.path.join(ROOT, "firmware")  # main.py, boot.py and the dicetower package: what a board runs
BOARDS = os.path.join(ROOT, "boards")  # one JSON profile per board
HARDWARE = os.path.join(ROOT, "hardware")  # parts.json and the enclosure's tower.scad
VM = os.path.join(ROOT, "vm")  # the Node.js programs that run the MicroPython WebAssembly VM
VIRTUAL_PARTS = os.path.join(HERE, "virtual_parts")  # the virtual machine, OLED, ring and buttons
BOARD_SIDE = os.path.join(HERE, "board_side")  # the code the host sends to a board's REPL
PYPROJECT = os.path.join(ROOT, "pyproject.toml")  # its [tool.dicetower] pins the CircuitPython libraries
# The Node.js programs' folders (rp2040/emulator.mjs, the emulated RP2040, imports ../vm/control.mjs):
# copied together.
HARNESS = ("vm", "rp2040")
# The pinned Adafruit libraries a CircuitPython tower needs (tasks.py installs them in a checkout).
CIRCUITPY_LIB = (
    os.path.join(os.path.expanduser("~"), ".dicetower", "circuitpython-lib")
    if INSTALLED
    else os.path.join(ROOT, ".venv", "circuitpython-lib")
)
NODE_HOME = os.path.join(os.path.expanduser("~"), ".dicetower", "node")


def board_profile(name):
    """boards/NAME.json (it may not exist: the callers say which boards there are)."""
    return os.path.join(BOARDS, name + ".json")


def board_names():
    return sorted(n[:-5] for n in os.listdir(BOARDS) if n.endswith(".json"))


def unknown_board(name):
    """The one message for a board profile that is not in boards/, whichever command was given it."""
    from dicetower_host.errors import UserError

    return UserError("unknown board %r; the boards are: %s" % (name, ", ".join(board_names())))


def board_side(name):
    """The text of board_side/NAME.py, a program for a board's REPL."""
    with open(os.path.join(BOARD_SIDE, name + ".py")) as f:
        return f.read()


NODE_MAJOR = 20  # the oldest Node.js the VM and the emulator run on
_node_checked = {}  # node's path -> its major version, asked once a process


def node():
    """The node program, or a RuntimeError saying what is needed (none on PATH, or one too old)."""
    found = shutil.which("node")
    if found is None:
        raise RuntimeError("the MicroPython VM needs Node.js %d or newer (node) on PATH" % NODE_MAJOR)
    if found not in _node_checked:
        try:
            said = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
            _node_checked[found] = int(said.lstrip("v").split(".")[0])
        except (OSError, ValueError, subprocess.SubprocessError):
            _node_checked[found] = None  # it cannot tell: let it try
    major = _node_checked[found]
    if major is not None and major < NODE_MAJOR:
        raise RuntimeError("the MicroPython VM needs Node.js %d or newer; %s is %d" % (NODE_MAJOR, found, major))
    return found


def node_harness(program, say=None):
    """The path of a Node.js program (vm/pico.mjs, vm/run.mjs, rp2040/emulator.mjs) beside the
    node_modules it imports.

    A checkout runs its own files with the node_modules `npm ci` made. An installed package copies
    its vm/ and rp2040/ (and package.json, package-lock.json) into ~/.dicetower/node/<lock's digest>/
    and runs `npm ci` there once: Node.js finds an import from where the importing file is."""
    if not INSTALLED:
        # tasks.py test and bench install them; after `tasks.py sim` alone they are not there yet.
        if not all(os.path.isdir(os.path.join(ROOT, "node_modules", name)) for name in node_packages()):
            npm_ci(ROOT, say)
        return os.path.join(ROOT, program)
    with open(os.path.join(ROOT, "package-lock.json"), "rb") as f:
        home = os.path.join(NODE_HOME, hashlib.sha256(f.read()).hexdigest()[:16])
    ready = os.path.join(home, ".dicetower-ready")
    if not os.path.exists(ready):
        os.makedirs(home, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(os.path.join(ROOT, name), os.path.join(home, name))
        npm_ci(home, say)
        with open(ready, "w") as f:
            f.write("npm ci done\n")
    # The programs are copied every time: a newer dicetower with the same lock brings its own.
    for folder in HARNESS:
        shutil.copytree(os.path.join(ROOT, folder), os.path.join(home, folder), dirs_exist_ok=True)
    return os.path.join(home, program)


def node_packages():
    """The Node.js packages package.json names: the MicroPython VM and the RP2040 emulator."""
    import json

    with open(os.path.join(ROOT, "package.json")) as f:
        return sorted(json.load(f)["dependencies"])


def npm_ci(folder, say=None):
    """Install the pinned Node.js packages into folder/node_modules, saying so on one line first: what they
    are, their versions, their size and that npm fetches them."""
    import json

    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("the MicroPython VM needs Node.js %d or newer with npm on PATH" % NODE_MAJOR)
    with open(os.path.join(ROOT, "package.json")) as f:
        pinned = json.load(f)["dependencies"]
    (say or sys.stderr.write)(
        "dicetower: installing the MicroPython VM and the RP2040 emulator from npm, once: %s (pinned by "
        "package-lock.json, about 2 MB; npm ci, which needs the network) into %s\n"
        % (" and ".join("%s %s" % item for item in sorted(pinned.items())), os.path.join(folder, "node_modules"))
    )
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(
            "npm ci failed in %s (is this machine online?): %s" % (folder, " ".join(done.stderr.split())[:300])
        )


def vm_command(*args, mounts=()):
    """`node vm/run.mjs --mount HOST:VM ... SCRIPT ARGS`: a Python file run on the MicroPython VM."""
    cmd = [node(), node_harness("vm/run.mjs")]
    for host, inside in mounts:
        cmd += ["--mount", "%s:%s" % (host, inside)]
    return cmd + list(args)


def games():
    """The firmware's registry of games, ((start menu label, package name), ...) in the start menu's
    order, read from core/games/__init__.py's GAMES without importing the firmware: what every list of
    games in the tests, the benchmarks and tasks.py derives from."""
    import ast

    with open(os.path.join(FIRMWARE, "dicetower", "core", "games", "__init__.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["GAMES"]:
            return tuple((line[0], line[1]) for line in ast.literal_eval(node.value))
    raise LookupError("core/games/__init__.py has no GAMES")
