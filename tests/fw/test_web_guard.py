"""The scoreboard's server against hostile phones, on the tower's own clock: CPython and the MicroPython VM.

Each request goes through the server's whole handling (web/server.py's handle_request: its place,
request.py's bounds, microdot, the routes) from a stand-in connection, with asyncio replaced by
`Timeless`: a nap or a write's deadline moves the bench's clock (the device's loop runs meanwhile), so
five minutes of guessing take a second, and a lease or a lockout is a state reached, not a length of
time waited. What a player sees is read where they would see it: the answers' one line, and the OLED.
"""

import json
import unittest

from dicetower.web import guard, server
from table import Table

PIN = "2468"
TOWER = "192.168.4.1"  # the address on the Phones screen (a Pico W's own network)
PHONE = "192.168.4.7"
STRANGER = "192.168.4.66"


class Stalled(Exception):
    """A write the phone does not take."""


class Timeless:
    """asyncio as the server sees it, on the bench's clock: `wait_for` awaits at once (a write that
    stalls raises TimeoutError after the bench waited its time), a nap lets the device's loop run."""

    class TimeoutError(Exception):
        pass

    class CancelledError(Exception):
        pass

    def __init__(self, table):
        self.table = table

    async def wait_for(self, awaitable, seconds):
        try:
            return await awaitable
        except Stalled:
            self.table.wait(int(seconds * 1000))
            raise self.TimeoutError()

    async def sleep_ms(self, ms):
        self.table.wait(ms)
        await Pause(1)  # a turn for the other connections


class Pause:
    """What a held connection awaits: nothing comes until `go` (or for `turns` turns)."""

    def __init__(self, turns=None):
        self.go = False
        self.turns = turns

    def __await__(self):
        while not self.go:
            if self.turns is not None:
                if self.turns <= 0:
                    break
                self.turns -= 1
            yield
        return None

    __iter__ = __await__


class Reader:
    def __init__(self, data=b"", hold=None):
        self.data = data
        self.hold = hold

    async def read(self, n):
        if not self.data and self.hold is not None:
            await self.hold
        piece = self.data[:n]
        self.data = self.data[n:]
        return piece


class Writer:
    """A phone's end: keeps what it is sent; after `takes` writes, takes no more (Stalled)."""

    def __init__(self, address, takes=None):
        self.address = address
        self.takes = takes
        self.out = b""
        self.closed = False

    def get_extra_info(self, name):
        return (self.address, 50000) if name == "peername" else None

    async def awrite(self, data):
        if self.takes is not None:
            if self.takes <= 0:
                raise Stalled()
            self.takes -= 1
        self.out += bytes(data)

    async def aclose(self):
        self.closed = True

    def status(self):
        words = self.out.split(b"\r\n", 1)[0].split()
        return int(words[1]) if len(words) > 1 else None

    def head(self):
        return self.out.split(b"\r\n\r\n", 1)[0].decode()

    def body(self):
        return self.out.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in self.out else b""

    def error(self):
        """The answer's one line of why (a JSON error, or the server's own text)."""
        body = self.body()
        text = json.loads(body)["error"] if body.startswith(b"{") else body.decode().strip()
        assert "\n" not in text, text
        return text


def finish(coroutine, steps=200000):
    """A coroutine whose awaits are all Timeless's, run to its end."""
    for _ in range(steps):
        try:
            coroutine.send(None)
        except StopIteration as e:
            return e.value
    raise AssertionError("a request that never ended")


def request(method, path, body=None, headers=()):
    lines = ["%s %s HTTP/1.1" % (method, path), "Host: " + TOWER]
    lines.extend(headers)
    data = b""
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        lines.append("Content-Length: %d" % len(data))
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


def ask(s, address, data, takes=None):
    """One connection from `address` sending `data`, served to its end: its Writer."""
    writer = Writer(address, takes)
    finish(s.handle_request(Reader(data), writer))
    return writer


def press(s, address, pin, button="b"):
    """A phone's press, as the page sends it: (status, the answer's line or None)."""
    body = {"button": button, "kind": "short", "pin": pin}
    writer = ask(s, address, request("POST", "/press", body, ["Content-Type: application/json"]))
    return writer.status(), (None if writer.status() == 200 else writer.error())


class Bench(unittest.TestCase):
    """A booted tower on the bench, its server on the bench's clock, its Phones screen at TOWER."""

    def setUp(self):
        self.t = Table(seed=3)
        self.t.device.share()
        self.t.app.phones = {"url": "http://%s/" % TOWER, "wifi": None, "password": None, "pin": PIN}
        self.t.wait(100)
        self.real = server.asyncio
        server.asyncio = Timeless(self.t)
        clock = self.t.clock
        self.s = server.Server(self.t.device, PIN, lambda: clock.now, lambda a, b: a - b)

    def tearDown(self):
        server.asyncio = self.real

    def said(self):
        """The OLED's text, once the device has drawn it."""
        self.t.wait(50)
        return " ".join(line.strip() for line in self.t.screen())


