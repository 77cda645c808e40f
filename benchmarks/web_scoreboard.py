"""The scoreboard's server (firmware/dicetower/web/server.py) on the simulated tower, over loopback.

    .venv/bin/python benchmarks/web_scoreboard.py [--phones 8] [--presses 40]

Prints: from a press on the tower to the new document on every phone's stream (p50, p99,
worst), the document's size in a two-hero Battlerealm game, and /state answers a second.
CPython on this machine: the protocol's own delays (the stream looks for changes every
CHANGES_MS), not a Pico W's radio.
"""

import argparse
import json
import os
import socket
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

from dicetower_host import sim  # noqa: E402
from dicetower_host.sim import web  # noqa: E402


def follow(port, seen, ready):
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: tower\r\n\r\n")
    stream = sock.makefile("rb")
    ready.release()
    for line in stream:
        if line.startswith(b"data: "):
            seen.append((time.monotonic(), json.loads(line[6:])["version"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--presses", type=int, default=40)
    args = parser.parse_args()
    tower = sim.boot("pico_w", seed=3, state_dir=tempfile.mkdtemp(prefix="dicetower-web-"))
    with web.Served(tower) as served:
        for key in "caaacc":  # New Battlerealm, two heroes (A lowers four to two, no further), start, the cut
            served.press(key)
        phones = [[] for _ in range(args.phones)]
        ready = threading.Semaphore(0)
        for seen in phones:
            threading.Thread(target=follow, args=(served.port, seen, ready), daemon=True).start()
            ready.acquire()
        time.sleep(0.5)
        delays = []
        for n in range(args.presses):
            before = served.call(lambda: served.server.tower.scoreboard.version)
            pressed = time.monotonic()
            served.press("b" if n % 2 else "a")  # the cursor moves: a new document
            for seen in phones:
                while not any(version > before for _, version in seen):
                    time.sleep(0.002)
                delays.append(min(t for t, version in seen if version > before) - pressed)
        size = len(served.call(lambda: served.server.tower.scoreboard.latest))
        started = time.monotonic()
        count = 0
        while time.monotonic() - started < 2:
            with urllib.request.urlopen(served.url + "/state", timeout=30) as r:
                r.read()
            count += 1
        rate = count / (time.monotonic() - started)
    delays.sort()
    p = lambda q: delays[min(len(delays) - 1, int(q * (len(delays) - 1)))] * 1000  # noqa: E731
    print(
        "press on the tower -> the new document on each of %d phones' streams (%d presses): "
        "p50 %.0f ms, p99 %.0f ms, worst %.0f ms" % (args.phones, args.presses, p(0.5), p(0.99), delays[-1] * 1000)
    )
    print("the document, a two-hero Battlerealm game: %d B" % size)
    print("/state answered one after another: %.0f a second" % rate)


if __name__ == "__main__":
    main()
