"""A screen, and the screens every game shows: pure drawing onto a Canvas.

A screen is a class (`Screen`): made when it comes up (`App.show`), dropped when another replaces it,
its memory with it. It takes the presses while it is up (`press`, and `back` for a hold of C) and draws
itself (`draw`). Its MODE names it for the ring, the phones and the console (`app.mode`). Here: the
game's play menu (`Play`), its end (`Over`), a text in pages (`Pages`: a notice, `Notice`), and the
drawing the other screens share. Eight text lines of 25 characters, big digits two lines tall and 16x16
icons; `draw(app, canvas)` redraws the whole canvas, and the OLED driver sends only the bytes that changed.
"""

from dicetower.core.actions import SIX_DICE
from dicetower.ui.canvas import COLUMNS, cut, wrap

LINES = 8
# The long presses in a game, on the last line whenever the last message leaves it free.
HINT = "Hold A undo B redo C back"


def draw_list(canvas, top, items, cursor, bottom=LINES):
    """A scrolling menu from line `top`; the chosen item inverted."""
    rows = bottom - top
    first = 0 if cursor < rows else cursor - rows + 1
    for row in range(rows):
        i = first + row
        if i < len(items):
            canvas.line(top + row, cut(items[i]), invert=(i == cursor))
        else:
            canvas.line(top + row, "")


def draw_message(canvas, top, text, bottom=LINES):
    """`text` from line `top` to `bottom`; a text longer than that ends its last line with " >" (in a
    game, The table's first page has it whole)."""
    lines = wrap(text)
    rows = bottom - top
    for row in range(rows):
        line = lines[row] if row < len(lines) else ""
        if row == rows - 1 and len(lines) > rows:
            line = line[: COLUMNS - 2] + " >"
        canvas.line(top + row, line)


def draw_message_and_hint(canvas, top, text, hint=HINT):
    """The last message from line `top`, and what the presses do (`hint`) below it if it leaves room."""
    if len(wrap(text)) < LINES - top:
        draw_message(canvas, top, text, LINES - 1)
        canvas.line(LINES - 1, hint)
    else:
        draw_message(canvas, top, text)


def draw(app, canvas):
    """The whole canvas: the screen that is up draws it."""
    canvas.clear()
    if app.screen is None:
        app.start_menu()  # the first frame: the start menu is made for it
    app.screen.draw(canvas)


def draw_pages(canvas, text, page):
    """A text longer than the screen, a page of seven lines at a time, with what the keys do."""
    lines = wrap(text)
    pages = max(1, (len(lines) + 6) // 7)
    page = min(page, pages - 1)
    for row in range(7):
        i = page * 7 + row
        canvas.line(row, lines[i] if i < len(lines) else "")
    canvas.line(
        7,
        ("B: more  C: go on" if page + 1 < pages else "C: go on")
        + ("  %d/%d" % (page + 1, pages) if pages > 1 else ""),
        invert=True,
    )


class Screen:
    """What every screen has; each names itself (MODE) and has its own `press` and `draw`."""

    def __init__(self, app):
        self.app = app

    def back(self):
        """Hold C: nothing, unless the screen has somewhere to go back to."""


class Pages(Screen):
    """A text longer than the panel (the app's message), seven lines a page: A and B page it, C has read
    it (`read`)."""

    def press(self, button, kind):
        if not self.app.turn_page(button):
            self.read()

    def draw(self, canvas):
        draw_pages(canvas, self.app.message, self.app.page)


class Notice(Pages):
    """A saved game or a file refused, a lockout: said whole before the start menu, or before the
    screen it interrupted (`then`: a set-up's count or form, which a refused presets file does not end)."""

    MODE = "notice"

    def __init__(self, app, then=None):
        self.app = app
        self.then = then

    def read(self):
        app = self.app
        app.page = 0
        app.message = ""
        if self.then is None:
            app.start_menu()
        else:
            app.show(self.then)


class Play(Screen):
    """A game's play menu under its status: A and B move through the actions, C does one."""

    MODE = "play"

    def press(self, button, kind):
        app = self.app
        menu = app.menu
        if button != "c":
            # The actions are shown, not the last message; paused dice stay said (what to do is there).
            app.browsing = getattr(app.fair, "failure", None) is None
            return app.step(button, len(menu))
        action = menu[app.cursor % len(menu)]
        if action[1] == "reveal":  # ui/resealing.py's row
            return app.sealing.reveal()
        if action[1] == "table":  # App.set_menu's row
            return app.show_table()
        if action[2] and action[2][0][1] == SIX_DICE:
            return app.dice_screens.roll(app)
        app.pick(action)

    def back(self):
        self.app.start_menu()  # the game kept to resume

    def draw(self, canvas):
        app = self.app
        used = draw_status(app, canvas, 4)
        menu = app.menu
        chosen = app.cursor % len(menu)
        canvas.line(used, cut(menu[chosen][0], COLUMNS - 4), invert=True)
        if app.browsing:
            # Moving through the menu: the actions after the chosen one, and where it is in the menu.
            for row in range(used + 1, LINES - 1):
                after = chosen + row - used
                canvas.line(row, cut("  " + menu[after][0]) if after < len(menu) else "")
            canvas.line(LINES - 1, "%d/%d  C: choose" % (chosen + 1, len(menu)))
        else:
            draw_message_and_hint(canvas, used + 1, app.message)


class Over(Screen):
    """The game's end under its status: C to the start menu (the game is not offered to resume)."""

    MODE = "over"

    def press(self, button, kind):
        if button == "c":
            self.app.game = None
            self.app.start_menu()

    def back(self):
        self.app.start_menu()

    def draw(self, canvas):
        app = self.app
        used = draw_status(app, canvas, 4)
        canvas.line(used, "GAME OVER", invert=True, centre=True)
        draw_message_and_hint(canvas, used + 1, app.game.over())


def draw_status(app, canvas, lines):
    """The game at a glance on the first `lines` lines (the game's own status); returns the next free line."""
    rows = app.game_module.status(app.game.state, lines)
    for row in range(lines):
        canvas.line(row, cut(rows[row]) if row < len(rows) else "")
    return lines