class Pins(Bench):
    def test_five_minutes_of_guesses_from_one_phone_refuse_none_of_another_phones_right_pins(self):
        t, s = self.t, self.s
        refused = []
        looked_at = 0
        oled = ""
        for tick in range(600):  # a guess every 0.5 s for 5 minutes, a right PIN every second beside them
            status, why = press(s, STRANGER, "%04d" % tick)
            if why == "wrong PIN: it is on the tower's screen":
                looked_at += 1
                if looked_at == guard.LOCK_AFTER:
                    oled = self.said()
            else:
                self.assertTrue(status in (403, 429) and why.startswith(("a wrong PIN", "this phone is locked")), why)
            if tick % 2 == 0:
                status, why = press(s, PHONE, PIN)
                if status != 200:
                    refused.append((tick, why))
            t.wait(500)
        self.assertEqual(refused, [])
        # 1 + 2 + 4 ... + 64 + 64 s of waits: ten guesses in 4.3 minutes, then one every FORGIVE_S.
        self.assertEqual(looked_at, guard.LOCK_AFTER)
        self.assertTrue("Phone %s locked out: 10 wrong PINs" % STRANGER in oled, oled)
        self.assertEqual(press(s, STRANGER, PIN)[1][:40], "this phone is locked out after 10 wrong ")

    def test_many_strangers_lock_out_new_phones_but_not_a_phone_that_pressed_and_the_tower_lifts_it(self):
        t, s = self.t, self.s
        self.assertEqual(press(s, PHONE, PIN), (200, None))  # a phone of the table, before the strangers
        strangers = ["192.168.4.%d" % (100 + n) for n in range(6)]
        looked_at = 0
        oled = ""
        while looked_at < guard.BURST:
            for address in strangers:
                if press(s, address, "0000")[1] == "wrong PIN: it is on the tower's screen":
                    looked_at += 1
                    if looked_at == guard.BURST:
                        oled = self.said()
            self.assertEqual(press(s, PHONE, PIN), (200, None))
            t.wait(1000)
        self.assertEqual(looked_at, guard.BURST)  # no more than that: the rest were told to wait
        self.assertTrue("Phones locked out: 30 wrong PINs from 6 phones" in oled, oled)
        status, why = press(s, "192.168.4.8", PIN)  # a new phone of the table: the right PIN, refused
        self.assertEqual(status, 403)
        self.assertEqual(why, "too many wrong PINs from phones: a press of a button on the tower lets them try again")
        for address in strangers:  # and the strangers' guesses are not even looked at
            t.wait(1000 * guard.LONGEST_WAIT_S)
            self.assertEqual(press(s, address, "1111")[0], 403)
        self.assertEqual(press(s, PHONE, PIN), (200, None))  # the phone that pressed before still may
        t.press("a")  # a hand on the tower
        self.assertEqual([e["text"] for e in t.events("log")][-1], "Phones may try the PIN again.")
        self.assertEqual(press(s, "192.168.4.8", PIN), (200, None))
        self.assertEqual(s.table.left, guard.LIFT_GRANT)  # the right PIN spent nothing
        # The strangers spend what the lift gave; the table plays on, pressing the tower: no more for them
        # until LIFT_S has passed (each press of a game would hand them 3).
        while not s.table.locked:
            for address in strangers:
                press(s, address, "2222")
            t.wait(1000)
        lifts = lambda: [e["text"] for e in t.events("log")].count("Phones may try the PIN again.")  # noqa: E731
        for _ in range(5):
            t.press("b")
            t.wait(1000)
        self.assertEqual(lifts(), 1)
        self.assertTrue(s.table.locked)
        t.clock.advance(1000 * guard.LIFT_S)
        t.press("b")
        self.assertEqual(lifts(), 2)

    def test_wrong_pins_are_forgotten_with_time_and_by_the_right_pin(self):
        t, s = self.t, self.s
        for _ in range(guard.LOCK_AFTER):  # a typo every 25 minutes, all evening: never locked out
            self.assertEqual(press(s, PHONE, "1357"), (403, "wrong PIN: it is on the tower's screen"))
            t.clock.advance(25 * 60 * 1000)  # the server's time only: the device's loop would take long
        self.assertEqual(press(s, PHONE, PIN), (200, None))
        for n in range(3):  # each after the wait the last one set: 1 s, 2 s
            self.assertEqual(press(s, PHONE, "1357"), (403, "wrong PIN: it is on the tower's screen"))
            t.wait(1000 << n if n < 2 else 0)
        self.assertEqual(
            press(s, PHONE, PIN), (429, "a wrong PIN was sent from this phone: wait 4 s before the next try")
        )
        t.wait(4000)
        self.assertEqual(press(s, PHONE, PIN), (200, None))  # and its count is cleared
        self.assertEqual(press(s, PHONE, "1357")[0], 403)
        self.assertEqual(press(s, PHONE, PIN)[1], "a wrong PIN was sent from this phone: wait 1 s before the next try")

    def test_refusals_before_the_pin_count_nothing_and_change_nothing(self):
        t, s = self.t, self.s
        before = t.oled()
        body = {"button": "c", "pin": "0000"}
        for headers, status, why in (
            (["Content-Type: text/plain"], 415, "send Content-Type: application/json"),
            ([], 415, "send Content-Type: application/json"),
            (
                ["Content-Type: application/json", "Origin: http://evil.example"],
                403,
                "only the tower's own page may ask this, not a page from http://evil.example",
            ),
            (
                ["Content-Type: application/json", "Origin: null"],
                403,
                "only the tower's own page may ask this, not a page from null",
            ),
            (
                ["Content-Type: application/json", "Sec-Fetch-Site: same-site"],
                403,
                "only the tower's own page may press",
            ),
        ):
            for address in (PHONE, STRANGER):
                writer = ask(s, address, request("POST", "/press", body, headers))
                self.assertEqual((writer.status(), writer.error()), (status, why))
        rebound = request("POST", "/press", body, ["Content-Type: application/json"]).replace(
            TOWER.encode(), b"evil.example"
        )
        writer = ask(s, STRANGER, rebound)
        self.assertEqual(
            (writer.status(), writer.error()), (421, "this is the tower at %s: ask it by that address" % TOWER)
        )
        self.assertEqual(
            ask(s, STRANGER, request("GET", "/state", None, ["Origin: http://evil.example"])).status(), 403
        )
        self.assertEqual([row[3] for row in s.table.rows], [0, 0])  # no wrong PIN counted
        self.assertTrue(s.table.left in (None, guard.BURST))  # the budget the untrusted share: untouched
        t.wait(500)
        self.assertEqual(t.oled(), before)  # nothing pressed, nothing said
        same = [
            "Content-Type: application/json; charset=utf-8",
            "Origin: http://" + TOWER,
            "Sec-Fetch-Site: same-origin",
        ]
        writer = ask(s, PHONE, request("POST", "/press", {"button": "c", "pin": PIN}, same))
        self.assertEqual(writer.status(), 200)  # the page's own press
        t.wait(500)
        self.assertEqual(t.app.mode, "setup")


