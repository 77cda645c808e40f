"""The simulator's terminal UI, driven headless by Textual's pilot: keys and clicks change the picture,
and the terminal's size decides what fits."""

import asyncio
import json
import re

import pytest

from dicetower.ui.leds import FRAMES
from dicetower_host import sim
from dicetower_host.sim import tui


def play(pilot_steps, size=(140, 50), **boot):
    """Run the app headless in a terminal of `size` (columns, rows), do `pilot_steps(pilot, app)`,
    return the app."""
    tower = sim.boot(seed=boot.get("seed", 2), state_dir=boot.get("state_dir"))
    app = tui.SimApp(tower, speed=boot.get("speed", 1.0))

    async def main():
        async with app.run_test(size=size) as pilot:
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
        await pilot.click("#press-c")  # start with four heroes: the game sealed, its cut on the screen
        await until(pilot, lambda: app.tower.app.mode == "cut")
        await until(pilot, lambda: not app.query_one("#press-c").has_class("-active"))
        await pilot.click("#press-c")  # cut and play
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
        for key, done in (
            ("c", lambda: device.mode == "setup"),
            ("a", lambda: device.count == 3),
            ("a", lambda: device.count == 2),
            ("c", lambda: device.mode == "cut"),  # the game sealed: its cut
            ("c", lambda: device.mode == "play"),  # cut and play
        ):
            await pilot.press(key)
            assert await until(pilot, done), (key, device.mode)
        before = app.ring_frames
        await pilot.press("c")  # roll
        lights = app.tower.device.lights
        # Played: the ring took up the roll's moment and showed all its frames.
        assert await until(pilot, lambda: device.mode == "dice" and lights.playing is None and lights.frame >= FRAMES)
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
        for key, done in (
            ("c", lambda: device.mode == "setup"),
            ("a", lambda: device.count == 3),
            ("a", lambda: device.count == 2),
            ("c", lambda: device.mode == "cut"),  # the game sealed: its cut
            ("c", lambda: device.mode == "play"),  # cut and play
        ):
            await pilot.press(key)  # a Battlerealm game with two heroes
            await until(pilot, done)
        shell = app.tower.device
        await until(pilot, lambda: not shell.saves.pending())  # saved: quitting keeps it
        seen["game"] = app.tower.app.game.to_dict()
        await pilot.press("q")

    async def second(pilot, app):
        device = app.tower.app
        seen["menu"] = app.tower.screen()[1]
        await pilot.press("c")  # Resume: the game read from flash, the seal it was saved with revealed
        assert await until(pilot, lambda: device.mode == "seed")
        seen["seed"] = device.message
        await pilot.press("c")  # past the seed: the new seal's cut
        assert await until(pilot, lambda: device.mode == "cut")
        await pilot.press("c")  # cut and play
        assert await until(pilot, lambda: device.mode == "play")
        seen["resumed"] = app.tower.app.game.to_dict()

    def played(game):
        """The game itself, without the seals of its dice."""
        return {key: value for key, value in game.items() if key not in ("seal", "seals")}

    play(first, state_dir=state)
    play(second, state_dir=state)
    assert seen["menu"] == "Resume Battlerealm"
    assert played(seen["resumed"]) == played(seen["game"])
    saved = seen["game"]["seal"]
    said = "Read from flash, seal %s is revealed: 0 draws in 0 throws." % saved["commitment"][:16]
    assert seen["seed"].startswith(said)
    assert [s["commitment"] for s in seen["resumed"]["seals"]] == [saved["commitment"]]  # kept with the game
    assert seen["resumed"]["seal"]["counter"] == saved["counter"] + 1  # and a new seal for the rest of it


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


# -- what the terminal shows --------------------------------------------------------------------------


def on_screen(app):
    """The terminal's characters, one string per row: what the user sees."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def shown_widgets(app):
    """The widgets the user can see: those on top at some cell of the terminal."""
    width, height = app.size
    return {app.screen.get_widget_at(x, y)[0] for y in range(height) for x in range(width)}


def cut_or_hidden(app, widget):
    """Why `widget` is not whole on screen ("" when it is): each cell of it inside the terminal, on top."""
    region = widget.region
    width, height = app.size
    if not region.area:
        return "%s is not shown" % widget.id
    if region.x < 0 or region.y < 0 or region.right > width or region.bottom > height:
        return "%s at %s is cut by the %d x %d terminal" % (widget.id, region, width, height)
    for y in range(region.y, region.bottom):
        for x in range(region.x, region.right):
            found = app.screen.get_widget_at(x, y)[0]
            if found is not widget and widget not in found.ancestors:  # its own scrollbars are its
                return "%s is covered at (%d, %d) by %s" % (widget.id, x, y, found)
    return ""


def text_in(app, widget):
    """The characters on screen inside the widget's border."""
    inner = widget.content_region
    return [row[inner.x : inner.right] for row in on_screen(app)[inner.y : inner.bottom]]


