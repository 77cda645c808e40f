#!/usr/bin/env python3
"""Set up and run dicetower with nothing but Python 3.11+ and Node.js 20.

  python3 tasks.py sim [ARGS]    the simulator: the firmware on this laptop (dicetower sim)
  python3 tasks.py test [ARGS]   every test: CPython, the MicroPython VM, mpy-cross, mypy
  python3 tasks.py test --fast   the same minus the tests marked slow, property tests sampled
  python3 tasks.py package       package.json's mip "urls" written anew from the firmware's files (after
                                 a module is added, moved or removed; tests/test_mip.py checks them)
  python3 tasks.py bench [NAME...]  the benchmarks (all, or those named, e.g. vm_device or
                                 "vm_advisor --rp2040"), their figures written into docs/performance.md;
                                 the emulated RP2040's want DICETOWER_RP2_FIRMWARE (docs/testing.md)

Each task first makes `.venv` (`sim`: the host package and what the simulator and the board tools
need; `test` and `bench`: its pinned test and MicroPython tools as well) and `.venv/circuitpython-lib`
(the Adafruit libraries a CircuitPython tower needs, without their Linux-board dependencies); `test`
and `bench` also make `.venv/pico-stubs` and `.venv/circuitpython-stubs` (the two runtimes' APIs for
mypy) and `node_modules` (the MicroPython VM and the RP2040 emulator, pinned by package-lock.json).
`sim` needs no Node.js: the simulator runs the firmware on CPython (`dicetower pico`, the virtual
Pico, installs node_modules itself the first time, saying so). Each is redone only when
pyproject.toml or package-lock.json change.

`test` runs pytest on every core (pytest-xdist's -n auto; -n 0 after it runs in one process, for
--pdb) with the hypothesis profile "ci"; --fast picks `-m "not slow"` and the profile "fast" (tests/conftest.py).
Other arguments go to pytest as they are, after these, so a later -n, -m or --hypothesis-profile wins.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(ROOT, ".venv")
BIN = os.path.join(VENV, "Scripts" if os.name == "nt" else "bin")
STUBS = os.path.join(VENV, "pico-stubs")
CIRCUITPY_LIB = os.path.join(VENV, "circuitpython-lib")
PICO_STUBS = "micropython-rp2-rpi-pico-stubs==1.27.0.post1"
CIRCUITPY_STUBS = os.path.join(VENV, "circuitpython-stubs")
CIRCUITPYTHON_STUBS = "circuitpython-stubs==10.3.1"
# Each benchmark with its arguments, quickest first (the emulated RP2040's take many minutes each).
BENCHMARKS = (
    ("dice_fairness.py",),
    ("health.py",),
    ("vm_entropy.py",),
    ("vm_memory.py",),
    ("vm_trackers.py",),
    ("vm_device.py",),
    ("vm_advisor.py",),
    ("vm_loop.py",),
    ("vm_web.py",),
    ("vm_heap.py",),
    ("sim_speed.py",),
    ("web_scoreboard.py",),
    ("flash_speed.py",),
    ("vm_advisor.py", "--rp2040", "--runs", "3"),
    ("vm_entropy.py", "--rp2040"),
    ("rp2040_pico.py",),
    ("rp2040_pico.py", "--board", "pico_w"),
    ("rp2040_pico.py", "--install", "py"),
    ("rp2040_pico.py", "--heap-map"),
    ("rp2040_pico.py", "--imports"),
    ("stats_memory.py",),
    ("verify_memory.py",),
    ("fuzz.py",),
)
PERFORMANCE = os.path.join(ROOT, "docs", "performance.md")
MEASURED = (
    "firmware",
    "host_tools",
    "benchmarks",
    "vm",
    "rp2040",
    "boards",
    "examples",
    "tasks.py",
    "pyproject.toml",
    "package-lock.json",
)  # what the figures depend on (a changed doc does not count)


def say(text):
    print("tasks.py: " + text, flush=True)


def run(*cmd, **kw):
    result = subprocess.run(cmd, cwd=ROOT, **kw)
    if result.returncode != 0:
        sys.exit(result.returncode)


def fingerprint(*names):
    h = hashlib.sha256((PICO_STUBS + CIRCUITPYTHON_STUBS).encode())
    for name in names:
        with open(os.path.join(ROOT, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def up_to_date(stamp, digest):
    try:
        with open(stamp) as f:
            return f.read() == digest
    except OSError:
        return False


def circuitpython_libraries():
    """The pinned Adafruit libraries, from pyproject.toml's [tool.dicetower]."""
    import tomllib

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["tool"]["dicetower"]["circuitpython-libraries"]


