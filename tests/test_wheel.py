"""The package as a user gets it: the wheel built from this checkout, installed with pip into a new
venv outside the checkout, gives a `dicetower` that simulates a game and flashes a (virtual) Pico.

It needs what a user's `pip install` needs: the dependencies from the package index (pip's own
configuration and cache), and npm for the MicroPython VM the installed command sets up on first use.
"""

import json
import os
import queue
import signal
import subprocess
import sys
import threading

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow  # a wheel built and pip-installed into a new venv: 40 s before the first test

EXAMPLE = os.path.join(ROOT, "examples", "united.sim")


def run(cmd, **kw):
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert done.returncode == 0, "%s\n%s%s" % (" ".join(cmd), done.stdout, done.stderr)
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the installed `dicetower`, the environment to run it in, a working folder outside the checkout)."""
    top = tmp_path_factory.mktemp("wheel")
    dist = top / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), ROOT])
    wheels = list(dist.glob("dicetower-*.whl"))
    assert len(wheels) == 1, wheels
    venv = top / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheels[0])],
        cwd=str(top),
    )
    work = top / "work"
    (work / "home").mkdir(parents=True)
    # A home of its own (the VM's node_modules, the virtual Pico's flash go there); npm's download cache
    # is the user's, so the VM's packages are not fetched again when they are in it.
    npm_cache = subprocess.run(["npm", "config", "get", "cache"], capture_output=True, text=True).stdout.strip()
    env = dict(os.environ, HOME=str(work / "home"), npm_config_cache=npm_cache)
    env.pop("PYTHONPATH", None)
    env["PATH"] = str(bin_dir) + os.pathsep + env["PATH"]
    return str(bin_dir / "dicetower"), env, str(work)


def test_the_installed_package_is_not_the_checkout(installed):
    dicetower, env, work = installed
    where = run(
        [
            os.path.join(os.path.dirname(dicetower), "python"),
            "-c",
            "import dicetower, dicetower_host.paths as p; print(dicetower.__file__); print(p.FIRMWARE)",
        ],
        env=env,
        cwd=work,
    ).stdout.split()
    assert not any(path.startswith(ROOT) for path in where), where
    assert os.path.exists(os.path.join(where[1], "main.py"))


def test_the_installed_simulator_plays_an_example_as_the_checkout_does(installed):
    dicetower, env, work = installed
    with open(EXAMPLE) as f:
        script = f.read()
    with open(os.path.join(work, "united.sim"), "w") as f:
        f.write(script)
    done = run([dicetower, "sim", "--script", "united.sim"], env=env, cwd=work)
    result = json.loads(done.stdout)
    assert result["over"] == "6 KO tokens: the heroes lose."
    assert "GAME OVER" in result["screen"]
    # The very same firmware: the same screen, LEDs and events as the checkout's own command.
    checkout = json.loads(
        run([os.path.join(os.path.dirname(sys.executable), "dicetower"), "sim", "--script", EXAMPLE], cwd=ROOT).stdout
    )
    assert (result["screen"], result["leds"], result["events"]) == (
        checkout["screen"],
        checkout["leds"],
        checkout["events"],
    )


def lines_of(process):
    """The process's output lines as they come: get(timeout=...) one, queue.Empty when it says nothing."""
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    return lines


def test_the_installed_flasher_puts_its_firmware_on_a_virtual_pico(installed):
    dicetower, env, work = installed
    pico = subprocess.Popen(
        [dicetower, "pico", "--files", os.path.join(work, "pico-flash")],
        env=env,
        cwd=work,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    said = lines_of(pico)
    try:
        first = said.get(timeout=300)  # the first use installs the MicroPython VM with npm
        assert first.startswith("a virtual pico on socket://"), first
        url = first.split()[4]
        hint = said.get(timeout=10)
        while not hint.startswith("try: "):
            hint = said.get(timeout=10)
        assert hint.strip() == "try: dicetower flash --port %s --board pico" % url
        flash = [dicetower, "flash", "--port", url, "--board", "pico"]
        dry = run(flash + ["--dry-run"], env=env, cwd=work, timeout=300).stdout
        assert "MicroPython 1.27.0" in dry
        assert "board profile: pico" in dry
        assert "copy   main.py" in dry and "copy   dicetower/core/games/battlerealm/roll.mpy" in dry
        assert dry.rstrip().endswith("(dry run: nothing written)")
        assert not os.path.exists(os.path.join(work, "pico-flash", "main.py"))
        done = run(flash, env=env, cwd=work, timeout=300).stdout
        assert "ready on Raspberry Pi Pico" in done, done
        assert os.path.exists(os.path.join(work, "pico-flash", "dicetower", "core", "games", "battlerealm", "roll.mpy"))
        again = run(flash + ["--dry-run"], env=env, cwd=work, timeout=300).stdout
        assert "0 to copy (0 B), 0 to remove" in again
    finally:
        pico.send_signal(signal.SIGINT)  # Ctrl-C, as a user stops it
        try:
            pico.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pico.kill()
            pico.wait()
    assert "installing the MicroPython VM" in pico.stderr.read()


def test_the_emulated_rp2040_of_the_installed_package_asks_for_micropythons_firmware(installed):
    """The wheel carries the emulator's program and no firmware or ROM image: `dicetower pico --emulator
    rp2040` names MicroPython's own file to download, in one line, and starts nothing."""
    dicetower, env, work = installed
    env = {k: v for k, v in env.items() if k != "DICETOWER_RP2_FIRMWARE"}
    site = run(
        [
            os.path.join(os.path.dirname(dicetower), "python"),
            "-c",
            "import dicetower_host, os; print(os.path.dirname(dicetower_host.__file__))",
        ],
        env=env,
        cwd=work,
    )
    carried = [os.path.join(top, name) for top, _, names in os.walk(site.stdout.strip()) for name in names]
    assert any(path.endswith(os.path.join("rp2040", "emulator.mjs")) for path in carried)
    assert not [path for path in carried if path.endswith((".uf2", ".bin", ".elf", ".hex", ".xz", ".zip"))]
    done = subprocess.run(
        [dicetower, "pico", "--emulator", "rp2040", "--headless"],
        capture_output=True,
        text=True,
        env=env,
        cwd=work,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "download RPI_PICO-20251209-v1.27.0.uf2 from " in done.stderr, done.stderr
