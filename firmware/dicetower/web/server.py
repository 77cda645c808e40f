"""The scoreboard's web server: microdot (MicroPython and CPython alike), one page, live by SSE.

    GET  /          the page (web/page.html, sent from the file a piece at a time: 25 KB that never
                    sit on the heap): everything it needs is in it, nothing from elsewhere
    GET  /state     the scoreboard's JSON document (web/scoreboard.py)
    GET  /events    Server-Sent Events: the document each time it changes (checked every 0.1 s)
    GET  /history   the history lines (?since=N: from the N-th on)
    POST /press     {"button": "a", "kind": "short", "pin": "1234"}: a press of the tower's button,
                    only with the PIN shown on the OLED (403 without one, or when none is set)
    POST /cut       {"cut": "<32 hex digits>"}: a phone's part of the open seal's cut (ui/sealing.py),
                    one an address; 409 with the reason when it is refused (closed, a repeat, malformed)

The same code serves the Pico W and `dicetower sim --web PORT`. What it needs of the device
(`tower`, the Device): `scoreboard`, `app` (the history, `say` for the OLED, `phones["url"]` for the
tower's own address) and `press(button, kind)`, which only queues the press: the device's own loop
acts on it, as on a button's.

A small device among many phones, and some of them hostile (tests/test_web_hostile.py,
tests/fw/test_web_guard.py; benchmarks/web_scoreboard.py runs the attacks). Places are shared out
per client address (_Clients, a table of CLIENTS addresses, the least recently seen forgotten first):
- MAX_CLIENTS connections at once, PER_CLIENT from one address, and the last KEPT_FREE only for an
  address's first request beside its streams (a phone following live still gets its /history);
  while half the places are taken, an address that asks more often than once every PACE_MS (over
  a burst) is refused at the door, so many addresses flooding at once leave room for the phones;
  MAX_STREAMS live streams, MAX_STREAMS_PER_CLIENT from one address. A refusal is a 503 of one line
  written before anything is read; a stream is counted the moment it is granted and released on
  every way its connection ends;
- a stream lasts LEASE_S: the page comes back for another at once and is sent the newest document
  first, so a page that reads loses nothing, and a reader that stopped reading loses its place on
  time, whatever the buffers between could still take; a write not taken within WRITE_S ends it sooner;
- a request (its line, headers and body) must arrive whole within REQUEST_S, in the bounds of
  web/request.py, read in pieces and cut while it is read; HEAD gets the headers and nothing else;
- only the table's page drives the tower: the Host must be the tower's address (the Phones screen's)
  or localhost, an Origin must be the tower's own, a POST must be application/json and not
  cross-site; every answer forbids framing and sniffing, and the page's policy allows its own
  style and script alone (web/policy.py: their SHA-256, from the file at start);
- wrong PINs are counted per address, after a look at whether that address may try at all (a
  right PIN from an address that is not waiting always presses): web/guard.py;
- the game comes first: while the heap has less than FLOOR bytes free (a Pico W's is 40 KB smaller
  than a Pico's), every stream ends and every new connection is refused at the door with a line of
  why, before a press, its save or a redraw can run out of room; phones are served again once the
  heap is back over it.
Every malformed request gets a 4xx with one line of why, never a 500, and nothing on the console.
None of it reaches the game.
"""

import asyncio
import gc
import json

from microdot import Microdot

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


from dicetower.web import scoreboard
from dicetower.web.request import Refused, read_request

# Beside this module on the board's flash (dicetower flash copies it), and in the checkout.
PAGE = __file__[: max(__file__.rfind("/"), __file__.rfind("\\")) + 1] + "page.html"
PAGE_PIECE = 512  # bytes of the page read and sent at a time

