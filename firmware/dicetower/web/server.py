"""The scoreboard's web server: microdot (MicroPython and CPython alike), one page, live by SSE.

    GET  /          the page (web/page.html, sent from the file a piece at a time: 9 KB that never
                    sit on the heap): everything it needs is in it, nothing from elsewhere
    GET  /state     the scoreboard's JSON document (web/scoreboard.py)
    GET  /events    Server-Sent Events: the document each time it changes (checked every 0.1 s)
    GET  /history   the history lines (?since=N: from the N-th on)
    POST /press     {"button": "a", "kind": "short", "pin": "1234"}: a press of the tower's button,
                    only with the PIN shown on the OLED (403 without one, or when none is set)
    POST /cut       {"cut": "<32 hex digits>"}: a phone's part of the open seal's cut (ui/sealing.py),
                    one an address; 409 with the reason when it is refused (closed, a repeat, malformed)

The same code serves the Pico W and `dicetower sim --web PORT`. What it needs of the device
(`tower`, the Device): `scoreboard`, `app` (for the history) and `press(button, kind)`, which
only queues the press: the device's own loop acts on it, as on a button's.

A small device among many phones, and some of them hostile (tests/test_web_hostile.py):
- at most MAX_CLIENTS connections at once (the next gets 503), and MAX_STREAMS live streams,
  MAX_STREAMS_PER_CLIENT from one address (a
  ninth phone's gets 503, and its page reads /state every few seconds instead), a stream counted
  the moment it is granted and released on every way its connection ends;
- a request (its line, headers and body) must arrive whole within REQUEST_S, in at most MAX_HEAD
  bytes of line and headers, MAX_LINE a line and MAX_HEADERS header lines, and a body of at most
  256 bytes; it is read in pieces and cut while it is read (MicroPython's readline has no limit), so
  a flood costs no more heap than that. Past any bound: 4xx, the connection closed and counted out;
- HEAD gets the headers and nothing else (on /events: no stream);
- a stream makes the next document only when the phone has taken the last (nothing queues: the
  newest replaces what was not sent), and a phone that does not take a write within WRITE_S is
  dropped;
- wrong PINs cost time (_Guard): from one client and in all, each failure doubles the wait before
  the next try, and after LOCK_AFTER in all, phones may not press until a button on the tower is
  pressed (the OLED says so).
Every malformed request gets a 4xx, never a 500, and nothing on the console. None of it reaches the
game.
"""

import asyncio
import json

from microdot import Microdot

from dicetower.web import scoreboard
from dicetower.web.request import Refused, read_request

# Beside this module on the board's flash (dicetower flash copies it), and in the checkout.
PAGE = __file__[: max(__file__.rfind("/"), __file__.rfind("\\")) + 1] + "page.html"
PAGE_PIECE = 512  # bytes of the page read and sent at a time

MAX_STREAMS = 8  # phones following the game live (/events) at once
MAX_CLIENTS = 12  # connections at once: the streams, and room for pages and presses beside them
MAX_STREAMS_PER_CLIENT = 3  # live streams from one address (a laptop's tabs share one)
REQUEST_S = 5  # the whole request, line to body, must arrive within this
WRITE_S = 10  # a write the phone does not take within this ends its connection
CHANGES_MS = 100  # how often a stream looks for a new document
KEEPALIVE_S = 15  # a comment line this often: a vanished phone is found, a proxy keeps the stream
LOCK_AFTER = 10  # wrong PINs in all before phones are locked out until a press on the tower
LONGEST_WAIT_S = 64  # the most a wrong PIN makes the next try wait
BUTTONS = ("a", "b", "c")
KINDS = ("short", "long")


class _Gone(Exception):
    """A client that did not take a write within WRITE_S. Not an OSError: microdot reads an OSError's
    args, which CPython's TimeoutError has none of."""


class _Connection:
    """One client, as microdot reads and writes it: the request comes from what read_request read (so
    microdot never reads the network itself), and every write must be taken within WRITE_S."""

    def __init__(self, reader, writer):
        self.reader = reader
        self.writer = writer
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
        """The server's own answer (a refusal): a status line and one line of text. A 503 asks the browser
        to load the page again in 2 s (Refresh), so a phone that came while every place was taken gets
        the game once one is free, without a tap."""
        text = (why + "\n").encode()
        again = b"Refresh: 2\r\nRetry-After: 2\r\n" if status == 503 else b""
        await self.awrite(
            b"HTTP/1.0 %d %s\r\n%sContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s"
            % (status, REASONS.get(status, b"Refused"), again, len(text), text)
        )

    async def aclose(self):
        if self.closed:
            return
        self.closed = True
        try:
            await asyncio.wait_for(self.writer.aclose(), WRITE_S)
        except Exception:  # noqa: BLE001 (a connection already gone (reset, timed out) is closed all the same)
            pass


