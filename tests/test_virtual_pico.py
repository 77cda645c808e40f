"""A virtual Pico on a TCP port whose REPL is the real MicroPython VM, driven by the real, unmodified mpremote."""

import os
import subprocess
import time

import pytest

from conftest import ROOT, tool
from dicetower_host import paths


@pytest.fixture
def pico(tmp_path):
    flash = tmp_path / "flash"
    bridge = subprocess.Popen([paths.node(), paths.node_harness("vm/pico.mjs"), "--files", str(flash)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    line = bridge.stdout.readline()
    assert line.startswith("listening "), bridge.stderr.read()
    port = int(line.split()[1])

    def mpremote(*args):
        done = subprocess.run([tool("mpremote"), "connect", "socket://127.0.0.1:%d" % port, *args],
                              capture_output=True, text=True, timeout=120)
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
            done = subprocess.run([tool("mpremote"), "connect", path, "exec", "import sys; print(sys.platform, 6 * 7)"],
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, done.stderr
            assert done.stdout.strip() == "webassembly 42"
        # A socket client meanwhile takes the port; when it leaves, the pty has it again.
        done = subprocess.run([tool("mpremote"), "connect", board.url, "exec", "print('via socket')"],
                              capture_output=True, text=True, timeout=60)
        assert done.stdout.strip() == "via socket"
        done = subprocess.run([tool("mpremote"), "connect", path, "exec", "print('via pty')"],
                              capture_output=True, text=True, timeout=60)
        assert done.stdout.strip() == "via pty", done.stderr