MAX_CLIENTS = 12  # connections at once, from every address together
PER_CLIENT = 4  # connections at once from one address, its streams among them (a page loads with 3)
KEPT_FREE = 3  # of MAX_CLIENTS: only for an address with no request under way (its streams aside)
MAX_STREAMS = 8  # phones following the game live (/events) at once
MAX_STREAMS_PER_CLIENT = 2  # live streams from one address (a laptop's tabs share one)
CLIENTS = 24  # addresses remembered: more than MAX_CLIENTS, so one holding a place is never forgotten
# While half the places are taken, an address is let in at most once every PACE_MS on average (a
# page's load, bursts up to CREDIT_MS / PACE_MS at once; a page following live asks next to nothing):
# many addresses flooding at once are refused at the door and leave the places to the phones.
PACE_MS = 500
CREDIT_MS = 6000
REQUEST_S = 5  # the whole request, line to body, must arrive within this
WRITE_S = 10  # a write the phone does not take within this ends its connection
LEASE_S = 30  # a stream ends after this; a page that reads comes back for another at once
CHANGES_MS = 100  # how often a stream looks for a new document
KEEPALIVE_S = 15  # a comment line this often: a vanished phone is found, a proxy keeps the stream
# Heap (B) kept for the game: under it the phones are shed. The game's own peaks over its resting heap
# are a save (its JSON, about 4 KB at the largest), a redraw and a slice of advice: a few KB each.
FLOOR = 20000
SHORT = "the tower is short of memory and keeps it for the game; try again in a minute"
BUTTONS = ("a", "b", "c")
KINDS = ("short", "long")
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")

# A row of _Clients: [address, connections, streams, wrong PINs counted, when that count last fell (or
# its last wrong PIN came), when its last wrong PIN came, sent the right PIN, its credit of requests
# (ms of PACE_MS each), when that was counted]
# (const: MicroPython puts the numbers in the code, and the names nowhere, so they come before their
# first use; web/guard.py has its own.)
_ADDRESS = const(0)
_CONNS = const(1)
_STREAMS = const(2)
_FAILS = const(3)
_TRUSTED = const(6)
_CREDIT = const(7)
_COUNTED = const(8)

# Every answer: no other page may frame it, no browser may read it as another type.
GUARDED = b"X-Frame-Options: DENY\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n"


def _answer(status, why):
    """The server's own answer (a refusal): a status line and one line of text. A 503 asks a browser to
    load the page again in 2 s (Refresh), so a phone that came while every place was taken gets the game
    once one is free, without a tap."""
    text = why + "\n"
    return b"HTTP/1.0 %d Refused\r\n%s%sContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s" % (
        status,
        b"Refresh: 2\r\nRetry-After: 2\r\n" if status == 503 else b"",
        GUARDED,
        len(text),
        text.encode(),
    )


class _Gone(Exception):
    """A client that did not take a write within WRITE_S. Not an OSError: microdot reads an OSError's
    args, which CPython's TimeoutError has none of."""


class _Connection:
    """One client, as microdot reads and writes it: the request comes from what read_request read (so
    microdot never reads the network itself), and every write must be taken within WRITE_S."""

    def __init__(self, server, reader, writer, entry):
        self.server = server
        self.reader = reader
        self.writer = writer
        self.entry = entry  # its address's row in the server's _Clients
        self.data = b""
        self.at = 0
        self.stream = None  # the live stream this connection was granted, if any
        self.closed = False

    async def readline(self):
        end = self.data.find(b"\n", self.at)
        end = len(self.data) if end < 0 else end + 1
        line = self.data[self.at : end]
        self.at = end
        return line

    async def readexactly(self, n):
        if self.at + n > len(self.data):
            raise EOFError("the body is shorter than its Content-Length")
        part = self.data[self.at : self.at + n]
        self.at += n
        return part

    async def read(self, n=-1):
        end = len(self.data) if n < 0 else min(len(self.data), self.at + n)
        part = self.data[self.at : end]
        self.at = end
        return part

    def get_extra_info(self, name):
        return self.writer.get_extra_info(name)

    async def awrite(self, data):
        try:
            await asyncio.wait_for(self.writer.awrite(data), WRITE_S)
        except asyncio.TimeoutError:
            raise _Gone()

    async def answer(self, status, why):
        await self.awrite(_answer(status, why))

    async def aclose(self):
        """Counted out, then closed: the phone's next request, sent the moment this answer ended, must
        not find this one still holding its place while its socket closes (bounded: _close)."""
        if self.closed:
            return
        self.closed = True
        if self.stream is not None:
            self.stream.give_back()  # on every way out: a stream that never started, or a write that failed
        server = self.server
        server.clients -= 1
        self.entry[_CONNS] -= 1
        server.handled += 1
        await _close(self.writer)


