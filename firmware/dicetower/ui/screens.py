"""What the OLED shows for each state of the app: pure drawing onto a Canvas.

Eight text lines of 25 characters, big digits two lines tall and 16x16 icons.
`draw(app, canvas)` redraws the whole canvas; the OLED driver then sends
only the bytes that changed.
"""

from dicetower.core.dice import SYMBOLS
from dicetower.core.game import release, short_name
from dicetower.core.games import count_screen, label, players
from dicetower.ui import icons, modes
from dicetower.ui.canvas import COLUMNS, MARGIN, WIDTH, wrap

LINES = 8
# Under each die: L locked, ^ picked to re-roll (the die boxed too, see _picked), * the advice re-rolls
# it (! with Lucky). Made once: a string made per redraw costs a qstr lookup each on MicroPython.
_MARKS = tuple(
    ("L" if m & 1 else " ") + ("^" if m & 2 else " ") + ("!" if m & 8 else "*" if m & 4 else " ") for m in range(12)
)
# The long presses in a game, on the last line whenever the last message leaves it free.
HINT = "Hold A undo B redo C back"


def _list(canvas, top, items, cursor, bottom=LINES):
    """A scrolling menu from line `top`; the chosen item inverted."""
    rows = bottom - top
    first = 0 if cursor < rows else cursor - rows + 1
    for row in range(rows):
        i = first + row
        if i < len(items):
            canvas.line(top + row, items[i][:COLUMNS], invert=(i == cursor))
        else:
            canvas.line(top + row, "")


def _message(canvas, top, text, bottom=LINES):
    lines = wrap(text)
    for row in range(bottom - top):
        canvas.line(top + row, lines[row] if row < len(lines) else "")


def _message_and_hint(canvas, top, text):
    """The last message from line `top`, and the long presses' hint below it if it leaves room."""
    if len(wrap(text)) < LINES - top:
        _message(canvas, top, text, LINES - 1)
        canvas.line(LINES - 1, HINT)
    else:
        _message(canvas, top, text)


