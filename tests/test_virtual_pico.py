"""A virtual Pico on a TCP port whose REPL is the real MicroPython VM, driven by the real, unmodified mpremote."""

import os
import signal
import subprocess
import threading
import time

import pytest

from conftest import ROOT, tool
from dicetower_host import paths


@pytest.fixture
def pico(tmp_path):
    flash = tmp_path / "flash"
    bridge = subprocess.Popen(
        [paths.node(), paths.node_harness("vm/pico.mjs"), "--files", str(flash)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    line = bridge.stdout.readline()
    assert line.startswith("listening "), bridge.stderr.read()
    port = int(line.split()[1])

    def mpremote(*args):
        done = subprocess.run(
            [tool("mpremote"), "connect", "socket://127.0.0.1:%d" % port, *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        return done

    yield mpremote, flash
    bridge.terminate()
    bridge.wait(timeout=10)


def test_exec_runs_on_micropython(pico):
    mpremote, flash = pico
    done = mpremote("exec", "import sys; print(sys.implementation.name, 6 * 7)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "micropython 42"


def test_files_copied_listed_run_and_removed(pico, tmp_path):
    mpremote, flash = pico
    source = tmp_path / "hello.py"
    source.write_text("GREETING = 'hello from the flash'\nprint(GREETING)\n")
    done = mpremote("fs", "cp", str(source), ":hello.py", "+", "fs", "ls", "+", "exec", "import hello")
    assert done.returncode == 0, done.stderr
    assert "hello.py" in done.stdout and "hello from the flash" in done.stdout
    assert (flash / "hello.py").read_text() == source.read_text()  # the flash is a host folder
    done = mpremote("run", str(source))
    assert "hello from the flash" in done.stdout
    done = mpremote("fs", "rm", ":hello.py")
    assert done.returncode == 0, done.stderr
    assert not (flash / "hello.py").exists()


def test_a_missing_file_is_reported_as_on_a_pico(pico):
    mpremote, flash = pico
    done = mpremote("fs", "cat", ":nope.py")
    assert done.returncode != 0
    assert "No such file" in done.stderr or "ENOENT" in done.stderr


def test_soft_reset_keeps_the_files(pico, tmp_path):
    mpremote, flash = pico
    source = tmp_path / "kept.py"
    source.write_text("KEPT = 7\n")
    mpremote("fs", "cp", str(source), ":kept.py")
    done = mpremote("soft-reset", "+", "exec", "import kept; print(kept.KEPT)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "7"


def test_a_friendly_soft_reset_runs_main_py(pico):
    """Ctrl-D at the friendly prompt reboots and runs main.py, as a Pico does (a raw-REPL reset does not)."""
    import socket

    mpremote, flash = pico
    (flash / "main.py").write_text("print('main ran')\nopen('booted.txt', 'w').write('yes')\n")
    done = mpremote("exec", "print(1)")  # make sure the bridge is up
    assert done.returncode == 0
    address = _port_of(mpremote)
    with socket.create_connection(("127.0.0.1", address), timeout=10) as conn:
        conn.sendall(b"\r\x03\x02")  # interrupt, friendly REPL
        time.sleep(0.3)
        conn.sendall(b"\x04")  # soft reset
        seen = b""
        deadline = time.time() + 10
        while b"main ran" not in seen and time.time() < deadline:
            seen += conn.recv(4096)
    assert b"MPY: soft reboot" in seen and b"main ran" in seen
    time.sleep(0.3)
    assert (flash / "booted.txt").read_text() == "yes"


def _port_of(mpremote):
    for cell in mpremote.__closure__:
        if isinstance(cell.cell_contents, int):
            return cell.cell_contents
    raise AssertionError("no port")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="this platform has no pseudo-terminals")
def test_a_pty_is_a_serial_port_for_mpremote(tmp_path):
    """Where the platform has pseudo-terminals, the board also has a device path, as over USB."""
    from dicetower_host.pico import VirtualPico

    with VirtualPico(str(tmp_path / "flash")) as board:
        path = board.open_pty()
        assert path.startswith("/dev/")
        for _ in range(2):  # a second program after the first closed the port
            done = subprocess.run(
                [tool("mpremote"), "connect", path, "exec", "import sys; print(sys.platform, 6 * 7)"],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert done.returncode == 0, done.stderr
            assert done.stdout.strip() == "webassembly 42"
        # A socket client meanwhile takes the port; when it leaves, the pty has it again.
        done = subprocess.run(
            [tool("mpremote"), "connect", board.url, "exec", "print('via socket')"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.stdout.strip() == "via socket"
        done = subprocess.run(
            [tool("mpremote"), "connect", path, "exec", "print('via pty')"], capture_output=True, text=True, timeout=60
        )
        assert done.stdout.strip() == "via pty", done.stderr


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="this platform has no pseudo-terminals")
def test_a_board_closed_as_its_pty_opens_leaves_nothing_on_stderr(tmp_path, monkeypatch):
    """SIGTERM to `dicetower pico` right after its first line closed the board before the pty's relay
    thread had started: the thread met closed descriptors and its traceback reached stderr (once in a few
    dozen stops on a busy machine). Here the board closes at once, again and again: no thread may fail."""
    import threading

    from dicetower_host.pico import VirtualPico

    failed = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failed.append(repr(args.exc_value)))
    threads = []
    with VirtualPico(str(tmp_path / "flash")) as board:
        for _ in range(20):
            before = set(threading.enumerate())
            path = board.open_pty()
            threads += [t for t in threading.enumerate() if t not in before]
            for fd in board._pty:  # as close() does it, the relay possibly not yet started
                os.close(fd)
            board._pty = ()
            assert path.startswith("/dev/")
        board._closing = True
    for thread in threads:
        thread.join(timeout=30)
        assert not thread.is_alive()
    assert failed == []


# ---- mpremote sees a Pico's files and flash, not the VM's filesystem


def _ls(mpremote, *args):
    done = mpremote("fs", "ls", *args)
    assert done.returncode == 0, done.stderr
    return {line.split()[1]: int(line.split()[0]) for line in done.stdout.splitlines()[1:] if line.strip()}


def test_ls_gives_each_files_size_and_only_the_boards_own_files(pico, tmp_path):
    """`mpremote ls` showed every file as 0 bytes and the VM's own tmp/ home/ dev/ proc/ beside them."""
    mpremote, flash = pico
    source = tmp_path / "scores.txt"
    source.write_bytes(b"x" * 5000)
    done = mpremote(
        "fs",
        "mkdir",
        ":lib",
        "+",
        "fs",
        "cp",
        str(source),
        ":scores.txt",
        "+",
        "fs",
        "cp",
        str(source),
        ":lib/more.txt",
    )
    assert done.returncode == 0, done.stderr
    assert _ls(mpremote) == {"scores.txt": 5000, "lib/": 0}  # a folder is 0 bytes, as littlefs lists it
    assert _ls(mpremote, ":lib") == {"more.txt": 5000}
    done = mpremote("exec", "import os; print(sorted(os.listdir('/')), os.stat('scores.txt')[6])")
    assert done.stdout.split("]")[0] + "]" == "['lib', 'scores.txt']" and done.stdout.split()[-1] == "5000"


@pytest.mark.slow  # 100 KB copied through mpremote to the virtual Pico: over 5 s
def test_df_gives_a_picos_flash(pico, tmp_path):
    """`mpremote df` printed a garbled line; a Pico's MicroPython has 1,408 KiB of littlefs at /."""
    mpremote, flash = pico
    source = tmp_path / "big.bin"
    source.write_bytes(bytes(100 * 1024))

    def df():
        done = mpremote("df")
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[0].split() == ["filesystem", "size", "used", "avail", "use%", "mounted", "on"]
        assert len(lines) == 2, done.stdout  # one filesystem: the flash at /
        _name, size, used, avail, percent, mounted = lines[1].split()
        assert mounted == "/"
        return int(size), int(used), int(avail), int(percent)

    size, used, avail, percent = df()
    assert size == 1441792 and used + avail == size and percent == 0
    assert mpremote("fs", "cp", str(source), ":big.bin").returncode == 0
    size, used_after, avail_after, percent = df()
    assert used_after - used >= 100 * 1024 and avail_after == size - used_after and percent == used_after * 100 // size


# ---- dicetower pico: its mistakes are one line, and its board never outlives it


def _dicetower(*args, env=None):
    return subprocess.run([tool("dicetower"), *args], capture_output=True, text=True, timeout=120, env=env)


def test_an_unknown_board_is_one_line(tmp_path):
    done = _dicetower("pico", "--board", "picoo", "--headless", "--files", str(tmp_path / "flash"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "dicetower: unknown board 'picoo'; the boards are: %s" % ", ".join(paths.board_names())
    ]
    assert not (tmp_path / "flash").exists()


def test_no_node_is_one_line(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path))  # no node, no npm
    done = _dicetower("pico", "--headless", "--files", str(tmp_path / "flash"), env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "dicetower: the virtual Pico did not start: the MicroPython VM needs Node.js 20 or newer (node) on PATH"
    ]


def test_missing_node_modules_are_installed_with_a_line_saying_so(tmp_path, monkeypatch):
    """After `tasks.py sim` alone there is no node_modules: the first command that needs them installs them
    (here a stand-in npm that records its call), rather than Node failing with ERR_MODULE_NOT_FOUND."""
    import shutil as sh

    checkout = tmp_path / "checkout"
    (checkout / "vm").mkdir(parents=True)
    for name in ("package.json", "package-lock.json"):
        sh.copy(os.path.join(ROOT, name), checkout / name)
    npm = tmp_path / "bin" / "npm"
    npm.parent.mkdir()
    npm.write_text(
        '#!/bin/sh\necho "$@" > "$PWD/npm-ran"\nmkdir -p node_modules/@micropython/micropython-webassembly-pyscript'
        " node_modules/rp2040js\n"
    )
    npm.chmod(0o755)
    monkeypatch.setattr(paths, "ROOT", str(checkout))
    monkeypatch.setenv("PATH", str(npm.parent) + os.pathsep + os.environ["PATH"])
    said = []
    assert paths.node_harness("vm/pico.mjs", say=said.append) == str(checkout / "vm" / "pico.mjs")
    assert (checkout / "npm-ran").read_text().split()[0] == "ci"
    # Said before npm runs: what is installed (each package and its version), from where, and into where.
    import json

    pinned = json.loads((checkout / "package.json").read_text())["dependencies"]
    assert said == [
        "dicetower: installing the MicroPython VM and the RP2040 emulator from npm, once: "
        "@micropython/micropython-webassembly-pyscript %s and rp2040js %s (pinned by package-lock.json, "
        "about 2 MB; npm ci, which needs the network) into %s\n"
        % (pinned["@micropython/micropython-webassembly-pyscript"], pinned["rp2040js"], checkout / "node_modules")
    ]
    said.clear()
    paths.node_harness("vm/pico.mjs", say=said.append)  # installed: not again
    assert said == []

    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))  # and without npm: one line saying what is needed
    sh.rmtree(checkout / "node_modules")
    with pytest.raises(RuntimeError, match="^the MicroPython VM needs Node.js 20 or newer with npm on PATH$"):
        paths.node_harness("vm/pico.mjs", say=said.append)


def _children(pid):
    """The processes `pid` started (Linux's /proc), or None where that cannot be read."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(n) for n in f.read().split()]
    except OSError:
        return None


def _gone(pid):
    """True once `pid` has ended (a zombie nobody has reaped yet has ended too)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def _until(check, seconds=60):
    """Wait for a state (bounded, for a board that never gets there): True once `check()` holds."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


def _port_closed(port):
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except OSError:
        return True
    return False


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP", "SIGKILL"])
def test_the_board_stops_with_dicetower_pico_on_any_signal(tmp_path, name):
    """SIGTERM to `dicetower pico` left its node process holding the port; now any signal takes the board
    down with it: SIGINT (Ctrl-C), SIGTERM and SIGHUP are handled and said in one line, and after SIGKILL,
    which no process can handle, the board notices its lifeline closed."""
    command = subprocess.Popen(
        [tool("dicetower"), "pico", "--headless", "--files", str(tmp_path / "flash")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = command.stdout.readline()
    assert " on socket://127.0.0.1:" in first, first + command.stderr.read()
    port = int(first.split("socket://127.0.0.1:")[1].split()[0])
    assert not _port_closed(port)
    node = _children(command.pid)
    command.send_signal(getattr(signal, name))
    out, err = command.communicate(timeout=60)
    assert _until(lambda: _port_closed(port)), "the board still holds its port after %s" % name
    if node is not None:
        assert len(node) == 1 and _until(lambda: _gone(node[0]))
    if name == "SIGKILL":
        return
    assert "Traceback" not in err and err == ""
    said = out.splitlines()[-1]
    if name == "SIGINT":
        assert said == "dicetower pico: stopped (Ctrl-C); its flash is kept in %s" % (tmp_path / "flash")
        assert command.returncode == 0
    else:
        assert said == "dicetower pico: stopped by %s; its flash is kept in %s" % (name, tmp_path / "flash")
        assert command.returncode == 128 + getattr(signal, name)


def test_the_emulated_rp2040_powers_off_when_its_lifeline_closes(tmp_path):
    """The same lifeline keeps `dicetower pico --emulator rp2040` from outliving its command (on a stand-in
    firmware that never comes up on USB: the lifeline holds from the start)."""
    from test_rp2040 import looping_uf2

    from dicetower_host.pico import bootrom_file

    with bootrom_file() as bootrom:
        emulator = subprocess.Popen(
            [
                paths.node(),
                paths.node_harness("rp2040/emulator.mjs"),
                "--flash",
                str(tmp_path / "flash.img"),
                "--firmware",
                looping_uf2(tmp_path / "loop.uf2"),
                "--bootrom",
                bootrom,
                "--boot-timeout",
                "600",
                "--lifeline",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        # Its flash image is made once the firmware is written over it, after the bootrom was read.
        for _ in range(2400):
            if (tmp_path / "flash.img").exists() and (tmp_path / "flash.img").stat().st_size == 2 * 1024 * 1024:
                break
            assert emulator.poll() is None, emulator.stderr.read()
            time.sleep(0.05)
    emulator.stdin.close()  # as when the process holding it ends
    assert emulator.wait(timeout=120) == 0, emulator.stderr.read()


# ---- dicetower pico's screen: the board's OLED and ring, its buttons on the keyboard


async def _until_app(pilot, check, seconds=120):
    """Let the app run until check() holds (bounded): a state, not a length of time."""
    for _ in range(int(seconds / 0.05)):
        if check():
            return True
        await pilot.pause(0.05)
    return check()


def test_a_fresh_board_says_how_to_flash_it(tmp_path):
    """Before anything is flashed the OLED is dark, and the screen says what to run; a key pressed then
    is answered at once (nothing runs to take it), not left hanging."""
    import asyncio

    from dicetower_host.pico import VirtualPico
    from dicetower_host.pico.view import DARK, BoardFace

    seen = {}
    with VirtualPico(str(tmp_path / "flash")) as board:
        app = BoardFace(board, ["a virtual pico on %s" % board.url])

        async def main():
            async with app.run_test(size=(130, 42)) as pilot:
                seen["dark"] = await _until_app(pilot, lambda: app.status == DARK % ("dicetower", board.url, "pico"))
                await pilot.press("c")
                # The note is set by the board's talker and drawn by the screen's next refresh: waited for
                # on the screen (reading the status as soon as the note was set once saw the dark one).
                seen["answered"] = await _until_app(
                    pilot, lambda: app.settled() and app.note is not None and app.status == app.note
                )
                seen["note"] = app.status

        asyncio.run(main())
    assert seen["dark"] and seen["answered"]
    assert seen["note"] == "The board did not take that: its OLED is dark: no firmware runs to take a press"


@pytest.mark.slow
def test_flash_then_play_from_the_screen_while_monitor_follows_and_stats_counts(tmp_path):
    """What a new maker does without a board: start `dicetower pico`, flash it from another terminal, follow
    it with `dicetower monitor --save`, play from the keyboard, then `dicetower stats` the saved log."""
    import asyncio
    import io
    import json

    from monitoring import monitor_thread

    from dicetower_host import cli
    from dicetower_host.pico import VirtualPico
    from dicetower_host.pico.view import KEYS, BoardFace

    log = tmp_path / "events.jsonl"
    seen = {}
    with VirtualPico(str(tmp_path / "flash")) as board:
        app = BoardFace(board, ["a virtual pico on %s" % board.url])
        watcher, connected = monitor_thread(board.url, log, 6, 120)

        async def keys(pilot, typed):
            for key in typed:
                before = app.lines()
                await pilot.press(key)
                assert await _until_app(pilot, app.settled), "the board did not take %r" % key
                assert app.note is None, app.note
                seen.setdefault("changed", []).append(app.lines() != before)

        async def main():
            async with app.run_test(size=(130, 42)) as pilot:
                flash = cli.build_parser().parse_args(["flash", "--port", board.url, "--board", "pico"])
                said = io.StringIO()
                assert await asyncio.to_thread(flash.run, flash, out=said) == 0, said.getvalue()
                assert await _until_app(pilot, lambda: app.lines()[0] == "DICETOWER"), app.lines()
                seen["keys"] = app.status
                watcher.start()
                assert await asyncio.to_thread(connected.wait, 30)  # the monitor has the port first
                await keys(pilot, "caac")  # New Battlerealm, two heroes, start
                await keys(pilot, "c")  # cut and play
                await keys(pilot, "c")  # Hulk rolls
                await keys(pilot, "ac")  # to Finalize, finalize
                if any(line.startswith("Explosion") for line in app.lines()):
                    await keys(pilot, "ac")  # the dice exploded: Thor is not marked (Done), the roll is recorded
                seen["ring"] = [list(rgb) for rgb in board.leds()]
                await asyncio.to_thread(watcher.join, 120)
                seen["drawn"] = str(app.query_one("#oled").render())

        asyncio.run(main())
    assert seen["keys"] == KEYS
    assert seen["changed"][0]  # the first key left the start menu: the OLED on the screen followed
    assert "▀" in seen["drawn"]  # the OLED is drawn as the simulator draws it
    assert any(any(rgb) for rgb in seen["ring"])
    events = [json.loads(line) for line in log.read_text().splitlines()]
    # the game sealed and cut before its first die, the roll's numbered draws as they land, the roll, the
    # roll recorded
    assert [e["event"] for e in events] == ["seal", "game", "cut", "draws", "roll", "action"]
    assert events[4]["hero"] == "Hulk" and len(events[4]["faces"]) == 6
    report = subprocess.run([tool("dicetower"), "stats", str(log)], capture_output=True, text=True, timeout=120)
    assert report.returncode == 0, report.stderr
    for face in set(events[4]["faces"]):
        assert face in report.stdout


def _firmware_on(flash):
    """The firmware as source on the board's flash, as a hand copy with mpremote cp puts it. This board (the
    MicroPython VM) has no native emitter: the dice's and the advisor's Viper passes go as bytecode, as
    `dicetower flash` gives such a board (a Pico compiles them from the same source)."""
    import shutil as sh

    from dicetower_host.flash.build import as_bytecode

    sh.copytree(os.path.join(ROOT, "firmware"), flash, ignore=sh.ignore_patterns("__pycache__"))
    for folder, _, names in os.walk(flash):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, "rb") as f:
                    source = f.read()
                with open(path, "wb") as f:
                    f.write(as_bytecode(source))
    sh.copytree(paths.BOARDS, flash / "boards")
    (flash / "config.json").write_text('{"board": "pico"}')


def test_a_script_plays_on_the_board_once_its_firmware_runs(tmp_path):
    """`dicetower pico --script` presses as `dicetower sim --script` does, and its OLED shows what the
    simulator's shows after the same presses; then it runs on until Ctrl-C, said in one line."""
    import json

    _firmware_on(tmp_path / "flash")
    script = tmp_path / "start.sim"
    script.write_text("keys c\nmark setup\nkeys a\n")
    command = subprocess.Popen(
        [tool("dicetower"), "pico", "--script", str(script), "--files", str(tmp_path / "flash")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # A board whose firmware never lights its OLED keeps the script waiting (it waits for a flash): stopped
    # after 300 s, so that the test fails with what it printed instead of hanging the suite.
    guard = threading.Timer(300, command.kill)
    guard.start()
    lines = []
    try:
        while not lines or not lines[-1].startswith("-- the script is done"):
            line = command.stdout.readline()
            assert line, "\n".join(lines) + command.stderr.read()
            lines.append(line.rstrip("\n"))
    finally:
        guard.cancel()
    screen = [command.stdout.readline().rstrip("\n") for _ in range(8)]  # the OLED's 8 lines, each indented
    assert all(line.startswith("   ") for line in screen), screen
    screen = [line[3:] for line in screen]
    command.send_signal(signal.SIGINT)
    out, err = command.communicate(timeout=60)
    assert err == "" and out.strip().splitlines()[-1].startswith("dicetower pico: stopped (Ctrl-C)")

    sim = subprocess.run(
        [tool("dicetower"), "sim", "--script", str(script)], capture_output=True, text=True, timeout=120
    )
    played = json.loads(sim.stdout)
    assert [line for line in played["screen"] if line] == [line for line in screen if line]
    mark = lines.index("-- mark setup")
    assert lines[mark + 1].strip() != ""  # the OLED's text at the mark


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="this platform has no pseudo-terminals")
@pytest.mark.parametrize("stop", ["q", "SIGINT", "SIGTERM"])
def test_on_a_terminal_the_screen_shows_and_any_stop_is_one_line(tmp_path, stop):
    """`dicetower pico` on a terminal draws the board's screen; q, Ctrl-C (SIGINT) or SIGTERM end it, the
    terminal is given back, the last line says so, and the board's node process ends with it."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 42, 130, 0, 0))
    env = dict(os.environ, COLUMNS="130", LINES="42")  # as the terminal says (pytest's own may be in the environment)
    command = subprocess.Popen(
        [tool("dicetower"), "pico", "--files", str(tmp_path / "flash")],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
        env=env,
    )
    os.close(slave)
    seen = b""

    def read_until(done, seconds=60):
        nonlocal seen
        deadline = time.monotonic() + seconds
        while not done() and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    seen += os.read(master, 65536)
                except OSError:  # the command has ended and closed the terminal
                    return

    try:
        read_until(lambda: b"OLED is dark" in seen)  # the screen is up, and says what to run
        assert b"OLED is dark" in seen, seen
        node = _children(command.pid)
        if stop == "q":
            os.write(master, b"q")
        else:
            command.send_signal(getattr(signal, stop))
        read_until(lambda: command.poll() is not None)
        command.wait(timeout=60)
    finally:
        os.close(master)
        if command.poll() is None:
            command.kill()
            command.wait()
    last = seen.decode("utf-8", "replace").rstrip().splitlines()[-1]
    flash = tmp_path / "flash"
    said = {
        "q": "stopped; its flash is kept in %s" % flash,
        "SIGINT": "stopped (Ctrl-C); its flash is kept in %s" % flash,
        "SIGTERM": "stopped by SIGTERM; its flash is kept in %s" % flash,
    }[stop]
    assert last.endswith("dicetower pico: " + said), last
    assert command.returncode == (143 if stop == "SIGTERM" else 0)
    if node is not None:
        assert _until(lambda: _gone(node[0]))


def _face_at(tmp_path, size, look):
    """A fresh virtual Pico's screen in a terminal of `size`: `look(pilot, app, seen)` fills `seen`."""
    import asyncio

    from dicetower_host.pico import VirtualPico
    from dicetower_host.pico.view import BoardFace

    seen = {}
    with VirtualPico(str(tmp_path / "flash")) as board:
        app = BoardFace(board, ["a virtual pico on %s" % board.url])

        async def main():
            async with app.run_test(size=size) as pilot:
                await look(pilot, app, seen)

        asyncio.run(main())
    return seen


def test_at_80x24_the_board_shows_its_oled_as_text_and_smaller_is_told_the_size_it_needs(tmp_path):
    """An 80 x 24 terminal cut the OLED's picture (it needs 40 rows): there it is its eight lines of
    text, as in the simulator, and its notes one line; smaller still, the sizes needed are said."""
    from dicetower_host.sim import tui

    async def look(pilot, app, seen):
        seen["drawn"] = await _until_app(pilot, lambda: app.drawn_as is tui.oled_lines)
        seen["lines"] = len(str(app.picture).splitlines())
        seen["status"] = app.status
        await pilot.resize_terminal(20, 10)
        seen["told"] = await _until_app(pilot, lambda: (app.status or "").startswith("This terminal"))
        seen["small"] = app.status

    seen = _face_at(tmp_path, (80, 24), look)
    assert seen["drawn"] and seen["lines"] == 8, seen
    assert not (seen["status"] or "").startswith("This terminal"), seen["status"]
    assert seen["told"], seen
    assert seen["small"] == (
        "This terminal is 20x10; the board's screen needs 27x14 (64x40 for the OLED's picture): make it larger, "
        "or use --headless"
    )


def test_at_120x40_the_board_shows_its_whole_oled_at_half_width(tmp_path):
    """A 120 x 40 terminal, as the simulator fits: the OLED in quadrant blocks, every pixel, no size note."""
    from dicetower_host.sim import tui

    async def look(pilot, app, seen):
        seen["drawn"] = await _until_app(pilot, lambda: app.drawn_as is tui.oled_quadrants)
        seen["status"] = app.status
        seen["picture"] = str(app.picture)
        seen["expected"] = str(tui.oled_quadrants(app.panel))

    seen = _face_at(tmp_path, (120, 40), look)
    assert seen["drawn"], seen
    assert not (seen["status"] or "").startswith("This terminal"), seen["status"]
    assert seen["picture"] == seen["expected"] and len(seen["picture"].splitlines()) == 32


def test_a_bad_script_is_one_line_before_any_board_starts(tmp_path):
    script = tmp_path / "bad.sim"
    script.write_text("keys c\nroll the dice\n")
    done = _dicetower("pico", "--script", str(script), "--files", str(tmp_path / "flash"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "dicetower: %s: line 2: unknown command 'roll' (seed, board, press, keys, wait, mark)" % script
    ]
    done = _dicetower("pico", "--script", str(tmp_path / "missing.sim"), "--files", str(tmp_path / "flash"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "dicetower: cannot read the script %s: No such file or directory" % (tmp_path / "missing.sim")
    ]


def test_the_emulated_picos_raw_repl_asked_again_prints_nothing(capsys):
    """mpremote prints what came instead of the raw REPL's prompt before it gives up: each retry of a
    slow chip left a stray line (b'') in the output of the benchmarks run on it. Retries are quiet, and
    the last one's text is in the error if the prompt never comes."""
    from mpremote.transport import TransportError

    from dicetower_host.pico import EmulatedPico

    class Chip:
        def __init__(self, fails):
            self.fails = fails

        def enter_raw_repl(self, soft_reset, timeout_overall):
            if self.fails:
                self.fails -= 1
                print(b"")
                raise TransportError("could not enter raw repl")

    class Running:
        def poll(self):
            return None

    pico = EmulatedPico.__new__(EmulatedPico)
    pico.process = Running()
    pico._enter_raw_repl(Chip(fails=2))
    assert capsys.readouterr().out == ""
    pico.REPL_SECONDS = 0
    with pytest.raises(TransportError, match=r"could not enter raw repl \(the chip said b''\)"):
        pico._enter_raw_repl(Chip(fails=1))
    assert capsys.readouterr().out == ""
