"""The scoreboard's web server: microdot (MicroPython and CPython alike), one page, live by SSE.

    GET  /          the page (web/page.py): everything it needs is in it, nothing from elsewhere
    GET  /state     the scoreboard's JSON document (web/scoreboard.py)
    GET  /events    Server-Sent Events: the document each time it changes (checked every 0.1 s)
    GET  /history   the history lines (?since=N: from the N-th on)
    POST /press     {"button": "a", "kind": "short", "pin": "1234"}: a press of the tower's button,
                    only with the PIN shown on the OLED (403 without one, or when none is set)

The same code serves the Pico W and `dicetower sim --web PORT`. What it needs of the device
(`tower`, the Device): `scoreboard`, `app` (for the history) and `press(button, kind)`, which
only queues the press: the device's own loop acts on it, as on a button's.

A small device among many phones: at most MAX_STREAMS live streams (a ninth phone's gets 503,
and its page reads /state every few seconds instead) and MAX_CLIENTS connections at once;
request lines and headers of at most 512 bytes, bodies of 256 (microdot answers 400 or 413);
a client that stops sending mid-request is dropped after READ_S; a client that vanishes
ends its stream at the next write. None of it reaches the game.
"""

import asyncio
import json

from microdot import Microdot, Request
from microdot.sse import sse_response

from dicetower.web import page, scoreboard

MAX_STREAMS = 8  # phones following the game live (/events) at once
MAX_CLIENTS = 12  # connections at once: the streams, and room for pages and presses beside them
READ_S = 5  # a request's lines must arrive within this, each
CHANGES_MS = 100  # how often a stream looks for a new document
KEEPALIVE_S = 15  # a comment line this often: a vanished phone is found, a proxy keeps the stream
BUTTONS = ("a", "b", "c")
KINDS = ("short", "long")

Request.max_readline = 512
Request.max_content_length = 256
Request.max_body_length = 256


class _Patient:
    """A client's stream whose reads give up after READ_S: a stalled client frees its place."""

    def __init__(self, reader):
        self.reader = reader

    async def readline(self):
        try:
            return await asyncio.wait_for(self.reader.readline(), READ_S)
        except asyncio.TimeoutError:
            return b""  # as if the client had closed: microdot answers 400 and closes

    async def readexactly(self, n):
        return await asyncio.wait_for(self.reader.readexactly(n), READ_S)

    async def read(self, n=-1):
        return await asyncio.wait_for(self.reader.read(n), READ_S)


class Server(Microdot):
    """microdot, with a cap on connections and reads that time out (see the module's docstring)."""

    def __init__(self, tower, pin=None):
        Microdot.__init__(self)
        self.tower = tower
        self.pin = pin
        self.clients = 0  # connections being served now
        self.streams = 0
        self.handled = 0  # connections served (or refused) and closed, since the start
        _routes(self)

    async def handle_request(self, reader, writer):
        if self.clients >= MAX_CLIENTS:
            try:
                await writer.awrite(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
                await writer.aclose()
            except OSError:
                pass
            self.handled += 1
            return
        self.clients += 1
        try:
            await Microdot.handle_request(self, _Patient(reader), writer)
        except (OSError, asyncio.TimeoutError, ValueError):
            pass  # the client went away or sent nonsense: its connection ends, nothing else
        except asyncio.CancelledError:
            pass  # the server is stopping: this connection's end is all there is to do
        finally:
            self.clients -= 1
            self.handled += 1


async def _nap(ms):
    if hasattr(asyncio, "sleep_ms"):  # MicroPython's
        await asyncio.sleep_ms(ms)
    else:
        await asyncio.sleep(ms / 1000)


def _routes(app):
    tower = app.tower

    @app.get("/")
    async def index(request):
        return page.HTML, 200, {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"}

    @app.get("/state")
    async def state(request):
        return tower.scoreboard.latest, 200, {"Content-Type": "application/json", "Cache-Control": "no-store"}

    @app.get("/history")
    async def history(request):
        since = request.args.get("since", "0")
        if not since.isdigit():
            return "since must be a whole number", 400
        return scoreboard.history(tower.app, int(since)), 200, {"Content-Type": "application/json"}

    async def stream(request, sse):
        app.streams += 1
        try:
            board = tower.scoreboard
            sent = -1
            quiet = 0
            while True:
                if board.version != sent:
                    sent = board.version
                    quiet = 0
                    await sse.send(board.latest)
                elif quiet >= KEEPALIVE_S * 1000:
                    quiet = 0
                    await sse.send("", comment=True)
                await _nap(CHANGES_MS)
                quiet += CHANGES_MS
        finally:
            app.streams -= 1

    @app.get("/events")
    async def events(request):
        if app.streams >= MAX_STREAMS:
            return {"error": "%d phones follow the game already; this page reads it every few seconds"
                             % MAX_STREAMS}, 503
        return sse_response(request, stream)

    @app.post("/press")
    async def press(request):
        if app.pin is None:
            return {"error": "this tower takes no presses from phones (no PIN is set)"}, 403
        try:
            wanted = json.loads(request.body.decode())
            button, kind, pin = wanted["button"], wanted.get("kind", "short"), wanted["pin"]
        except (ValueError, KeyError, TypeError, UnicodeError):
            return {"error": "send JSON: {\"button\": \"a\", \"kind\": \"short\", \"pin\": \"...\"}"}, 400
        if not isinstance(pin, str) or pin != app.pin:
            return {"error": "wrong PIN: it is on the tower's screen"}, 403
        if button not in BUTTONS or kind not in KINDS:
            return {"error": "button is a, b or c; kind is short or long"}, 400
        tower.press(button, kind)
        return {"ok": True}, 200
