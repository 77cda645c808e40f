"""The scoreboard's server (firmware/dicetower/web/server.py) on the simulated tower, over loopback, and under attack.

    .venv/bin/python benchmarks/web_scoreboard.py [--phones 8] [--presses 40] [--seconds 8]

Prints: from a press on the tower to the new document on every phone's stream (p50, p99,
worst), the document's size in a two-hero Battlerealm game, and /state answers a second.
CPython on this machine: the protocol's own delays (the stream looks for changes every
CHANGES_MS), not a Pico W's radio.

Then the hostile run, against the simulated tower served by a process of its own (loopback only;
the attacks are tests/hostile_phones.py's, every loop bounded): one address (127.0.0.66) with 16
threads holding connections and reopening each the moment it is dropped or refused, idle, trickling
its headers, or flooding /state; then a flood from 20 addresses, a thread each. Under each, for
--seconds: a behaving phone (127.0.0.7) reads /state every 0.5 s (p50, p99, worst, and how many
were refused); headless Chromium opens the page (time to the game on screen), and an undo on the
tower reaches it (time to the page's change); the flood's own answers (p50, p99, a second); the
game, its save and its history compared before and after; the server's RSS (now, and its peak).

Then guessing the PIN: addresses that each send their next guess the moment the tower's answer
lets them (the wait it says, the lockout's minutes, a minute when the untrusted are locked out), for
six hours of the server's clock through its whole request handling (asyncio on a simulated clock,
as tests/fw/test_web_guard.py runs it): guesses looked at, and the days a 4-digit PIN then takes
(on average half of its 10,000 values, all of them at worst).
"""

import argparse
import hashlib
import heapq
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))

import hostile_phones  # noqa: E402

from dicetower_host import sim  # noqa: E402
from dicetower_host.sim import web  # noqa: E402

PIN = "2468"


def follow(port, seen, ready, address):
    sock = socket.socket()
    sock.settimeout(60)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    stream = sock.makefile("rb")
    ready.release()
    for line in stream:
        if line.startswith(b"data: "):
            seen.append((time.monotonic(), json.loads(line[6:])["version"]))


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * (len(values) - 1)))] if values else float("nan")


def streams(args):
    tower = sim.boot("pico_w", seed=3, state_dir=tempfile.mkdtemp(prefix="dicetower-web-"))
    with web.Served(tower) as served:
        for key in "caaacc":  # New Battlerealm, two heroes (A lowers four to two, no further), start, the cut
            served.press(key)
        started = time.monotonic()
        count = 0
        while time.monotonic() - started < 2:
            with urllib.request.urlopen(served.url + "/state", timeout=30) as r:
                r.read()
            count += 1
        rate = count / (time.monotonic() - started)
        phones = [[] for _ in range(args.phones)]
        ready = threading.Semaphore(0)
        for n, seen in enumerate(phones):  # each phone its own address: the server gives one address two
            address = "127.0.0.%d" % (10 + n)
            threading.Thread(target=follow, args=(served.port, seen, ready, address), daemon=True).start()
            ready.acquire()
        deadline = time.monotonic() + 30
        while not all(phones) and time.monotonic() < deadline:
            time.sleep(0.01)  # each stream's first document: polled, bounded
        delays = []
        for n in range(args.presses):
            before = served.call(lambda: served.server.tower.scoreboard.version)
            pressed = time.monotonic()
            served.press("b" if n % 2 else "a")  # the cursor moves: a new document
            for seen in phones:
                while not any(version > before for _, version in seen) and time.monotonic() < pressed + 30:
                    time.sleep(0.002)
                delays.append(min([t for t, version in seen if version > before] or [pressed + 30]) - pressed)
        size = len(served.call(lambda: served.server.tower.scoreboard.latest))
    print(
        "press on the tower -> the new document on each of %d phones' streams (%d presses): "
        "p50 %.0f ms, p99 %.0f ms, worst %.0f ms"
        % (args.phones, args.presses, 1000 * pct(delays, 0.5), 1000 * pct(delays, 0.99), 1000 * max(delays))
    )
    print("the document, a two-hero Battlerealm game: %d B" % size)
    print("/state answered one after another (no stream open): %.0f a second" % rate)


# -- the hostile run -------------------------------------------------------------------------------