class Answers(Bench):
    def test_every_answer_forbids_framing_and_sniffing_and_the_page_allows_its_own_script_alone(self):
        import hashlib
        from binascii import b2a_base64

        for path in ("/", "/state", "/history", "/nowhere"):
            head = ask(self.s, PHONE, request("GET", path)).head()
            self.assertTrue("X-Frame-Options: DENY" in head and "X-Content-Type-Options: nosniff" in head, head)
            self.assertTrue("frame-ancestors 'none'" in head, head)
        page = ask(self.s, PHONE, request("GET", "/"))
        text = page.body()
        policy = [line for line in page.head().split("\r\n") if line.startswith("Content-Security-Policy: ")][0]
        for tag in (b"style", b"script"):
            inline = text.split(b"<" + tag + b">")[1].split(b"</" + tag + b">")[0]
            digest = b2a_base64(hashlib.sha256(inline).digest()).strip().decode()
            self.assertTrue("%s-src 'sha256-%s'" % (tag.decode(), digest) in policy, policy)
        self.assertTrue("default-src 'none'" in policy and "unsafe" not in policy, policy)
        markup = text.split(b"-->", 1)[1]  # after the page's opening comment
        self.assertTrue(b" style=" not in markup and markup.count(b"<script") == 1, "what the policy would refuse")

    def test_a_refusal_at_the_door_is_one_line(self):
        self.assertEqual(ask(self.s, PHONE, b"GET /state HTTP/1.1\r\nHost: " + b"x" * 600 + b"\r\n\r\n").status(), 431)
        writer = ask(self.s, PHONE, request("GET", "/state", None, ["Host: 10.0.0.9"]))  # the last Host counts
        self.assertEqual(
            (writer.status(), writer.error()), (421, "this is the tower at %s: ask it by that address" % TOWER)
        )
        for host in ("localhost:8080", "127.0.0.1", TOWER + ":80", TOWER.upper()):
            data = request("GET", "/state").replace(b"Host: " + TOWER.encode(), b"Host: " + host.encode())
            self.assertEqual(ask(self.s, PHONE, data).status(), 200, host)


