"""What the OLED shows for each state of the app: pure drawing onto a Canvas.

Eight text lines of 25 characters, big digits two lines tall and 16x16 icons.
`draw(app, canvas)` redraws the whole canvas; the OLED driver then sends
only the bytes that changed.
"""

from dicetower.ui import modes
from dicetower.ui.canvas import COLUMNS, wrap

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
            canvas.line(top + row, items[i][:COLUMNS], invert=(i == cursor))
        else:
            canvas.line(top + row, "")


def draw_message(canvas, top, text, bottom=LINES):
    lines = wrap(text)
    for row in range(bottom - top):
        canvas.line(top + row, lines[row] if row < len(lines) else "")


def draw_message_and_hint(canvas, top, text):
    """The last message from line `top`, and the long presses' hint below it if it leaves room."""
    if len(wrap(text)) < LINES - top:
        draw_message(canvas, top, text, LINES - 1)
        canvas.line(LINES - 1, HINT)
    else:
        draw_message(canvas, top, text)


def draw(app, canvas):
    """The whole canvas for the app's mode: drawn by the screen that has the mode (ui/modes.py's SCREENS)."""
    canvas.clear()
    i = modes.screen(app.mode)
    owner = modes.SCREENS[i + 1]
    if owner is None:
        draw_play(app, canvas)
    else:
        getattr(getattr(app, owner), modes.SCREENS[i + 3])(canvas)


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


def draw_play(app, canvas):
    """A game's own screens, the App's: its status, then the play menu (PLAY) or the game's end (OVER)."""
    used = draw_status(app, canvas, 4)
    if app.mode == modes.OVER:
        canvas.line(used, "GAME OVER", invert=True, centre=True)
        draw_message_and_hint(canvas, used + 1, app.game.over())
        return
    menu = app.menu
    chosen = app.cursor % len(menu)
    canvas.line(used, menu[chosen][0][: COLUMNS - 4], invert=True)
    if app.browsing:
        # Moving through the menu: the actions after the chosen one, and where it is in the menu.
        for row in range(used + 1, LINES - 1):
            after = chosen + row - used
            canvas.line(row, ("  " + menu[after][0])[:COLUMNS] if after < len(menu) else "")
        canvas.line(LINES - 1, "%d/%d  C: choose" % (chosen + 1, len(menu)))
    else:
        draw_message_and_hint(canvas, used + 1, app.message)


def draw_status(app, canvas, lines):
    """The game at a glance on the first `lines` lines (the game's own status); returns the next free line."""
    rows = app.game_module.status(app.game.state, lines)
    for row in range(lines):
        canvas.line(row, rows[row][:COLUMNS] if row < len(rows) else "")
    return lines