def ensure_python(dev=True):
    """.venv with the host package: for the simulator and the board tools alone (`sim`), or with the test
    and benchmark tooling too (`test`, `bench`: pytest, mypy, Playwright, SciPy, the stubs...)."""
    if sys.version_info < (3, 11):
        sys.exit("tasks.py: Python 3.11 or newer is needed; this is %s" % sys.version.split()[0])
    digest = fingerprint("pyproject.toml")
    stamp = os.path.join(VENV, ".dicetower-ready")  # everything
    if up_to_date(stamp, digest) or (not dev and up_to_date(os.path.join(VENV, ".dicetower-ready-sim"), digest)):
        return
    say(
        "creating .venv and installing the host package %s"
        % ("with its test tools" if dev else "(the simulator and the board tools; tasks.py test adds its tools)")
    )
    if not os.path.isdir(VENV):
        run(sys.executable, "-m", "venv", VENV)
    pip = os.path.join(BIN, "pip")
    run(pip, "install", "--quiet", "--disable-pip-version-check", "-e", ".[dev]" if dev else ".")

    def into(folder, *packages, deps=True):
        """Packages installed afresh into a folder of their own (the board's libraries, the stubs)."""
        shutil.rmtree(folder, ignore_errors=True)
        no_deps = () if deps else ("--no-deps",)
        run(pip, "install", "--quiet", "--disable-pip-version-check", *no_deps, "--target", folder, *packages)

    # The Adafruit libraries `dicetower flash --runtime circuitpython` copies: a board tool's, for both.
    into(CIRCUITPY_LIB, *circuitpython_libraries(), deps=False)
    if not dev:
        stamp = os.path.join(VENV, ".dicetower-ready-sim")
    else:
        into(STUBS, PICO_STUBS)
        into(CIRCUITPY_STUBS, CIRCUITPYTHON_STUBS, deps=False)
    with open(stamp, "w") as f:
        f.write(digest)


def ensure_node():
    node = shutil.which("node")
    npm = shutil.which("npm")
    if not node or not npm:
        sys.exit("tasks.py: Node.js 20 or newer (with npm) is needed to run the MicroPython VM")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    if int(version.lstrip("v").split(".")[0]) < 20:
        sys.exit("tasks.py: Node.js 20 or newer is needed; this is %s" % version)
    stamp = os.path.join(ROOT, "node_modules", ".dicetower-ready")
    digest = fingerprint("package-lock.json")
    if up_to_date(stamp, digest):
        return
    # The same install the commands do on first use (dicetower_host/paths.py: only the standard library).
    sys.path.insert(0, os.path.join(ROOT, "host_tools"))
    from dicetower_host import paths

    try:
        paths.npm_ci(ROOT, say=lambda line: say(line.split(": ", 1)[1].strip()))
    except RuntimeError as e:
        sys.exit("tasks.py: %s" % e)
    with open(stamp, "w") as f:
        f.write(digest)


def pytest_arguments(rest):
    """pytest's arguments for `tasks.py test [--fast] [ARGS]`."""
    fast = "--fast" in rest
    options = ["-n", "auto", "--dist", "loadgroup"]
    options += ["-m", "not slow", "--hypothesis-profile", "fast"] if fast else ["--hypothesis-profile", "ci"]
    return options + [arg for arg in rest if arg != "--fast"]


TASKS = ("sim", "test", "bench", "package")


def main(argv):
    os.chdir(ROOT)
    if not argv:
        sys.exit(__doc__)
    if argv[0] not in TASKS:
        import difflib

        near = difflib.get_close_matches(argv[0], TASKS, n=1)
        sys.exit(
            "tasks.py: no task named %r%s; the tasks are %s (python3 tasks.py says more)"
            % (argv[0], " (did you mean %s?)" % near[0] if near else "", ", ".join(TASKS))
        )
    task, rest = argv[0], argv[1:]
    ensure_python(dev=task != "sim")
    if task == "package":
        return package()
    python = os.path.join(BIN, "python")
    if task == "sim":
        os.execv(os.path.join(BIN, "dicetower"), ["dicetower", "sim"] + rest)
    ensure_node()
    if task == "test":
        os.execv(python, [python, "-m", "pytest"] + pytest_arguments(rest))
    bench(python, rest)


