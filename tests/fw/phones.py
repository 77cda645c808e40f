"""Phones following a game on the bench: streams and polls served by the scoreboard's whole server
(web/server.py's handle_request, request.py, microdot, the routes) from stand-in connections, for the
heap probe's Pico W with phones (tests/heap_probe.py) on the MicroPython VM and on CPython.

asyncio is replaced in the server by `Turns`: a nap or a deadline gives the turn back at once, so each
`step` serves every phone once: a stream sends what changed since its last turn (or nothing), a poll
is a whole GET /state. A stream that ended (its lease) is asked for again, as the page does.
"""

from dicetower.web import server

TOWER = "localhost"  # a Host the server takes whatever address the Phones screen shows
STATE = b"GET /state HTTP/1.1\r\nHost: " + TOWER.encode() + b"\r\n\r\n"
EVENTS = b"GET /events HTTP/1.1\r\nHost: " + TOWER.encode() + b"\r\n\r\n"


class _Turn:
    def __await__(self):
        yield
        return None

    __iter__ = __await__


class Turns:
    """asyncio as the server sees it: a nap is one turn given back; a deadline is never reached."""

    class TimeoutError(Exception):
        pass

    class CancelledError(Exception):
        pass

    async def wait_for(self, awaitable, seconds):
        return await awaitable

    async def sleep_ms(self, ms):
        await _Turn()


class _Reader:
    def __init__(self, data):
        self.data = data

    async def read(self, n):
        piece = self.data[:n]
        self.data = self.data[n:]
        return piece


class _Writer:
    """A phone's end that reads everything and keeps only the count (a phone's memory is its own)."""

    def __init__(self, address):
        self.address = address
        self.taken = 0

    def get_extra_info(self, name):
        return (self.address, 50000) if name == "peername" else None

    async def awrite(self, data):
        self.taken += len(data)

    async def aclose(self):
        pass


class Phones:
    """`streams` phones following live and `polls` reading /state, each from an address of its own."""

    def __init__(self, device, streams=4, polls=2, pin="2468"):
        server.asyncio = Turns()
        self.server = server.Server(device, pin)
        self.streams = [None] * streams
        self.polls = polls
        self.taken = 0

    def step(self):
        """Every phone served once."""
        for i in range(len(self.streams)):
            stream = self.streams[i]
            if stream is None:
                writer = _Writer("192.168.4.%d" % (10 + i))
                stream = self.streams[i] = [self.server.handle_request(_Reader(EVENTS), writer), writer]
            try:
                stream[0].send(None)
            except StopIteration:
                self.streams[i] = None  # its lease ended: asked for again next step
        for i in range(self.polls):
            writer = _Writer("192.168.4.%d" % (40 + i))
            coroutine = self.server.handle_request(_Reader(STATE), writer)
            try:
                while True:
                    coroutine.send(None)
            except StopIteration:
                pass
            self.taken += writer.taken