async def _close(writer):
    try:
        await asyncio.wait_for(writer.aclose(), WRITE_S)
    except (Exception, asyncio.CancelledError):  # noqa: BLE001 (gone, reset, timed out, the server stopping)
        # CPython keeps a socket whose peer takes nothing open until its buffer drains: cut it.
        transport = getattr(writer, "transport", None)
        if transport is not None:
            transport.abort()


class _Stream:
    """One phone's live game, as Server-Sent Events, made when the phone has taken the last one: a
    document only when the game changed (the newest, never a queue of old ones), else a comment every
    KEEPALIVE_S; ended after LEASE_S. Counted among the streams (in all, and its address's) from its
    making to its giving back, which comes once."""

    def __init__(self, server, entry):
        self.server = server
        self.entry = entry
        self.sent = -1
        self.quiet = 0
        self.open = True
        self.began = server.now()
        server.streams += 1
        entry[_STREAMS] += 1

    def __aiter__(self):
        return self

    async def __anext__(self):
        server = self.server
        board = server.tower.scoreboard
        while self.open and server.now() - self.began < LEASE_S * 1000:
            if server.short():
                break  # the heap is the game's: this phone reads /state later (the page backs off)
            if board.version != self.sent:
                self.sent = board.version
                self.quiet = 0
                return "data: %s\n\n" % board.latest
            if self.quiet >= KEEPALIVE_S * 1000:
                self.quiet = 0
                return ": keep-alive\n\n"
            await _nap(CHANGES_MS)
            self.quiet += CHANGES_MS
        self.give_back()
        raise StopAsyncIteration

    async def aclose(self):
        self.give_back()

    def give_back(self):
        if self.open:
            self.open = False
            self.server.streams -= 1
            self.entry[_STREAMS] -= 1


def _free():
    """Bytes of heap free, garbage not counted; None where there is no such count (CPython: `dicetower
    sim --web`, whose heap is the laptop's). A collection only when the count looks short: one every
    read would cost the loop milliseconds ten times a second."""
    mem_free = getattr(gc, "mem_free", None)
    if mem_free is None:
        return None
    free = mem_free()
    if free < FLOOR:
        gc.collect()
        free = mem_free()
    return free


def _now_ms():
    import time

    ticks = getattr(time, "ticks_ms", None)
    return ticks() if ticks is not None else int(time.monotonic() * 1000)


def _since(later, earlier):
    import time

    diff = getattr(time, "ticks_diff", None)
    return diff(later, earlier) if diff is not None else later - earlier