class Places(Bench):
    def hold(self, address, n):
        """n connections from `address` that send nothing yet: (their coroutines, their pause)."""
        pause = Pause()
        held = []
        for _ in range(n):
            coroutine = self.s.handle_request(Reader(b"", pause), Writer(address))
            coroutine.send(None)  # taken in, and waiting for its request
            held.append(coroutine)
        return held, pause

    def release(self, held, pause):
        pause.go = True
        for coroutine in held:
            finish(coroutine)

    def test_one_address_takes_at_most_its_share_and_leaves_places_for_others(self):
        s = self.s
        held, pause = self.hold(STRANGER, server.PER_CLIENT)
        self.assertEqual(s.clients, server.PER_CLIENT)
        writer = ask(s, STRANGER, request("GET", "/state"))
        self.assertEqual(
            (writer.status(), writer.error()), (503, "4 connections from this address are served already; try again")
        )
        self.assertTrue("Retry-After: 2" in writer.head() and writer.closed)
        self.assertEqual(ask(s, PHONE, request("GET", "/state")).status(), 200)  # another address is served
        # Two more addresses holding requests: the last KEPT_FREE places are for an address's first.
        others = [self.hold("192.168.4.30", 3), self.hold("192.168.4.31", 2)]
        self.assertEqual(s.clients, server.MAX_CLIENTS - server.KEPT_FREE)
        writer = ask(s, "192.168.4.30", request("GET", "/state"))
        self.assertEqual((writer.status(), writer.error()), (503, "12 connections are served already; try again"))
        self.assertEqual(ask(s, PHONE, request("GET", "/state")).status(), 200)
        more = [self.hold("192.168.4.%d" % (40 + n), 1) for n in range(server.KEPT_FREE)]
        self.assertEqual(s.clients, server.MAX_CLIENTS)
        writer = ask(s, PHONE, request("GET", "/state"))
        self.assertEqual((writer.status(), writer.error()), (503, "12 connections are served already; try again"))
        for held_pause in [(held, pause)] + others + more:
            self.release(*held_pause)
        self.assertEqual((s.clients, sum(row[1] for row in s.table.rows)), (0, 0))

    def test_while_half_the_places_are_taken_an_address_that_asks_too_often_is_refused_at_the_door(self):
        s, t = self.s, self.t
        for _ in range(30):  # a quiet tower: as often as it likes
            self.assertEqual(ask(s, STRANGER, request("GET", "/state")).status(), 200)
        held = [self.hold("192.168.4.%d" % (30 + n), 1) for n in range(server.MAX_CLIENTS // 2)]
        statuses = [ask(s, STRANGER, request("GET", "/state")).status() for _ in range(3)]
        self.assertEqual(statuses, [503] * 3)  # its credit spent while the tower was quiet
        writer = ask(s, STRANGER, request("GET", "/state"))
        self.assertEqual(writer.error(), "this address asks too often while the tower is busy; try again")
        self.assertEqual(ask(s, PHONE, request("GET", "/state")).status(), 200)  # a phone that asked little
        t.clock.advance(server.PACE_MS)
        self.assertEqual(ask(s, STRANGER, request("GET", "/state")).status(), 200)  # and once every PACE_MS
        self.assertEqual(ask(s, STRANGER, request("GET", "/state")).status(), 503)
        for held_pause in held:
            self.release(*held_pause)
        self.assertEqual(ask(s, STRANGER, request("GET", "/state")).status(), 200)

    def test_the_table_of_addresses_is_bounded_and_forgets_strangers_before_a_phone_that_pressed(self):
        s = self.s
        self.assertEqual(press(s, PHONE, PIN), (200, None))
        for n in range(3 * server.CLIENTS):
            ask(s, "10.0.%d.%d" % (n // 200, n % 200), request("GET", "/state"))
        self.assertEqual(len(s.table.rows), server.CLIENTS)
        self.assertTrue(PHONE in [row[0] for row in s.table.rows])


class Streams(Bench):
    def test_a_stream_ends_at_its_lease_whatever_its_phone_took_and_its_place_is_free(self):
        s, t = self.s, self.t
        writer = Writer(PHONE)  # takes every write, as buffers do for a phone that stopped reading
        coroutine = s.handle_request(Reader(request("GET", "/events")), writer)
        started = t.clock.now
        finish(coroutine)  # a nap moves the bench's clock: the stream's whole life
        self.assertEqual(t.clock.now - started, 1000 * server.LEASE_S)
        self.assertEqual((s.streams, s.clients), (0, 0))
        self.assertEqual(writer.body().count(b"data: "), 1)  # the start menu's document, once
        self.assertEqual(writer.body().count(b": keep-alive"), server.LEASE_S // server.KEEPALIVE_S - 1)

    def test_a_stream_whose_phone_takes_nothing_is_dropped_after_the_write_deadline(self):
        s, t = self.s, self.t
        writer = Writer(PHONE, takes=7)  # the status line and headers, then nothing
        started = t.clock.now
        finish(s.handle_request(Reader(request("GET", "/events")), writer))
        self.assertEqual(t.clock.now - started, 1000 * server.WRITE_S)
        self.assertTrue(writer.out.endswith(b"\r\n\r\n"), writer.out)  # no document was taken
        self.assertEqual((s.streams, s.clients), (0, 0))

    def test_one_address_follows_live_twice_at_most_and_a_press_reaches_its_stream(self):
        s, t = self.s, self.t
        streams = []
        for _ in range(server.MAX_STREAMS_PER_CLIENT):
            writer = Writer(PHONE)
            coroutine = s.handle_request(Reader(request("GET", "/events")), writer)
            coroutine.send(None)
            streams.append((coroutine, writer))
        self.assertEqual(s.streams, server.MAX_STREAMS_PER_CLIENT)
        writer = ask(s, PHONE, request("GET", "/events"))
        self.assertEqual(
            (writer.status(), writer.error()),
            (503, "2 pages at this address follow the game already; this one reads it every few seconds"),
        )
        self.assertEqual(ask(s, PHONE, request("GET", "/history")).status(), 200)  # its page still reads
        t.presses("c")  # a press on the tower, while the first stream naps
        for coroutine, writer in streams:
            finish(coroutine)
            documents = [json.loads(line[6:]) for line in writer.body().split(b"\n") if line.startswith(b"data: ")]
            self.assertEqual(documents[-1]["mode"], "setup")
        self.assertEqual(s.streams, 0)


class Memory(Bench):
    """The game comes first: with the heap under server.FLOOR the phones are shed; the tower plays on."""

    def fill(self):
        """The heap's count, as the server reads it, under FLOOR: the VM's heap grows as it fills (its
        WebAssembly port adds to it) and CPython's is the laptop's, so neither can be filled for real.
        Returns what gives it back."""
        real = server._free
        server._free = lambda: server.FLOOR - 2000
        self.addCleanup(setattr, server, "_free", real)

        def give_back():
            server._free = real

        return give_back

    def test_a_full_heap_sheds_the_phones_and_the_game_and_its_save_go_on(self):
        from dicetower.core.games import GAMES
        from dicetower.core.save_reader import decode

        s, t = self.s, self.t
        t.presses("b" * [kind for _, kind, *_ in GAMES].index("united") + "c c")  # New United, four heroes
        self.assertEqual(t.screen()[0].split()[:2], ["KO", "0/6"])
        writer = Writer(PHONE)
        stream = s.handle_request(Reader(request("GET", "/events")), writer)
        stream.send(None)  # following live
        self.assertEqual(s.streams, 1)
        give_back = self.fill()
        started = t.clock.now
        finish(stream)
        self.assertTrue(t.clock.now - started <= 2 * server.CHANGES_MS, t.clock.now - started)  # not its lease
        self.assertEqual((s.streams, s.clients), (0, 0))
        refused = ask(s, STRANGER, request("GET", "/state"))
        self.assertEqual((refused.status(), refused.error()), (503, server.SHORT))
        t.presses("c c")  # KO token: the first hero
        t.wait(500)  # its save, a step a pass
        self.assertEqual(t.screen()[0].split()[:2], ["KO", "1/6"])
        with open(t.root + "game.sav", "rb") as f:
            saved = decode(f.read())
        self.assertEqual([h["ko"] for h in saved.state["heroes"]], [1, 0, 0, 0])  # on flash, whole
        give_back()
        t.wait(server.CHANGES_MS)
        again = ask(s, STRANGER, request("GET", "/state"))
        self.assertEqual(again.status(), 200)
        self.assertEqual(json.loads(again.body())["kind"], "united")
        said = [e["text"] for e in t.events("log")]
        self.assertTrue(any(line.startswith("phones shed: ") for line in said), said)
        self.assertTrue(any(line.startswith("phones served again") for line in said), said)


if __name__ == "__main__":
    unittest.main()