def draw(app, canvas):
    canvas.clear()
    mode = app.mode
    if mode == modes.START:
        canvas.line(0, "DICETOWER", invert=True, centre=True)
        _list(canvas, 1, [label for label, _ in app.menus.start_items()], app.cursor, LINES - 1)
        _message(canvas, LINES - 1, app.saved_message or "A/B move  C choose")
    elif mode == modes.REPLACE:
        canvas.line(0, "Replace the saved game?", invert=True, centre=True)
        _list(canvas, 1, app.menus.REPLACE_ITEMS, app.cursor, 3)
        _message(
            canvas,
            4,
            "A new game replaces the saved %s game. It is kept: the start menu can bring it "
            "back." % label((app.game or app.resume).KIND),
        )
    elif mode == modes.SETUP:
        low, high, _ = players(app.kind)  # from the registry: the game's module may not be loaded yet
        counting, hint = count_screen(app.kind)
        canvas.line(0, "New " + label(app.kind), invert=True, centre=True)
        canvas.line(2, counting % (low, high))
        canvas.big(48, 3, str(app.count))
        if app.message:  # what the start refused
            _message(canvas, 6, app.message)
        else:
            canvas.line(6, "A - / B +   C start")
            canvas.line(7, hint)
    elif mode == modes.FORM:
        app.form.draw(canvas, "Set up " + label(app.kind))
    elif mode == modes.PHONES:
        _phones(app.phones, canvas)
    elif mode == modes.SETTINGS:
        canvas.line(0, "Settings", invert=True, centre=True)
        _list(canvas, 1, app.menus.settings_items(), app.cursor, 5)
        _message(canvas, 5, "C changes. Hold C: back.")
    elif mode == modes.HEROES:
        canvas.line(0, "Heroes", invert=True, centre=True)
        names = ["%s  %d PVP" % (h["name"][:14], h["pvp"]) for h in app.menus.roster] + ["Done: save"]
        _list(canvas, 1, names, app.cursor)
    elif mode == modes.HERO:
        canvas.line(0, app.menus.roster[app.menus.hero]["name"][:COLUMNS], invert=True, centre=True)
        _list(canvas, 1, app.menus.hero_items(), app.cursor)
    elif mode in (modes.DICE_MODE, modes.MARK):
        _dice(app, app.turn, canvas)
    elif mode in (modes.RESULT, modes.NOTICE, modes.HELP):
        lines = wrap(app.message)
        pages = max(1, (len(lines) + 6) // 7)
        page = min(app.page, pages - 1)
        for row in range(7):
            i = page * 7 + row
            canvas.line(row, lines[i] if i < len(lines) else "")
        canvas.line(
            7,
            ("B: more  C: go on" if page + 1 < pages else "C: go on")
            + ("  %d/%d" % (page + 1, pages) if pages > 1 else ""),
            invert=True,
        )
    elif mode == modes.ARGS:
        # The same layout as the play screen, so choosing a value redraws one line.
        used = _status(app, canvas, 4)
        picker = app.picker
        arg = picker.action[2][picker.asking]
        options = picker.choices(arg)
        # Line 4 says what is being chosen; the last message stays below it.
        canvas.line(used, ("%s: %s" % (arg[0], options[picker.choice % len(options)][0]))[:COLUMNS], invert=True)
        _message_and_hint(canvas, used + 1, app.message)
    else:  # PLAY and OVER
        used = _status(app, canvas, 4)
        if mode == modes.OVER:
            canvas.line(used, "GAME OVER", invert=True, centre=True)
            _message_and_hint(canvas, used + 1, app.game.over())
        else:
            menu = app.game_module.MENU
            chosen = app.cursor % len(menu)
            canvas.line(used, menu[chosen][0][: COLUMNS - 4], invert=True)
            if app.browsing:
                # Moving through the menu: the actions after the chosen one, and where it is in the menu.
                for row in range(used + 1, LINES - 1):
                    after = chosen + row - used
                    canvas.line(row, ("  " + menu[after][0])[:COLUMNS] if after < len(menu) else "")
                canvas.line(LINES - 1, "%d/%d  C: choose" % (chosen + 1, len(menu)))
            else:
                _message_and_hint(canvas, used + 1, app.message)


_QR = [None, None]  # the last address and its QR code: made once, not at every redraw


def _phones(phones, canvas):
    """How phones join: the network and its password, the address, the PIN, and the address as a
    QR code (dark modules on a lit square, as printed codes are; 2 pixels a module)."""
    url = phones.get("url")
    where = url[7:].rstrip("/") if url else "the Wi-Fi"
    rows = [
        "Phones",
        phones.get("wifi") or "",
        "key " + phones["password"] if phones.get("password") else "",
        "PIN " + phones["pin"] if phones.get("pin") else "read-only",
        "Scan, or go" if url else "Waiting for",
        where[:11],
        where[11:22],
    ]
    for row in range(len(rows)):
        canvas.text(MARGIN, row, rows[row][:11], invert=row == 0)
    canvas.text(MARGIN, 7, "C: back")
    if url is None:
        return
    if _QR[0] != url:
        from dicetower.ui.qr import encode

        _QR[0], _QR[1] = url, encode(url)
        release("dicetower.ui.qr")  # the code is drawn from its modules, kept above: the encoder goes
    size, modules = _QR[1]
    quiet = 2 if size <= 25 else 1
    side = (size + 2 * quiet) * 2
    if side > 64:
        return  # too long an address for the panel: the text says it
    x0, y0 = WIDTH - side, (64 - side) // 2
    canvas.square(x0, y0, side, True)
    for y in range(size):
        for x in range(size):
            if modules[y * size + x]:
                canvas.square(x0 + 2 * (quiet + x), y0 + 2 * (quiet + y), 2, False)


def _status(app, canvas, lines):
    """The game at a glance on the first `lines` lines (the game's own status); returns the next free line."""
    rows = app.game_module.status(app.game.state, lines)
    for row in range(lines):
        canvas.line(row, rows[row][:COLUMNS] if row < len(rows) else "")
    return lines


def _dice(app, turn, canvas):
    from dicetower.core.cards import LOCATIONS, SHORT_NAMES  # loaded with the dice anyway: Battlerealm only

    roll = turn.roll
    canvas.line(
        0,
        "%s  re-rolls %d%s" % (short_name(turn.active_name(), 10), roll.rerolls_left, " L" if roll.lucky_left else ""),
    )
    faces = roll.faces  # indices into SYMBOLS: the names are made only for the line that shows one
    for die in range(6):
        x = die * 21 + 2
        symbol = faces[die]
        chosen = app.mode == modes.DICE_MODE and app.cursor == die
        canvas.icon(x, 1, icons.SYMBOL_ICONS[symbol], invert=chosen)
        picked = turn.picked & (1 << die)
        mark = (1 if roll.locked[die] else 0) + (2 if picked else 0)
        if turn.advised & (1 << die) and app.mode == modes.DICE_MODE:
            mark += 8 if turn.advice.lucky == die else 4  # the advice: re-roll it (! with Lucky)
        canvas.text(x + 1, 3, _MARKS[mark])
        if picked:
            _picked(canvas, x)
    if app.mode == modes.MARK:
        # The prompt whole (two lines: "Explosion 1: mark the" / "heroes at your location."), then each
        # hero with where the game has them, to mark those at the roller's location.
        heroes = app.game.state["heroes"]
        names = [
            "[%s] %-8s %s"
            % (
                "x" if turn.marked & (1 << i) else " ",
                short_name(heroes[i]["name"], 8),
                SHORT_NAMES[heroes[i]["place"]],
            )
            for i in turn.mark_items()
        ] + ["Done"]
        said = wrap(app.message)[:2]
        for row in range(len(said)):
            canvas.line(4 + row, said[row])
        _list(canvas, 4 + len(said), names, app.cursor)
        return
    aim = turn.target_name()
    if app.cursor == modes.TARGET:
        label = "Aim: " + aim
    elif app.cursor == modes.PLACE:
        label = "At: " + SHORT_NAMES[LOCATIONS.index(turn.place())]
    elif app.cursor >= modes.DICE:
        label = ("Re-roll picked", "Lucky re-roll", "", "", "Finalize")[app.cursor - modes.DICE]
    else:
        label = "Die %d: %s" % (app.cursor + 1, SYMBOLS[faces[app.cursor]])
    canvas.line(4, label[:COLUMNS], invert=True)
    advice = turn.advice
    if advice is None:
        if turn.thinking():  # the dice are shown at once; their chance follows when worked out
            canvas.line(5, aim[: COLUMNS - 4] + " ...")
            _message(canvas, 6, app.message)
        else:
            _message(canvas, 5, app.message)
        return
    # The advice at a glance: the aim and its chance, then the chance of the Crystal Prison or an
    # Explosion on the way (while the message leaves a line for it); the dice to re-roll are marked *
    # above (! for Lucky's re-roll) and blink on the ring.
    tail = " %d%%" % advice.percent()
    canvas.line(5, aim[: COLUMNS - len(tail)] + tail)
    risk = advice.percent(risk=True)
    if risk and len(wrap(app.message)) < 2:
        canvas.line(6, "Prison or Explosion %d%%" % risk)
        _message(canvas, 7, app.message)
    else:
        _message(canvas, 6, app.message)


def _picked(canvas, x):
    """A die picked for the re-roll, boxed: a frame round its icon (from x) standing on its marks,
    which become a lit bar (bit 7 left dark, so the bar stays apart from the line below)."""
    canvas.paint(0, x - 2, x + 18, 0x80)  # the top, in the gap under line 0's letters
    for page in (1, 2):
        canvas.paint(page, x - 2, x - 1, 0xFF)
        canvas.paint(page, x + 17, x + 18, 0xFF)
    canvas.paint(3, x - 2, x + 18, 0x7F, flip=True)
