"""`dicetower pico`'s screen: the virtual board's OLED and ring, and its buttons on the keyboard.

The simulator's pictures (tui.oled_text, tui.ring_text) of what the board's own parts hold,
read through its control port: the OLED's memory as the firmware's driver wrote it over I2C,
the ring's colours as its WS2812 frames carried them. Keys as in the simulator: a, b, c tap
the buttons, A, B, C (Shift) hold them (a long press); q quits, and the board stops with it.

One thread does all the talking to the board (presses in order, each answered once the
firmware has taken it, then a look at the OLED and the ring); the app only draws what that
thread saw last, so a press that takes the board a while never freezes the screen.
"""

import asyncio
import queue
import threading

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static

from dicetower_host import sim
from dicetower_host.errors import typed
from dicetower_host.pico.board import BoardGone
from dicetower_host.sim import tui

sim.use_virtual_parts()
from dicetower_host.virtual_parts.devices import SSD1306, Strip  # noqa: E402 (after the parts are installed)
from dicetower_host.virtual_parts.tower import keystrokes, read_line  # noqa: E402

DARK = "The OLED is dark: no firmware runs on the board yet. In another terminal: %s flash --port %s --board %s"
KEYS = "a b c: tap a button · A B C (Shift): hold it, a long press · q: quit (the board stops; its flash is kept)"


class BoardFace(App):
    CSS = """
    #about { height: auto; color: $text-muted; }
    #oled { width: auto; height: 32; }
    #ring { width: auto; height: 1; }
    #status { height: auto; }
    """
    # The OLED's 128 pixels are 128 columns, its 64 rows 32, two pixels a cell (tui.oled_text); in a
    # terminal narrower than that (a 120 x 40 one, as the simulator fits), 64 columns of quadrant blocks,
    # two pixels by two a cell (tui.oled_quadrants): every pixel is shown either way.
    FULL = 128
    FITS = (64, 40)
    # Smaller (an 80 x 24 terminal): the OLED as its eight lines of text (tui.oled_lines: the dice by
    # name, what is drawn inverted inverted), the ring, the status; the notes on its ports cut to one line.
    TEXT_FITS = (27, 14)
    BINDINGS = [Binding("q", "quit", "Quit"), Binding("ctrl+c", "quit", "Quit", show=False)]

    def __init__(self, board, about):
        super().__init__()
        self.board = board
        self.about = about  # lines: where its ports and its flash are, what to try
        self.keys = queue.Queue()  # (button, kind) the player pressed, in order
        self.seen = None  # (OLED memory, the OLED is on, the ring's colours): what the board showed last
        self.shown = None
        self.drawn_as = None  # the picture's kind, by the terminal's width
        self.picture = None  # the OLED as drawn last
        self.status = None
        self.note = None  # a press the board refused, said until the next look succeeds
        self.stopped = None  # why the board stopped, once it has
        self.panel = SSD1306()
        self.strip = Strip(0, "RGB")
        self._quit = threading.Event()
        self.loop = None  # the app's event loop, once running: a signal handler asks it to exit
        self.stopped_by = None  # the signal that stopped it, if one did

    def compose(self) -> ComposeResult:
        yield Static("\n".join(self.about), id="about")
        yield Static(id="oled")
        yield Static(id="ring")
        yield Static(id="status")
        yield Footer()

    def on_mount(self):
        self.title = "dicetower pico: a virtual %s" % self.board.board
        self.loop = asyncio.get_running_loop()
        self._talker = threading.Thread(target=self._hands, daemon=True)
        self._talker.start()
        self.set_interval(1 / 30, self._draw)

    def on_unmount(self):
        self._quit.set()
        self._talker.join(timeout=2)  # its last look done before the board is closed under it

    def on_key(self, event):
        key = event.character or ""
        if key and key.lower() in ("a", "b", "c"):
            for press in keystrokes(key):
                self.keys.put(press)
            event.stop()

    def settled(self):
        """Every press is done, and what the board showed after the last one is on the screen."""
        return self.keys.unfinished_tasks == 0 and self.shown is self.seen

    def lines(self):
        """The OLED's eight text lines, as on the screen now."""
        return [read_line(self.panel.ram, page) for page in range(8)] if self.panel.on else [""] * 8

    def _hands(self):
        """The board's one talker: each press in turn, then a look at the OLED and the ring."""
        while not self._quit.is_set():
            try:
                press = self.keys.get(timeout=0.05)
            except queue.Empty:
                press = None
            try:
                if press is not None:
                    if self.seen is not None and not self.seen[1]:
                        raise RuntimeError("its OLED is dark: no firmware runs to take a press")
                    self.board.press(*press)
                look = self.board.ask({"oled": True})
                self.seen = (bytes.fromhex(look["ram"]), look.get("on", True), self.board.leds())
                if press is not None:
                    self.note = None
            except (RuntimeError, OSError, ValueError) as e:  # the board stopped, refused, or answered nonsense
                if self._quit.is_set():  # the screen is closing, and the board with it
                    return
                if self.board.process.poll() is not None or isinstance(e, BoardGone):  # gone, or silent
                    self.stopped = str(e) or type(e).__name__
                    return
                if press is not None:  # a look that failed (the board rebooting) is simply taken again
                    self.note = "The board did not take that: %s" % (str(e) or type(e).__name__)
                continue
            finally:
                if press is not None:
                    self.keys.task_done()

    def _draw(self):
        seen = self.seen
        width, height = self.size
        if height < self.FITS[1] or width < self.FITS[0]:
            kind = tui.oled_lines
        else:
            kind = tui.oled_text if width >= self.FULL else tui.oled_quadrants
        if seen is not None and (seen is not self.shown or kind is not self.drawn_as):
            if seen != self.shown or kind is not self.drawn_as:  # again only when something new is to show
                ram, on, leds = seen
                self.panel.ram[:] = ram
                self.panel.on = on
                self.strip = Strip(len(leds), "RGB")
                self.strip.receive(bytes(value for rgb in leds for value in rgb))
                self.picture = kind(self.panel)
                if kind is not self.drawn_as:  # eight lines of text, or the picture's 32 rows
                    self.query_one("#oled", Static).styles.height = 8 if kind is tui.oled_lines else 32
                    about = self.about if kind is not tui.oled_lines else self.about[:1]
                    self.query_one("#about", Static).update("\n".join(about))
                self.query_one("#oled", Static).update(self.picture)
                self.query_one("#ring", Static).update(tui.ring_text(self.strip))
                self.drawn_as = kind
            self.shown = seen
        if self.stopped is not None:
            status = "The board stopped: %s" % self.stopped
        elif width < self.TEXT_FITS[0] or height < self.TEXT_FITS[1]:
            status = (
                "This terminal is %dx%d; the board's screen needs %dx%d (%dx%d for the OLED's picture): make it "
                "larger, or use --headless" % ((width, height) + self.TEXT_FITS + self.FITS)
            )
        elif self.note is not None:
            status = self.note
        elif seen is not None and not seen[1]:
            status = DARK % (typed(), self.board.url, self.board.board)
        else:
            status = KEYS
        if status != self.status:
            self.query_one("#status", Static).update(status)
            self.status = status