def braille_pixels(rows):
    """Rows of braille cells back into pixel rows of '#' and '.': dot n of a cell is bit n - 1 of its
    code above U+2800; dots 1, 2, 3, 7 are its left column downwards and 4, 5, 6, 8 its right."""
    out = []
    for row in rows:
        lines = ["", "", "", ""]
        for char in row:
            bits = ord(char) - 0x2800
            assert 0 <= bits < 256, "not braille: %r" % char
            for y, (left, right) in enumerate(((0, 3), (1, 4), (2, 5), (6, 7))):
                lines[y] += ("#" if bits >> left & 1 else ".") + ("#" if bits >> right & 1 else ".")
        out += lines
    return out


def quadrant_pixels(rows):
    """Rows of quadrant blocks back into pixel rows: each cell is 2 x 2 pixels."""
    blocks = {
        " ": (0, 0, 0, 0),
        "▘": (1, 0, 0, 0),
        "▝": (0, 1, 0, 0),
        "▀": (1, 1, 0, 0),
        "▖": (0, 0, 1, 0),
        "▌": (1, 0, 1, 0),
        "▞": (0, 1, 1, 0),
        "▛": (1, 1, 1, 0),
        "▗": (0, 0, 0, 1),
        "▚": (1, 0, 0, 1),
        "▐": (0, 1, 0, 1),
        "▜": (1, 1, 0, 1),
        "▄": (0, 0, 1, 1),
        "▙": (1, 0, 1, 1),
        "▟": (0, 1, 1, 1),
        "█": (1, 1, 1, 1),
    }
    out = []
    for row in rows:
        top = bottom = ""
        for char in row:
            tl, tr, bl, br = blocks[char]
            top += ".#"[tl] + ".#"[tr]
            bottom += ".#"[bl] + ".#"[br]
        out += [top, bottom]
    return out


def half_block_pixels(app, widget):
    """The full-size picture on screen back into pixel rows: '▀' is the top pixel in its colour and the
    bottom one in its background."""
    inner = widget.content_region
    lit = tui.ON.replace("rgb(", "").rstrip(")")
    out = []
    for strip in app.screen._compositor.render_strips()[inner.y : inner.bottom]:
        cells = []
        for segment in strip:
            for _char in segment.text:
                colours = [c.triplet if c is not None else None for c in (segment.style.color, segment.style.bgcolor)]
                cells.append(["#" if colour is not None and "%d,%d,%d" % colour == lit else "." for colour in colours])
        cells = cells[inner.x : inner.right]
        out += ["".join(cell[0] for cell in cells), "".join(cell[1] for cell in cells)]
    return out


def shown_pixels(app):
    """The OLED as the terminal shows it, in whichever layout, as pixel rows."""
    oled = app.query_one("#oled")
    if app.fitted == "full":
        return half_block_pixels(app, oled)
    return (quadrant_pixels if app.fitted == "narrow" else braille_pixels)(text_in(app, oled))


def whole(app):
    """What of the OLED, ring, buttons and log is not whole on screen: [] when all of it is."""
    problems = [cut_or_hidden(app, app.query_one(part)) for part in ("#oled", "#ring", "#log")]
    problems += [cut_or_hidden(app, button) for button in app.query("Button")]
    return [p for p in problems if p]


async def to_the_dice(pilot, app):
    """A Battlerealm game with two heroes, and the first hero's roll on the dice screen."""
    device = app.tower.app
    for key, done in (
        ("c", lambda: device.mode == "setup"),
        ("a", lambda: device.count == 3),
        ("a", lambda: device.count == 2),
        ("c", lambda: device.mode == "cut"),  # the game sealed: its cut
        ("c", lambda: device.mode == "play"),  # cut and play
        (
            "c",
            lambda: (
                device.mode == "dice"
                and app.tower.device.lights.playing is None
                and app.tower.device.lights.frame >= FRAMES
            ),
        ),
    ):
        await pilot.press(key)
        assert await until(pilot, done), (key, device.mode)


