"""The simulator's terminal UI, driven headless by Textual's pilot: keys and clicks change the picture."""

import asyncio

import pytest

from dicetower_host import sim, tui


def play(pilot_steps, **boot):
    """Run the app headless, do `pilot_steps(pilot, app)`, return the app."""
    tower = sim.boot(seed=boot.get("seed", 2), state_dir=boot.get("state_dir"))
    app = tui.SimApp(tower, speed=boot.get("speed", 1.0))

    async def main():
        async with app.run_test(size=(140, 50)) as pilot:
            await pilot.pause(0.2)
            await pilot_steps(pilot, app)

    asyncio.run(main())
    return app


async def until(pilot, check, seconds=60):
    """Let the app run until check() holds (bounded): a state, not a length of time."""
    for _ in range(int(seconds / 0.05)):
        if check():
            return True
        await pilot.pause(0.05)
    return False


def oled(app):
    """The OLED picture on screen: its characters and their colours."""
    return (str(app.picture), [(span.start, span.end, str(span.style)) for span in app.picture.spans])


def test_keys_drive_the_device_and_the_picture_follows():
    seen = {}

    async def steps(pilot, app):
        seen["start"] = oled(app)
        await pilot.press("c")  # New Battlerealm
        await until(pilot, lambda: app.tower.app.mode == "setup" and oled(app) != seen["start"])
        seen["setup"] = oled(app)
        seen["mode"] = app.tower.app.mode

    app = play(steps)
    assert seen["mode"] == "setup"
    assert seen["setup"] != seen["start"]
    assert "▀" in seen["start"][0]
    assert app.tower.screen()[0] == "New Battlerealm"


def test_clicks_and_long_presses_reach_the_same_functions():
    seen = {}

    async def steps(pilot, app):
        await pilot.click("#press-c")  # New Battlerealm
        await until(pilot, lambda: app.tower.app.mode == "setup")
        # Textual's Button takes no click while it shows the last one (its "-active" effect, 0.2 s).
        await until(pilot, lambda: not app.query_one("#press-c").has_class("-active"))
        await pilot.click("#press-c")  # start with four heroes
        await until(pilot, lambda: app.tower.app.mode == "play")
        seen["mode"] = app.tower.app.mode
        await pilot.click("#hold-c")  # long C: back to the start menu
        await until(pilot, lambda: app.tower.app.mode == "start" and app.logged >= 2)
        seen["after"] = app.tower.app.mode
        seen["log"] = app.logged

    play(steps)
    assert seen["mode"] == "play"
    assert seen["after"] == "start"
    assert seen["log"] >= 2  # ready, game: the event log pane has them


@pytest.mark.slow
def test_the_ring_animates_after_a_roll():
    seen = {}

    async def steps(pilot, app):
        device = app.tower.app
        for key, done in (("c", lambda: device.mode == "setup"), ("a", lambda: device.count == 3),
                          ("a", lambda: device.count == 2), ("c", lambda: device.mode == "play")):
            await pilot.press(key)
            assert await until(pilot, done), (key, device.mode)
        before = app.ring_frames
        await pilot.press("c")  # roll
        assert await until(pilot, lambda: device.mode == "dice" and device.animation is None)  # it has played
        seen["frames"] = app.ring_frames - before

    # The device's clock at a quarter of real time: the roll's animation (30 frames, a second of the
    # device's time) lasts four seconds on screen, so even a loaded machine draws many of its frames.
    play(steps, speed=0.25)
    assert seen["frames"] >= 10  # the ring moved through the animation, not from one picture to the next


def test_quit_mid_game_and_start_again_offers_to_resume(tmp_path):
    state = str(tmp_path / "sim")
    seen = {}

    async def first(pilot, app):
        device = app.tower.app
        for key, done in (("c", lambda: device.mode == "setup"), ("a", lambda: device.count == 3),
                          ("a", lambda: device.count == 2), ("c", lambda: device.mode == "play")):
            await pilot.press(key)  # a Battlerealm game with two heroes
            await until(pilot, done)
        shell = app.tower.device
        await until(pilot, lambda: shell._unsaved is None and shell._saving is None)  # saved: quitting keeps it
        seen["game"] = app.tower.app.game.to_dict()
        await pilot.press("q")

    async def second(pilot, app):
        seen["menu"] = app.tower.screen()[1]
        await pilot.press("c")
        await until(pilot, lambda: app.tower.app.game is not None)
        seen["resumed"] = app.tower.app.game.to_dict()

    play(first, state_dir=state)
    play(second, state_dir=state)
    assert seen["menu"] == "Resume Battlerealm"
    assert seen["resumed"] == seen["game"]


def test_with_web_the_interactive_sim_serves_its_tower_to_phones():
    """`dicetower sim --web PORT`: the firmware's server on the TUI's own loop; a key on the laptop
    reaches the page's state."""
    import json
    import socket
    import urllib.request

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    tower = sim.boot(seed=2)
    app = tui.SimApp(tower, web=port)
    seen = {}

    def fetch(path):
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=30) as r:
            return r.read()

    async def main():
        async with app.run_test(size=(140, 50)) as pilot:
            loop = asyncio.get_running_loop()
            for _ in range(300):  # the server listens once the app's worker has started it
                try:
                    seen["page"] = await loop.run_in_executor(None, fetch, "/")
                    break
                except OSError:
                    await pilot.pause(0.1)
            await pilot.press("c")  # New Battlerealm
            for _ in range(300):
                seen["state"] = json.loads(await loop.run_in_executor(None, fetch, "/state"))
                if seen["state"]["mode"] == "setup":
                    break
                await pilot.pause(0.1)

    asyncio.run(main())
    assert b"<title>dicetower</title>" in seen["page"]
    assert seen["state"]["mode"] == "setup"
