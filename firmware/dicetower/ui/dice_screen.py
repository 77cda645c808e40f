"""Battlerealm's dice on the box: the dice screen, the mark screen and the result, over core/turn.py.

`DiceScreen(app)` turns the presses of those modes into the `Turn`'s calls,
moves the cursor and the mode, starts the ring's animations and tells the
console; the rules (what a roll pays, the Warehouse, the Prison) are the
Turn's. Imported at the first Battlerealm game only.
"""

from dicetower.core.dice import DICE
from dicetower.core.turn import Turn
from dicetower.ui.modes import DICE_MODE, FINALIZE, LUCKY, MARK, PLACE, PLAY, REROLL, RESULT, TARGET


class DiceScreen:
    def __init__(self, app):
        self.app = app
        self.turn = Turn(app.acted, app.save)

    def begin(self, game):
        from dicetower.core.roster import in_play

        self.turn.game = game
        self.turn.heroes = in_play(self.app.options, [hero["name"] for hero in game.state["heroes"]])

    def start(self):
        app = self.app
        turn = self.turn
        turn.start(app.dice)
        app.cursor = 0
        app.mode = DICE_MODE
        app.animate("roll")
        app.message = turn.message
        app.emit({"event": "roll", "hero": turn.active_name(), "faces": list(turn.roll.symbols())})

    def on_dice(self, button, kind):
        app = self.app
        turn = self.turn
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
        elif cursor == REROLL:
            dice = turn.reroll()
            app.animate("roll")
            app.message = turn.message
            app.emit({"event": "reroll", "dice": [d + 1 for d in dice], "faces": list(turn.roll.symbols())})
        elif cursor == LUCKY:
            die = turn.lucky()
            app.animate("roll")
            app.message = turn.message
            app.emit({"event": "reroll", "dice": [die + 1], "lucky": True, "faces": list(turn.roll.symbols())})
        elif turn.needs_marks():
            app.mode = MARK
            app.cursor = 0
            app.message = turn.message
        else:
            self._record()

    def on_mark(self, button, kind):
        app = self.app
        items = self.turn.mark_items()
        if button != "c":
            return app.step(button, len(items) + 1)
        if app.cursor < len(items):
            self.turn.mark(items[app.cursor])
        else:
            self._record()

    def _record(self):
        app = self.app
        turn = self.turn
        outcome = turn.finalize()
        app.mode = PLAY
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
            app.mode = RESULT  # the whole result on its own screen, pages with A/B
            app.page = 0
        if outcome.explosion:
            app.emit({"event": "explosion", "damage": outcome.explosion})
        if outcome.prison:
            app.emit({"event": "prison"})

    def on_result(self, button, kind):
        app = self.app
        if not app.turn_page(button):
            app.mode = PLAY
            app.cursor = 0