def test_at_120x40_the_six_dice_the_ring_the_buttons_and_the_log_are_all_on_screen():
    seen = {}

    async def steps(pilot, app):
        await to_the_dice(pilot, app)
        # Every pixel of the panel, as the terminal shows it: a state reached once the picture is drawn.
        assert await until(pilot, lambda: shown_pixels(app) == app.tower.panel.rows()), (
            "the OLED on screen is not the panel's picture"
        )
        seen["faces"] = app.tower.events("roll")[-1]["faces"]
        seen["screen"] = app.tower.screen()
        seen["layout"] = app.fitted
        seen["missing"] = whole(app)
        seen["ring"] = "".join(text_in(app, app.query_one("#ring")))
        seen["buttons"] = {button.id: "".join(text_in(app, button)).strip() for button in app.query("Button")}
        seen["log"] = "\n".join(text_in(app, app.query_one("#log")))
        seen["last event"] = app.tower.platform.lines[-1]
        seen["keys"] = on_screen(app)[-1]

    play(steps, size=(120, 40))
    assert seen["layout"] == "narrow"  # the OLED at half width: 2 x 2 pixels a cell
    assert seen["missing"] == []
    assert len(seen["faces"]) == 6  # six dice rolled, and the panel that shows them is whole on screen
    assert seen["ring"].count("●") == 12
    assert seen["buttons"] == {
        "press-a": "A",
        "hold-a": "A long",
        "press-b": "B",
        "hold-b": "B long",
        "press-c": "C",
        "hold-c": "C long",
    }
    event = json.loads(seen["last event"])
    assert json.dumps(event)[:40] in seen["log"]  # the log shows the latest event
    assert "Shift+A B C: long press" in seen["keys"]


def test_at_80x24_the_tower_plays_with_its_oled_as_text_and_smaller_says_the_size_needed():
    """The README's first command in an 80 x 24 terminal: the OLED's eight lines as text (the chosen one
    inverted), the ring, the buttons and the log all whole, and the game playable; below the text
    layout's size, a message says the sizes needed; each larger layout at its own size."""
    seen = {}

    async def steps(pilot, app):
        assert await until(pilot, lambda: app.fitted == "text")
        assert await until(pilot, lambda: "DICETOWER" in " ".join(on_screen(app)))
        seen["start"] = whole(app)
        await pilot.press("c")  # New Battlerealm
        assert await until(pilot, lambda: app.tower.app.mode == "setup")
        assert await until(pilot, lambda: any("Players (2-6):" in row for row in on_screen(app)))
        oled = app.query_one("#oled")
        seen["lines"] = [line.rstrip() for line in text_in(app, oled)]
        seen["screen"] = app.tower.screen()
        seen["inverted"] = str(app.picture.spans[0].style)
        await pilot.resize_terminal(50, 24)
        assert await until(pilot, lambda: app.fitted == "small")
        said = " ".join(row.strip() for row in on_screen(app))
        need = re.search(r"This terminal is 50 x 24: the simulator needs (\d+) x (\d+)", said)
        sizes = re.search(r"\((\d+) x (\d+) for the OLED's picture, (\d+) x (\d+) at full size\)", said)
        assert need and sizes, said
        need = (int(need.group(1)), int(need.group(2)))
        compact = (int(sizes.group(1)), int(sizes.group(2)))
        full = (int(sizes.group(3)), int(sizes.group(4)))
        assert need[0] <= 80 and need[1] <= 24
        for size, layout in ((need, "text"), ((need[0] - 1, need[1]), "small"), (compact, "compact"), (full, "full")):
            await pilot.resize_terminal(*size)
            assert await until(pilot, lambda: app.fitted == layout and tuple(app.size) == size), (size, app.fitted)
            if layout in ("compact", "full"):
                assert await until(pilot, lambda: shown_pixels(app) == app.tower.panel.rows()), (size, layout)
            seen[size] = whole(app) if layout != "small" else []

    play(steps, size=(80, 24))
    assert seen.pop("start") == []
    lines, screen = seen.pop("lines"), seen.pop("screen")
    assert lines[0].strip() == "New Battlerealm" and lines[2] == screen[2] == "Players (2-6):"
    assert lines[0].startswith("     New")  # centred, as on the panel
    assert screen[3] == "~~" and lines[3].strip() == "4"  # the count, drawn twice as large, read back as text
    assert [lines[n].strip() for n in (0, 1, 2, 6)] == [screen[n] for n in (0, 1, 2, 6)]  # the OLED's own lines
    assert "on rgb(120,200,255)" in seen.pop("inverted")  # the title, inverted as on the panel
    for size, result in seen.items():
        assert result == [], (size, result)


