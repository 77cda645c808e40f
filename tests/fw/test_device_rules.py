"""Allies, minions and Battle Cards played with the device's buttons, read off its OLED.

Runs on CPython and on the MicroPython VM.
"""

import unittest

from dicetower.ui.screens import HINT
from table import Table


def message(t):
    """The last message, under the menu line (lines 5-7 of the OLED), as one line of text; the long
    presses' hint on the last line, when the message leaves room for it, is not part of it."""
    return " ".join(line.strip() for line in t.screen()[5:] if line.strip() and line.strip() != HINT)


class ChampionsAllies(unittest.TestCase):
    def test_allies_from_play_to_a_fourth_that_discards(self):
        """Rulebook: "If you already have three and play a fourth, you immediately discard one of the previous ones." """
        t = Table(seed=2)
        t.presses("bc ac")  # New Champions, one player (P1)
        t.presses("aaaaa")  # up from the top, round to the end of the menu, past The table
        self.assertEqual(t.screen()[4].strip(), "Play ally")
        t.presses("c c b c")  # P1, 2 hit points
        self.assertEqual(message(t), "P1 plays Ally 1 (2 hit points).")
        self.assertEqual(t.screen()[3].strip(), "P1:10(2)")
        t.presses("c c b c")  # Ally 2, 2 hit points
        t.presses("c c c")  # Ally 3, 1 hit point
        self.assertEqual(t.screen()[3].strip(), "P1:10(2,2,1)")
        t.presses("c c c")  # a fourth: the device asks which of the three goes
        self.assertEqual(t.app.mode, "args")
        self.assertEqual(t.screen()[4].strip(), "Discard: Ally 1 2hp P1")
        t.presses("b")
        self.assertEqual(t.screen()[4].strip(), "Discard: Ally 2 2hp P1")
        t.presses("c")
        self.assertEqual(message(t), "P1 plays Ally 4 (1 hit point). Ally 2 is discarded.")
        self.assertEqual(t.screen()[3].strip(), "P1:10(2,1,1)")
        self.assertEqual(t.events("action")[-1]["args"], [0, "Ally 4", 1, 1])

        t.presses("b c c c")  # Damage ally: Ally 1, 1 (its consequential damage)
        self.assertEqual(message(t), "Ally 1 -1 hit point (1 left).")
        t.presses("c c c")  # again: at zero it is defeated
        self.assertEqual(message(t), "Ally 1 -1 hit point: defeated.")
        self.assertEqual(t.screen()[3].strip(), "P1:10(1,1)")
        t.presses("A")  # undo
        self.assertEqual(t.screen()[3].strip(), "P1:10(1,1,1)")

        # The game is saved with its allies: the tower, powered up again, resumes it.
        again = Table(seed=2, root=t.root, keep_files=True)
        again.presses("c")  # Resume champions
        self.assertEqual(again.screen()[3].strip(), "P1:10(1,1,1)")
        self.assertEqual(again.app.game.state["allies"], t.app.game.state["allies"])

    def test_minions_engage_and_nothing_to_pick_is_said_at_once(self):
        t = Table(seed=2)
        t.presses("bc ac")
        t.presses("aa")  # the last action, above The table (a game without dice has no seal to reveal)
        self.assertEqual(t.screen()[4].strip(), "Hit minion")
        t.presses("c")  # no minion in play: refused before any value is asked for
        self.assertEqual(t.app.mode, "play")
        self.assertEqual(message(t), "No minion in play: one enters with Minion engages.")
        t.presses("a c c" + "b" * 3 + "c")  # Minion engages: P1, 4 hit points
        self.assertEqual(message(t), "Minion 1 enters play engaged with P1 (4 hit points).")
        self.assertEqual(t.screen()[2].strip(), "Villain 14 hp M:4")
        t.presses("b c")
        self.assertEqual(t.screen()[4].strip(), "Minion: Minion 1 4hp P1")
        t.presses("c bbb c")  # 4 damage
        self.assertEqual(message(t), "Minion 1 -4 hit points: defeated.")
        self.assertEqual(t.screen()[2].strip(), "Villain 14 hp")

    def test_thwarting_a_side_scheme_when_there_is_none(self):
        t = Table(seed=2)
        t.presses("bc ac")
        t.presses("b c")  # Thwart side scheme: game area 1 ...
        t.presses("c")  # ... has none: back to the menu, saying so
        self.assertEqual(t.app.mode, "play")
        self.assertEqual(message(t), "No side scheme in play in area 1.")
        self.assertEqual(t.events("action"), [])