class _Clients:
    """The addresses the server has seen, at most CLIENTS: their places, and what web/guard.py counts of
    their PINs. One holding no place is forgotten first, the least recently seen first, and among those
    one with nothing to remember first (no wrong PIN, not trusted). Times are the clock's ms summed into
    `now()`, so that no stored time wraps with the clock."""

    def __init__(self, clock, since):
        self.clock = clock
        self.since = since
        self.raw = clock()
        self.t = 0
        self.rows = []  # the least recently seen first
        self.left = None  # web/guard.py's: the wrong PINs the untrusted may still send (None: none sent yet)
        self.filled = 0
        self.locked = False  # the lock of the untrusted was said on the OLED, and not yet lifted
        self.lifted = None  # when a press on the tower last lifted it (web/guard.py's LIFT_S)

    def now(self):
        raw = self.clock()
        passed = self.since(raw, self.raw)
        if passed > 0:  # a gap over half the ticks' range (days without a request) reads back: none
            self.t += passed
        self.raw = raw
        return self.t

    def row(self, address):
        rows = self.rows
        for i in range(len(rows)):
            if rows[i][_ADDRESS] == address:
                row = rows.pop(i)
                rows.append(row)
                return row
        if len(rows) >= CLIENTS:
            gone, rank = None, 4
            for i in range(len(rows)):
                row = rows[i]
                if row[_CONNS] == 0:
                    r = (2 if row[_TRUSTED] else 0) + (1 if row[_FAILS] else 0)
                    if r < rank:
                        gone, rank = i, r
            if gone is not None:
                rows.pop(gone)
        row = [address, 0, 0, 0, 0, 0, False, CREDIT_MS, self.now()]
        rows.append(row)
        return row


