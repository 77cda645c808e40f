"""The scoreboard server's bounds, on the firmware's own code: CPython and the MicroPython VM.

A request is read a piece at a time and cut while it is read (MicroPython's readline has no length
limit: a line it was given whole could take the heap), so an endless request line or a flood of
headers is refused after at most a head's worth of bytes, with no MemoryError on the VM. The
stream's one release is the same code on the Pico W (what wrong PINs cost: tests/fw/test_web_guard.py).
"""

import gc
import unittest

from dicetower.web import request as requests
from dicetower.web import server


def run(coroutine):
    """A coroutine whose awaits never wait (the fake clients below), run to its end without a loop."""
    try:
        while True:
            coroutine.send(None)
    except StopIteration as e:
        return e.value


class Client:
    """A client that sends `start`, then `then` over and over (or nothing more: it closed)."""

    def __init__(self, start, then=b""):
        self.data = memoryview(start)
        self.then = then
        self.sent = 0

    async def read(self, n):
        if not len(self.data):
            self.data = memoryview(self.then)
        piece = bytes(self.data[:n])
        self.data = self.data[n:]
        self.sent += len(piece)
        return piece


def refused(client):
    try:
        run(requests.read_request(client))
    except requests.Refused as e:
        return e.args[0]
    return None


class Requests(unittest.TestCase):
    def test_a_request_is_read_whole_with_its_body(self):
        body = b'{"button": "c", "pin": "2468"}'
        request = b"POST /press HTTP/1.1\r\nHost: 192.168.4.1\r\nContent-Length: %d\r\n\r\n" % len(body) + body
        self.assertEqual(run(requests.read_request(Client(request + b"GET / HTTP/1.1\r\n"))), request)

    def test_blank_lines_before_the_request_line_are_passed_over(self):
        self.assertEqual(run(requests.read_request(Client(b"\r\n\nGET / HTTP/1.1\r\n\r\n"))), b"GET / HTTP/1.1\r\n\r\n")

    def test_an_endless_request_line_is_cut_while_it_is_read(self):
        client = Client(b"GET /", b"x" * 100)
        gc.collect()
        self.assertEqual(refused(client), 414)
        self.assertTrue(client.sent <= requests.MAX_LINE + requests.PIECE, client.sent)

    def test_a_flood_of_headers_is_cut_by_their_count_and_by_the_heads_size(self):
        lines = Client(b"GET / HTTP/1.1\r\n", b"X: y\r\n")
        self.assertEqual(refused(lines), 431)
        self.assertTrue(lines.sent <= requests.MAX_HEAD + requests.PIECE, lines.sent)
        long_lines = Client(b"GET / HTTP/1.1\r\n", b"X-Long: " + b"y" * 400 + b"\r\n")
        self.assertEqual(refused(long_lines), 431)
        self.assertTrue(long_lines.sent <= requests.MAX_HEAD + requests.PIECE, long_lines.sent)

    def test_the_flood_costs_no_more_heap_than_a_head(self):
        if not hasattr(gc, "mem_alloc"):
            self.skipTest("CPython has no gc.mem_alloc; the VM run checks this")
        client = Client(b"GET / HTTP/1.1\r\n", b"X-Long: " + b"y" * 400 + b"\r\n")
        gc.collect()
        before = gc.mem_alloc()
        self.assertEqual(refused(client), 431)
        # Everything it allocated, garbage included (the growing buffer, each line's copy, the client's
        # pieces): a few heads' worth, however long the flood would have gone on (11.8 KB measured).
        self.assertTrue(gc.mem_alloc() - before < 8 * requests.MAX_HEAD, gc.mem_alloc() - before)

    def test_what_microdot_could_not_read_is_refused_before_it_sees_it(self):
        for request, status in (
            (b"NONSENSE\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400),
            (b"BREW / HTTP/1.1\r\n\r\n", 405),
            (b"POST /press HTTP/1.1\r\nContent-Length: x\r\n\r\n", 400),
            (b"POST /press HTTP/1.1\r\nContent-Length: 300\r\n\r\n", 413),
            (b"POST /press HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
            (b"GET /\xff HTTP/1.1\r\n\r\n", 400),
        ):
            self.assertEqual(refused(Client(request)), status, request)

    def test_a_body_that_stops_short_ends_the_request(self):
        cut = Client(b"POST /press HTTP/1.1\r\nContent-Length: 100\r\n\r\n0123456789")
        self.assertIsNone(run(requests.read_request(cut)))


class Bench:
    """What a stream needs of its server: the counts, and the time."""

    def __init__(self):
        self.streams = 0

    def now(self):
        return 0


class Streams(unittest.TestCase):
    def test_a_stream_is_counted_when_made_and_released_once(self):
        bench = Bench()
        row = server._Clients(lambda: 0, lambda a, b: a - b).row("10.0.0.7")
        stream = server._Stream(bench, row)
        self.assertEqual((bench.streams, row[2]), (1, 1))
        stream.give_back()
        stream.give_back()  # its connection and microdot may both end it
        self.assertEqual((bench.streams, row[2]), (0, 0))


if __name__ == "__main__":
    unittest.main()