def package():
    """package.json's "urls" made from the files a board needs (dicetower_host/flash/build.py's mip_urls),
    one entry a line as npm writes them; its other fields as they were."""
    with open(os.path.join(ROOT, "package.json")) as f:
        doc = json.load(f)
    asked = "import json; from dicetower_host import flash; print(json.dumps(flash.mip_urls()))"
    found = subprocess.run([os.path.join(BIN, "python"), "-c", asked], cwd=ROOT, capture_output=True, text=True)
    if found.returncode != 0:
        sys.exit("tasks.py package: " + found.stderr.strip())
    doc["urls"] = json.loads(found.stdout)
    text = json.dumps(doc, indent=2)
    for rel, path in doc["urls"]:  # a pair a line, as the file has always had them
        text = text.replace('[\n      "%s",\n      "%s"\n    ]' % (rel, path), '["%s", "%s"]' % (rel, path))
    with open(os.path.join(ROOT, "package.json"), "w") as f:
        f.write(text + "\n")
    say("package.json: %d urls" % len(doc["urls"]))


def bench(python, names):
    """Run the benchmarks (all, or those whose script is named) and write each one's output into its own
    section of docs/performance.md, with the command, the date, the commit and the machine; the sections
    of benchmarks not run are kept as they were."""
    # A name picks every run of that script; "NAME --ARG..." (one argument, quoted) picks that run alone.
    chosen = [
        entry
        for entry in BENCHMARKS
        if not names or entry[0][:-3] in names or entry[0] in names or " ".join((entry[0][:-3],) + entry[1:]) in names
    ]
    if names and not chosen:
        sys.exit(
            "tasks.py: no benchmark named %s; there are: %s"
            % (" ".join(names), ", ".join(sorted({entry[0][:-3] for entry in BENCHMARKS})))
        )
    for entry in chosen:
        command = " ".join((".venv/bin/python", "benchmarks/" + entry[0]) + entry[1:])
        say(command)
        started = time.monotonic()
        done = subprocess.run(
            [python, os.path.join("benchmarks", entry[0])] + list(entry[1:]),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        print(done.stdout, end="", flush=True)
        if done.returncode != 0:
            say("%s failed (exit %d); its section is left as it was" % (command, done.returncode))
            continue
        sections = read_sections()  # read again: another run may have written its own section meanwhile
        sections[command] = section(entry, command, done.stdout, time.monotonic() - started)
        write_performance(sections)
    say("wrote " + os.path.relpath(PERFORMANCE, ROOT))


BEGIN, END = "<!-- bench: ", " -->"


def read_sections():
    """The sections of docs/performance.md, by command: {command: text}."""
    sections = {}
    try:
        with open(PERFORMANCE) as f:
            text = f.read()
    except OSError:
        return sections
    for chunk in text.split(BEGIN)[1:]:
        command, body = chunk.split(END, 1)
        sections[command] = BEGIN + command + END + body.split("<!-- end -->")[0] + "<!-- end -->\n"
    return sections


def about(script):
    """A benchmark's docstring: its title line and what its figures measure (the usage line left out)."""
    import ast

    with open(os.path.join(ROOT, "benchmarks", script)) as f:
        doc = ast.get_docstring(ast.parse(f.read())) or script
    title, _, rest = doc.partition("\n\n")
    paragraphs = [p for p in rest.strip().split("\n\n") if p.strip() and not p.lstrip().startswith(".venv/")]
    return " ".join(title.split()), "\n\n".join(paragraphs)


def machine():
    import platform

    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return "%s, %d cores, %s, Python %s, Node.js %s" % (
        cpu,
        os.cpu_count() or 0,
        platform.platform(),
        platform.python_version(),
        node,
    )


def commit():
    head = (
        subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        or "unknown"
    )
    changed = subprocess.run(
        ["git", "status", "--porcelain", "--"] + list(MEASURED), cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return head + (" with uncommitted changes" if changed else "")


def section(entry, command, stdout, seconds):
    title, text = about(entry[0])
    if entry[1:]:
        title = "%s (%s)" % (title.rstrip("."), " ".join(entry[1:]))
    lines = [
        BEGIN + command + END,
        "## " + title.rstrip("."),
        "",
        "```sh",
        command,
        "```",
        "",
        "Run %s at commit %s on %s; it took %.0f s."
        % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), commit(), machine(), seconds),
        "",
    ]
    if text:
        lines += [text, ""]
    lines += ["```text", stdout.rstrip("\n"), "```", "<!-- end -->", ""]
    return "\n".join(lines)


