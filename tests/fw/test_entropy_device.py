"""Dice whose noise fails mid-game, on the bench: what the OLED says, the retries, the dice coming back.
Runs on CPython and the MicroPython VM."""

import os
import unittest

from dicetower.core.dice import D6
from dicetower.core.entropy import EntropyFailure, FairDice
from sources import Noise
from table import Table, _root
from tower import Tower


class NoiseTable(Table):
    """The tower on the bench with dice over a noise source (the DRBG path), not seeded ones."""

    def __init__(self, source):
        root = _root()
        for name in ("game.sav", "config.json", "errors.log", "dice.json"):
            try:
                os.remove(root + name)
            except OSError:
                pass
        self.noise = source
        Tower.__init__(self, root, "pico", FairDice(source))


def paused_game():
    """A Battlerealm game for two whose noise sticks after a few rolls; the next roll is refused."""
    t = NoiseTable(Noise(5))
    t.presses("c a a c")  # New Battlerealm, 2 heroes, start
    t.noise.broken = b"\x07"
    dice = t.device.dice
    for _ in range(3000):  # rolls until the noise is read again (at the DRBG's next reseed)
        if dice.failure is not None:
            break
        t.wait(10)  # the loop makes the next bytes at idle
        try:
            dice.draw(D6)
        except EntropyFailure:
            break
    t.presses("c")  # Roll the dice
    return t


class PausedDice(unittest.TestCase):
    def test_the_screen_says_what_to_do_and_when_the_dice_are_back(self):
        t = paused_game()
        screen = t.screen()
        self.assertEqual(t.app.mode, "play")  # no roll: the game waits
        self.assertEqual(screen[5:8], ["Dice paused, retrying:", "restart if it persists.", "Noise failed its test."])
        error = t.events("entropy")[-1]["error"]
        self.assertIn("noise failed its health check: repetition count test", error)  # the whole reason
        t.noise.broken = None  # the noise recovers
        t.wait(1500)  # the loop tries the start-up test again 1 s after the failure
        self.assertIsNone(t.device.dice.failure)
        self.assertEqual(t.screen()[5:7], ["Dice back: the noise", "passes its tests again."])
        self.assertEqual(t.events("entropy")[-1]["back"], "noise")  # and the console
        t.presses("c")  # Roll the dice: they roll
        self.assertEqual(t.app.mode, "dice")

    def test_presses_are_answered_while_the_dice_retry(self):
        t = paused_game()
        t.wait(8000)  # tries after 1, 2 and 4 s: the noise is still stuck
        self.assertTrue(t.device.dice.retries >= 3, t.device.dice.retries)
        self.assertIsNotNone(t.device.dice.failure)
        before = t.screen()[4]
        t.presses("b")  # the next item of the game's menu
        self.assertNotEqual(t.screen()[4], before)
        self.assertEqual(t.screen()[5], "Dice paused, retrying:")


if __name__ == "__main__":
    unittest.main()
