"""A new game is one package and one line: a toy game added by the checklist (tests/fw/toy_game.py) is on
the start menu, sets up by its count, plays by the buttons with its own menu, status and gauge, undoes,
shows its table, is saved and resumes after a power cut, is explained on Settings -> Help, ends on its game over and shows
on the phones' page, with no other change to the firmware. CPython and the VM."""

import unittest

import toy_game

from dicetower.core import games
from dicetower.web.scoreboard import snapshot
from table import Table


class ToyGame(unittest.TestCase):
    def setUp(self):
        self.before = toy_game.register()

    def tearDown(self):
        toy_game.unregister(self.before)

    def test_a_registered_game_is_set_up_played_saved_and_resumed_by_the_buttons(self):
        t = Table(seed=2)
        items = [label for label, _ in t.app.menus.start_items(t.app)]
        self.assertEqual(items[: len(games.GAMES)], ["New " + label for label, *_ in games.GAMES])
        self.assertEqual(items[len(games.GAMES) - 1], "New Toy")
        t.presses("b" * (len(games.GAMES) - 1) + "c")  # New Toy: its count screen, from its line
        self.assertEqual(t.screen()[0].strip(), "New Toy")
        self.assertIn("Players (1-4):", t.screen())
        t.presses("c")  # two players, the line's default
        self.assertEqual(t.app.kind, "toy")
        self.assertEqual(t.screen()[0], "P1:0 P2:0")  # its status() on the OLED
        self.assertEqual(t.screen()[4], "Score")  # its MENU
        t.presses("c b c b c")  # Score: P2, 2 points
        self.assertEqual(t.app.game.state["heroes"][1]["points"], 2)
        self.assertIn("P2 +2 (2).", " ".join(t.screen()))
        self.assertEqual(t.screen()[0], "P1:0 P2:2")
        t.presses("b c")  # The table: the last line said, then its table.py's parts, a page each
        self.assertEqual((t.app.mode, t.screen()[7]), ("table", "A/B said 1/1  C back"))
        t.presses("b b")
        self.assertEqual((t.screen()[0], t.screen()[7]), ("P2: 2 points.", "A/B player 2/2  C back"))
        t.presses("c a")  # back to the play menu, on Score
        self.assertEqual((t.app.mode, t.screen()[4]), ("play", "Score"))
        t.presses("A")  # hold A: undo
        self.assertEqual(t.app.game.state["heroes"][1]["points"], 0)
        t.presses("B")  # hold B: redo
        t.wait(200)  # the loop's passes write the save
        again = Table(seed=2, root=t.root, keep_files=True)  # the power cut and back
        self.assertEqual(again.app.resume.KIND, "toy")
        again.presses("c")  # Resume Toy
        self.assertEqual(again.app.game.state["heroes"][1]["points"], 2)
        self.assertEqual(again.screen()[0], "P1:0 P2:2")
        again.presses("c b c b b c")  # Score: P2, 3 points: 5, the goal
        self.assertEqual(again.app.mode, "over")
        self.assertIn("P2 wins.", " ".join(again.screen()))
        doc = snapshot(again.app)  # the phones' page: the game by its title and status lines
        self.assertEqual((doc["kind"], doc["title"], doc["over"]), ("toy", "The Toy Game", "P2 wins."))
        self.assertEqual(doc["status"][0], "P1:0 P2:5")
        again.presses("c")  # the game over's C: the start menu
        items = [label for label, _ in again.app.menus.start_items(again.app)]
        again.presses("b" * items.index("Settings") + "c" + "bbb c")  # Settings -> Help
        self.assertEqual(again.app.mode, "help")
        self.assertIn('Toy. "P1:3 P2:0"', " ".join(again.app.message.split()))
        again.presses("C")
        self.assertEqual(again.app.mode, "settings")
