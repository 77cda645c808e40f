"""The table: every part of the game in play, a part a page, that the status lines above the play menu
have no room for (Battleworld's every open battle, each of Champions' game areas, every hero).

`Table(app)` is the screen the play menu's last row ("The table") opens: A and B page through the
parts, the last line says which part of how many ("A/B battle 4/5  C back"), C goes back to the play menu. The
first part is the last line said under the menu, whole; the last, the game's help (Settings -> Help's
words on its status lines). The parts come from the game's own
core/games/<game>/table.py (`parts(state)`: (word, text) pairs), loaded for the moment the screen is
made and forgotten after it (core/scope.py's `once`): the texts made stay while the screen shows.
"""

from dicetower.core import games
from dicetower.core.scope import Scope, once
from dicetower.ui.canvas import cut, wrap
from dicetower.ui.screens import LINES, Screen


class Table(Screen):
    MODE = "table"

    def __init__(self, app):
        self.app = app
        parts = [("said", app.message)] if app.message else []
        parts += once(games.part(app.kind, "table"), "parts", app.game.state)
        words = Scope("help")  # and last, what its status lines' short forms mean (Settings -> Help's)
        parts.append(("help", words.load(games.part(app.kind, "help")).TEXT))
        words.close()
        totals = {}
        for word, _ in parts:
            totals[word] = totals.get(word, 0) + 1
        self.pages = pages = []  # (its mark, its lines): a part longer than a page goes on over the next
        seen = {}
        for word, text in parts:
            seen[word] = seen.get(word, 0) + 1
            lines = list(wrap(text))  # wrap hands out its last list again: each page keeps its own
            for first in range(0, max(1, len(lines)), LINES - 1):
                mark = "A/B %s %d/%d" % (word, seen[word], totals[word])
                if first:
                    mark += " p%d" % (first // (LINES - 1) + 1)  # its second page...
                pages.append((cut(mark + "  C back"), lines[first : first + LINES - 1]))
        self.page = 0

    def press(self, button, kind):
        if button == "c":
            return self.app.to_game()
        self.page = (self.page + (1 if button == "b" else -1)) % len(self.pages)

    def back(self):
        self.app.to_game()

    def draw(self, canvas):
        mark, lines = self.pages[self.page]
        for row in range(LINES - 1):
            canvas.line(row, lines[row] if row < len(lines) else "")
        canvas.line(LINES - 1, mark, invert=True)
