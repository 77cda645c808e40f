"""The cut of a seal on the OLED (ui/sealing.py): shown after the commitment and before the first die, it
counts the phones that have cut the seal (their page sends 128 random bits by itself) and lets the
players add a number with the buttons; "Cut and play" closes the cut, with whatever it holds (nothing:
an empty cut, said as such). The screen lives as long as the cut is open.

  rows      A / B move, C chooses: "Cut and play", "Enter a number"
  a number  A one less, B one more (the digit under the mark), C the next digit; hold C leaves it
"""

from dicetower.core.sealed import NUMBER_DIGITS
from dicetower.ui.screens import draw_list

ROWS = ("Cut and play", "Enter a number")


class CutScreen:
    def __init__(self, sealing):
        self.sealing = sealing
        self.digits = None  # the number being entered, a digit a place, or None
        self.at = 0  # the digit being entered
        self.number = None  # the number entered, once every digit is
        self.said = ""  # a word for the players, on the line above the keys

    def press(self, button, kind):
        app = self.sealing.app
        digits = self.digits
        if digits is not None:
            if button == "c":
                self.at += 1
                if self.at == NUMBER_DIGITS:
                    self.number = int("".join(["%d" % d for d in digits]))
                    self.digits = None
                    app.cursor = 0
            else:
                digits[self.at] = (digits[self.at] + (1 if button == "b" else -1)) % 10
            return
        if button != "c":
            return app.step(button, len(ROWS))
        if app.cursor % len(ROWS) == 0:
            self.sealing.cut(self.number)
        else:
            self.digits = [0] * NUMBER_DIGITS
            self.at = 0

    def back(self):
        """Hold C: out of the number being entered; the cut itself stays until it is made."""
        if self.digits is not None:
            self.digits = None
        else:
            self.said = "First the cut: C on Cut."

    def draw(self, canvas):
        sealing = self.sealing
        dice = sealing.dice
        canvas.line(0, "Seal " + dice.commitment[:16])
        canvas.line(1, "Cut it before the dice:")
        phones = len(sealing.phones)
        canvas.line(2, "phones: %d" % phones if phones else "phones: none yet")
        if self.digits is not None:
            canvas.line(3, "number: " + " ".join(["%d" % d for d in self.digits]))
            canvas.line(4, " " * (8 + 2 * self.at) + "^")
            canvas.line(7, "A- B+ digit  C: next", invert=True)
            return
        canvas.line(3, "number: none" if self.number is None else "number: %d" % self.number)
        draw_list(canvas, 4, ROWS, sealing.app.cursor % len(ROWS), 6)
        canvas.line(6, self.said)
        canvas.line(7, "A/B move  C: choose", invert=True)
