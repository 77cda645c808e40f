"""Battlerealm's dice on the box: the dice screen, the mark screen and the result, over core/games/battlerealm/turn.py.

Three screens (ui/screens.py's Screen): `Dice` (pick dice, re-roll, aim, move, finalize), `Mark` (the
heroes an Explosion hits) and `Result` (the whole result, in pages). They turn presses into the `Turn`'s
calls (App.turn, made with this module at the first Battlerealm game), move the cursor, start the
ring's animations and tell the console; the rules (what a roll pays, the Warehouse, the Prison) are
the Turn's. Imported at the first Battlerealm game only.
"""

from dicetower.core.dice import DICE, SYMBOLS
from dicetower.core.names import short_name, short_names
from dicetower.core.games.battlerealm import has_lucky
from dicetower.core.games.battlerealm.turn import ADVISOR_MODULES, LUCKY_MODULES, Turn  # noqa: F401 (Turn: App's)
from dicetower.ui import icons
from dicetower.ui.canvas import COLUMNS, cut, wrap
from dicetower.ui.screens import Pages, Play, Screen, draw_list, draw_message

# The dice screen's cursor: dice 0-5, then these (Finalize last: A from die 1 reaches it).
REROLL = DICE
LUCKY = DICE + 1
TARGET = DICE + 2
PLACE = DICE + 3
FINALIZE = DICE + 4


def begin(app, game):
    from dicetower.core.games.battlerealm.roster import in_play

    turn = app.turn
    turn.game = game
    turn.seal = app.sealing
    turn.heroes = in_play(app.options, [hero["name"] for hero in game.state["heroes"]])  # the others go
    if not has_lucky(game.state["heroes"]):
        for name in reversed(LUCKY_MODULES):  # loaded for a Lucky hero of the roster or an earlier game: the
            app.scope_of(game.KIND).drop(name)  # game's heap now (lucky imports lucky_tables: it goes first)
    elif app.ahead is not None:
        # Lucky's search is machine code (lucky_tables.py), each function a block of its own: loaded at the
        # first Lucky roll, a Pico's heap cut up by the game's presses had no such block for it
        # (MemoryError with 54 KB free in pieces of 3.4 KB at most). Loaded ahead when the game was chosen
        # (its descriptor's `ahead_of`), or now, one an idle pass (a game resumed), with the advisor's.
        app.ahead.queue(ADVISOR_MODULES + LUCKY_MODULES)


def resume(app):
    """A game read from flash: a roll thrown at its place and not recorded comes back as it landed, on
    the dice screen (unrecorded: the game is sealed afresh after, ui/sealing.py)."""
    turn = app.turn
    if turn.game.state["rolled"] or turn.game.landed.get(turn.key()) is None:
        return
    turn.start(app.dice, told=False)
    app.cursor = 0
    app.show(Dice(app))
    app.message = turn.message


def roll(app):
    """Roll the dice: the hero's turn on the dice screen."""
    turn = app.turn
    turn.start(app.dice)
    app.cursor = 0
    app.show(Dice(app))
    app.animate("roll")
    app.message = turn.message
    app.emit({"event": "roll", "hero": turn.active_name(), "at": turn.game.place(), "faces": list(turn.roll.symbols())})


class Dice(Screen):
    MODE = "dice"

    def press(self, button, kind):
        app = self.app
        turn = app.turn
        if button != "c":
            app.step(button, FINALIZE + 1)
            if app.cursor == LUCKY and "Lucky" not in turn.roll.abilities:
                app.step(button, FINALIZE + 1)  # Lucky's re-roll is offered to a Lucky hero only
            return
        cursor = app.cursor
        if cursor < DICE:
            if not turn.pick(cursor):
                app.message = turn.message
            return
        if cursor == TARGET:
            turn.aim()
        elif cursor == PLACE:
            turn.move()
            app.message = turn.message
        elif cursor == REROLL or cursor == LUCKY:
            turn.roll.dice = app.dice  # the game's dice now (sealed afresh since the roll, perhaps)
            dice = turn.reroll() if cursor == REROLL else [turn.lucky()]
            app.animate("roll")
            app.message = turn.message
            event = {"event": "reroll", "dice": [d + 1 for d in dice], "at": turn.game.place()}
            if cursor == LUCKY:
                event["lucky"] = True
            event["faces"] = list(turn.roll.symbols())
            app.emit(event)
        elif turn.needs_marks():
            app.show(Mark(app))
            app.cursor = 0
            app.message = turn.message
        else:
            _record(app)

    def back(self):
        self.app.message = "The dice are rolled: finalize them to go on."

    def draw(self, canvas):
        _draw_dice(self.app, self.app.turn, canvas)


class Mark(Screen):
    """An Explosion: the heroes at the roller's location are marked, then Done."""

    MODE = "mark"

    def press(self, button, kind):
        app = self.app
        items = app.turn.mark_items()
        if button != "c":
            return app.step(button, len(items) + 1)
        if app.cursor < len(items):
            app.turn.mark(items[app.cursor])
        else:
            _record(app)

    def back(self):
        # The dice are rolled: back to them, not away from them.
        self.app.show(Dice(self.app))
        self.app.cursor = FINALIZE

    def draw(self, canvas):
        _draw_dice(self.app, self.app.turn, canvas)


