"""A new game chosen and set up, before it starts: the count screen's flow, the set-up made ready at
idle, and the chosen game's modules fetched one a loop pass (its registry line).

Functions of the App (ui/flow.py) whose state they keep (kind, count, setup, _ahead, _held...): loaded
with the start menu (ui/menus.py), or at power-up with a saved game to resume, and let go when the game
begins (App.begin), so a game's heap does not hold them.
"""

from dicetower.core import games
from dicetower.core.actions import draws_dice
from dicetower.core.game import Refused
from dicetower.ui.flow import DICE_SCREEN, rolls_six_dice
from dicetower.ui.modes import FORM, NOTICE, SETUP

# A game of dice's sealed dice, in the order they import one another (a Pico holds core/drbg.py already).
# Not ui/resealing.py, the seal's moments: the press that starts the game imports it once the set-up's
# modules are let go (fetched with them, it took the Battlerealm example's lowest heap down by 6 KB).
SEALING = ("dicetower.core.drbg", "dicetower.core.sealed", "dicetower.ui.sealing")


def choose_game(app, kind):
    """A new game of `kind` chosen on the start menu: to its count screen, drawn from the games'
    registry. The game's module, its set-up and what its start will import are imported meanwhile at
    idle, one module a loop pass (App.think): at this press, or at the press that starts the game,
    they kept the buttons waiting (on a Pico, Champions' module alone is 87 ms)."""
    if app.game is not None:
        app.resume = app.game  # still saved: it can be resumed until a new one starts
        app.game = None
    app.kind = kind
    app.game_module = None  # its module: `game_module_now`
    app.mode = SETUP
    app.message = ""
    set_up(app, kind)
    fetch(app, kind)


def game_module_now(app):
    """The chosen game's module, imported now if the idle passes have not come to it."""
    if app.game_module is None:
        while app._ahead and app.game_module is None:
            import_ahead(app)
        if app.game_module is None:
            app.game_module = games.game(app.kind)
    return app.game_module


def set_up(app, kind):
    """The count a new game starts from: the last one of its kind started, else the game's. The rest
    of its set-up is made ready at idle (`make_ready`): importing it at this press kept the buttons
    waiting 140 ms on a Pico."""
    from dicetower.core.games import players, setup_of

    low, high, app.count = players(kind)
    app._unready = setup_of(kind)  # the set-up module, if any
    app.setup = app.setup_rules = app.last_setup = None
    if app.setups is None:
        return
    saved, notice = app.setups().remembered()
    if notice:
        app.mode = NOTICE  # said whole, with the file's name; the start menu follows
        app.message = notice + " The set-ups start from the defaults."
    last = saved.get(app.kind)
    if isinstance(last, dict) and type(last.get("count")) is int and low <= last["count"] <= high:
        app.count = last["count"]
        app.last_setup = last.get("setup")


def make_ready(app):
    """The set-up made ready, once: at idle after the game is chosen, or at the press that needs it
    first (ui/setup.py's `ready`, in the set-up's own load unit)."""
    name, app._unready = app._unready, None
    if name is not None:
        from dicetower.ui.setup import ready

        ready(app, name)


def open_setup(app, path=None):
    """Hold B on the player count: the set-up's rows (a game with more than a count to set up); with
    `path`, on the row of that value (what a start refused)."""
    make_ready(app)
    if app.setup is None:
        return
    if app.form is None:
        from dicetower.ui.setup import SetupForm

        app.form = SetupForm(app)
    if app.mode != FORM:
        app.form.open()
    if path is not None:
        app.form.choose(path)
    app.mode = FORM


def most(app):
    """The most players the chosen game seats: its registry's, or fewer if its set-up says so (a
    heroes.json of 3 heroes seats 3: core/games/battlerealm_setup.py's `most`)."""
    high = games.players(app.kind)[1]
    limit = getattr(app.setup_rules, "most", None)
    return high if limit is None else min(high, limit(app.options))


def start_game(app):
    """The set-up started: the new game, and its set-up remembered for the next one. The set-up's
    `start` makes every check the tracker's start makes (one function, called by both): a refusal keeps
    the form, on the row it names, and says why."""
    make_ready(app)
    if app.mode == NOTICE:
        return  # a presets file refused just now: said first
    if app.setup is None:
        game = game_module_now(app).new_game(app.count, app.options)
        remember(app)
    else:
        try:
            made = app.setup_rules.start(app.count, app.setup, app.options)
        except Refused as e:
            if e.path is not None or app.mode == FORM:
                open_setup(app, e.path)
            raise
        remember(app)  # before it is let go: should the tracker refuse it, it comes back (below)
        app._set_down()  # its module let go before the game's comes in (core/games/__init__.py)
        try:
            game = game_module_now(app).TRACKER.setup(*made)
        except Refused:
            # The set-up's start let it pass (a check missing there): the form back as it was.
            set_up(app, app.kind)
            make_ready(app)
            if app.mode != NOTICE:
                open_setup(app)
            raise
    app.begin(game, new=True)


def remember(app):
    if app.setups is not None:
        app.setups().remember(app.kind, app.count, app.setup)


def fetch(app, kind):
    """Import at idle, one a pass, what a game of `kind` will need: what its line in the games'
    registry lists (`begin` lets go of what games of other kinds needed). What it needed only to be
    set up or read (its LET_GO) is let go now: the game is chosen, or read at power-up."""
    import sys

    from dicetower.core.game import let_go
    from dicetower.core.games import fetched as listed

    let_go(kind)

    name = "dicetower.core.games." + kind
    app._held.setdefault(kind, [])
    app._ahead_kind = kind
    ahead = listed(kind)
    app._ahead = [m for m in ahead if m not in sys.modules]
    if name in sys.modules:
        fetched(app, sys.modules[name])
    if "dicetower.core.work_arrays" not in ahead and app.turn is None:
        # The advisor's work arrays (core/work_arrays.py) are a Battlerealm game's alone: a
        # game chosen or resumed that does not advise lets them go, and a Battlerealm game chosen
        # after makes them again (its registry line). Not while a Battlerealm turn holds them,
        # whatever sys.modules says.
        from dicetower.core.game import release

        release("dicetower.core.work_arrays")


def fetched(app, rules):
    """A chosen game's module is in: it is the game's rules, and the dice's screens are next if its
    menu rolls six dice (ui/dice_screen.py)."""
    import sys

    if app.game_module is None and rules.TRACKER.KIND == app.kind:
        app.game_module = rules  # the game chosen (at power-up, a saved game's module: not yet chosen)
    if rolls_six_dice(rules.MENU) and DICE_SCREEN not in sys.modules and DICE_SCREEN not in app._ahead:
        app._ahead.append(DICE_SCREEN)
    if draws_dice(rules.MENU):  # its sealed dice (ui/sealing.py): not imported by the press that starts it
        for name in SEALING:
            if name not in sys.modules and name not in app._ahead:
                app._ahead.append(name)


def import_ahead(app):
    """The next module a chosen game will need, and note what it imported (for App._let_go)."""
    import sys

    before = set(sys.modules)
    name = app._ahead.pop(0)
    module = __import__(name, None, None, ["_"])
    held = app._held.setdefault(app._ahead_kind, [])
    held.extend([m for m in sys.modules if m not in before])  # and what it imported
    if name == "dicetower.core.games." + app._ahead_kind:
        fetched(app, module)
