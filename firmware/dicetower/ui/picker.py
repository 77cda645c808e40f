"""The values an action needs, picked one at a time with A/B and C (the game's menu: core/actions.py).

`Picker(app, action)` is the screen that asks for them (App.pick): it asks for the first value the
player picks, fills in what the game and the box give, and does the action once every value is
known. Made for one action, dropped with it. The choices come from core/actions.py; this only steps
through them.
"""

from dicetower.core import actions
from dicetower.core.dice import ATTACK, DANGER_COIN, Die
from dicetower.core.game import Refused
from dicetower.ui.canvas import cut
from dicetower.ui.screens import Play, Screen, draw_message_and_hint, draw_status


# What the presses do while a value is picked: C ok, a hold of C back; a hold of A or B steps a number
# ten, never an undo (the play menu's hold).
HINT = "A/B pick  C ok/back"
NUMBER_HINT = "A- B+ hold:10 C ok/back"


class Picker(Screen):
    MODE = "args"

    def __init__(self, app, action):
        self.app = app
        self.action = action  # (label, name, args) being filled in
        self.values = [None] * len(action[2])
        self.asking = 0  # the arg being picked
        self.choice = 0  # its option under the cursor

    def choices(self, arg):
        """The (label, value) pairs an argument offers, from the game's state."""
        return actions.choices(self.app.game.state, arg, self.values)

    def ask(self, start):
        """Ask for the next value the player picks; roll what the box rolls; then do it."""
        app = self.app
        label, name, args = self.action
        state = app.game.state
        for i in range(start, len(args)):
            kind = args[i][1]
            if kind == actions.FIXED:
                self.values[i] = args[i][2]
            elif kind == actions.NAMED:
                self.values[i] = args[i][2](state)
            elif actions.asks(kind):
                try:
                    options = self.choices(args[i])
                except Refused:
                    app.show(Play(app))  # nothing to pick (no open battle...): the game says why, at once
                    raise
                if not options and kind == actions.PICK_IF:
                    self.values[i] = None
                    continue
                if not options:
                    app.show(Play(app))
                    raise Refused("Nobody to choose for %s." % args[i][0])
                self.asking = i
                self.choice = actions.first_choice(state, args[i], options)
                if app.screen is not self:
                    app.show(self)
                return
        for i in range(len(args)):  # the box's own throws come last, each at the game's place (core/game.py)
            kind = args[i][1]
            if kind == actions.ROLL_ATTACK:
                die = Die(ATTACK.name, state.get("faces") or ATTACK.faces)  # a Die: set faces can name its faces
            elif kind == actions.FLIP_COIN:
                die = DANGER_COIN
            else:
                continue
            self.values[i] = die.faces[app.game.throw(die, app.dice, app.sealing)]
        app.show(Play(app))
        app.do(name, self.values)

    def press(self, button, kind):
        app = self.app
        arg = self.action[2][self.asking]
        options = self.choices(arg)
        if not options:
            app.show(Play(app))
            raise Refused("Nobody to choose for %s." % arg[0])
        if button == "a" or button == "b":
            step = -1 if button == "a" else 1
            if kind == "long" and arg[1] == actions.NUMBER:
                self.choice = min(max(0, self.choice + 10 * step), len(options) - 1)  # ten at a time, to an end
            else:
                self.choice = (self.choice + step) % len(options)
        else:
            self.values[self.asking] = options[self.choice % len(options)][1]
            self.ask(self.asking + 1)

    def back(self):
        self.app.show(Play(self.app))
        self.app.message = "Cancelled."

    def draw(self, canvas):
        """The play screen's layout, so that choosing a value redraws one line: the game's status, then
        what is being chosen, then the last message."""
        app = self.app
        used = draw_status(app, canvas, 4)
        arg = self.action[2][self.asking]
        options = self.choices(arg)
        canvas.line(used, cut("%s: %s" % (arg[0], options[self.choice % len(options)][0])), invert=True)
        draw_message_and_hint(canvas, used + 1, app.message, NUMBER_HINT if arg[1] == actions.NUMBER else HINT)
