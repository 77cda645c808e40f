"""A game's set-up, row by row: heroes, hit points, villain, scheme, mode (hold B on the player count).

The game's set-up module (core/games/<game>/setup.py, if its registry line has a hold-B line) gives the rows and
makes the game:
  setup_default(options)              the set-up a first game starts from: a dict of JSON values, its
                                      lists of fixed length (a remembered set-up must have its shape)
  setup_rows(setup, count, options)   (label, path, detail) for each row: `path` the keys to the value
                                      in `setup`, `detail` (low, high) for a number or a list of
                                      (label, value) choices
  setup_changed(setup, path, options) (optional) a value changed: what follows from it
  summary(setup, count)               what the count screen's C starts, in a line ("Kang: Spider-Man,
                                      She-Hulk, Iron Man"): cut with a mark, the whole on the form
  start(count, setup, options)        the arguments of the game's TRACKER.setup, having made every
                                      check that setup makes (the same functions): Refused saying what
                                      cannot be, its `path` the row to change. The form is forgotten only
                                      after it (the game's module is imported once this one is)
  most(options)                       (optional) the most players the set-up can seat, when fewer than
                                      the registry's (a roster of 3 heroes)
  prepare(options)                    (optional) what the rows will read from flash, read now: True if
                                      there was any (ui/flow.py's `think` gives it an idle pass of its
                                      own before make_ready's: Battlerealm's roster, 5.8 KB of JSON)
This only steps through the rows, as ui/picker.py does through an action's values. The first row starts
the game. A/B move; C takes the row: then A/B change its value (held: ten at a time), C keeps it.
"""

from dicetower.core.game import Refused, said
from dicetower.core.games import label as game_label
from dicetower.core.games import players
from dicetower.ui.canvas import CHAR, COLUMNS, MARGIN, cut, wrap
from dicetower.ui.screens import Screen

START_ROW = "Start the game"
SHOWN = 6  # rows on the panel, between the title and the hint


def value_at(setup, path):
    for key in path:
        setup = setup[key]
    return setup


def put(setup, path, value):
    for key in path[:-1]:
        setup = setup[key]
    setup[path[-1]] = value


def fits(value, like, depth=6):
    """Whether a remembered set-up (a hand-edited setup.json too) has the default's shape: the same
    keys, lists of the same length, values of the same types. The rows and `start` check the values."""
    if depth < 0:
        return False
    if isinstance(like, dict):
        if not isinstance(value, dict):
            return False
        for key in like:
            if key not in value or not fits(value[key], like[key], depth - 1):
                return False
        return True
    if isinstance(like, list):
        if not isinstance(value, list) or len(value) != len(like):
            return False
        for i in range(len(like)):
            if not fits(value[i], like[i], depth - 1):
                return False
        return True
    return type(value) is type(like)  # True is not taken for 1, nor 1 for "1"


def make_ready(app):
    """The set-up's module (its name in `app.unready`), its default, the user's presets and the
    remembered set-up, into the app, once: at idle after the game is chosen, or at the press that needs
    it first. A remembered set-up of another shape or with a value out of its row's range (an older
    firmware, a hand edit) is not used, nor its count; one out of range is said, setup.json kept aside."""
    name, app.unready = app.unready, None
    rules = app.setup_module = app.setting_up().load(name)
    app.setup = rules.setup_default(app.options)
    presets = getattr(rules, "PRESETS", None)
    if presets is not None and app.setups is not None:
        app.options["presets"], notice = app.setups().load(presets, rules.load_presets, aside=False)
        if notice:  # said whole, then back to the set-up it interrupted
            app.notice(notice + " The built-in presets are offered.", app.screen)
    if app.last_setup is not None:
        # Another shape (an older firmware's) is not used, silently; a value out of range is said.
        wrong = (
            "" if not fits(app.last_setup, app.setup) else out_of_range(app.last_setup, app.count, rules, app.options)
        )
        if wrong is None:
            app.setup = app.last_setup
        else:
            app.count = players(app.kind)[2]
            if wrong and app.mode != "notice" and app.setups is not None:
                # Said whole; setup.json is kept aside, so it is said once.
                app.notice(app.setups().refuse("the last %s set-up has %s" % (game_label(app.kind), wrong)), app.screen)
            app.changed = True
        app.last_setup = None
    high = app.choosing.most()
    if high < players(app.kind)[1]:
        app.count = min(app.count, high)
        app.changed = True  # the count screen says the roster's range


