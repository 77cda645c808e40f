"""A new game chosen and set up, before it starts: the count screen (`Count`), the set-up made ready at
idle, and the chosen game's modules loaded one a loop pass (its descriptor's AHEAD, App.choose_ahead).

`Choosing`, the start menu's (App.menus makes it as `app.choosing`): it works the App's public state
(the kind, count and set-up chosen; the screen up) through the App's own calls for what the App keeps
(its scopes: App.choose_ahead, App.game_module_now, App.close_setup, App.begin). Loaded with the start
menu and forgotten with its scope when the game begins, so a game's heap does not hold it.
"""

from dicetower.core import games
from dicetower.core.game import Refused
from dicetower.ui.canvas import cut
from dicetower.ui.screens import Screen, draw_message


class Count(Screen):
    """The player count (A -, B +); C starts the game as last set up, hold B sets up the rest."""

    MODE = "setup"

    def press(self, button, kind):
        app = self.app
        choosing = app.choosing
        low = games.players(app.kind)[0]
        if button == "b" and kind == "long" and games.setup_of(app.kind) is not None:
            choosing.open_setup()
        elif button == "a":
            app.count = max(low, app.count - 1)
        elif button == "b":
            app.count = min(choosing.most(), app.count + 1)
        else:
            choosing.start()

    def back(self):
        self.app.start_menu()

    def draw(self, canvas):
        app = self.app
        low, high = games.players(app.kind)[0], app.choosing.most()  # the game's module may not be loaded yet
        counting, hint = games.count_screen(app.kind)
        canvas.line(0, "New " + games.label(app.kind), invert=True, centre=True)
        canvas.line(2, counting % (low, high))
        canvas.big(48, 3, str(app.count))
        if app.setup is not None:  # what C starts: the set-up as last started (ready at idle)
            canvas.line(5, cut(app.setup_module.summary(app.setup, app.count)))
        if app.message:  # what the start refused
            draw_message(canvas, 6, app.message)
        else:
            canvas.line(6, "A - / B +   C start")
            canvas.line(7, hint)


class Choosing:
    def __init__(self, app):
        self.app = app

    def choose(self, kind):
        """A new game of `kind` chosen on the start menu: to its count screen, drawn from the games'
        registry's line. The game's descriptor and modules, its set-up and what its start will import are
        imported meanwhile at idle, one module a loop pass (App.think): at this press, or at the press that
        starts the game, they kept the buttons waiting (on a Pico, the descriptor 26 ms, Champions' module
        87 ms)."""
        app = self.app
        if app.game is not None:
            app.resume = app.game  # still saved: it can be resumed until a new one starts
            app.game = None
        app.kind = kind
        app.game_module = None  # its module: `game_module_now`
        app.show(Count(app))
        app.menus_aside()
        app.message = ""
        app.choose_ahead(kind)  # its descriptor first, at idle: the count screen reads the registry's line
        self.set_up(kind)

    def set_up(self, kind):
        """The count a new game starts from: the last one of its kind started, else the game's. The rest
        of its set-up is made ready at idle (ui/setup.py's `make_ready`): importing it at this press kept
        the buttons waiting 140 ms on a Pico."""
        app = self.app
        from dicetower.core.games import players, setup_of

        low, high, app.count = players(kind)
        app.close_setup()  # a game chosen before this one: its set-up goes
        app.unready = setup_of(kind)  # the set-up module, if any
        if app.setups is None:
            return
        saved, notice = app.setups().remembered()
        if notice:  # said whole, with the file's name; then the count screen it interrupted
            app.notice(notice + " The set-ups start from the defaults.", app.screen)
        last = saved.get(app.kind)
        if isinstance(last, dict) and type(last.get("count")) is int and low <= last["count"] <= high:
            app.count = last["count"]
            app.last_setup = last.get("setup")

    def open_setup(self, path=None):
        """Hold B on the player count: the set-up's rows (a game with more than a count to set up); with
        `path`, on the row of that value (what a start refused)."""
        app = self.app
        if not self.make_ready() or app.mode == "notice":
            return  # a presets file refused just now: said first, the count screen after it
        if app.form is None:
            app.form = app.setting_up().load("dicetower.ui.setup").SetupForm(app)
        if app.mode != "form":
            app.form.open()
        if path is not None:
            app.form.choose(path)
        app.show(app.form)

    def count(self):
        """Back to the player count."""
        self.app.show(Count(self.app))

    def most(self):
        """The most players the chosen game seats: its registry's, or fewer if its set-up says so (a
        heroes.json of 3 heroes seats 3: its set-up's `most`)."""
        app = self.app
        high = games.players(app.kind)[1]
        limit = getattr(app.setup_module, "most", None)
        return high if limit is None else min(high, limit(app.options))

    def start(self):
        """The set-up started: the new game, and its set-up remembered for the next one. The set-up's
        `start` makes every check the tracker's start makes (one function, called by both): a refusal keeps
        the form, on the row it names, and says why."""
        app = self.app
        self.make_ready()
        if app.mode == "notice":
            return  # a presets file refused just now: said first
        made = None  # a game of a count only: its tracker's new_game
        if app.setup is not None:
            try:
                made = app.setup_module.start(app.count, app.setup, app.options)
            except Refused as e:
                if e.path is not None or app.mode == "form":
                    self.open_setup(e.path)
                raise
        self.remember()  # before it is forgotten: should the tracker refuse it, it comes back (below)
        app.close_setup()  # its module forgotten before the game's comes in (core/games/__init__.py)
        app.later = self._starting(made)
        app.notice("Starting %s..." % games.label(app.kind))

    def _starting(self, made):
        """The rest of a start (App.later), once the OLED says the game is starting: what the idle passes
        had not loaded, one module a pass (on a Pico, Champions' tracker, which must not share the heap
        with its set-up, kept the buttons waiting 111 ms in the press), then the new game from its set-up's
        start (`made`), or for a count (None) (Battleworld's, made in the press, kept it waiting 28 ms)."""
        app = self.app
        if app.game_module is None:
            app.scope_of(app.kind).queue(games.starts_of(app.kind))  # before its tracker, one a pass
        while app.game_module is None or app.to_load():
            if app.to_load():
                app.load_ahead()
            else:
                app.game_module_now()
            yield
        self.count()  # under the notice: a refusal below opens the form from it, as at the press
        try:
            if made is None:
                game = app.game_module.new_game(app.count, app.options)
            else:
                game = app.game_module.TRACKER.setup(*made)
        except Refused:
            # The set-up's start let it pass (a check missing there): the form back as it was.
            self.set_up(app.kind)
            if self.make_ready() and app.mode != "notice":
                self.open_setup()
            raise
        app.begin(game, new=True)

    def remember(self):
        app = self.app
        if app.setups is not None:
            app.setups().remember(app.kind, app.count, app.setup)

    def make_ready(self):
        """The set-up made ready (ui/setup.py's `make_ready`, in the set-up's own scope): True if the game
        has one."""
        app = self.app
        if app.unready is not None:
            app.load_to_tracker()
            app.setting_up().load("dicetower.ui.setup").make_ready(app)
        return app.setup is not None
