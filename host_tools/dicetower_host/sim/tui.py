"""The simulator's terminal UI (Textual): the OLED, the LED ring, the buttons and the event log.

Textual, because it draws a 128x32-cell half-block picture fast enough for
animations, takes keys and mouse clicks alike, and has a headless pilot
that the tests drive. The picture is the virtual SSD1306's own memory, so
it shows exactly the bytes the firmware's driver sent.

The layout follows the terminal's size (SimApp.needs says the sizes): the
OLED at full size (a cell per pixel across, half blocks for two rows down,
130 x 43 for the pico) with the ring, buttons and log below it; in a narrower
terminal (a 120 x 40 one), the OLED at half width in quadrant blocks (2 x 2
pixels a cell) with the ring and buttons beside it and the log below; in a
lower one, at half size in braille (2 x 4 pixels a cell); every pixel is
shown in all three. In a smaller one (an 80 x 24 terminal), the OLED as its
eight lines of text, read back from its memory, the chosen line inverted.
Below that, a message says the size needed. The device runs on, whatever
is shown.

Keys: a, b, c short presses; Shift+A, B, C long presses; q quits. The
buttons on screen do the same with the mouse.
"""

import json
import sys
import time

from textual.app import App, ComposeResult
from textual.containers import Container
from textual.css.query import NoMatches
from textual.widgets import Button, RichLog, Static

from dicetower_host import sim
from dicetower_host.sim.pictures import (  # noqa: F401 (tui.oled_text...: pico/view.py's and the tests' names)
    DRAW,
    OFF,
    ON,
    oled_braille,
    oled_lines,
    oled_quadrants,
    oled_text,
    ring_text,
)

HOLD_S = {"short": 0.06, "long": 0.8}
GAP_MS = 60  # a button's rest between two presses of it: twice the firmware's debounce
KEYS = "a b c: press   Shift+A B C: long press (hold)   or click the buttons   q: quit"
LOG_LINES = 3  # the fewest log lines a layout leaves room for


