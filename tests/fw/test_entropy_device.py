"""Dice whose noise fails mid-game, on the bench: what the OLED says, the retries, the dice coming back.
Runs on CPython and the MicroPython VM."""

import os
import unittest

from sources import Noise

from dicetower.core.dice import D6
from dicetower.core.entropy import EntropyFailure, FairDice
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
    t.presses("c")  # cut the seal
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


class Boot(unittest.TestCase):
    def test_the_start_menu_shows_before_the_dice_read_their_first_sample(self):
        # The dice's start (1024 samples of their start-up test, then the DRBG's seed) is the longest
        # work of a Pico's boot: the player sees the start menu first, and the dice are up before the
        # loop takes a press. The board's first source is stuck: the screen at its first read shows the
        # order, and the dice are on the second source once the tower says it is ready.
        from dicetower.hw.platform import MachineParts
        from table import tidy
        from tower import read_line

        seen = []

        class Stuck:
            binary = False
            min_entropy = 7
            name = "stuck noise"

            def fill(self, buf):
                if not seen:
                    panel = Watched.booting.panel
                    seen.append([read_line(panel.ram, page) for page in range(8)])
                for i in range(len(buf)):
                    buf[i] = 7

        class Watched(Tower):
            booting = None

            def __init__(self, root):
                Watched.booting = self
                Tower.__init__(self, root, "pico")

        def sources(platform):
            return Stuck(), Noise(3, name="spare noise")

        root = _root()
        tidy(root)
        board_sources = MachineParts.entropy_sources
        MachineParts.entropy_sources = sources
        try:
            t = Watched(root)
        finally:
            MachineParts.entropy_sources = board_sources
        self.assertEqual(seen[0][0], "DICETOWER")  # its first read: the start menu already on the OLED
        self.assertEqual(seen[0], t.screen())
        self.assertEqual(t.events("ready")[0]["dice"], "spare noise")  # said once they are up
        self.assertIn("stuck noise failed its health check: repetition count test", t.device.dice.switched)
        self.assertIsNone(t.device.dice.failure)
        t.presses("c a a c")  # New Battlerealm, 2 heroes, start
        t.presses("c")  # cut the seal
        t.presses("c")  # Roll the dice
        self.assertEqual(t.app.mode, "dice")


if __name__ == "__main__":
    unittest.main()


class PressTimes(unittest.TestCase):
    def test_each_press_reaches_the_dice_with_its_time(self):
        """The device gives the dice each press's time (on the bench, 1000 x the ms of the edge that made
        it; on a chip, its microseconds as the press is taken): the first roll's faces depend on when the
        players pressed, not only on the noise."""

        def first_roll(pause, stirring=True):
            t = NoiseTable(Noise(5))
            stirred = []
            stir = t.device.dice.stir
            t.device._stir = (lambda micros: (stirred.append(micros), stir(micros))) if stirring else None
            t.wait(pause)
            t.presses("c a a c")  # New Battlerealm, 2 heroes, start
            t.presses("c")  # cut the seal
            t.presses("c")  # roll
            return stirred, t.app.roll.symbols()

        stirred, faces = first_roll(1000)
        self.assertEqual(len(stirred), 6)
        self.assertTrue(all(b > a for a, b in zip(stirred, stirred[1:])), stirred)
        later, faces_later = first_roll(1001)  # the same noise, every press 1 ms later
        self.assertEqual([b - a for a, b in zip(stirred, later)], [1000] * 6)
        self.assertNotEqual(faces, faces_later)
        # Without the presses' times the same noise gives the same faces, whenever they came.
        self.assertEqual(first_roll(1000, stirring=False)[1], first_roll(1001, stirring=False)[1])