def test_the_footer_says_shift_is_a_long_press_and_shift_c_is_one():
    seen = {}

    async def steps(pilot, app):
        seen["keys"] = on_screen(app)[-1]
        device = app.tower.app
        for key, done in (
            ("c", lambda: device.mode == "setup"),
            ("c", lambda: device.mode == "cut"),  # the game sealed: its cut
            ("c", lambda: device.mode == "play"),  # cut and play
        ):
            await pilot.press(key)
            assert await until(pilot, done)
        await pilot.press("C")  # Shift+C: a long press of C, back to the start menu
        seen["after"] = await until(pilot, lambda: device.mode == "start")

    play(steps)
    assert "a b c: press" in seen["keys"] and "Shift+A B C: long press (hold)" in seen["keys"]
    assert seen["after"]


@pytest.mark.parametrize("apart", [0.1, 0])
def test_six_key_presses_move_the_cursor_six_steps(apart):
    """Six `b` presses 0.1 s apart, or in one burst: each is a press the firmware sees (a key pressed while
    its button was still down used to be lost: +4 or +5, and 1 for a burst)."""
    seen = {}

    async def steps(pilot, app):
        taken = []
        press = app.tower.app.press
        app.tower.app.press = lambda button, kind: (taken.append((button, kind)), press(button, kind))
        start = app.tower.app.cursor
        for _ in range(6):
            await pilot.press("b")
            if apart:
                await pilot.pause(apart)
        await until(pilot, lambda: len(taken) == 6 and app.pressing() == 0, seconds=20)
        seen["taken"] = taken
        seen["moved"] = (app.tower.app.cursor - start) % len(app.tower.app.menus.start_items(app.tower.app))

    play(steps)
    assert seen["taken"] == [("b", "short")] * 6  # the firmware took six presses of B
    assert seen["moved"] == 6 % 5  # the start menu's five items, stepped six times


def test_at_80x24_the_dice_their_marks_and_the_value_being_edited_are_readable():
    """In the text layout the dice were `~~~` and the set-up's row being edited looked like the others:
    the dice read back from their icons as their symbols' names, their marks under them (Mutant and
    Science lock), the die under the cursor inverted; the value being edited inverted, its label not."""
    from dicetower.core.dice import SYMBOLS

    seen = {}

    async def steps(pilot, app):
        assert await until(pilot, lambda: app.fitted == "text")
        await to_the_dice(pilot, app)
        oled = app.query_one("#oled")
        assert await until(pilot, lambda: text_in(app, oled)[1].strip() != "")
        seen["lines"] = text_in(app, oled)
        seen["faces"] = list(app.tower.app.turn.roll.faces)
        seen["locked"] = list(app.tower.app.turn.roll.locked)
        seen["spans"] = [(span.start, span.end, str(span.style)) for span in app.picture.spans]

    play(steps, size=(80, 24))
    lines, faces = seen["lines"], seen["faces"]
    assert lines[1].split() == [SYMBOLS[f][:3] for f in faces]
    marks = lines[3]
    for die in range(6):
        assert (marks[4 * die] == "L") == bool(seen["locked"][die]), (die, marks)
    # The cursor starts on die 1: its name is inverted on the text line, the others are not.
    row = len(lines[0]) + 1  # the picture's second line starts after the first and its line break
    inverted = [span for span in seen["spans"] if "on rgb(120,200,255)" in span[2]]
    assert any(start <= row < end for start, end, _ in inverted) and not any(
        start <= row + 4 < end for start, end, _ in inverted
    )


def test_at_80x24_the_set_ups_value_being_edited_is_inverted_and_its_label_is_not():
    def value_lit(picture):
        """(label lit, value lit) on the picture's line that starts "Scenario: ", or None."""
        plain = picture.plain
        at = plain.find("\nScenario: ")
        if at < 0:
            return None
        lit = [
            any(s <= k < e and "on rgb(120,200,255)" in str(style) for s, e, style in picture.spans)
            for k in range(at + 1, at + 1 + len("Scenario: Standard"))
        ]
        return any(lit[: len("Scenario: ")]), all(lit[len("Scenario: ") :])

    seen = {}

    async def steps(pilot, app):
        assert await until(pilot, lambda: app.fitted == "text")
        device = app.tower.app
        for key, done in (("b", lambda: device.cursor == 1), ("c", lambda: device.mode == "setup")):
            await pilot.press(key)
            assert await until(pilot, done)
        assert await until(pilot, lambda: device.setup is not None)  # made ready at idle
        for key, done in (("B", lambda: device.mode == "form"), ("b", lambda: device.cursor == 1)):
            await pilot.press(key)
            assert await until(pilot, done)
        assert await until(pilot, lambda: value_lit(app.picture) == (True, True))  # the chosen row, lit whole
        await pilot.press("c")  # its value is being edited
        seen["editing"] = await until(pilot, lambda: value_lit(app.picture) == (False, True))
        seen["last"] = value_lit(app.picture)

    play(steps, size=(80, 24))
    assert seen["editing"], seen["last"]