class SimApp(App):
    CSS = """
    #body { height: 1fr; }
    #top { height: auto; }
    #oled { width: auto; height: auto; border: round $accent; }
    #ring { width: auto; height: auto; border: round $accent; }
    #side { height: auto; }
    #buttons { width: auto; height: auto; }
    #log { height: 1fr; border: round $accent; }
    #keys { dock: bottom; height: 1; background: $panel; }
    #small { display: none; width: 1fr; height: 1fr; content-align: center middle; text-align: center; }
    Button { min-width: 10; margin: 0 1; }

    #body.full #top { layout: vertical; }
    #body.full #side { layout: horizontal; }
    #body.full #buttons { layout: horizontal; }

    #body.narrow #top, #body.compact #top, #body.text #top { layout: horizontal; }
    #body.narrow #side, #body.compact #side, #body.text #side { layout: vertical; width: 1fr; }
    #body.narrow #buttons, #body.compact #buttons, #body.text #buttons {
        layout: grid; grid-size: 2; grid-rows: 1; grid-columns: 12; width: 24;
    }

    #body.small { display: none; }
    Screen.small #small { display: block; }
    """
    BINDINGS = [("q", "quit", "Quit")]

    def __init__(self, tower, speed=1.0, web=None, pin=None):
        super().__init__()
        self.tower = tower
        self.speed = speed
        self.web = web  # a port: the scoreboard's page is served there too (host_tools/web.py)
        self.pin = pin
        self.shown_ram = None
        self.shown_leds = None
        self.logged = 0
        self.oled_frames = 0
        self.ring_frames = 0
        self.first_frame_at = None
        self.started = time.monotonic()
        self.sim_ms = 0
        self.picture = None
        self.fitted = None  # "full", "narrow", "compact", "text" or "small": what the terminal's size shows whole
        # What the fingers do, in the device's time: (ms, order, pin, down) each a press or a release to
        # come. A key pressed while its button is still down, or in a burst, waits its turn: every key
        # is a press the firmware sees, a debounce's gap after the last one of that button.
        self.planned = []
        self.free_at = {}  # pin: the device's time from which it may be pressed again
        self.order = 0  # planned presses and releases in the order they were planned, at equal times

    def compose(self) -> ComposeResult:
        with Container(id="body"):
            with Container(id="top"):
                yield Static(id="oled")
                with Container(id="side"):
                    yield Static(id="ring")
                    with Container(id="buttons"):
                        for name in sorted(self.tower.profile["buttons"]):
                            label = name.upper()
                            yield Button(label, id="press-" + name)
                            yield Button(label + " long", id="hold-" + name)
            yield RichLog(id="log", max_lines=500)
        yield Static(id="small")
        yield Static(KEYS, id="keys")

    def needs(self):
        """The terminal sizes (columns, rows) the full, narrow, compact and text layouts need, from this
        board's ring and buttons."""
        leds = len(self.tower.strip.data) // len(self.tower.strip.order)
        buttons = len(self.tower.profile["buttons"])
        panel = self.tower.panel
        ring = 2 * leds - 1 + 2  # "● " each, the last without its space, and a border
        row_of_buttons = 2 * buttons * 12  # "A" and "A long" each: min-width 10 and a margin each side
        log = LOG_LINES + 2
        full = (max(panel.width + 2, ring + row_of_buttons), panel.pages * 4 + 2 + 3 + log + 1)
        side = max(ring, 2 * 12)
        narrow = (panel.width // 2 + 2 + side, max(panel.pages * 4 + 2, 3 + buttons) + log + 1)
        compact = (panel.width // 2 + 2 + side, max(panel.pages * 2 + 2, 3 + buttons) + log + 1)
        text = (panel.width // 5 + 2 + side, max(panel.pages + 2, 3 + buttons) + log + 1)
        return full, narrow, compact, text

    def fit(self, size):
        """Choose the layout that the terminal's size (columns, rows) shows whole."""
        full, narrow, compact, text = self.needs()
        layout = "small"
        for name, need in (("full", full), ("narrow", narrow), ("compact", compact), ("text", text)):
            if size[0] >= need[0] and size[1] >= need[1]:
                layout = name
                break
        if layout == "small":
            self.query_one("#small", Static).update(
                "This terminal is %d x %d: the simulator needs %d x %d\n"
                "(%d x %d for the OLED's picture, %d x %d at full size).\n\n"
                "Make the window larger or the font smaller.\n"
                "The tower runs meanwhile: a b c press its buttons, q quits." % (tuple(size) + text + compact + full)
            )
        if layout == self.fitted:
            return
        self.fitted = layout
        body = self.query_one("#body")
        for name in DRAW:
            body.set_class(name == layout, name)
        self.screen.set_class(layout == "small", "small")
        for button in self.query(Button):
            button.compact = layout != "full"
        self.shown_ram = None  # the picture again, at this layout's scale
        self.refresh_widgets()

    def on_mount(self):
        self.title = "dicetower sim: " + self.tower.profile["name"]
        self.last = time.monotonic()
        self.fit(self.size)
        self.set_interval(1 / 100, self.tick)
        for line in getattr(self.tower, "notices", ()):
            self.notify(line, timeout=15)
        if self.web is not None:
            # The firmware's own server, on this app's loop: only this loop touches the tower.
            from dicetower_host.sim import web

            url = "http://%s:%d/" % (web.lan_address(), self.web)
            self.run_worker(
                web.server_for(self.tower, self.pin, url).start_server("0.0.0.0", self.web), exclusive=False
            )
            self.notify(
                "The scoreboard: %s (and http://localhost:%d/); the start menu's Phones screen shows it"
                % (url, self.web),
                timeout=10,
            )

    def on_resize(self, event):
        try:
            self.fit(event.size)
        except NoMatches:  # not composed yet (on_mount fits it then), or closing
            pass

    failure = None  # what the firmware raised, once it has: the app ends and run() says it in one line

    def tick(self):
        try:
            self._tick()
        except Exception as e:  # noqa: BLE001 the firmware's own failure (a press, a redraw, a frozen loop)
            if self.failure is None:
                self.failure = e
                self.exit()

    def _tick(self):
        # Move the device's clock as far as real time (times the speed) has gone.
        now = time.monotonic()
        self.sim_ms += (now - self.last) * 1000 * self.speed
        self.last = now
        steps = int(self.sim_ms // 10)
        if steps:
            self.sim_ms -= steps * 10
            self._advance(steps * 10)
            self.refresh_widgets()

    def _advance(self, ms):
        """The device's clock `ms` on, each planned press and release made when its time comes on that
        clock: a press is as long for the firmware however late this laptop runs the app's timers."""
        clock = self.tower.clock
        end = clock.now + ms
        self.planned.sort()
        while self.planned and self.planned[0][0] <= end:
            at, _, pin, down = self.planned.pop(0)
            if at > clock.now:
                self.tower.wait(at - clock.now)
            (self.tower.bench.press if down else self.tower.bench.release)(pin)
        if end > clock.now:
            self.tower.wait(end - clock.now)

    def pressing(self):
        """Presses planned and not yet made (a burst of keys is played one after another)."""
        return len(self.planned)

    def refresh_widgets(self):
        try:
            self._refresh_widgets()
        except NoMatches:  # the app is closing: its widgets are gone
            pass

    def _refresh_widgets(self):
        ram = self.tower.oled()
        if ram != self.shown_ram:
            self.picture = DRAW[self.fitted](self.tower.panel)
            self.query_one("#oled", Static).update(self.picture)
            self.shown_ram = ram
            self.oled_frames += 1
            if self.first_frame_at is None:
                self.first_frame_at = time.monotonic() - self.started
        if self.tower.strip.data != self.shown_leds:
            # Counted only when the ring's colours change: what a player sees move.
            self.query_one("#ring", Static).update(ring_text(self.tower.strip))
            self.shown_leds = self.tower.strip.data
            self.ring_frames += 1
        lines = self.tower.platform.lines
        if len(lines) > self.logged:
            log = self.query_one("#log", RichLog)
            for line in lines[self.logged :]:
                log.write(json.dumps(json.loads(line)))
            self.logged = len(lines)

    def press(self, button, kind="short"):
        pin = self.tower.pin(button)
        start = max(self.tower.clock.now, self.free_at.get(pin, 0))
        release = start + int(HOLD_S[kind] * 1000)
        self.order += 2
        if start == self.tower.clock.now:
            self.tower.bench.press(pin)  # at once: the firmware latches the edge now
        else:
            self.planned.append((start, self.order, pin, True))
        self.planned.append((release, self.order + 1, pin, False))
        self.free_at[pin] = release + GAP_MS

    def on_key(self, event):
        key = event.character or ""
        if key.lower() in ("a", "b", "c") and key:
            self.press(key.lower(), "long" if key.isupper() else "short")
            event.stop()

    def on_button_pressed(self, event):
        kind, name = event.button.id.split("-", 1)
        self.press(name, "long" if kind == "hold" else "short")


def run(board="pico", seed=None, faces=None, state_dir=None, speed=1.0, web=None, pin=None):
    from dicetower_host.errors import UserError

    try:
        tower = sim.boot(board, seed, faces, state_dir or sim.DEFAULT_STATE)
    except UserError:
        raise
    except Exception as e:  # noqa: BLE001 the firmware's own failure as it boots, in one line
        return sim.failed("as it started", e)
    for line in tower.notices:  # also shown in the app; printed so that they outlast it
        sys.stderr.write("dicetower sim: %s\n" % line)
    if web is not None:
        from dicetower_host.sim.web import check_port, free

        check_port(web)
        free(web)  # a port in use is one line now, not a traceback inside the running UI
    app = SimApp(tower, speed, web, pin)
    app.run()
    if app.failure is not None:
        return sim.failed("while it ran", app.failure)
    return 0