class Result(Pages):
    """The whole result of a roll, in pages (A/B); C back to the play menu."""

    MODE = "result"

    def read(self):
        self.app.show(Play(self.app))
        self.app.cursor = 0

    def back(self):
        self.app.show(Play(self.app))


def _record(app):
    turn = app.turn
    outcome = turn.finalize()
    app.show(Play(app))
    app.cursor = 0
    if outcome.explosion:
        app.animate("explosion")
    if outcome.prison:
        app.animate("prison")
    recorded = turn.record(outcome)
    app.message = turn.message
    if not recorded:
        return
    if not turn.game.over():
        app.show(Result(app))  # the whole result on its own screen, pages with A/B
        app.page = 0
    if outcome.explosion:
        app.emit({"event": "explosion", "damage": outcome.explosion})
    if outcome.prison:
        app.emit({"event": "prison"})


# Under each die: L locked, ^ picked to re-roll (the die boxed too, see _picked), * the advice re-rolls
# it (! with Lucky). Made once: a string made per redraw costs a qstr lookup each on MicroPython.
_MARKS = tuple(
    ("L" if m & 1 else " ") + ("^" if m & 2 else " ") + ("!" if m & 8 else "*" if m & 4 else " ") for m in range(12)
)


def _draw_dice(app, turn, canvas):
    from dicetower.core.games.battlerealm.cards import (
        LOCATIONS,
        SHORT_NAMES,
    )  # loaded with the dice anyway: Battlerealm only

    roll = turn.roll
    canvas.line(
        0,
        "%s  re-rolls %d%s" % (short_name(turn.active_name(), 10), roll.rerolls_left, " L" if roll.lucky_left else ""),
    )
    faces = roll.faces  # indices into SYMBOLS: the names are made only for the line that shows one
    for die in range(6):
        x = die * 21 + 2
        symbol = faces[die]
        chosen = app.mode == "dice" and app.cursor == die
        canvas.icon(x, 1, icons.SYMBOL_ICONS[symbol], invert=chosen)
        picked = turn.picked & (1 << die)
        mark = (1 if roll.locked[die] else 0) + (2 if picked else 0)
        if turn.advised & (1 << die) and app.mode == "dice":
            mark += 8 if turn.advice.lucky == die else 4  # the advice: re-roll it (! with Lucky)
        canvas.text(x + 1, 3, _MARKS[mark])
        if picked:
            _picked(canvas, x)
    if app.mode == "mark":
        # The prompt whole (two lines: "Explosion 1: mark the" / "heroes at your location."), then each
        # hero with where the game has them, to mark those at the roller's location.
        heroes = app.game.state["heroes"]
        short = short_names([h["name"] for h in heroes], 8)  # as the status lines name them
        names = [
            "[%s] %-8s %s"
            % (
                "x" if turn.marked & (1 << i) else " ",
                short[i],
                SHORT_NAMES[heroes[i]["place"]],
            )
            for i in turn.mark_items()
        ] + ["Done"]
        said = wrap(app.message)[:2]
        for row in range(len(said)):
            canvas.line(4 + row, said[row])
        draw_list(canvas, 4 + len(said), names, app.cursor)
        return
    aim = turn.target_name()
    if app.cursor == TARGET:
        label = "Aim: " + aim
    elif app.cursor == PLACE:
        label = "At: " + SHORT_NAMES[LOCATIONS.index(turn.place())]
    elif app.cursor >= DICE:
        label = ("Re-roll picked", "Lucky re-roll", "", "", "Finalize")[app.cursor - DICE]
    else:
        label = "Die %d: %s" % (app.cursor + 1, SYMBOLS[faces[app.cursor]])
    canvas.line(4, cut(label), invert=True)
    advice = turn.advice
    if advice is None:
        if turn.thinking():  # the dice are shown at once; their chance follows when worked out
            canvas.line(5, aim[: COLUMNS - 4] + " ...")
            draw_message(canvas, 6, app.message)
        else:
            draw_message(canvas, 5, app.message)
        return
    # The advice at a glance: the aim and its chance, then the chance of the Crystal Prison or an
    # Explosion on the way (while the message leaves a line for it); the dice to re-roll are marked *
    # above (! for Lucky's re-roll) and blink on the ring.
    tail = " %d%%" % advice.percent()
    canvas.line(5, aim[: COLUMNS - len(tail)] + tail)
    risk = advice.percent(risk=True)
    if risk and len(wrap(app.message)) < 2:
        canvas.line(6, "Prison or Explosion %d%%" % risk)
        draw_message(canvas, 7, app.message)
    else:
        draw_message(canvas, 6, app.message)


def _picked(canvas, x):
    """A die picked for the re-roll, boxed: a frame round its icon (from x) standing on its marks,
    which become a lit bar (bit 7 left dark, so the bar stays apart from the line below)."""
    canvas.paint(0, x - 2, x + 18, 0x80)  # the top, in the gap under line 0's letters
    for page in (1, 2):
        canvas.paint(page, x - 2, x - 1, 0xFF)
        canvas.paint(page, x + 17, x + 18, 0xFF)
    canvas.paint(3, x - 2, x + 18, 0x7F, flip=True)