REASONS = {
    400: b"Bad Request",
    403: b"Forbidden",
    405: b"Method Not Allowed",
    411: b"Length Required",
    413: b"Payload Too Large",
    414: b"URI Too Long",
    429: b"Too Many Requests",
    431: b"Request Header Fields Too Large",
    503: b"Service Unavailable",
}


class _Stream:
    """One phone's live game, as Server-Sent Events, made when the phone has taken the last one: a
    document only when the game changed (the newest, never a queue of old ones), else a comment every
    KEEPALIVE_S. Counted among the streams (in all, and its address's) from its making to its release,
    which comes once."""

    def __init__(self, server, address=None):
        self.server = server
        self.address = address
        self.sent = -1
        self.quiet = 0
        self.open = True
        server.streams += 1
        by = server.streams_by
        by[address] = by.get(address, 0) + 1

    def __aiter__(self):
        return self

    async def __anext__(self):
        board = self.server.tower.scoreboard
        while self.open:
            if board.version != self.sent:
                self.sent = board.version
                self.quiet = 0
                return "data: %s\n\n" % board.latest
            if self.quiet >= KEEPALIVE_S * 1000:
                self.quiet = 0
                return ": keep-alive\n\n"
            await _nap(CHANGES_MS)
            self.quiet += CHANGES_MS
        raise StopAsyncIteration

    async def aclose(self):
        self.release()

    def release(self):
        if self.open:
            self.open = False
            self.server.streams -= 1
            by = self.server.streams_by
            by[self.address] = by.get(self.address, 1) - 1
            if by[self.address] <= 0:
                del by[self.address]


def _now_ms():
    import time

    ticks = getattr(time, "ticks_ms", None)
    return ticks() if ticks is not None else int(time.monotonic() * 1000)


def _since(later, earlier):
    import time

    diff = getattr(time, "ticks_diff", None)
    return diff(later, earlier) if diff is not None else later - earlier


class _Guard:
    """What a wrong PIN costs. After a client's n-th wrong PIN it waits 2**(n-1) s (at most
    LONGEST_WAIT_S) before its next try is even looked at, and every client waits as long after the
    n-th wrong PIN in all; after LOCK_AFTER in all, no phone may press until a button on the tower is
    pressed (`lift`). A right PIN clears its client's count, not the count in all."""

    CLIENTS = 16  # clients remembered (the oldest forgotten first)

    def __init__(self, clock=None, since=None):
        self.clock = clock or _now_ms
        self.since = since or _since
        self.failures = 0
        self.until = None  # when the next try in all may come (ms on the clock), or None
        self.clients = []  # [address, failures, until]
        self.locked = False

    def _client(self, address):
        for entry in self.clients:
            if entry[0] == address:
                return entry
        entry = [address, 0, None]
        self.clients.append(entry)
        if len(self.clients) > self.CLIENTS:
            self.clients.pop(0)
        return entry

    def wait_s(self, address):
        """Seconds before this client may try a PIN (0: now)."""
        now = self.clock()
        wait = 0
        for until in (self.until, self._client(address)[2]):
            if until is not None:
                left = -self.since(now, until)
                if left <= 1000 * LONGEST_WAIT_S:  # more is a deadline from days ago, read across the clock's wrap
                    wait = max(wait, left)
        return (wait + 999) // 1000

    def failed(self, address):
        now = self.clock()
        entry = self._client(address)
        entry[1] += 1
        self.failures += 1
        entry[2] = now + 1000 * min(LONGEST_WAIT_S, 1 << (entry[1] - 1))
        self.until = now + 1000 * min(LONGEST_WAIT_S, 1 << (self.failures - 1))
        if self.failures >= LOCK_AFTER:
            self.locked = True

    def passed(self, address):
        self._client(address)[1] = 0

    def lift(self):
        """A press on the tower: phones may try again, their counts cleared."""
        self.locked = False
        self.failures = 0
        self.until = None
        self.clients = []


