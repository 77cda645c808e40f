"""Marvel United's KO tokens and trackers. Runs on CPython and the MicroPython VM."""

import unittest

from dicetower.core.game import Refused
from dicetower.core.games.united.tracker import United


def team_vs_team():
    return United.setup(
        [
            {"name": "Black Bolt", "team": 0},
            {"name": "Medusa", "team": 0},
            {"name": "Crystal", "team": 1},
            {"name": "Karnak", "team": 1},
        ],
        teams=2,
    )


class KoTokens(unittest.TestCase):
    def test_six_tokens_over_both_teams_lose(self):
        """Rulebook: "The Heroes lose if they have a total of 6 KO tokens (counting both Teams' KO tokens), regardless of the number of Heroes in the game." """
        g = team_vs_team()
        for hero in (0, 1, 2, 3, 0):
            self.assertFalse("lose" in g.do("ko", hero))
        self.assertEqual((g.team_ko(0), g.team_ko(1)), (3, 2))
        self.assertIn("6 KO tokens: the heroes lose.", g.do("ko", 3))
        with self.assertRaises(Refused):
            g.do("ko", 1)

    def test_threshold_is_a_setting(self):
        g = United.setup([{"name": "Triton"}], threshold=2)
        g.do("ko", 0)
        self.assertIn("lose", g.do("ko", 0))

    def test_remove_and_bad_requests(self):
        g = team_vs_team()
        with self.assertRaises(Refused):
            g.do("remove_ko", 0)
        g.do("ko", 0)
        g.do("remove_ko", 0)
        self.assertEqual(g.team_ko(0), 0)
        for bad in (("ko", 4), ("ko", -1), ("duel", "hero"), ("token", "gold")):
            with self.assertRaises(Refused):
                g.do(*bad)
        with self.assertRaises(Refused):
            United.setup([{"name": "A", "team": 1}], teams=1)


class Trackers(unittest.TestCase):
    def test_duel_trackers(self):
        """Rulebook: "If Gladiator won the Duel, advance Gladiator's Duel tracker by 1." """
        with self.assertRaises(Refused):
            team_vs_team().do("duel", "hero")  # "Gladiator CANNOT be used as the Villain in Team vs Team mode."
        g = United.setup([{"name": "Black Bolt"}, {"name": "Medusa"}])
        g.do("duel", "gladiator")
        g.do("duel", "hero")
        g.do("duel", "hero")
        self.assertEqual((g.state["gladiator"], g.state["heroes_duel"]), (1, 2))

    def test_terrigen_mist_and_water_tokens_run_out(self):
        """Rulebook: "6 Terrigen Mist tokens" """
        g = team_vs_team()
        for left in (5, 4, 3, 2, 1, 0):
            self.assertEqual(g.do("token", "mist"), "Terrigen Mist token used (%d left)." % left)
        with self.assertRaises(Refused):
            g.do("token", "mist")
        for _ in range(3):
            g.do("token", "water")
        with self.assertRaises(Refused):
            g.do("token", "water")