def out_of_range(setup, count, rules, options):
    """What of a remembered set-up of the right shape its rows cannot show ("Villain stages 5"), or None:
    every number within its row's range, every choice one the row offers."""
    try:
        for label, path, detail in rules.setup_rows(setup, count, options):
            value = value_at(setup, path)
            if isinstance(detail, tuple):
                if type(value) is int and detail[0] <= value <= detail[1]:
                    continue
            elif value in [choice for _, choice in detail]:
                continue
            return "%s %s" % (label, said(value))
    except (IndexError, KeyError, TypeError, ValueError):
        return "a value its rows cannot show"
    return None


def _shown(value, detail):
    if isinstance(detail, tuple):
        return str(value)
    for label, choice in detail:
        if choice == value:
            return label
    return str(value)


class SetupForm(Screen):
    MODE = "form"

    def __init__(self, app):
        self.app = app
        self.editing = False
        self._rows = None  # the rows as last made: made again only when a value changes

    def rows(self):
        if self._rows is None:
            app = self.app
            self._rows = app.setup_module.setup_rows(app.setup, app.count, app.options)
        return self._rows

    def choose(self, path):
        """The cursor on the row of the value at `path` (what a start refused), if it shows."""
        rows = self.rows()
        for i in range(len(rows)):
            if tuple(rows[i][1]) == tuple(path):
                self.app.cursor = i + 1
                self.editing = False

    def open(self):
        self.editing = False
        self._rows = None
        self.app.cursor = 0

    def back(self):
        """Hold C: a value being changed is kept; else back to the player count."""
        if self.editing:
            self.editing = False
        else:
            self.app.choosing.count()

    def press(self, button, kind):
        app = self.app
        rows = self.rows()
        if not self.editing:
            if button != "c":
                return app.step(button, len(rows) + 1)
            if app.cursor == 0:
                return app.choosing.start()
            self.editing = True
            return
        if button == "c":
            self.editing = False
            return
        label, path, detail = rows[(app.cursor - 1) % len(rows)]
        ahead = 1 if button == "b" else -1
        value = value_at(app.setup, path)
        if isinstance(detail, tuple):
            low, high = detail
            new = value + ahead * (10 if kind == "long" else 1)
            if not low <= new <= high:
                put(app.setup, path, max(low, min(high, new)))
                self._rows = None
                raise Refused("%s: %d to %d." % (label, low, high))
        else:
            values = [choice for _, choice in detail]
            new = values[((values.index(value) + ahead) if value in values else 0) % len(values)]
        put(app.setup, path, new)
        self._rows = None
        changed = getattr(app.setup_module, "setup_changed", None)
        if changed is not None:
            changed(app.setup, path, app.options)

    def draw(self, canvas):
        app = self.app
        rows = self.rows()
        items = [START_ROW] + ["%s: " % label for label, _, _ in rows]
        canvas.line(0, "Set up " + game_label(app.kind), invert=True, centre=True)
        # What was refused (a value's range, a start the tracker cannot hold) whole below the rows.
        said = (
            wrap(app.message)[:3]
            if app.message
            else ["A - B + (hold: 10) C keep" if self.editing else "C: choose  Hold C: back"]
        )
        shown = SHOWN + 1 - len(said)
        cursor = app.cursor % len(items)
        first = 0 if cursor < shown else cursor - shown + 1
        for row in range(shown):
            i = first + row
            if i >= len(items):
                canvas.line(1 + row, "")
                continue
            head = items[i]
            value = "" if i == 0 else _shown(value_at(app.setup, rows[i - 1][1]), rows[i - 1][2])
            if i == cursor and self.editing:  # the value A and B change, lit on its own
                canvas.line(1 + row, head)
                canvas.text(MARGIN + len(head) * CHAR, 1 + row, cut(value, COLUMNS - len(head)), invert=True)
            else:
                canvas.line(1 + row, cut(head + value), invert=(i == cursor))
        for row in range(len(said)):
            canvas.line(1 + shown + row, said[row])