def serve():
    """The tower and its server in this process (`--serve`), told what to do on stdin, a line each."""
    state_dir = tempfile.mkdtemp(prefix="dicetower-web-attacks-")
    tower = sim.boot("pico_w", seed=3, state_dir=state_dir)
    with web.Served(tower, pin=PIN) as served:
        print(served.port, flush=True)
        for line in sys.stdin:
            words = line.split()
            if words[:1] == ["keys"]:
                served.call(tower.presses, words[1])
                print("ok", flush=True)
            elif words[:1] == ["digest"]:  # the game, its save and its history, as one hash

                def digest():
                    app = tower.app
                    lines = app.game.lines if app.game is not None else []
                    try:
                        with open(os.path.join(state_dir, "game.sav"), "rb") as f:
                            saved = f.read()
                    except OSError:
                        saved = b""
                    return hashlib.sha256(
                        json.dumps([app.mode, lines, app.game.state if app.game else None]).encode() + saved
                    ).hexdigest()

                print(served.call(digest), flush=True)
            else:
                break


class Tower:
    """The served tower's process."""

    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        self.port = int(self.process.stdout.readline())
        self.url = "http://127.0.0.1:%d" % self.port

    def tell(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def memory(self):
        """(RSS, its peak) in MB."""
        figures = {}
        with open("/proc/%d/status" % self.process.pid) as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    figures[line.split(":")[0]] = int(line.split()[1]) / 1024
        return figures.get("VmRSS", 0.0), figures.get("VmHWM", 0.0)

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(30)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


def phone_reads(port, seconds):
    """A behaving phone's /state every 0.5 s for `seconds` (a page reads it every 2 s while it has no
    stream): (latencies of those answered 200, refused)."""
    latencies, refused = [], 0
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        took, status = hostile_phones.ask(port, "127.0.0.7", timeout=10)
        if status == 200:
            latencies.append(took)
        else:
            refused += 1
        time.sleep(max(0.0, 0.5 - took))  # the phone's own pace
    return latencies, refused


def page_times(browser, tower):
    """Chromium: (seconds from opening the page to the game on it, from an undo on the tower to the page's
    change). The tower is in a Champions game with an ally in play; the undo takes the ally back, a redo
    plays it again for the next time. (Watched with Playwright's locators: the page's policy refuses
    what wait_for_function would evaluate.)"""
    from playwright.sync_api import expect

    page = browser.new_page()
    try:
        started = time.monotonic()
        page.goto(tower.url + "/")
        expect(page.locator("#title")).to_have_text("Marvel Champions", timeout=60000)
        shown = time.monotonic() - started
        expect(page.locator("#scores .allies")).to_have_count(1, timeout=60000)
        tower.tell("keys A")  # undo: the ally goes
        started = time.monotonic()
        expect(page.locator("#scores .allies")).to_have_count(0, timeout=60000)
        undone = time.monotonic() - started
    finally:
        page.close()
    tower.tell("keys B")  # redo: the ally back for the next time
    return shown, undone


def hostile_run(args):
    import shutil

    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    tower = Tower()
    try:
        tower.tell("keys bcc")  # New Champions, two players
        tower.tell("keys aaaaccbc")  # Play ally: P1, Ally 1, 2 hit points
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
            )
            rss, peak = tower.memory()
            print("The hostile run (%.0f s each; the server's RSS at the start %.1f MB):" % (args.seconds, rss))
            print(
                "  %-40s %26s %9s %9s %9s %17s %s"
                % (
                    "attack",
                    "phone's /state p50/p99/max",
                    "refused",
                    "page",
                    "undo",
                    "flood p50/p99",
                    "answered/refused a s",
                )
            )
            runs = [("none", None)] + [("one address, 16 threads, " + how, how) for how in hostile_phones.HOWS]
            runs.append(("20 addresses, a thread each, flood", "many"))
            unchanged = True
            for label, how in runs:
                attacks = []
                if how == "many":
                    attacks = [
                        hostile_phones.Attack(tower.port, "flood", "127.0.0.%d" % (100 + n), 1, args.seconds + 60)
                        for n in range(20)
                    ]
                elif how is not None:
                    attacks = [hostile_phones.Attack(tower.port, how, "127.0.0.66", 16, args.seconds + 60)]
                before = tower.tell("digest")
                for attack in attacks:
                    attack.start()
                try:
                    latencies, refused = phone_reads(tower.port, args.seconds)
                    unchanged = unchanged and tower.tell("digest") == before
                    shown, undone = page_times(browser, tower)
                finally:
                    for attack in attacks:
                        attack.join()
                flood = [x for attack in attacks if attack.how == "flood" for x in attack.latencies]
                answered = sum(len(attack.latencies) for attack in attacks)
                turned = sum(n for attack in attacks for status, n in attack.statuses.items() if status != 200)
                took = args.seconds + shown + undone
                print(
                    "  %-40s %7.0f / %4.0f / %5.0f ms %9d %7.2f s %7.2f s %17s %s"
                    % (
                        label,
                        1000 * pct(latencies, 0.5),
                        1000 * pct(latencies, 0.99),
                        1000 * max(latencies or [float("nan")]),
                        refused,
                        shown,
                        undone,
                        "%.0f / %.0f ms" % (1000 * pct(flood, 0.5), 1000 * pct(flood, 0.99)) if flood else "-",
                        "%.0f / %.0f" % (answered / took, turned / took) if flood else "-",
                    )
                )
                deadline = time.monotonic() + 30
                while hostile_phones.ask(tower.port, "127.0.0.7")[1] != 200 and time.monotonic() < deadline:
                    time.sleep(0.1)  # the attack's last sockets counted out before the next run
            browser.close()
        rss, peak = tower.memory()
        print("  the server's RSS after the run %.1f MB (its peak %.1f MB)" % (rss, peak))
        print("  the game, its save and its history unchanged by every attack: %s" % ("yes" if unchanged else "NO"))
    finally:
        tower.close()