class Server(Microdot):
    """microdot, behind the bounds above (see the module's docstring). The tower learns of its server
    (`tower.web`): a press of its own buttons lifts a PIN lockout (`lift`)."""

    def __init__(self, tower, pin=None, clock=None, since=None):
        Microdot.__init__(self)
        self.tower = tower
        self.pin = pin
        self.clients = 0  # connections being served now
        self.streams = 0
        self.handled = 0  # connections served (or refused) and closed, since the start
        self.table = _Clients(clock or _now_ms, since or _since)
        self.now = self.table.now
        self._url = None  # the Phones screen's address, and its host (`_ours`)
        self._host = None
        self._heap = [self.now() - CHANGES_MS, False]  # when the heap was last read, and whether it was short
        tower.web = self
        _routes(self)

    async def handle_request(self, reader, writer):
        peer = writer.get_extra_info("peername")
        table = self.table
        row = table.row(peer[0] if peer else None)
        now = table.now()
        credit = min(CREDIT_MS, row[_CREDIT] + now - row[_COUNTED])
        row[_COUNTED] = now
        row[_CREDIT] = max(0, credit - PACE_MS)
        held = row[_CONNS]
        busy = self.clients >= MAX_CLIENTS // 2
        short = self.short()
        if (
            short
            or self.clients >= MAX_CLIENTS
            or held >= PER_CLIENT
            or (held > row[_STREAMS] and self.clients >= MAX_CLIENTS - KEPT_FREE)
            or (busy and credit < PACE_MS)
        ):
            # Refused before anything is read: its cost is one short write and a close.
            if short:
                why = SHORT
            elif held >= PER_CLIENT:
                why = "%d connections from this address are served already; try again" % PER_CLIENT
            elif self.clients < MAX_CLIENTS and credit < PACE_MS:
                why = "this address asks too often while the tower is busy; try again"
            else:
                why = "%d connections are served already; try again" % MAX_CLIENTS
            try:
                await asyncio.wait_for(writer.awrite(_answer(503, why)), WRITE_S)
            except (Exception, asyncio.CancelledError):  # noqa: BLE001 (a client gone, the server stopping)
                pass
            await _close(writer)
            self.handled += 1
            return
        conn = _Connection(self, reader, writer, row)
        self.clients += 1
        row[_CONNS] += 1
        try:
            try:
                data = await asyncio.wait_for(read_request(reader), REQUEST_S)
            except Refused as e:
                await conn.answer(*e.args)
                return
            if data is None:
                return  # the client closed before its request was whole
            conn.data = data
            await Microdot.handle_request(self, conn, conn)
        except (OSError, EOFError, ValueError, asyncio.TimeoutError, _Gone):
            pass  # a client too slow to send or to take, or gone: its connection ends, nothing else
        except asyncio.CancelledError:
            pass  # the server is stopping: this connection's end is all there is to do
        finally:
            await conn.aclose()

    def short(self):
        """Whether the heap has less than FLOOR bytes free: then the phones are shed. Read at most every
        CHANGES_MS (gc.mem_free walks the heap's table), so the streams' checks cost next to nothing; the
        first time it is short, and the first time it is not again, said on the console."""
        heap = self._heap
        now = self.now()
        if now - heap[0] >= CHANGES_MS or now < heap[0]:
            heap[0] = now
            free = _free()
            short = free is not None and free < FLOOR
            if short != heap[1]:
                heap[1] = short
                log = getattr(self.tower, "log_line", None)
                if log is not None:
                    log(
                        "phones shed: %d B of heap free, under %d: the game comes first" % (free, FLOOR)
                        if short
                        else "phones served again" + ("" if free is None else ": %d B of heap free" % free)
                    )
        return heap[1]

    def _ours(self, host):
        """Whether a Host header names this tower: the address on its Phones screen, or localhost (a
        name another site's page could send, as a DNS rebinding does, is not)."""
        phones = getattr(self.tower.app, "phones", None)
        url = phones.get("url") if phones else None
        if url != self._url:
            self._url = url
            self._host = url.split("/")[2].rsplit(":", 1)[0].lower() if url and url.count("/") >= 2 else None
        host = host.lower()
        name = host[: host.find("]") + 1] if host.startswith("[") else host.split(":")[0]
        return name == self._host or name in LOOPBACK

    def foreign(self, request):
        """(why, status) if the request did not come from the tower's own page (or a plain client),
        else None: see the module's docstring."""
        headers = request.headers
        host = headers.get("Host")
        if host is not None and not self._ours(host):
            return {"error": "this is the tower at %s: ask it by that address" % (self._host or "localhost")}, 421
        origin = headers.get("Origin")
        if origin is not None and (host is None or origin.lower() != "http://" + host.lower()):
            return {"error": "only the tower's own page may ask this, not a page from %s" % origin[:64]}, 403
        if request.method == "POST":
            if headers.get("Sec-Fetch-Site", "same-origin") != "same-origin":
                return {"error": "only the tower's own page may press"}, 403
            if headers.get("Content-Type", "").split(";")[0].strip().lower() != "application/json":
                return {"error": "send Content-Type: application/json"}, 415
        return None

    def say(self, text, notice=True):
        """A lockout, on the OLED (the message line of a game's screens; on the start menu, which shows
        none, a notice that any button puts away) and the console."""
        app = self.tower.app
        if notice and app.mode == "start":
            app.notice(text)
        else:
            app.say(text)
        log = getattr(self.tower, "log_line", None)
        if log is not None:
            log(text)

    def lift(self):
        """A button on the tower was pressed: phones locked out by wrong PINs from many may try again."""
        if self.table.locked:
            from dicetower.web import guard

            if guard.lift(self.table):
                self.say("Phones may try the PIN again.", False)  # the press itself comes next: no notice to eat it


def _pieces(path):
    """The file's bytes a piece at a time (microdot sends a generator's pieces as they come). Opened at
    the first piece, so a HEAD opens nothing; closed at the last, or by the collector when the phone
    went away mid-page."""
    with open(path, "rb") as f:
        while True:
            piece = f.read(PAGE_PIECE)
            if not piece:
                return
            yield piece


async def _nap(ms):
    if hasattr(asyncio, "sleep_ms"):  # MicroPython's
        await asyncio.sleep_ms(ms)
    else:
        await asyncio.sleep(ms / 1000)


# The routes are module-level functions, not closures: microdot awaits a handler only where
# inspect.iscoroutinefunction says it is one, and MicroPython's (the VM has it) says no to a closure.
async def _only_the_tables(request):
    return request.app.foreign(request)


