"""How the host commands end when something goes wrong, as a user sees it in a terminal: `dicetower pico
--script` with a board that stops answering or goes away, `dicetower sim` with firmware that raises or
freezes, `dicetower verify` with a log over its limit: one line on stderr and a status that is not 0,
never a traceback (issue 46). And `dicetower verify`'s memory does not grow with the log it reads."""

import os
import signal
import subprocess
import sys

import pytest

from conftest import ROOT, tool
from dicetower_host import verify

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import verify_memory  # noqa: E402 (benchmarks/ is not a package: the honest logs' writer)


def one_line(done, status):
    """The command's one line on stderr, once its status is `status` and no traceback was printed."""
    err = done.stderr
    assert done.returncode == status and err.count("\n") == 1 and "Traceback" not in err, (done.returncode, err)
    return err.strip()


# -- dicetower pico --script ---------------------------------------------------------------------------

# A main.py that lets the board start (its ports printed), then never lets it go again: the board's node
# process runs the VM and nothing else, so its control port goes unanswered.
FREEZES = """import asyncio
async def freeze():
    await asyncio.sleep_ms(300)
    while True:
        pass
asyncio.create_task(freeze())
"""


@pytest.mark.slow  # waits out the board's 10 s
def test_a_board_that_stops_answering_under_a_script_is_one_line(tmp_path):
    """It printed `TimeoutError: timed out` with a traceback; now the board is stopped and it says why."""
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text(FREEZES)
    script = tmp_path / "start.sim"
    script.write_text("keys c\n")
    done = subprocess.run(
        [tool("dicetower"), "pico", "--script", str(script), "--files", str(flash)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert one_line(done, 1) == (
        "dicetower pico: the board stopped answering (nothing for 10 s): its firmware may be stuck in a loop "
        "that never waits; its flash is kept in %s" % flash
    )
    assert "Ctrl-C stops it" in done.stdout  # it had started and said where


def _children(pid):
    with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
        return [int(n) for n in f.read().split()]


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="finds the board's process through Linux's /proc")
def test_a_board_whose_process_ends_under_a_script_is_one_line(tmp_path):
    """The board's own process killed while the script waits for its firmware: one line, not the
    traceback a bug gets."""
    flash = tmp_path / "flash"
    script = tmp_path / "start.sim"
    script.write_text("keys c\n")
    command = subprocess.Popen(
        [tool("dicetower"), "pico", "--script", str(script), "--files", str(flash)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    said = ""
    while "waiting for the firmware to light the OLED" not in said:  # nothing flashed: it waits for ever
        line = command.stdout.readline()
        assert line, said + command.stderr.read()
        said += line
    (board,) = _children(command.pid)
    os.kill(board, signal.SIGKILL)
    out, err = command.communicate(timeout=60)
    assert command.returncode == 1 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err == "dicetower pico: the virtual Pico stopped: its process ended; its flash is kept in %s\n" % flash


def test_a_main_py_that_never_lets_the_board_start_is_one_line(tmp_path, monkeypatch, capsys):
    """The VM runs main.py before the board gives its ports: one that never waits kept `dicetower pico`
    silent for ever. (60 s on a real run; 2 here.)"""
    from dicetower_host import cli
    from dicetower_host.pico import VirtualPico

    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text("while True:\n    pass\n")
    monkeypatch.setattr(VirtualPico, "START_SECONDS", 2)
    assert cli.main(["pico", "--headless", "--files", str(flash)]) == 2
    err = capsys.readouterr().err
    assert err == (
        "dicetower: the virtual Pico did not start: it gave no port within 2 s: the main.py in %s never lets it "
        "go (a loop that never waits?); move that file away and try again\n" % flash
    )


# -- dicetower sim -------------------------------------------------------------------------------------

# Started first by every Python process that has its folder on PYTHONPATH: the firmware broken as the
# test asks, at its boot, at a step after the start menu (5 s into the device's time), or frozen there.
BREAKS = """import os

how = os.environ.get("DICETOWER_TEST_BREAK")
if how:
    from dicetower_host import sim

    sim.use_virtual_parts()
    import main

    if how == "boot":
        def boot(platform=None):
            None.draw()

        main.boot = boot
    else:
        from dicetower import device

        tick = device.Device.tick

        def broken(self, now):
            if now > 5000:
                if how == "step":
                    None.draw()
                return 0  # "freeze": always due again, time never passes
            return tick(self, now)

        device.Device.tick = broken
"""


def sim(tmp_path, *args, stdin="keys c\nwait 10000\nkeys c\n", breaks=None, env=None):
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(BREAKS)
    env = dict(env or os.environ, PYTHONPATH=str(site))
    if breaks:
        env["DICETOWER_TEST_BREAK"] = breaks
    return subprocess.run(
        [tool("dicetower"), "sim", *args], input=stdin, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT
    )


def traceback_named(line):
    """The file the line names for the traceback: it holds it (and is removed)."""
    path = line.rsplit("(its traceback: ", 1)[1].rstrip(")")
    with open(path) as f:
        kept = f.read()
    os.remove(path)
    assert "Traceback (most recent call last)" in kept, kept
    return kept


@pytest.mark.parametrize(
    "breaks, args, said",
    [
        ("boot", ("--script", "-"), "as it started: AttributeError: 'NoneType' object has no attribute 'draw'"),
        (
            "step",
            ("--script", "-"),
            "at line 2 of the script (wait 10000): AttributeError: 'NoneType' object has no attribute 'draw'",
        ),
        ("freeze", ("--script", "-"), "at line 2 of the script (wait 10000): RuntimeError: the device's loop never"),
        ("boot", (), "as it started: AttributeError"),  # the interactive simulator, before its screen
    ],
)
def test_firmware_that_raises_or_freezes_in_the_simulator_is_one_line(tmp_path, breaks, args, said):
    """A firmware exception on load, at a press or a wait, or a loop that never lets time pass: one line
    naming what and where, status 1; the traceback is kept in a file the line names."""
    done = sim(tmp_path, *args, "--state-dir", str(tmp_path / "tower"), breaks=breaks)
    line = one_line(done, 1)
    assert line.startswith("dicetower sim: the firmware failed " + said), line
    assert done.stdout == ""
    traceback_named(line)


def test_the_simulator_needs_no_node(tmp_path):
    """`python3 tasks.py sim` makes no node_modules, and the simulator needs none: with no Node.js on PATH
    a script plays to its end (the same BREAKS file on the path, breaking nothing)."""
    done = sim(tmp_path, "--script", "-", env=dict(os.environ, PATH=str(tmp_path)))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert '"mode"' in done.stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (("--script", "{tmp}"), "cannot read the script: [Errno 21] Is a directory"),
        (("--script", "-", "--seed", "1e3"), "argument --seed: invalid int value: '1e3'"),
        (("--script", "-", "--faces", "Mutant,Sword"), "--faces: 'Sword' is not a face"),
        (("--web", "99999"), "--web takes a port number from 1 to 65535"),
    ],
)
def test_a_bad_script_file_or_option_is_one_line(tmp_path, args, words):
    done = sim(tmp_path, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert words in one_line(done, 2)


# -- dicetower verify ----------------------------------------------------------------------------------


def test_a_log_over_the_limit_is_refused_in_one_line_before_it_is_read(tmp_path):
    log = tmp_path / "huge.jsonl"
    with open(log, "wb") as f:
        f.truncate(verify.MAX_BYTES + 1)  # sparse: refused by its size, never read
    done = subprocess.run([tool("dicetower"), "verify", str(log)], capture_output=True, text=True, timeout=60)
    assert one_line(done, 2) == (
        "dicetower: %s is 67,108,865 bytes, over the 64 MiB a log may be: not a game's log (a night of play is "
        "a few MB)" % log
    )


@pytest.mark.slow  # a 4 MB log written, then read twice
def test_verifying_a_long_log_takes_memory_that_does_not_grow_with_it(tmp_path):
    """A 4 MB log of honest games (benchmarks/verify_memory.py's, about 120 four-player Battlerealm games):
    every seal verifies, in well under the 945 MiB it took when the verifier held an object a face (a few
    MiB of Python objects at most: about 200 bytes a game, none a face), and the command's whole
    process stays under 64 MiB."""
    import tracemalloc

    log = str(tmp_path / "games.jsonl")
    games, draws = verify_memory.write_log(log, 4 * 10**6, 1)
    assert draws > 50000
    tracemalloc.start()
    try:
        status, lines = verify.verify(log)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 0 and sum("every face matches" in line for line in lines) == games, lines[:3]
    assert peak < 1 << 20, peak  # 1 MiB; a list of six numbers at each of the log's places would be more

    status, out, err, mib, seconds = verify_memory.measure(tool("dicetower"), "verify", log)
    assert status == 0 and err == "" and out.count("every face matches") == games
    assert mib < 64, mib


def test_the_benchmark_writes_honest_logs_the_verifier_checks_and_one_changed_face_fails(tmp_path):
    """The benchmark's figures are of logs that verify: its log passes, and the same log with one face of
    one roll changed is refused, naming the draw."""
    log = tmp_path / "games.jsonl"
    verify_memory.write_log(str(log), 20000, 2)
    assert verify.verify(str(log))[0] == 0
    text = log.read_text()
    at = text.index('"record": "') + len('"record": "')
    at = text.index(":0:", at) + 3
    face = text[at]
    log.write_text(text[:at] + str((int(face) + 1) % 6) + text[at + 1 :])
    status, lines = verify.verify(str(log))
    assert status == 1 and "draw 1 (the throw at place 0.0, the Battlerealm die)" in lines[0], lines
