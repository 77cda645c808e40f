"""The menus before a game: start, replace, settings, the heroes' editor, the help, the phones' screen.

One screen class each (ui/screens.py's Screen), made when it comes up and dropped when another
replaces it: the heroes being edited live with the editor's screens. The module is the start menu's
scope's (App.menus), with ui/choosing.py's count screen: the start menu's screens leave the heap with
it while a game is played.
"""

from dicetower.core import games
from dicetower.core.scope import Scope
from dicetower.ui.choosing import Choosing  # noqa: F401 (App.menus makes it: the press choosing a game imports nothing)
from dicetower.ui.canvas import MARGIN, WIDTH, cut
from dicetower.ui.screens import LINES, Pages, Screen, draw_list, draw_message

REPLACE_ITEMS = ("No: keep playing it", "Yes: a new game")
_QR = [None, None]  # the last address and its QR code: made once, not at every redraw


def start_items(app):
    items = [("New " + line[0], line[1]) for line in games.GAMES]
    if app.resume is not None:
        items.insert(0, ("Resume " + games.label(app.resume.KIND), "resume"))
    kept = app.saves.kept_kind() if app.saves is not None else None
    if kept is not None:
        items.append(("Bring back " + games.label(kept), "bring_back"))
    if app.phones is not None:
        items.append(("Phones: scoreboard", "phones"))
    items.append(("Settings", "settings"))
    return items


class Start(Screen):
    MODE = "start"

    def press(self, button, kind):
        app = self.app
        items = start_items(app)
        if button != "c":
            return app.step(button, len(items))
        choice = items[app.cursor % len(items)][1]
        app.cursor = 0
        app.saved_message = None
        if choice == "resume":
            app.begin(app.resume)
        elif choice == "bring_back":
            app.close_setup()  # a set-up of the same kind holds nothing the game read back will use
            game = app.saves.bring_back(app.scope_of(app.saves.kept_kind()))
            if game is None:  # changed or removed since the menu offered it; the console says why
                app.saved_message = "Could not bring it back."
            else:
                app.begin(game)
                app.message = "Brought back; the game it replaces is kept."
        elif choice == "settings":
            app.show(Settings(app))
        elif choice == "phones":
            app.show(Phones(app))
        elif _unfinished(app):
            app.show(Replace(app, choice))
        else:
            app.choosing.choose(choice)

    def draw(self, canvas):
        app = self.app
        canvas.line(0, "DICETOWER", invert=True, centre=True)
        draw_list(canvas, 1, [label for label, _ in start_items(app)], app.cursor, LINES - 1)
        draw_message(canvas, LINES - 1, app.saved_message or "A/B move  C choose")


def _unfinished(app):
    game = app.game or app.resume
    return game is not None and not game.over()


class Replace(Screen):
    """A new game would replace the saved one: No (first) keeps it, Yes goes on to the set-up."""

    MODE = "replace"

    def __init__(self, app, choice):
        self.app = app
        self.choice = choice  # the game chosen

    def press(self, button, kind):
        app = self.app
        if button != "c":
            return app.step(button, len(REPLACE_ITEMS))
        if app.cursor == 1:
            app.cursor = 0
            app.choosing.choose(self.choice)
        else:
            app.start_menu()

    def back(self):
        self.app.start_menu()

    def draw(self, canvas):
        app = self.app
        canvas.line(0, "Replace the saved game?", invert=True, centre=True)
        draw_list(canvas, 1, REPLACE_ITEMS, app.cursor, 3)
        draw_message(
            canvas,
            4,
            "A new game replaces the saved %s game. It is kept: the start menu can bring it "
            "back." % games.label((app.game or app.resume).KIND),
        )


class Settings(Screen):
    MODE = "settings"

    def items(self):
        settings = self.app.settings
        return [
            "Brightness %d%%" % settings["brightness"],
            "Sounds %s" % ("on" if settings["sounds"] else "off"),
            "Heroes and abilities",
            "Help: the screens",
        ]

    def press(self, button, kind):
        app = self.app
        if button != "c":
            return app.step(button, 4)
        if app.cursor == 3:
            game = app.game or app.resume
            reading = Scope("help")  # the text is made: its module and the games' help go
            try:
                made = reading.load("dicetower.ui.help").text
                app.message = reading.run(made, game.KIND if game is not None else None)
            finally:
                reading.close()
            app.page = 0
            app.show(Help(app))
        elif app.cursor == 0:
            app.settings["brightness"] = app.settings["brightness"] % 100 + 10
        elif app.cursor == 1:
            app.settings["sounds"] = not app.settings["sounds"]
        else:
            from dicetower.core.games.battlerealm.roster import forget, heroes

            forget()  # a set-up's read, left when it was not started: the screen edits the file's copy
            app.cursor = 0
            app.show(Heroes(app, [dict(h, abilities=list(h["abilities"])) for h in heroes(app.options, True)]))

    def back(self):
        """Hold C: the settings kept, and the start menu."""
        app = self.app
        app.keep("config.json", app.settings)
        app.emit({"event": "settings", "settings": app.settings})  # news for the monitor
        app.start_menu()

    def draw(self, canvas):
        canvas.line(0, "Settings", invert=True, centre=True)
        draw_list(canvas, 1, self.items(), self.app.cursor, 5)
        draw_message(canvas, 5, "C changes. Hold C: back.")