async def _guarded(request, response):
    headers = response.headers
    headers["X-Frame-Options"] = "DENY"
    headers["X-Content-Type-Options"] = "nosniff"
    if "Content-Security-Policy" not in headers:
        headers["Content-Security-Policy"] = "default-src 'none'; frame-ancestors 'none'"
    return response


async def _index(request):
    app = request.app
    return (
        _pieces(PAGE),
        200,
        {
            "Content-Type": "text/html; charset=utf-8",
            "Cache-Control": "no-store",
            "Content-Length": app.page_size,
            "Content-Security-Policy": app.policy,
        },
    )


async def _state(request):
    return request.app.tower.scoreboard.latest, 200, {"Content-Type": "application/json", "Cache-Control": "no-store"}


async def _history(request):
    since = request.args.get("since", "0")
    if not since or any(c not in "0123456789" for c in since) or len(since) > 6:
        return "since must be a whole number", 400
    return scoreboard.history(request.app.tower.app, int(since)), 200, {"Content-Type": "application/json"}


async def _events(request):
    headers = {"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
    if request.method == "HEAD":
        return "", 200, headers  # the headers a stream would have, and no stream
    app = request.app
    conn = request.sock[0]
    row = conn.entry
    if app.streams >= MAX_STREAMS:
        why = "%d phones follow the game already; this page reads it every few seconds" % MAX_STREAMS
        return {"error": why}, 503
    if row[_STREAMS] >= MAX_STREAMS_PER_CLIENT:
        why = "%d pages at this address follow the game already; this one reads it every few seconds"
        return {"error": why % MAX_STREAMS_PER_CLIENT}, 503
    conn.stream = _Stream(app, row)  # counted now, in the same step as the check: no two take the last place
    return conn.stream, 200, headers


async def _press(request):
    app = request.app
    if app.pin is None:
        return {"error": "this tower takes no presses from phones (no PIN is set)"}, 403
    from dicetower.web import guard  # here: a tower whose phones only watch never loads it

    table = app.table
    row = request.sock[0].entry
    refused = guard.refused(table, row)
    if refused is not None:
        return {"error": refused[1]}, refused[0]
    try:
        wanted = json.loads(request.body.decode())
        button, kind, pin = wanted["button"], wanted.get("kind", "short"), wanted["pin"]
    except (ValueError, KeyError, TypeError, UnicodeError, AttributeError):
        return {"error": 'send JSON: {"button": "a", "kind": "short", "pin": "..."}'}, 400
    if not isinstance(pin, str) or pin != app.pin:
        said = guard.failed(table, row)
        if said is not None:
            app.say(said)
        return {"error": "wrong PIN: it is on the tower's screen"}, 403
    guard.passed(table, row)
    if button not in BUTTONS or kind not in KINDS:
        return {"error": "button is a, b or c; kind is short or long"}, 400
    app.tower.press(button, kind)
    return {"ok": True}, 200


async def _cut(request):
    try:
        text = json.loads(request.body.decode())["cut"]
    except (ValueError, KeyError, TypeError, UnicodeError):
        return {"error": 'send JSON: {"cut": "<32 hex digits>"}'}, 400
    done, said = request.app.tower.app.cut_by(text, request.client_addr[0] if request.client_addr else None)
    return ({"ok": True, "cut": said}, 200) if done else ({"error": said}, 409)


def _routes(app):
    with open(PAGE, "rb") as f:
        app.page_size = str(f.seek(0, 2))
    from dicetower.core.scope import Scope

    once = Scope("policy")  # its code is needed once
    try:
        app.policy = once.load("dicetower.web.policy").of(PAGE)
    finally:
        once.close()
    app.before_request(_only_the_tables)
    app.after_request(_guarded)
    app.after_error_request(_guarded)
    app.get("/")(_index)
    app.get("/state")(_state)
    app.get("/history")(_history)
    app.get("/events")(_events)
    app.post("/press")(_press)
    app.post("/cut")(_cut)
