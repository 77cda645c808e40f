"""Battleworld's battles. Runs on CPython and the MicroPython VM."""

import unittest

from dicetower.core.game import Refused
from dicetower.core.games.battleworld.tracker import Battleworld
from dicetower.core.save_reader import decode
from dicetower.core.savefile import encode


class Chart(unittest.TestCase):
    def test_starting_heroes_set_deck_and_wins(self):
        """Rulebook: "To claim victory in a game with 3 Starting Heroes, you must win 7 Battles!" """
        g = Battleworld.setup(3)
        self.assertEqual((g.state["deck"], g.state["wins_needed"], g.state["thanostones"]), (13, 7, 3))
        self.assertEqual(Battleworld.setup(1).state["wins_needed"], 3)
        self.assertEqual(Battleworld.setup(5).state["deck"], 21)
        with self.assertRaises(Refused):
            Battleworld.setup(6)


class Battles(unittest.TestCase):
    def test_the_rulebook_example_hits(self):
        """Rulebook: "Captain Americat needs an 8 or higher to hit Flying Drones. His total of 9 is a hit!" """
        g = Battleworld.setup(1)
        g.do("battle", "Flying Drones", 2, 8, "Energy")
        self.assertIn("hit (1 of 2)", g.do("attack", 0, "5", 4))

    def test_hits_win_the_battle(self):
        """Rulebook: "When a Hero is placed on the last space, the Battle is won" """
        g = Battleworld.setup(1)
        g.do("battle", "Cat Lady's Gang", 1, 12, "Moon")
        line = g.do("attack", 0, "Star", 0)  # "the Attack Die's star face always hits"
        self.assertIn("Cat Lady's Gang is won (1 won, 0 lost)", line)
        with self.assertRaises(Refused):
            g.do("attack", 0, "5", 1)

    def test_three_dangers_lose_the_battle(self):
        """Rulebook: "If the Danger Token is placed on the third and final space of the Danger Track, the Battle is lost." """
        g = Battleworld.setup(1)
        g.do("battle", "Flying Drones", 3, 8, "Energy")
        g.do("attack", 0, "Blank", 10)  # "its blank face always misses"
        g.do("attack", 0, "2", 1)
        self.assertIn("Flying Drones is lost", g.do("danger", "Energy"))

    def test_danger_coin_advances_only_matching_battles(self):
        """Rulebook: "For each Battle Card with a Danger symbol that matches the coin flip, advance a Danger Token to the next open space of the orange Danger Track." """
        g = Battleworld.setup(2)
        g.do("battle", "A", 2, 8, "Energy")
        g.do("battle", "B", 2, 8, "Moon")
        g.do("danger", "Moon")
        self.assertEqual([b["danger"] for b in g.state["battles"]], [0, 1])
        with self.assertRaises(Refused):
            g.do("danger", "Sun")

    def test_three_lost_battles_lose_the_game(self):
        """Rulebook: "Note: Even in games with more Heroes, if you ever lose 3 Battles, you lose the game!" """
        g = Battleworld.setup(3)
        for name in ("A", "B", "C"):
            g.do("battle", name, 1, 5, "Moon")
        for _ in range(3):
            line = g.do("danger", "Moon")
        self.assertIn("the Heroes are defeated", line)

    def test_winning_the_chart_number_wins(self):
        """Rulebook: "If you win enough Battles (3 for a single Battle Ball game), you win as the Heroes defeat Thanos in Battleworld!" """
        g = Battleworld.setup(1)
        for b, name in enumerate(("A", "B", "C")):
            g.do("battle", name, 1, 5, "Moon")
            line = g.do("attack", b, "Star", 0)
        self.assertIn("defeat Thanos", line)

    def test_each_of_the_charts_two_counts_is_kept(self):
        """Rulebook: "Example: To play a game with 3 Starting Heroes, you will need a deck of 13 Battle Cards that has 3 Thanostone Battle Cards and 10 other Battle Cards." """
        g = Battleworld.setup(3)
        for n in range(10):
            g.do("battle", "B%d" % n, 1, 5, "Moon", 0)
        with self.assertRaises(Refused) as why:
            g.do("battle", "B10", 1, 5, "Moon", 0)  # an 11th other Battle Card
        self.assertEqual(str(why.exception), "No other Battle Card is left: all 10 are drawn. Thanostone ones left: 3.")
        for n in range(3):
            g.do("battle", "T%d" % n, 1, 5, "Energy", 1)
        with self.assertRaises(Refused) as why:
            g.do("battle", "T3", 1, 5, "Energy", 1)
        self.assertEqual(str(why.exception), "The deck has 13 Battle Cards and all are drawn.")

    def test_every_row_of_the_chart(self):
        """Rulebook: "Starting Heroes Thanostones (or Heroes from collection) Thanostone Battle Cards Other Battle Cards Battle Wins to Win Game" """
        for starting, stones, others in ((1, 1, 4), (2, 2, 7), (3, 3, 10), (4, 4, 13), (5, 5, 16)):
            g = Battleworld.setup(starting)
            for n in range(stones):
                g.do("battle", "T%d" % n, 1, 5, "Moon", 1)
            with self.assertRaises(Refused) as why:
                g.do("battle", "T", 1, 5, "Moon", 1)  # one Thanostone Battle Card too many
            self.assertEqual(str(why.exception), "No Thanostone Battle Card is left: the deck has %d." % stones)
            for n in range(others):
                g.do("battle", "B%d" % n, 1, 5, "Moon", 0)
            self.assertEqual(len(g.state["battles"]), g.state["deck"])

    def test_a_game_saved_before_the_two_counts_were_kept_still_plays(self):
        # Then the device could not say which cards were Thanostone ones: its battles count against the total.
        g = Battleworld.setup(1)
        for n in range(5):
            g.do("battle", "B%d" % n, 1, 5, "Moon")
        with self.assertRaises(Refused) as why:
            g.do("battle", "B5", 1, 5, "Moon")
        self.assertEqual(str(why.exception), "The deck has 5 Battle Cards and all are drawn.")
        self.assertEqual(decode(encode(g)).state, g.state)

    def test_deck_runs_out_and_bad_faces(self):
        g = Battleworld.setup(1)
        for n in range(4):
            g.do("battle", "B%d" % n, 1, 5, "Moon", 0)
        with self.assertRaises(Refused):
            g.do("battle", "B4", 1, 5, "Moon", 0)  # the fifth card is the Thanostone one
        for bad in (True, 2, "yes"):
            with self.assertRaises(Refused):
                g.do("battle", "B4", 1, 5, "Moon", bad)
        g.do("battle", "B4", 1, 5, "Moon", 1)
        with self.assertRaises(Refused):
            g.do("battle", "B5", 1, 5, "Moon", 1)
        for bad in (("attack", 0, "7", 1), ("attack", 9, "2", 1), ("battle", "X", 4, 5, "Moon")):
            with self.assertRaises(Refused):
                g.do(*bad)

    def test_users_attack_die_faces(self):
        g = Battleworld.setup(1, ["Star", "1", "2", "3", "4", "Blank"])
        g.do("battle", "A", 1, 5, "Moon")
        self.assertIn("hit", g.do("attack", 0, "1", 4))
