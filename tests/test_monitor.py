"""`dicetower monitor`: rows for events, a saved log `dicetower stats` reads, malformed lines and events
skipped in one line each, reconnects, and bounded whatever the cable brings: line length, --seconds,
split lines joined, control bytes escaped."""

import io
import json
import socket
import subprocess
import threading
import time

from conftest import ROOT, tool
from dicetower_host import monitor


class Port:
    """Bytes as a board would send them, one read() a piece (b"" is a pause: pyserial's timeout);
    OSError where it was unplugged."""

    def __init__(self, pieces):
        self.pieces = list(pieces)

    @property
    def in_waiting(self):
        return len(self.pieces[0]) if self.pieces and isinstance(self.pieces[0], bytes) else 0

    def read(self, size=1):
        if not self.pieces:
            return b""
        piece = self.pieces.pop(0)
        if isinstance(piece, Exception):
            raise piece
        if len(piece) > size:
            self.pieces.insert(0, piece[size:])
            piece = piece[:size]
        return piece


class Clock:
    """A clock that moves a tenth of a second at each look, as if each read took that long."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 0.1
        return self.now


def follow(pieces, **kw):
    out, save = io.StringIO(), io.StringIO()
    kw.setdefault("clock", Clock())
    count = monitor.follow(lambda: Port(pieces), out, save, sleep=lambda s: None, **kw)
    return count, out.getvalue(), save.getvalue()


def test_events_become_rows_and_a_saved_log():
    lines = [
        b"MicroPython v1.27.0\r\n",
        b'{"event": "ready", "version": "0.1.0", "t": 1}\r\n',
        b'{"event": "roll", "hero": "Hulk", "faces": ["Mystic", "Skill", "Tech", "Cosmic", "Mutant", "Science"], "t": 5}\r\n',
        b'{"event": "roll", "hero": "Hulk", "faces": ["Mys\r\n',
        b'{"event": "action", "game": "battlerealm", "action": "roll", "line": "+1 PVP.", "t": 9}\r\n',
    ]
    out, save = io.StringIO(), io.StringIO()
    count = monitor.follow(lambda: Port(lines), out, save, count=3, sleep=lambda s: None)
    assert count == 3
    text = out.getvalue()
    assert "roll      Hulk" in text and "Mystic Skill Tech Cosmic Mutant Science" in text
    assert "-- malformed line skipped" in text
    assert "MicroPython" not in text  # REPL chatter is not an event
    saved = [json.loads(line) for line in save.getvalue().splitlines()]
    assert [e["event"] for e in saved] == ["ready", "roll", "action"]


def test_events_of_the_wrong_types_are_one_line_each_and_the_monitor_goes_on():
    bad = [
        b'{"event": "roll", "hero": "Hulk", "faces": [1, 2], "t": 1}',
        b'{"event": "roll", "hero": null, "faces": ["Mutant"], "t": 1}',
        b'{"event": "reroll", "dice": 3, "faces": ["Tech"], "t": 1}',
        b'{"event": "action", "action": "roll", "line": {"a": 1}, "t": 1}',
        b'{"event": "over", "result": "x", "t": "soon"}',
        b'{"event": 7}',
        b'{"event": "ready", "pad": "' + b"p" * 100000 + b'"}',  # too long: dropped
        b'{"event": "error", "why": ' + b"[" * 3000 + b"]" * 3000 + b"}",  # nested too deep
        b'{"event": "roll", "hero": "Hulk", "faces": ["Mys',
        b"null",
    ]
    good = b'{"event": "over", "game": "united", "result": "6 KO tokens: the heroes lose.", "t": 9}'
    count, text, saved = follow([line + b"\r\n" for line in bad + [good]], seconds=60)
    assert count == 1 and "GAME OVER 6 KO tokens" in text
    said = [line for line in text.splitlines() if line.startswith("-- ")]
    assert said[0] == "-- connected"
    malformed = said[1:]
    assert len(malformed) == len(bad) - 1  # `null` is not an object, so no event: passed over like chatter
    assert all(line.startswith("-- malformed line skipped (") or line.startswith("-- a line of") for line in malformed)
    assert all(len(line) < 300 for line in malformed)
    assert "roll faces has the wrong type" in text and "reroll dice has the wrong type" in text
    assert "nested too deep" in text
    assert "t is not a number" in text
    assert [json.loads(line)["event"] for line in saved.splitlines()] == ["over"]  # only what stats may read


def test_a_line_split_by_a_pause_is_joined():
    line = b'{"event": "roll", "hero": "Hulk", "faces": ["Mystic", "Skill", "Tech", "Cosmic", "Mutant", "Science"]}\n'
    count, text, saved = follow([line[:30], b"", b"", line[30:70], b"", line[70:]], count=1)
    assert count == 1 and "Mystic Skill Tech Cosmic Mutant Science" in text
    assert "malformed" not in text


def test_a_line_longer_than_the_bound_is_dropped_and_said():
    flood = [b"x" * 4096] * 10  # 40 KB and no newline yet
    good = b'{"event": "game", "game": "united", "t": 2}\n'
    count, text, saved = follow(flood + [b"tail\n", good], count=1)
    assert count == 1
    assert "-- a line of %d bytes dropped: longer than %d bytes" % (40960 + 4, monitor.MAX_LINE) in text


def test_a_stream_without_newlines_stops_at_seconds_in_bounded_memory():
    class Endless:
        reads = 0
        in_waiting = 1 << 20

        def read(self, size=1):
            Endless.reads += 1
            return b"y" * size

    clock = Clock()
    lines = []
    original = monitor.Lines

    class Watched(original):
        def feed(self, data):
            lines.append(len(self.pending))
            return original.feed(self, data)

    monitor.Lines = Watched
    try:
        count = monitor.follow(lambda: Endless(), io.StringIO(), None, seconds=5, clock=clock, sleep=lambda s: None)
    finally:
        monitor.Lines = original
    assert count == 0 and clock.now < 5.5  # stopped by the clock, not by a newline that never came
    assert Endless.reads > 10 and max(lines) <= monitor.MAX_LINE


def test_control_bytes_are_shown_escaped():
    lines = [
        b'{"broken \x1b[31m red\n',
        b'{"event": "action", "action": "roll", "line": "\\u001b[2J\\u0007Hulk wins", "t": 3}\n',
    ]
    count, text, saved = follow(lines, count=1, seconds=10)
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b[2J\\x07Hulk wins" in text and "\\x1b[31m" in text


def test_unplugged_and_plugged_back():
    attempts = []

    def open_port():
        attempts.append(1)
        if len(attempts) == 1:
            # half a line when the cable comes out: not joined to what comes after the reconnection
            return Port([b'{"event": "ready", "t": 1}\n{"event": "ga', OSError("device disconnected")])
        if len(attempts) == 2:
            raise OSError("no such device")
        return Port([b'{"event": "game", "game": "united", "t": 2}\n'])

    out = io.StringIO()
    assert monitor.follow(open_port, out, count=2, sleep=lambda s: None) == 2
    text = out.getvalue()
    assert "the board went away" in text and text.count("-- connected") == 2
    assert len(attempts) == 3  # one failed attempt while unplugged, said once, not each time
    assert "malformed" not in text


def test_the_command_follows_a_socket_and_stats_reads_the_log(tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    sim = subprocess.run(
        [tool("dicetower"), "sim", "--script", "examples/battlerealm.sim"], capture_output=True, text=True, cwd=ROOT
    )
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
    done = subprocess.run(
        [
            tool("dicetower"),
            "monitor",
            "--port",
            "socket://127.0.0.1:%d" % port,
            "--save",
            str(log),
            "--count",
            str(len(events)),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "GAME OVER" in done.stdout
    stats = subprocess.run([tool("dicetower"), "stats", str(log)], capture_output=True, text=True)
    assert "Battlerealm:" in stats.stdout and "rolls" in stats.stdout


def test_a_socket_port_is_read_in_blocks_not_a_byte_a_call():
    """pyserial's socket:// port says 1 byte waiting whatever it holds: a 1 MB line read a byte a call
    took 6.7 s. Through the real socket:// port, a megabyte line and an event take a few hundred reads."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    opened = monitor.open_serial("socket://127.0.0.1:%d" % server.getsockname()[1])()  # its input emptied
    conn, _ = server.accept()
    conn.sendall(
        b"x" * 10**6
        + b"\r\n"
        + json.dumps({"event": "ready", "version": "0.1.0", "board": "Pico", "dice": "noise"}).encode()
        + b"\r\n"
    )
    reads = []

    class Counted:  # the port as open_serial made it, its reads counted
        in_waiting = property(lambda self: opened.in_waiting)
        timeout = property(lambda self: opened.timeout)

        def read(self, size=1):
            reads.append(size)
            return opened.read(size)

    out = io.StringIO()
    try:
        assert monitor.follow(lambda: Counted(), out, count=1) == 1
    finally:
        opened.close()
        conn.close()
        server.close()
    assert "-- a line of 1000001 bytes dropped" in out.getvalue(), out.getvalue()  # with its \r
    assert len(reads) < 1000, len(reads)