class BattleworldCards(unittest.TestCase):
    def test_attack_with_no_open_battle_is_refused_at_once(self):
        t = Table(seed=4)
        t.presses("bbbc c")  # New Battleworld, one starting hero
        t.presses("c")  # cut the seal
        self.assertEqual(t.screen()[4].strip(), "Attack a battle")
        t.presses("c")
        self.assertEqual(t.app.mode, "play")  # no Battle or Bonus picker first
        self.assertEqual(t.screen()[4].strip(), "Attack a battle")
        self.assertEqual(message(t), "No open battle: draw one with New battle.")
        self.assertEqual(t.events("action"), [])

    def test_a_thanostone_battle_card_and_the_charts_two_counts(self):
        """The chart's row for one starting hero: 1 Thanostone Battle Card, 4 other Battle Cards."""
        t = Table(seed=4)
        t.presses("bbbc c")  # one starting hero: 1 Thanostone Battle Card and 4 other Battle Cards
        t.presses("c")  # cut the seal
        t.presses("aaa")  # the last action, above The table and "Reveal the seed"
        self.assertEqual(t.screen()[4].strip(), "Thanostone battle")
        t.presses("c c c c")  # 1 hit, target 2, Energy
        self.assertEqual(t.events("action")[-1]["args"], ["Battle 1", 1, 2, "Energy", 1])
        t.presses("c")  # a second Thanostone Battle Card: refused before its values are asked for
        self.assertEqual(t.app.mode, "play")
        self.assertEqual(message(t), "No Thanostone Battle Card is left: the deck has 1.")
        t.presses("a")  # New battle, four times
        for _n in range(4):
            t.presses("c c c c")
        self.assertEqual(len(t.app.game.state["battles"]), 5)
        self.assertEqual(t.events("action")[-1]["args"], ["Battle 5", 1, 2, "Energy", 0])  # an other card
        t.presses("c")
        self.assertEqual(message(t), "The deck has 5 Battle Cards and all are drawn.")


if __name__ == "__main__":
    unittest.main()


class AfterAPowerCut(unittest.TestCase):
    """The new pieces are saved like everything else: the tower switched off and on resumes them."""

    def test_allies_and_minions_come_back_after_a_power_cut(self):
        t = Table(seed=2)
        t.presses("bc ac")  # New Champions, one player (P1)
        t.presses("aaaaa c c b c")  # Play ally: P1, 2 hit points
        t.presses("bb")  # Minion engages, two below Play ally
        self.assertEqual(t.screen()[4].strip(), "Minion engages")
        t.presses("c c b b c")  # P1, 3 hit points
        self.assertTrue(t.app.game.state["minions"])
        status = t.screen()[:4]
        t.wait(200)  # its save
        again = Table(root=t.root, keep_files=True)
        self.assertEqual(again.screen()[1], "Resume Champions")
        again.presses("c")
        self.assertEqual(again.app.mode, "play")
        self.assertEqual(again.screen()[:4], status)
        self.assertEqual(again.app.game.state["allies"], t.app.game.state["allies"])
        self.assertEqual(again.app.game.state["minions"], t.app.game.state["minions"])

    def test_a_thanostone_battle_comes_back_after_a_power_cut(self):
        t = Table(seed=4)
        t.presses("bbbc c")  # New Battleworld, one starting hero
        t.presses("c")  # cut the seal
        t.presses("aaa c c c c")  # Thanostone battle
        t.wait(200)
        again = Table(root=t.root, keep_files=True)
        again.presses("c")  # Resume
        again.presses("c c")  # past the old seal's seed, then cut the new one
        self.assertEqual(again.app.mode, "play")
        self.assertEqual(again.app.game.state["battles"], t.app.game.state["battles"])
        again.presses("aaa c")  # a second Thanostone Battle Card is still refused: the count came back too
        self.assertEqual(message(again), "No Thanostone Battle Card is left: the deck has 1.")

    def test_a_save_with_four_allies_for_one_player_is_not_offered(self):
        """A crafted save past the checksum: "You may control at most three allies." """
        from test_saved_games import notice_text, write
        from test_store import coded, sealed

        t = Table(seed=2)
        t.presses("bc ac")  # New Champions, one player (P1)
        content = t.app.game.to_dict()
        content["base"]["allies"] = [[0, "Ally %d" % n, 2] for n in (1, 2, 3, 4)]
        write(t.root + "game.sav", sealed(coded(content)))
        again = Table(root=t.root, keep_files=True)
        self.assertIn("an impossible game: The allies are damaged.", notice_text(again))
        again.presses("c")
        self.assertNotEqual(again.screen()[1], "Resume Champions")