# The summary at the top of performance.md: (what, the benchmark, the start of its row's label, the target).
PICO = ".venv/bin/python benchmarks/rp2040_pico.py"
PICO_W = PICO + " --board pico_w"
ENTROPY = ".venv/bin/python benchmarks/vm_entropy.py --rp2040"
SUMMARY = (
    ("heap free at the start menu, Pico", PICO, "heap free with the device booted", ">= 160,000 B"),
    (
        "lowest heap free, the Battlerealm example played through the device, Pico",
        PICO,
        "lowest heap free playing examples/battlerealm.sim",
        ">= 100,000 B",
    ),
    (
        "lowest heap free, the Battleworld example played through the device, Pico",
        PICO,
        "lowest heap free playing examples/battleworld.sim",
        ">= 100,000 B",
    ),
    (
        "lowest heap free, a Battlerealm game with the scoreboard, Pico W",
        PICO_W,
        "lowest heap free during a full 4-player battlerealm",
        ">= 64,000 B",
    ),
    ("power-on to the start menu", PICO, "power-on to the start menu on the OLED (emulated", "<= 1,000 ms"),
    (
        "tap to OLED, p50 / p99 (release to its last byte, the bus at 400 kHz)",
        PICO,
        "tap released -> OLED updated (its last byte",
        "<= 25 / 50 ms",
    ),
    ("longest loop pass without reading the buttons", PICO, "longest the main loop went without polling", "<= 30 ms"),
    ("the advisor, hardest case", PICO, "advisor hardest", "<= 50 ms"),
    ("the advisor, Lucky", PICO, "advisor 6free,2rerolls,any-of-4,Lucky", "<= 200 ms"),
    ("a game's seal, Pico", ENTROPY, "a game's seal", "<= 50 ms with its cut"),
    ("the seal's cut (two parts, the game's DRBG made), Pico", ENTROPY, "  its cut", "<= 50 ms with the seal"),
    ("a press's six sealed dice, Pico", ENTROPY, "a press's six dice, a sealed game's", "<= 830 us (af7d291's)"),
    (
        "heap a sealed game holds in play (1,000 faces), Pico",
        ENTROPY,
        "  heap in play",
        "<= 7,872 B and the cut's",
    ),
    ("the seal's part of a save at 1,000 faces, Pico", ENTROPY, "  in a save, at 1,000 faces", "<= 5 ms"),
)


PICO_MAP = PICO + " --heap-map"
PICO_IMPORTS = PICO + " --imports"


# Where a benchmark says what holds a figure that misses its target: (its command, the line to start from,
# the start of the first line after it that says it, the words put before it). The heap's: the modules
# the heap map found loaded there (a game's lowest in its full play, which the map plays; the examples'
# and the Pico W's from that game's); the times': the profile's slowest, printed under the figure, and for
# the longest pass the floor any import at idle sets (a function of the sections; a list says each).
def _held_at_lowest(game, before=""):
    return (PICO_MAP, "low %s " % game, "  modules held", before)


def _import_floor(sections):
    """What any import at idle costs a pass on a Pico, whatever the module's size (--imports): the flash's
    lookups at a game module's depth of folders, then the load per KB of .mpy."""
    lookups = figure(sections, PICO_IMPORTS, "an import's own lookups, 4 folders deep")
    load = figure(sections, PICO_IMPORTS, "  beyond its lookups and its read")
    if not (lookups and load):
        return None
    return "an import 4 folders deep (a game's module) is %s of the flash's lookups, then %s a KB of .mpy" % (
        lookups,
        load,
    )


HOLDS = {
    "heap free at the start menu, Pico": (PICO_MAP, "start menu:", "  modules held", ""),
    "lowest heap free, the Battlerealm example played through the device, Pico": _held_at_lowest(
        "battlerealm", "its full game's map: "
    ),
    "lowest heap free, the Battleworld example played through the device, Pico": _held_at_lowest(
        "battleworld", "its full game's map: "
    ),
    "lowest heap free, a Battlerealm game with the scoreboard, Pico W": _held_at_lowest(
        "battlerealm", "the Pico's map, no scoreboard: "
    ),
    "tap to OLED, p50 / p99 (release to its last byte, the bus at 400 kHz)": (
        PICO,
        "tap released -> OLED updated (its last byte",
        "    tap ",
        "the slowest ",
    ),
    "longest loop pass without reading the buttons": [
        (PICO, "  passes over 20 ms", "    ", ""),
        _import_floor,
    ],
}


