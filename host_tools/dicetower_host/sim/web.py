"""The simulated tower's scoreboard on this laptop: `dicetower sim --web PORT`.

The firmware's own server (firmware/dicetower/web/server.py, microdot) serves the simulated
device, as it serves a Pico W's: the page, the live events, the PIN-guarded presses. The
tower and the server share one asyncio loop, and only that loop touches the tower: the
interactive simulator runs the server on its own (Textual's) loop; `Served` runs a tower
and its server on a loop in a thread of their own (the tests, `--web` with `--script`).
"""

import asyncio
import threading
import time

from dicetower_host.errors import UserError

TICK_S = 0.01  # how often the tower's clock follows real time


def server_for(tower, pin=None, url=None):
    """The firmware's server for a simulated tower: its device shares the game from now on, and its
    start menu offers the Phones screen (the address, the PIN and a QR code), as a Pico W's does."""
    from dicetower.web.server import Server

    tower.device.share()
    if url is not None:
        show_phones(tower, url, pin)
    return Server(tower.device, pin)


def show_phones(tower, url, pin=None):
    """The Phones screen's address and PIN (the laptop's network is the phones' network: no Wi-Fi key)."""
    tower.app.phones = {"url": url, "wifi": None, "password": None, "pin": pin}
    tower.app.changed = True


def lan_address():
    """This laptop's address on its network (what phones at the table would open), else 127.0.0.1."""
    import socket

    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # UDP: no packet is sent, the route picks the address
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def check_port(port):
    if not isinstance(port, int) or not 0 <= port <= 65535:
        raise UserError("--web takes a port number from 1 to 65535 (0: any free one), not %r" % (port,))


def free(port, host="0.0.0.0"):
    """ValueError if nothing may listen on `port` (in use, or not allowed)."""
    import socket

    probe = socket.socket()
    # As the server binds (asyncio's reuse_address): a port whose last connections wait out TIME-WAIT
    # after a quit is free to serve at once.
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        probe.bind((host, port))
    except OSError as e:
        raise UserError("cannot serve on port %d: %s" % (port, e.strerror or e))
    finally:
        probe.close()


class Served:
    """A simulated tower and its web server on a loop in a thread of their own; the tower's clock
    follows real time. `call(f, ...)` runs f on that loop (the one place the tower may be touched)."""

    def __init__(self, tower, port=0, pin=None, host="127.0.0.1"):
        check_port(port)
        self.tower = tower
        self.host = host
        self.pin = pin
        self.server = None
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._error = None
        self.port = None
        self._thread = threading.Thread(target=self._run, args=(host, port), daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise self._error
        if self.port is None:
            raise RuntimeError("the scoreboard's server did not start within 30 s")
        self.url = "http://%s:%d" % (host, self.port)

    def _run(self, host, port):
        asyncio.set_event_loop(self.loop)
        self.server = server_for(self.tower, self.pin)
        try:
            listening = self.loop.run_until_complete(self.server.start_server(host, port, start_serving=False))
        except OSError as e:
            self._error = ValueError("cannot serve on port %d: %s" % (port, e.strerror or e))
            self._ready.set()
            return
        self.loop.run_until_complete(listening.start_serving())  # listening before anyone is told the port
        self.port = listening.sockets[0].getsockname()[1]
        show_phones(self.tower, "http://%s:%d/" % (host, self.port), self.pin)
        self._ticker = self.loop.create_task(self._tick())
        self._serving = self.loop.create_task(listening.serve_forever())
        self._ready.set()
        try:
            self.loop.run_forever()
        finally:
            listening.close()
            self.loop.run_until_complete(self._quiet(listening))
            self.loop.close()

    async def _quiet(self, listening):
        """The streams, the ticker: ended, so that the loop closes with nothing pending."""
        tasks = [task for task in asyncio.all_tasks(self.loop) if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _tick(self):
        last = time.monotonic()
        while True:
            await asyncio.sleep(TICK_S)
            now = time.monotonic()
            ms = int((now - last) * 1000)
            if ms:
                last += ms / 1000
                self.tower.wait(ms)

    def call(self, fn, *args):
        """fn(*args) on the tower's loop; its result (its exception raised here)."""

        async def run():
            return fn(*args)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(60)

    def press(self, button, kind="short"):
        """A press of the tower's own button (on the bench: held, released, its effect on the OLED)."""
        self.call(self.tower.press, button, kind)

    def close(self):
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