def settings(app):
    """Back to the settings, on the heroes' row."""
    app.show(Settings(app))
    app.cursor = 2


class Help(Pages):
    """What the status lines' short forms mean (ui/help.py's text), in pages; C back to the settings."""

    MODE = "help"

    def read(self):
        app = self.app
        app.page = 0
        app.message = ""
        app.show(Settings(app))

    def back(self):
        self.read()  # as C does on its last page


class Heroes(Screen):
    """The Battlerealm heroes, being edited (`roster`): one opens its editor, Done saves them all."""

    MODE = "heroes"

    def __init__(self, app, roster):
        self.app = app
        self.roster = roster

    def press(self, button, kind):
        app = self.app
        roster = self.roster
        if button != "c":
            return app.step(button, len(roster) + 1)
        if app.cursor == len(roster):
            # Written, the file is the roster a set-up reads (roster.py); else these play, held here.
            written = app.keep("heroes.json", {"heroes": roster})
            if written:
                app.options["heroes_file"] = written
                app.options.pop("heroes", None)
            else:
                app.options["heroes"] = roster
            app.emit({"event": "heroes", "heroes": roster})  # news for the monitor
            app.say("Heroes saved.")
            settings(app)
        else:
            app.show(Hero(app, roster, app.cursor))
            app.cursor = 0

    def back(self):
        settings(self.app)  # without saving: Done saves

    def draw(self, canvas):
        canvas.line(0, "Heroes", invert=True, centre=True)
        names = ["%s  %d PVP" % (h["name"][:14], h["pvp"]) for h in self.roster] + ["Done: save"]
        draw_list(canvas, 1, names, self.app.cursor)


class Hero(Screen):
    """One hero of the roster being edited: starting PVP, abilities on and off."""

    MODE = "hero"

    def __init__(self, app, roster, index):
        self.app = app
        self.roster = roster
        self.index = index

    def items(self):
        from dicetower.core.games.battlerealm.triples import ABILITIES

        hero = self.roster[self.index]
        items = ["Starting PVP %d" % hero["pvp"]]
        items += ["[%s] %s" % ("x" if a in hero["abilities"] else " ", a) for a in ABILITIES]
        return items + ["Done"]

    def press(self, button, kind):
        from dicetower.core.games.battlerealm.triples import ABILITIES

        app = self.app
        if button != "c":
            return app.step(button, len(ABILITIES) + 2)
        hero = self.roster[self.index]
        if app.cursor == 0:
            hero["pvp"] = hero["pvp"] % 20 + 1
        elif app.cursor <= len(ABILITIES):
            ability = ABILITIES[app.cursor - 1]
            if ability in hero["abilities"]:
                hero["abilities"].remove(ability)
            else:
                hero["abilities"].append(ability)
        else:
            self.back()

    def back(self):
        self.app.show(Heroes(self.app, self.roster))
        self.app.cursor = self.index

    def draw(self, canvas):
        canvas.line(0, cut(self.roster[self.index]["name"]), invert=True, centre=True)
        draw_list(canvas, 1, self.items(), self.app.cursor)


class Phones(Screen):
    """How phones join: the network and its password, the address, the PIN, and the address as a QR code
    (dark modules on a lit square, as printed codes are; 2 pixels a module). Any button: back."""

    MODE = "phones"

    def press(self, button, kind):
        self.app.start_menu()

    def back(self):
        self.app.start_menu()

    def draw(self, canvas):
        phones = self.app.phones

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
            encoding = Scope("qr")  # the code is drawn from its modules, kept above: the encoder goes
            try:
                _QR[0], _QR[1] = url, encoding.load("dicetower.ui.qr").encode(url)
            finally:
                encoding.close()
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
