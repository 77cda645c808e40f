"""The menus before a game: start, set-up, settings, the heroes' editor, a notice, the phones' screen.

`Menus(app)` takes the presses of those modes (`on_<mode>`) and changes the
app's shared state (mode, cursor, message), and draws them (`draw_<mode>`, with screens.py's
helpers): the start menu's screens leave the heap with it while a game is played.
"""

from dicetower.core import games
from dicetower.core.scope import Scope
from dicetower.ui.choosing import Choosing  # with the start menu: the press that chooses a game imports nothing
from dicetower.ui.canvas import COLUMNS, MARGIN, WIDTH
from dicetower.ui.screens import LINES, draw_list, draw_message, draw_pages
from dicetower.ui.modes import HELP, HERO, HEROES, OVER, PHONES, PLAY, REPLACE, SETTINGS, SETUP, START

REPLACE_ITEMS = ("No: keep playing it", "Yes: a new game")
_QR = [None, None]  # the last address and its QR code: made once, not at every redraw


class Menus:
    REPLACE_ITEMS = REPLACE_ITEMS

    def __init__(self, app):
        self.app = app
        self.roster = []  # the Battlerealm heroes being edited
        self.hero = 0  # the one open in the editor
        self.replacing = None  # the game chosen while asking whether it may replace the saved one
        self.choosing = app.choosing = Choosing(app)  # the count screen's and the set-up's (ui/setup.py's form)

    def back(self):
        """Hold C: out of the heroes' editor one level, else to the start menu (a game kept to resume)."""
        app = self.app
        mode = app.mode
        if mode == HERO:
            app.mode = HEROES
            app.cursor = self.hero
        elif mode == HEROES:
            app.mode = SETTINGS  # without saving: Done saves
            app.cursor = 2
        elif mode == HELP:
            self._read("c", SETTINGS)  # as C does on the help's last page
        elif mode in (PLAY, OVER, SETUP, SETTINGS, PHONES, REPLACE):
            if mode == SETTINGS:
                app.keep("config.json", app.settings)
                app.emit({"event": "settings", "settings": app.settings})  # news for the monitor
            if app.game is not None:
                app.resume = app.game
            app.mode = START
            app.cursor = 0

    def start_items(self):
        app = self.app
        items = [("New " + label, key) for label, key in games.GAMES]
        if app.resume is not None:
            items.insert(0, ("Resume " + games.label(app.resume.KIND), "resume"))
        kept = app.saves.kept_kind() if app.saves is not None else None
        if kept is not None:
            items.append(("Bring back " + games.label(kept), "bring_back"))
        if app.phones is not None:
            items.append(("Phones: scoreboard", "phones"))
        items.append(("Settings", "settings"))
        return items

    def on_start(self, button, kind):
        app = self.app
        items = self.start_items()
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
            app.mode = SETTINGS
        elif choice == "phones":
            app.mode = PHONES
        elif self.saved_game_unfinished():
            self.replacing = choice
            app.mode = REPLACE
        else:
            self.choosing.choose(choice)

    def saved_game_unfinished(self):
        game = self.app.game or self.app.resume
        return game is not None and not game.over()

    def on_replace(self, button, kind):
        """A new game would replace the saved one: No (first) keeps it, Yes goes on to the set-up."""
        app = self.app
        if button != "c":
            return app.step(button, len(REPLACE_ITEMS))
        if app.cursor == 1:
            self.choosing.choose(self.replacing)
        else:
            app.mode = START
        app.cursor = 0

    def on_phones(self, button, kind):
        self.app.mode = START  # any button: back to the menu

    def on_help(self, button, kind):
        self._read(button, SETTINGS)

    def on_notice(self, button, kind):
        self._read(button, START)

    def _read(self, button, then):
        """A and B page a text, C has read it: on to `then`."""
        app = self.app
        if not app.turn_page(button):
            app.mode = then
            app.page = 0
            app.message = ""

    def on_setup(self, button, kind):
        """The player count (A -, B +); C starts the game as last set up, hold B sets up the rest."""
        app = self.app
        low = games.players(app.kind)[0]
        if button == "b" and kind == "long" and games.setup_of(app.kind) is not None:
            self.choosing.open_setup()
        elif button == "a":
            app.count = max(low, app.count - 1)
        elif button == "b":
            app.count = min(self.choosing.most(), app.count + 1)
        else:
            self.choosing.start()

    def settings_items(self):
        settings = self.app.settings
        return [
            "Brightness %d%%" % settings["brightness"],
            "Sounds %s" % ("on" if settings["sounds"] else "off"),
            "Heroes and abilities",
            "Help: the screens",
        ]

    def on_settings(self, button, kind):
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
            app.mode = HELP
        elif app.cursor == 0:
            app.settings["brightness"] = app.settings["brightness"] % 100 + 10
        elif app.cursor == 1:
            app.settings["sounds"] = not app.settings["sounds"]
        else:
            from dicetower.core.games.battlerealm.roster import heroes

            self.roster = [dict(h, abilities=list(h["abilities"])) for h in heroes(app.options)]
            app.mode = HEROES
            app.cursor = 0

    def on_heroes(self, button, kind):
        app = self.app
        if button != "c":
            return app.step(button, len(self.roster) + 1)
        if app.cursor == len(self.roster):
            app.options["heroes"] = self.roster
            app.keep("heroes.json", {"heroes": self.roster})
            app.emit({"event": "heroes", "heroes": self.roster})  # news for the monitor
            app.say("Heroes saved.")
            app.mode = SETTINGS
            app.cursor = 2
        else:
            self.hero = app.cursor
            app.mode = HERO
            app.cursor = 0

    def hero_items(self):
        from dicetower.core.games.battlerealm.triples import ABILITIES

        hero = self.roster[self.hero]
        items = ["Starting PVP %d" % hero["pvp"]]
        items += ["[%s] %s" % ("x" if a in hero["abilities"] else " ", a) for a in ABILITIES]
        return items + ["Done"]

    def on_hero(self, button, kind):
        from dicetower.core.games.battlerealm.triples import ABILITIES

        app = self.app
        count = len(ABILITIES) + 2
        if button != "c":
            return app.step(button, count)
        hero = self.roster[self.hero]
        if app.cursor == 0:
            hero["pvp"] = hero["pvp"] % 20 + 1
        elif app.cursor <= len(ABILITIES):
            ability = ABILITIES[app.cursor - 1]
            if ability in hero["abilities"]:
                hero["abilities"].remove(ability)
            else:
                hero["abilities"].append(ability)
        else:
            app.mode = HEROES
            app.cursor = self.hero

    # -- drawing: each mode's screen (ui/modes.py's SCREENS names the method) ---------------------

    def draw_start(self, canvas):
        app = self.app
        canvas.line(0, "DICETOWER", invert=True, centre=True)
        draw_list(canvas, 1, [label for label, _ in self.start_items()], app.cursor, LINES - 1)
        draw_message(canvas, LINES - 1, app.saved_message or "A/B move  C choose")

    def draw_replace(self, canvas):
        app = self.app
        canvas.line(0, "Replace the saved game?", invert=True, centre=True)
        draw_list(canvas, 1, REPLACE_ITEMS, app.cursor, 3)
        draw_message(
            canvas,
            4,
            "A new game replaces the saved %s game. It is kept: the start menu can bring it "
            "back." % games.label((app.game or app.resume).KIND),
        )

    def draw_setup(self, canvas):
        app = self.app
        low, high = games.players(app.kind)[0], self.choosing.most()  # the game's module may not be loaded yet
        counting, hint = games.count_screen(app.kind)
        canvas.line(0, "New " + games.label(app.kind), invert=True, centre=True)
        canvas.line(2, counting % (low, high))
        canvas.big(48, 3, str(app.count))
        if app.message:  # what the start refused
            draw_message(canvas, 6, app.message)
        else:
            canvas.line(6, "A - / B +   C start")
            canvas.line(7, hint)

    def draw_settings(self, canvas):
        canvas.line(0, "Settings", invert=True, centre=True)
        draw_list(canvas, 1, self.settings_items(), self.app.cursor, 5)
        draw_message(canvas, 5, "C changes. Hold C: back.")

    def draw_heroes(self, canvas):
        canvas.line(0, "Heroes", invert=True, centre=True)
        names = ["%s  %d PVP" % (h["name"][:14], h["pvp"]) for h in self.roster] + ["Done: save"]
        draw_list(canvas, 1, names, self.app.cursor)

    def draw_hero(self, canvas):
        canvas.line(0, self.roster[self.hero]["name"][:COLUMNS], invert=True, centre=True)
        draw_list(canvas, 1, self.hero_items(), self.app.cursor)

    def draw_text(self, canvas):
        """A notice, or the help: the text in pages."""
        draw_pages(canvas, self.app.message, self.app.page)

    def draw_phones(self, canvas):
        """How phones join: the network and its password, the address, the PIN, and the address as a
        QR code (dark modules on a lit square, as printed codes are; 2 pixels a module)."""
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
