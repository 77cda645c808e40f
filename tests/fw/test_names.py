"""Names told apart (issue 49): a name shortened for a status line, a picker or the marking screen is
unique within its game, on the OLED, in the simulator and on the phones' page (they show the same
status lines). Runs on CPython and on the MicroPython VM."""

import unittest

from dicetower.core.games import game
from dicetower.core.names import short_names


class ShortNames(unittest.TestCase):
    def test_two_captains_are_told_apart(self):
        # "Cap" stood for Captain Marvel and Captain America alike.
        self.assertEqual(short_names(["Captain Marvel", "Captain America", "She-Hulk"], 3), ["CMa", "CAm", "She"])
        self.assertEqual(short_names(["Captain Marvel", "Captain America"], 4), ["CMar", "CAme"])

    def test_a_name_that_fits_or_whose_last_words_fit_is_kept(self):
        self.assertEqual(short_names(["Thor", "Black Panther", "Hulk"], 8), ["Thor", "Panther", "Hulk"])

    def test_the_same_name_twice_is_told_apart_by_the_seat(self):
        self.assertEqual(short_names(["Spider-Man", "Spider-Man"], 3), ["1Sp", "2Sp"])

    def test_every_short_name_is_unique_and_fits(self):
        names = ["Iron Man", "Iron Fist", "Ant Man", "Ant-Man", "Captain Marvel", "Captain America", "Man"]
        for width in (3, 4, 8):
            short = short_names(names, width)
            self.assertEqual(len(set(short)), len(names), (width, short))
            self.assertTrue(all(len(s) <= width for s in short), short)


class StatusLines(unittest.TestCase):
    def test_champions_heroes_hit_points_name_each_captain(self):
        rules = game("champions")
        heroes = [{"name": "Captain Marvel", "hp": 12}, {"name": "Captain America", "hp": 11}]
        state = rules.TRACKER.setup(heroes, rules.SCHEME, rules.VILLAIN).state
        self.assertEqual(rules.status(state, 4)[3], "CMa:12 CAm:11")

    def test_united_ko_tokens_name_each_captain(self):
        rules = game("united")
        state = rules.TRACKER.setup([{"name": "Captain Marvel"}, {"name": "Captain America"}]).state
        self.assertEqual(rules.status(state, 4)[1], "CMar 0  CAme 0")


if __name__ == "__main__":
    unittest.main()


class TeamVsTeam(unittest.TestCase):
    def test_united_team_vs_team_shows_each_teams_ko_tokens_and_each_heros_team(self):
        # "Team vs Team never shows the teams": the status said only the KO tokens in all.
        rules = game("united")
        g = rules.TRACKER.setup(
            [{"name": "Black Bolt", "team": 0}, {"name": "Medusa", "team": 1}, {"name": "Crystal", "team": 0}],
            teams=2,
            villain="vulcan",
        )
        g.do("ko", 1)
        rows = rules.status(g.state, 4)
        self.assertEqual(rows[0], "KO 1/6  T1 0  T2 1")
        self.assertEqual(rows[1], "1Bolt 0  2Medu 1  1Crys 0")
