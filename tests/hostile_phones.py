"""Hostile phones against the scoreboard's server, over loopback, for the tests and benchmarks/web_scoreboard.py.

Each attack comes from one address of its own (127.0.0.N: Linux answers the whole 127/8) on threads
that reopen their connection as soon as the server drops it, as the hostile run's laptop did. Every
loop is bounded: by `seconds`, by `stop`, and each socket call by a timeout.

    idle     connects and sends nothing (the server drops it at REQUEST_S; a refusal at once)
    trickle  sends a request line, then a header line every half second
    flood    asks for /state, reads the answer, asks again; its latencies are kept
"""

import socket
import threading
import time

HOWS = ("idle", "trickle", "flood")


def connect(port, address, timeout=5.0):
    sock = socket.socket()
    sock.settimeout(timeout)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def ask(port, address, path="/state", timeout=5.0):
    """GET `path` from `address`: (seconds to the whole answer, status or None)."""
    started = time.monotonic()
    status = None
    try:
        sock = connect(port, address, timeout)
        try:
            sock.sendall(b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % path.encode())
            answer = b""
            while True:
                piece = sock.recv(65536)
                if not piece:
                    break
                answer += piece
            words = answer.split(b"\r\n", 1)[0].split()
            status = int(words[1]) if len(words) > 1 and words[1].isdigit() else None
        finally:
            sock.close()
    except OSError:
        pass
    return time.monotonic() - started, status


class Attack:
    """`threads` threads from `address` doing `how` for at most `seconds` (or until stopped)."""

    def __init__(self, port, how, address="127.0.0.66", threads=16, seconds=30.0):
        assert how in HOWS, how
        self.port = port
        self.how = how
        self.address = address
        self.threads = threads
        self.until = time.monotonic() + seconds
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.latencies = []  # flood: seconds per answered /state
        self.statuses = {}  # flood: status -> count
        self.connections = 0
        self._threads = []

    def going(self):
        return not self.stop.is_set() and time.monotonic() < self.until

    def _run(self):
        while self.going():
            try:
                if self.how == "flood":
                    seconds, status = ask(self.port, self.address)
                    with self.lock:
                        self.connections += 1
                        self.statuses[status] = self.statuses.get(status, 0) + 1
                        if status == 200:
                            self.latencies.append(seconds)
                    continue
                sock = connect(self.port, self.address, 0.5)
                with self.lock:
                    self.connections += 1
                try:
                    if self.how == "trickle":
                        sock.sendall(b"GET /state HTTP/1.1\r\n")
                    n = 0
                    while self.going():
                        try:
                            if not sock.recv(4096):
                                break  # dropped (or refused): reopen at once
                        except socket.timeout:
                            if self.how == "trickle":
                                sock.sendall(b"X-Slow-%d: 1\r\n" % n)
                                n += 1
                finally:
                    sock.close()
            except OSError:
                pass  # refused or reset: again

    def start(self):
        for _ in range(self.threads):
            thread = threading.Thread(target=self._run, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def join(self):
        self.stop.set()
        for thread in self._threads:
            thread.join(10)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.join()
        return False
