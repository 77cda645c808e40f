"""`dicetower monitor`: rows for events, a saved log `dicetower stats` reads, malformed lines skipped, reconnects."""

import io
import json
import socket
import subprocess
import threading
import time

from conftest import ROOT, tool
from dicetower_host import monitor


class Port:
    """Lines as a board would send them; OSError where it was unplugged."""

    def __init__(self, lines):
        self.lines = list(lines)

    def readline(self):
        if not self.lines:
            return b""
        line = self.lines.pop(0)
        if isinstance(line, Exception):
            raise line
        return line


def test_events_become_rows_and_a_saved_log():
    lines = [b"MicroPython v1.27.0\r\n",
             b'{"event": "ready", "version": "0.1.0", "t": 1}\r\n',
             b'{"event": "roll", "hero": "Hulk", "faces": ["Mystic", "Skill", "Tech", "Cosmic", "Mutant", "Science"], "t": 5}\r\n',
             b'{"event": "roll", "hero": "Hulk", "faces": ["Mys\r\n',
             b'{"event": "action", "game": "battlerealm", "action": "roll", "line": "+1 PVP.", "t": 9}\r\n']
    out, save = io.StringIO(), io.StringIO()
    count = monitor.follow(lambda: Port(lines), out, save, count=3, sleep=lambda s: None)
    assert count == 3
    text = out.getvalue()
    assert "roll      Hulk" in text and "Mystic Skill Tech Cosmic Mutant Science" in text
    assert "-- malformed line skipped" in text
    assert "MicroPython" not in text  # REPL chatter is not an event
    saved = [json.loads(line) for line in save.getvalue().splitlines()]
    assert [e["event"] for e in saved] == ["ready", "roll", "action"]


def test_unplugged_and_plugged_back():
    attempts = []

    def open_port():
        attempts.append(1)
        if len(attempts) == 1:
            return Port([b'{"event": "ready", "t": 1}\n', OSError("device disconnected")])
        if len(attempts) == 2:
            raise OSError("no such device")
        return Port([b'{"event": "game", "game": "united", "t": 2}\n'])

    out = io.StringIO()
    assert monitor.follow(open_port, out, count=2, sleep=lambda s: None) == 2
    text = out.getvalue()
    assert "the board went away" in text and text.count("-- connected") == 2
    assert len(attempts) == 3  # one failed attempt while unplugged, said once, not each time


def test_the_command_follows_a_socket_and_stats_reads_the_log(tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    sim = subprocess.run([tool("dicetower"), "sim", "--script", "examples/battlerealm.sim"], capture_output=True,
                         text=True, cwd=ROOT)
    events = json.loads(sim.stdout)["events"]

    def board():
        conn, _ = server.accept()
        # pyserial's socket:// open() empties the input once connected: bytes sent before that are
        # dropped, so a board that talks at once loses its first lines. Wait until the port is open.
        time.sleep(0.5)
        for event in events:
            conn.sendall((json.dumps(event) + "\r\n").encode())
        conn.sendall(b"not json at all {\r\n")
        conn.close()

    threading.Thread(target=board, daemon=True).start()
    log = tmp_path / "game.jsonl"
    done = subprocess.run([tool("dicetower"), "monitor", "--port", "socket://127.0.0.1:%d" % port, "--save",
                           str(log), "--count", str(len(events))], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "GAME OVER" in done.stdout
    stats = subprocess.run([tool("dicetower"), "stats", str(log)], capture_output=True, text=True)
    assert "Battlerealm:" in stats.stdout and "rolls" in stats.stdout
