"""How quickly the simulator shows its first frame, and how smoothly it animates the ring.

    .venv/bin/python benchmarks/sim_speed.py

Runs the Textual UI headless (the same app `dicetower sim` runs) and prints:
the time from starting the app to the first OLED picture on screen, and
the ring's colour changes and the OLED pictures per second in 0.8 s of a
roll's animation, from its first frame on screen. The first time is measured twice:
a fresh Python process until the first frame (imports and all), and inside
a running one. Targets: first frame under 1.5 s,
animations at 30 fps or more.
"""

import asyncio
import sys
import time

from dicetower_host import sim  # noqa: E402
from dicetower_host.sim import tui

FIRST_FRAME = """
import asyncio
from dicetower_host import sim
from dicetower_host.sim import tui
app = tui.SimApp(sim.boot(seed=1))
async def run():
    async with app.run_test(size=(140, 50)) as pilot:
        while app.first_frame_at is None:
            await pilot.pause(0.005)
asyncio.run(run())
"""


def cold_start():
    """Wall time of a fresh Python process until the app has drawn its first OLED frame."""
    import subprocess

    began = time.monotonic()
    subprocess.run([sys.executable, "-c", FIRST_FRAME], check=True)
    return time.monotonic() - began


def main():
    cold = cold_start()
    started = time.monotonic()
    tower = sim.boot(seed=1)
    app = tui.SimApp(tower)
    app.started = started
    result = {}

    async def run():
        async with app.run_test(size=(140, 50)) as pilot:
            while app.first_frame_at is None:
                await pilot.pause(0.01)
            result["first"] = app.first_frame_at
            for key in "caacc":  # New Battlerealm, two heroes, start, the seal's cut
                await pilot.press(key)
                await pilot.pause(0.5)
            ring = app.ring_frames
            await pilot.press("c")  # roll: its animation lasts about a second
            while app.ring_frames == ring:  # from the animation's first frame on screen
                await pilot.pause(0.002)
            ring, oled = app.ring_frames, app.oled_frames
            began = time.monotonic()
            await pilot.pause(0.8)  # well inside the animation
            seconds = time.monotonic() - began
            result["ring_fps"] = (app.ring_frames - ring) / seconds
            result["oled_fps"] = (app.oled_frames - oled) / seconds

    asyncio.run(run())
    print("Simulator (Textual, headless, this machine):")
    print("  a fresh process, imports included, to the first OLED frame: %.2f s (target < 1.5 s)" % cold)
    print("  in a running Python, booting the firmware to the first OLED frame: %.2f s" % result["first"])
    print("  ring frames per second during a roll's animation: %.1f (target >= 30)" % result["ring_fps"])
    print(
        "  OLED pictures per second in the same window: %.1f (it redraws only when the panel changes)"
        % result["oled_fps"]
    )


if __name__ == "__main__":
    main()
