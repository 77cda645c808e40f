"""The simulator's terminal UI (Textual): the OLED, the LED ring, the buttons and the event log.

Textual, because it draws a 128x32-cell half-block picture fast enough for
animations, takes keys and mouse clicks alike, and has a headless pilot
that the tests drive. The picture is the virtual SSD1306's own memory, so
it shows exactly the bytes the firmware's driver sent.

Keys: a, b, c short presses; A, B, C (shift) long presses; q quits. The
buttons on screen do the same with the mouse.
"""

import json
import time

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Button, Footer, RichLog, Static

from dicetower_host import sim

ON = "rgb(120,200,255)"
OFF = "rgb(10,14,24)"
HOLD_S = {"short": 0.06, "long": 0.8}


def oled_text(panel):
    """The panel as 32 rows of half blocks: each cell is two pixels, top and bottom."""
    text = Text()
    styles = ("%s on %s" % (OFF, OFF), "%s on %s" % (ON, OFF), "%s on %s" % (OFF, ON), "%s on %s" % (ON, ON))
    for row in range(panel.pages * 4):
        run_style = None
        run = 0
        for x in range(panel.width):
            style = styles[panel.pixel(x, 2 * row) + 2 * panel.pixel(x, 2 * row + 1)]
            if style != run_style and run:
                text.append("▀" * run, run_style)
                run = 0
            run_style = style
            run += 1
        text.append("▀" * run, run_style)
        text.append("\n")
    return text


def ring_text(strip):
    text = Text()
    count = len(strip.data) // len(strip.order)
    for i in range(count):
        r, g, b = strip.rgb(i)
        peak = max(r, g, b)
        colour = "rgb(%d,%d,%d)" % (r * 255 // peak, g * 255 // peak, b * 255 // peak) if peak else "rgb(40,40,40)"
        text.append("● ", colour)
    return text


class SimApp(App):
    CSS = """
    #oled { width: 130; height: 34; border: round $accent; }
    #ring { height: 3; border: round $accent; width: 130; }
    #buttons { height: 3; }
    #log { height: 1fr; border: round $accent; }
    Button { min-width: 10; margin: 0 1; }
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
        self.held = []  # (pin, the device's time to release it at): buttons held down

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="oled")
            yield Static(id="ring")
            with Horizontal(id="buttons"):
                for name in sorted(self.tower.profile["buttons"]):
                    label = name.upper()
                    yield Button(label, id="press-" + name)
                    yield Button(label + " long", id="hold-" + name)
            yield RichLog(id="log", max_lines=500)
        yield Footer()

    def on_mount(self):
        self.title = "dicetower sim: " + self.tower.profile["name"]
        self.last = time.monotonic()
        self.refresh_widgets()
        self.set_interval(1 / 100, self.tick)
        if self.web is not None:
            # The firmware's own server, on this app's loop: only this loop touches the tower.
            from dicetower_host import web

            url = "http://%s:%d/" % (web.lan_address(), self.web)
            self.run_worker(web.server_for(self.tower, self.pin, url).start_server("0.0.0.0", self.web),
                            exclusive=False)
            self.notify("The scoreboard: %s (and http://localhost:%d/); the start menu's Phones screen shows it"
                        % (url, self.web), timeout=10)

    def tick(self):
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
        """The device's clock `ms` on, each held button released when its hold has lasted on that clock:
        a press is as long for the firmware however late this laptop runs the app's timers."""
        clock = self.tower.clock
        end = clock.now + ms
        while self.held:
            pin, at = min(self.held, key=lambda held: held[1])
            if at > end:
                break
            if at > clock.now:
                self.tower.wait(at - clock.now)
            self.tower.bench.release(pin)
            self.held.remove((pin, at))
        if end > clock.now:
            self.tower.wait(end - clock.now)

    def refresh_widgets(self):
        try:
            self._refresh_widgets()
        except NoMatches:  # the app is closing: its widgets are gone
            pass

    def _refresh_widgets(self):
        ram = self.tower.oled()
        if ram != self.shown_ram:
            self.picture = oled_text(self.tower.panel)
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
            for line in lines[self.logged:]:
                log.write(json.dumps(json.loads(line)))
            self.logged = len(lines)

    def press(self, button, kind="short"):
        pin = self.tower.pin(button)
        self.tower.bench.press(pin)
        self.held.append((pin, self.tower.clock.now + int(HOLD_S[kind] * 1000)))  # released by _advance

    def on_key(self, event):
        key = event.character or ""
        if key.lower() in ("a", "b", "c") and key:
            self.press(key.lower(), "long" if key.isupper() else "short")
            event.stop()

    def on_button_pressed(self, event):
        kind, name = event.button.id.split("-", 1)
        self.press(name, "long" if kind == "hold" else "short")


def run(board="pico", seed=None, faces=None, state_dir=None, speed=1.0, web=None, pin=None):
    tower = sim.boot(board, seed, faces, state_dir or sim.DEFAULT_STATE)
    if web is not None:
        from dicetower_host.web import check_port, free

        check_port(web)
        free(web)  # a port in use is one line now, not a traceback inside the running UI
    SimApp(tower, speed, web, pin).run()
    return 0