class Server(Microdot):
    """microdot, behind the bounds above (see the module's docstring). The tower learns of its server
    (`tower.web`): a press of its own buttons lifts a PIN lockout (`lift`)."""

    def __init__(self, tower, pin=None, clock=None, since=None):
        Microdot.__init__(self)
        self.tower = tower
        self.pin = pin
        self.clients = 0  # connections being served now
        self.streams_by = {}  # the live streams by the client's address
        self.streams = 0
        self.handled = 0  # connections served (or refused) and closed, since the start
        self.guard = _Guard(clock, since)
        tower.web = self
        _routes(self)

    async def handle_request(self, reader, writer):
        conn = _Connection(reader, writer)
        if self.clients >= MAX_CLIENTS:
            try:
                await conn.answer(503, "%d connections are served already; try again" % MAX_CLIENTS)
            except Exception:  # noqa: BLE001 (a client gone already: nothing to tell it)
                pass
            await conn.aclose()
            self.handled += 1
            return
        self.clients += 1
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
            if conn.stream is not None:
                conn.stream.release()  # on every way out: a stream that never started, or a write that failed
            await conn.aclose()
            self.clients -= 1
            self.handled += 1

    def lift(self):
        """A button on the tower was pressed: a PIN lockout ends."""
        if self.guard.locked:
            self.guard.lift()
            self.tower.app.say("Phones may press again.")


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


def _routes(app):
    tower = app.tower

    with open(PAGE, "rb") as f:
        size = f.seek(0, 2)

    @app.get("/")
    async def index(request):
        return (
            _pieces(PAGE),
            200,
            {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Length": str(size)},
        )

    @app.get("/state")
    async def state(request):
        return tower.scoreboard.latest, 200, {"Content-Type": "application/json", "Cache-Control": "no-store"}

    @app.get("/history")
    async def history(request):
        since = request.args.get("since", "0")
        if not since or any(c not in "0123456789" for c in since) or len(since) > 6:
            return "since must be a whole number", 400
        return scoreboard.history(tower.app, int(since)), 200, {"Content-Type": "application/json"}

    @app.get("/events")
    async def events(request):
        headers = {"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        if request.method == "HEAD":
            return "", 200, headers  # the headers a stream would have, and no stream
        address = request.client_addr[0] if request.client_addr else None
        if app.streams >= MAX_STREAMS or app.streams_by.get(address, 0) >= MAX_STREAMS_PER_CLIENT:
            return {
                "error": "%d phones follow the game already; this page reads it every few seconds"
                % (MAX_STREAMS if app.streams >= MAX_STREAMS else MAX_STREAMS_PER_CLIENT)
            }, 503
        stream = _Stream(app, address)  # counted now, in the same step as the check: no two take the last place
        request.sock[0].stream = stream  # its connection releases it, however it ends
        return stream, 200, headers

    @app.post("/press")
    async def press(request):
        if app.pin is None:
            return {"error": "this tower takes no presses from phones (no PIN is set)"}, 403
        guard = app.guard
        client = request.client_addr[0] if request.client_addr else None
        if guard.locked:
            return {"error": "phones are locked out after %d wrong PINs: press a button on the tower" % LOCK_AFTER}, 403
        wait = guard.wait_s(client)
        if wait > 0:
            return {"error": "a wrong PIN was sent: wait %d s before the next try" % wait}, 429
        try:
            wanted = json.loads(request.body.decode())
            button, kind, pin = wanted["button"], wanted.get("kind", "short"), wanted["pin"]
        except (ValueError, KeyError, TypeError, UnicodeError):
            return {"error": 'send JSON: {"button": "a", "kind": "short", "pin": "..."}'}, 400
        if not isinstance(pin, str) or pin != app.pin:
            guard.failed(client)
            if guard.locked:
                tower.app.say(
                    "Phones locked out: %d wrong PINs were sent. Press a button on the tower to let "
                    "them press again." % LOCK_AFTER
                )
            return {"error": "wrong PIN: it is on the tower's screen"}, 403
        guard.passed(client)
        if button not in BUTTONS or kind not in KINDS:
            return {"error": "button is a, b or c; kind is short or long"}, 400
        tower.press(button, kind)
        return {"ok": True}, 200

    @app.post("/cut")
    async def cut(request):
        try:
            text = json.loads(request.body.decode())["cut"]
        except (ValueError, KeyError, TypeError, UnicodeError):
            return {"error": 'send JSON: {"cut": "<32 hex digits>"}'}, 400
        done, said = tower.app.cut_by(text, request.client_addr[0] if request.client_addr else None)
        return ({"ok": True, "cut": said}, 200) if done else ({"error": said}, 409)
