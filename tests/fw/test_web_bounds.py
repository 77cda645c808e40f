"""The scoreboard server's bounds, on the firmware's own code: CPython and the MicroPython VM.

A request is read a piece at a time and cut while it is read (MicroPython's readline has no length
limit: a line it was given whole could take the heap), so an endless request line or a flood of
headers is refused after at most a head's worth of bytes, with no MemoryError on the VM. What a
wrong PIN costs, and the stream's one release, are the same code on the Pico W.
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
        request = b"POST /press HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(body) + body
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


class Clock:
    def __init__(self):
        self.now = 5000

    def __call__(self):
        return self.now


class Pins(unittest.TestCase):
    def test_each_wrong_pin_doubles_the_wait_and_ten_lock_the_phones_out(self):
        clock = Clock()
        guard = server._Guard(clock, lambda a, b: a - b)
        waited = 0
        for n in range(server.LOCK_AFTER):
            self.assertEqual(guard.wait_s("phone"), 0)
            self.assertFalse(guard.locked)
            guard.failed("phone")
            wait = guard.wait_s("phone")
            self.assertEqual(wait, min(server.LONGEST_WAIT_S, 2**n))
            self.assertEqual(guard.wait_s("another phone"), wait)  # the wait in all holds for every client
            clock.now += 1000 * wait
            waited += wait
        self.assertTrue(guard.locked)  # 10 tries, then a hand on the tower is needed
        self.assertTrue(waited >= 300, waited)
        guard.lift()
        self.assertEqual((guard.locked, guard.wait_s("phone")), (False, 0))

    def test_a_right_pin_clears_its_clients_count_not_the_count_in_all(self):
        clock = Clock()
        guard = server._Guard(clock, lambda a, b: a - b)
        guard.failed("phone")
        clock.now += 1000
        guard.passed("phone")
        guard.failed("phone")
        self.assertEqual(guard.wait_s("phone"), 2)  # its own count starts again at 1 s; in all, 2 s


class Bench:
    def __init__(self):
        self.streams = 0
        self.streams_by = {}


class Streams(unittest.TestCase):
    def test_a_stream_is_counted_when_made_and_released_once(self):
        bench = Bench()
        stream = server._Stream(bench, "10.0.0.7")
        self.assertEqual((bench.streams, bench.streams_by), (1, {"10.0.0.7": 1}))
        stream.release()
        stream.release()  # its connection and microdot may both end it
        self.assertEqual((bench.streams, bench.streams_by), (0, {}))


if __name__ == "__main__":
    unittest.main()