def holds(sections, where):
    """What holds a figure, as its benchmark says it (`where`: a HOLDS entry: a place in a section, a
    function of the sections, or a list of these, said one after the other), or None."""
    if isinstance(where, list):
        said = [text for text in (holds(sections, one) for one in where) if text]
        return "; ".join(said) or None
    if callable(where):
        return where(sections)
    command, start, line_start, before = where
    lines = _printed(sections, command)
    for i, line in enumerate(lines):
        if line.startswith(start):
            for after in lines[i + 1 :]:
                if after.startswith(line_start):
                    return before + " ".join(after.split())
                if not after.startswith(" "):
                    break
    return None


def missed(value, target):
    """Whether a measured figure ("135328 B", "22.9 / 155.2 ms") misses its target (">= 160,000 B",
    "<= 25 / 50 ms"): each number against the target's at its place."""
    import re

    scale = 0.001 if value.endswith(" us") and " ms" in target else 1  # the seal's microseconds, a target in ms
    numbers = [float(n) * scale for n in re.findall(r"[0-9][0-9.]*", value.replace(",", ""))]
    bounds = [float(n) for n in re.findall(r"[0-9][0-9.]*", target.replace(",", ""))]
    if not numbers or not bounds:
        return False
    if target.startswith(">="):
        return any(n < b for n, b in zip(numbers, bounds))
    return any(n > b for n, b in zip(numbers, bounds))


def _printed(sections, command):
    """The lines a benchmark printed, from its section ([] if it has none)."""
    body = sections.get(command, "")
    if "```text\n" not in body:
        return []
    return body.split("```text\n", 1)[1].split("\n```", 1)[0].splitlines()


def figure(sections, command, label):
    """The value of the row whose label starts with `label` in the section of `command`, or None."""
    for line in _printed(sections, command):
        if line.startswith(label):
            return line.rsplit("  ", 1)[-1].strip()
    return None


def games():
    """The firmware's registry of games (host_tools/dicetower_host/paths.py reads it; only the standard
    library, so tasks.py can before .venv is made)."""
    sys.path.insert(0, os.path.join(ROOT, "host_tools"))
    from dicetower_host import paths

    return paths.games()


def summary_rows():
    """SUMMARY, with a row for each game of the registry's full 4-player game on a Pico after its first;
    each row with where its benchmark says what holds it (HOLDS), or None."""
    per_game = tuple(
        (
            "lowest heap free, a 4-player %s game, Pico" % label,
            PICO,
            "lowest heap free during a full 4-player " + name,
            ">= 100,000 B",
            _held_at_lowest(name),
        )
        for label, name in games()
    )
    rows = tuple(row + (HOLDS.get(row[0]),) for row in SUMMARY)
    return rows[:1] + per_game + rows[1:]


def summary(sections):
    """The table at the top of performance.md: the figures the design sets targets for, read from their
    benchmarks' sections below (a figure not measured yet says so), and for each that misses its target,
    what holds it where a benchmark says (HOLDS)."""
    rows = ["| figure | measured | target | what holds it, where missed | benchmark |", "|---|---|---|---|---|"]
    for what, command, label, target, where in summary_rows():
        value = figure(sections, command, label)
        why = ""
        if value and missed(value, target):
            why = (where and holds(sections, where)) or "not profiled"
        rows.append("| %s | %s | %s | %s | `%s` |" % (what, value or "not measured", target, why, command))
    return rows


def write_performance(sections):
    order = [" ".join((".venv/bin/python", "benchmarks/" + entry[0]) + entry[1:]) for entry in BENCHMARKS]
    missing = [command for command in order if command not in sections]
    head = (
        [
            "# Performance",
            "",
            "Written by `python3 tasks.py bench` (`python3 tasks.py bench NAME` reruns one benchmark and",
            "rewrites its section); not edited by hand. Each section is one benchmark's output as printed, with",
            'the command that reproduces it, when, at which commit and on which machine it ran. Figures "on a',
            "Pico\" come from MicroPython's rp2 firmware on an emulated RP2040 (see [rp2040/](../rp2040/README.md))",
            "until a board measures them; the MicroPython VM's times are this machine's CPU, not a Pico's.",
            "",
            "The figures the design sets targets for, from the sections below:",
            "",
        ]
        + summary(sections)
        + [
            "",
        ]
    )
    if missing:
        head += ["Not measured yet:", ""] + ["- `%s`" % command for command in missing] + [""]
    body = [sections[command] for command in order if command in sections]
    tmp = PERFORMANCE + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(head) + "\n" + "\n".join(body))
    os.replace(tmp, PERFORMANCE)


if __name__ == "__main__":
    main(sys.argv[1:])
