"""The device's asyncio loop (Device.serve) polls the buttons and lights the ring by itself.

MicroPython's asyncio has sleep_ms; CPython's does not, so this test lends it
one, and a platform clock that follows real time.
"""

import asyncio
import json
import time

from dicetower.core.entropy import FairDice
from dicetower.core.replay import SeededSource
from dicetower_host.virtual_parts import devices
from table import PINS, _root


def test_serve_polls_buttons_and_lights_frames(monkeypatch):
    monkeypatch.setattr(asyncio, "sleep_ms", lambda ms: asyncio.sleep(ms / 1000), raising=False)
    root = _root()
    bench = devices.reset()
    with open(root + "boards/pico.json") as f:
        panel, strip = devices.wire(bench, json.loads(f.read()))
    platform = devices.Platform(bench, root, FairDice(SeededSource(1)))
    start = time.monotonic()
    platform.ticks_ms = lambda: int((time.monotonic() - start) * 1000)
    import main

    device = main.boot(platform)

    async def until(state, seconds=20):
        """Let the loop run until `state()` holds (a loaded machine only makes it take longer)."""
        deadline = time.monotonic() + seconds
        while not state() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    async def play():
        task = asyncio.ensure_future(device.serve())
        await until(lambda: strip.frames >= 1)  # the loop is running
        bench.press(PINS["c"])
        await asyncio.sleep(0.1)  # a tap's length: its edges are latched with their times
        bench.release(PINS["c"])
        await until(lambda: device.app.mode == "setup")
        await until(lambda: strip.frames >= 10)
        task.cancel()

    asyncio.run(play())
    assert device.app.mode == "setup"  # the C tap, latched and polled by the loop, chose "New Battlerealm"
    assert strip.frames >= 10  # the same loop lit the ring by itself