# -- guessing the PIN, on the server's clock ------------------------------------------------------------


class _Shim:
    """asyncio as the server sees it, with nothing to wait for: every request is whole at once."""

    class TimeoutError(Exception):
        pass

    class CancelledError(Exception):
        pass

    async def wait_for(self, awaitable, seconds):
        return await awaitable

    async def sleep_ms(self, ms):
        pass


class _Reader:
    def __init__(self, data):
        self.data = data

    async def read(self, n):
        piece, self.data = self.data[:n], self.data[n:]
        return piece


class _Writer:
    def __init__(self, address):
        self.address = address
        self.out = b""

    def get_extra_info(self, name):
        return (self.address, 50000)

    async def awrite(self, data):
        self.out += bytes(data)

    async def aclose(self):
        pass


class _App:
    mode = "play"
    message = ""
    phones = {"url": "http://192.168.4.1/"}
    page = 0

    def say(self, text):
        self.message = text


class _Board:
    version = 1
    latest = "{}"


class _Tower:
    def __init__(self):
        self.app = _App()
        self.scoreboard = _Board()

    def press(self, button, kind):
        pass


def guessing(addresses, hours):
    """(guesses looked at, requests sent): `addresses` guessing for `hours` of the server's clock."""
    from dicetower.web import server

    clock = [0]
    real = server.asyncio
    server.asyncio = _Shim()
    try:
        s = server.Server(_Tower(), PIN, lambda: clock[0], lambda a, b: a - b)
        ready = [(0, n) for n in range(addresses)]
        looked_at = sent = 0
        end = hours * 3600 * 1000
        while ready and ready[0][0] < end:
            at, n = heapq.heappop(ready)
            clock[0] = at
            body = json.dumps({"button": "b", "pin": "%04d" % (sent % 10000 if sent % 10000 != 2468 else 0)})
            data = (
                "POST /press HTTP/1.1\r\nHost: 192.168.4.1\r\nContent-Type: application/json\r\n"
                "Content-Length: %d\r\n\r\n%s" % (len(body), body)
            ).encode()
            writer = _Writer("10.0.%d.%d" % (n // 250, n % 250 + 1))
            coroutine = s.handle_request(_Reader(data), writer)
            try:
                while True:
                    coroutine.send(None)
            except StopIteration:
                pass
            sent += 1
            why = json.loads(writer.out.split(b"\r\n\r\n", 1)[1])["error"]
            if why.startswith("wrong PIN"):
                looked_at += 1
                later = 1000
            elif "wait " in why:
                later = 1000 * int(why.split("wait ")[1].split(" s")[0])
            elif "next try in " in why:
                later = 60000 * int(why.split("next try in ")[1].split(" min")[0])
            else:  # the untrusted are locked out: the budget gives one back a minute
                later = 60000
            heapq.heappush(ready, (at + later, n))
        return looked_at, sent
    finally:
        server.asyncio = real


def pin_rates():
    from dicetower.web import guard

    hours = 6
    print("Guessing a 4-digit PIN (%d hours of the server's clock, each address as fast as it is let):" % hours)
    for addresses in (1, 4, 64, 250):
        started = time.monotonic()
        looked_at, sent = guessing(addresses, hours)
        a_day = looked_at * 24 / hours
        print(
            "  %3d address%s: %5d guesses looked at (%6d sent): %5.0f a day, a 4-digit PIN in %5.1f days on "
            "average, %5.1f at worst (%.1f s to simulate)"
            % (
                addresses,
                "" if addresses == 1 else "es",
                looked_at,
                sent,
                a_day,
                5000 / a_day,
                10000 / a_day,
                time.monotonic() - started,
            )
        )
    print(
        "  the bound from web/guard.py's figures, however many addresses: %d, then one every %d s: %d a day, "
        "%.1f days on average" % (guard.BURST, guard.REFILL_S, 86400 // guard.REFILL_S, 5000 / (86400 / guard.REFILL_S))
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=8.0, help="how long each attack runs")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    streams(args)
    hostile_run(args)
    pin_rates()


if __name__ == "__main__":
    main()
