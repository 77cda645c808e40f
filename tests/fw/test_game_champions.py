"""Marvel Champions' threat and hit points. Runs on CPython and the MicroPython VM."""

import unittest

from dicetower.core.game import Refused
from dicetower.core.games.champions.tracker import Champions, status

SCHEME = {"name": "The Break-In", "stages": [[10, 1, 7], [12, 2, 2]]}
VILLAIN = {"name": "Rhino", "stages": [14, 15]}


def two_players():
    return Champions.setup([{"name": "You", "hp": 10}, {"name": "Left", "hp": 12}], SCHEME, VILLAIN)


def main(g, a=0):
    return g.state["areas"][a]["scheme"]


class WorkedExample(unittest.TestCase):
    def test_a_turn_played_out(self):
        """Rulebook: "Two players, and you hold the first player token. Your hero is in hero form with THW 2, ATK 3, DEF 1, and 6 hit points left." """
        g = Champions.setup([{"name": "You", "hp": 10}, {"name": "Left", "hp": 10}], SCHEME, VILLAIN)
        g.do("damage", 0, 4)  # "6 hit points left"
        self.assertEqual(main(g)["threat"], 7)  # "The main scheme holds 7 threat toward a target of 10"
        g.do("side", 0, "Crisis Scheme", 3, 1)  # "a side scheme with the crisis icon and 3 threat"
        with self.assertRaises(Refused):
            g.do("thwart", 0, -1, 2)  # "nothing comes off the main scheme until it is cleared"
        # "You play an ally costing 3 ... The ally enters ready." It has 2 hit points: 1 damage leaves 1.
        self.assertEqual(g.do("ally", 0, "Ally 1", 2), "You plays Ally 1 (2 hit points).")
        # "You exhaust it to thwart the side scheme with its THW of 1, dropping it to 2."
        self.assertEqual(g.do("thwart", 0, 0, 1), "Thwart 1: Crisis Scheme -1 threat.")
        self.assertEqual(g.state["areas"][0]["sides"][0]["threat"], 2)
        # "It then takes the 1 consequential damage printed under that value, leaving it on 1 hit point."
        self.assertEqual(g.do("ally_damage", 0, 1), "Ally 1 -1 hit point (1 left).")
        self.assertEqual(g.state["allies"], [[0, "Ally 1", 1]])
        line = g.do("thwart", 0, 0, 2)  # "a basic thwart of 2. The side scheme hits zero and is discarded."
        self.assertIn("discarded", line)
        self.assertEqual(g.state["areas"][0]["sides"], [])
        g.do("end_phase")  # "In the villain phase the main scheme climbs from 7 to 8."
        self.assertEqual(main(g)["threat"], 8)
        # "Defending with your ally would put all 3 damage on it and defeat it."
        self.assertEqual(g.do("ally_damage", 0, 3), "Ally 1 -1 hit point: defeated.")
        self.assertEqual(g.state["allies"], [])
        g.undo()  # "Instead you exhaust your hero, block 1"
        # "Its boost card shows 1 boost icon, so its ATK of 2 becomes 3 ... you exhaust your hero, block 1"
        line = g.do("villain_attack", 0, 2, 1, 1)
        self.assertEqual(g.state["heroes"][0]["hp"], 4)  # "your dial drops from 6 to 4"
        self.assertIn("You -2 hit points (4).", line)
        self.assertEqual(g.state["allies"], [[0, "Ally 1", 1]])  # the ally stays, on 1 hit point
        self.assertEqual(status(g.state, 4)[3], "You:4(1) Lef:10")
        g.do("thwart", 0, -1, 2)  # the crisis is gone: threat comes off the main scheme now
        self.assertEqual(main(g)["threat"], 6)


class Allies(unittest.TestCase):
    def test_a_fourth_ally_discards_one_of_the_previous_ones(self):
        """Rulebook: "You may control at most three allies. If you already have three and play a fourth, you immediately discard one of the previous ones." """
        g = two_players()
        for n in (1, 2, 3):
            g.do("ally", 0, "Ally %d" % n, n)
        g.do("ally", 1, "Theirs", 4)  # the other player's allies are theirs to count
        with self.assertRaises(Refused) as why:
            g.do("ally", 0, "Ally 4", 2)
        self.assertEqual(str(why.exception), "You controls 3 allies: pick the one to discard.")
        with self.assertRaises(Refused):
            g.do("ally", 0, "Ally 4", 2, 3)  # "Theirs" is not one of your previous ones
        self.assertEqual(g.do("ally", 0, "Ally 4", 2, 1), "You plays Ally 4 (2 hit points). Ally 2 is discarded.")
        self.assertEqual([a[1] for a in g.state["allies"] if a[0] == 0], ["Ally 1", "Ally 3", "Ally 4"])
        with self.assertRaises(Refused):
            g.do("ally", 1, "Again", 2, 0)  # with fewer than three there is nothing to discard
        self.assertEqual(g.undo(), "Undone: You plays Ally 4 (2 hit points). Ally 2 is discarded.")
        self.assertEqual([a[1] for a in g.state["allies"]], ["Ally 1", "Ally 2", "Ally 3", "Theirs"])

    def test_allies_are_defeated_at_zero_hit_points(self):
        """Rulebook: "Damage on allies and minions is tracked with tokens and defeats them at zero hit points." """
        g = two_players()
        with self.assertRaises(Refused) as why:
            g.do("ally_damage", 0, 1)
        self.assertEqual(str(why.exception), "No ally in play.")
        g.do("ally", 1, "Ally 1", 3)
        self.assertEqual(g.do("ally_damage", 0, 2), "Ally 1 -2 hit points (1 left).")
        self.assertEqual(g.do("ally_damage", 0, 5), "Ally 1 -1 hit point: defeated.")
        self.assertEqual(g.state["allies"], [])
        for bad in (("ally", 0, "", 3), ("ally", 0, "A", 0), ("ally", 5, "A", 3), ("ally_damage", 0, 1)):
            with self.assertRaises(Refused):
                g.do(*bad)

    def test_an_eliminated_players_allies_and_minions_leave_play(self):
        g = two_players()
        g.do("ally", 0, "Ally 1", 3)
        g.do("minion", 0, "Minion 1", 4)
        g.do("minion", 1, "Minion 2", 4)
        self.assertIn("You is eliminated", g.do("damage", 0, 10))
        self.assertEqual((g.state["allies"], g.state["minions"]), ([], [[1, "Minion 2", 4]]))


class Minions(unittest.TestCase):
    def test_minions_engage_a_player_and_fall_at_zero(self):
        """Rulebook: "Minions enter play engaged with the player who revealed them." """
        g = two_players()
        self.assertEqual(g.do("minion", 1, "Minion 1", 5), "Minion 1 enters play engaged with Left (5 hit points).")
        g.do("minion", 0, "Minion 2", 3)
        self.assertEqual(g.state["minions"], [[1, "Minion 1", 5], [0, "Minion 2", 3]])
        self.assertEqual(status(g.state, 4)[2], "Rhino 28 hp M:5,3")
        self.assertEqual(g.do("hit_minion", 1, 2), "Minion 2 -2 hit points (1 left).")
        self.assertEqual(g.do("hit_minion", 1, 3), "Minion 2 -1 hit point: defeated.")
        self.assertEqual(status(g.state, 4)[2], "Rhino 28 hp M:5")
        g.undo()
        self.assertEqual(g.state["minions"][1], [0, "Minion 2", 1])
        for bad in (("minion", 0, "M", 0), ("hit_minion", 2, 1), ("hit_minion", 0, 0)):
            with self.assertRaises(Refused):
                g.do(*bad)

    def test_minions_are_capped(self):
        g = two_players()
        for n in range(8):
            g.do("minion", n % 2, "M%d" % n, 1)
        with self.assertRaises(Refused):
            g.do("minion", 0, "M8", 1)


class Threat(unittest.TestCase):
    def test_reaching_the_target_advances_the_stage(self):
        """Rulebook: "The moment it equals or exceeds the target threat in the top left corner, the scheme advances to the next stage, and the old threat is removed." """
        g = two_players()
        line = g.do("threat", 0, 3)
        self.assertEqual((main(g)["stage"], main(g)["threat"]), (1, 2))
        self.assertIn("advances to stage 2", line)

    def test_advancing_the_final_stage_loses(self):
        """Rulebook: "If the final stage of the scheme deck advances, the players lose immediately." """
        g = two_players()
        g.do("threat", 0, 3)
        line = g.do("threat", 0, 10)
        self.assertIn("the players lose", line)
        with self.assertRaises(Refused):
            g.do("heal", 0, 1)

    def test_villain_phase_acceleration_counts_side_scheme_icons(self):
        """Rulebook: "place threat on the main scheme equal to its acceleration field, plus one for each acceleration icon on side schemes in play." """
        g = two_players()
        g.do("side", 0, "Accelerant", 2, 0, 1)
        g.do("end_phase")
        self.assertEqual(main(g)["threat"], 9)

    def test_hazard_icons_deal_extra_encounter_cards(self):
        """Rulebook: "deal one encounter card facedown to each player, plus an extra card in player order for each hazard icon on a side scheme in play." """
        g = two_players()
        g.do("side", 0, "Hideout", 2, 0, 0, 1)
        self.assertIn("Encounter cards: 3 (+1 for hazard icons).", g.do("end_phase"))

    def test_incite(self):
        """Rulebook: "When a card with the incite X keyword is revealed, place X threat on the main scheme." """
        g = two_players()
        self.assertEqual(g.do("incite", 0, 2), "Incite 2 on The Break-In.")
        self.assertEqual(main(g)["threat"], 9)

    def test_thwart_never_below_zero(self):
        g = two_players()
        g.do("thwart", 0, -1, 9)
        self.assertEqual(main(g)["threat"], 0)

    def test_side_scheme_threat_and_bad_requests(self):
        g = two_players()
        g.do("side", 0, "Hideout", 2, 0, 0, 1)
        g.do("side_threat", 0, 0, 2)
        self.assertEqual(g.state["areas"][0]["sides"][0]["threat"], 4)
        for bad in (("thwart", 0, 3, 1), ("thwart", 0, -1, -2), ("threat", 5, 1), ("side_threat", 0, 0, 0)):
            with self.assertRaises(Refused):
                g.do(*bad)


class HitPoints(unittest.TestCase):
    def test_villain_stages_times_players(self):
        """Rulebook: "set the villain's dial to the hit points on the villain card multiplied by the number of players" """
        g = two_players()
        self.assertEqual(g.state["areas"][0]["villain"]["hp"], 28)
        line = g.do("hit", 0, 30)
        self.assertEqual(g.state["areas"][0]["villain"]["hp"], 30)
        self.assertIn("Stage 2: 30 hit points.", line)

    def test_defeating_the_final_stage_wins(self):
        """Rulebook: "Defeat the final villain stage and you all win." """
        g = two_players()
        g.do("hit", 0, 28)
        line = g.do("hit", 0, 30)
        self.assertIn("the players win", line)

    def test_recovery_never_above_maximum(self):
        """Rulebook: "recovery heals up to your REC value, but never above your maximum hit points." """
        g = two_players()
        g.do("damage", 0, 3)
        self.assertEqual(g.do("heal", 0, 5), "You +3 hit points (10).")

    def test_every_player_eliminated_loses(self):
        """Rulebook: "The players also lose if every player is eliminated, which happens to a player when their hit point dial reaches zero." """
        g = two_players()
        self.assertIn("You is eliminated", g.do("damage", 0, 10))
        with self.assertRaises(Refused):
            g.do("damage", 0, 1)
        self.assertIn("the players lose", g.do("damage", 1, 20))


class Rounds(unittest.TestCase):
    def test_first_player_token_passes_each_round(self):
        """Rulebook: "Fifth, pass the first player token and start the next round." """
        g = Champions.setup(
            [{"name": "A", "hp": 10}, {"name": "B", "hp": 10}, {"name": "C", "hp": 10}], SCHEME, VILLAIN
        )
        g.do("end_phase")
        self.assertEqual(g.state["phase"], "villain")
        self.assertEqual(g.do("end_phase"), "Round 2: B has the first player token.")
        g.do("damage", 2, 10)
        g.do("end_phase")
        self.assertEqual(g.do("end_phase"), "Round 3: A has the first player token.")


class SeparateAreas(unittest.TestCase):
    def test_the_once_and_future_kang_in_full(self):
        """Rulebook: "The players must defeat Kang (I), Kang (II), and Kang (III) in order to win the game." """
        g = Champions.setup(
            [{"name": "A", "hp": 10}, {"name": "B", "hp": 10}],
            SCHEME,
            {"name": "Kang (I)", "stages": [10], "final": False},
        )
        self.assertIn("bring in the next villain", g.do("hit", 0, 20))
        self.assertIsNone(g.over())
        for player in (0, 1):  # "each player reveals their own random stage 3A"
            g.do("separate", player, {"name": "Stage 3A", "stages": [[8, 1, 1]]}, {"name": "Kang (II)", "stages": [12]})
        self.assertEqual([a["players"] for a in g.state["areas"]], [[], [0], [1]])
        self.assertIn("join another game area", g.do("hit", 1, 12))
        g.do("join", 1, 2)
        self.assertIn("bring in the next villain", g.do("hit", 1, 12))
        self.assertIsNone(g.over())
        g.do("villain", 1, "Kang (III)", [15])
        self.assertEqual(g.state["areas"][1]["villain"]["hp"], 30)
        self.assertIn("the players win", g.do("hit", 1, 30))

    def test_a_stage_cannot_start_at_its_target(self):
        with self.assertRaises(Refused):
            Champions.setup([{"name": "A", "hp": 10}], {"name": "S", "stages": [[5, 0, 9]]}, VILLAIN)

    def test_side_schemes_are_capped(self):
        g = two_players()
        for n in range(8):
            g.do("side", 0, "S%d" % n, 1)
        with self.assertRaises(Refused):
            g.do("side", 0, "S8", 1)

    def test_kang_separates_and_joins(self):
        """Rulebook: "Any side schemes that were in play in your previous game area become part of the game area that you join." """
        g = Champions.setup(
            [{"name": "A", "hp": 10}, {"name": "B", "hp": 10}], SCHEME, {"name": "Kang (I)", "stages": [10]}
        )
        g.do("separate", 1, {"name": "Stage 3A", "stages": [[8, 1, 1]]}, {"name": "Kang (II)", "stages": [12]})
        self.assertEqual([a["players"] for a in g.state["areas"]], [[0], [1]])
        self.assertEqual(g.state["areas"][1]["villain"]["hp"], 12)
        g.do("side", 1, "Temporal Rift", 2)
        g.do("threat", 1, 2)
        self.assertEqual(main(g, 0)["threat"], 7)  # "Cards and components in one game area cannot affect another"
        with self.assertRaises(Refused):
            g.do("join", 1, 0)  # not before Kang (II) is defeated here
        self.assertIn("join another game area", g.do("hit", 1, 12))
        self.assertIsNone(g.over())
        g.do("join", 1, 0)
        self.assertEqual(g.state["areas"][0]["players"], [0, 1])
        self.assertEqual(g.state["areas"][0]["sides"][0]["name"], "Temporal Rift")
        g.do("villain", 0, "Kang (III)", [15])
        self.assertEqual(g.state["areas"][0]["villain"]["hp"], 30)
        self.assertIn("the players win", g.do("hit", 0, 30))


class OwnAreas(unittest.TestCase):
    """What "Kang: own area" brings comes from the game's set-up (state["own"]), or, for a game set up
    without it (a save from before), the tracker's Stage 3A and Kang (II)."""

    def own(self, state):
        from dicetower.core.games.champions.tracker import MENU

        args = [entry for entry in MENU if entry[1] == "separate"][0][2]
        return args[1][2](state), args[2][2](state)

    def test_a_game_set_up_with_its_own_areas_brings_them(self):
        own = ({"name": "Stage 3B", "stages": [[7, 2, 0]]}, {"name": "Ravonna", "stages": [9]})
        g = Champions.setup(
            [{"name": "A", "hp": 10}, {"name": "B", "hp": 10}], SCHEME, {"name": "V", "stages": [10]}, own
        )
        self.assertEqual(self.own(g.state), own)
        g.do("separate", 1, *own)
        self.assertEqual((g.state["areas"][1]["villain"]["name"], g.state["areas"][1]["villain"]["hp"]), ("Ravonna", 9))

    def test_a_game_set_up_without_them_brings_kang_ii_and_stage_3a(self):
        g = Champions.setup([{"name": "A", "hp": 10}], SCHEME, {"name": "V", "stages": [10]})
        scheme, villain = self.own(g.state)
        self.assertEqual(
            (scheme["name"], scheme["stages"], villain["name"], villain["stages"]),
            ("Stage 3A", [[8, 1, 1]], "Kang (II)", [12]),
        )

    def test_a_save_whose_own_area_cannot_start_is_refused(self):
        from dicetower.core.games.champions.tracker import check

        g = Champions.setup([{"name": "A", "hp": 10}], SCHEME, {"name": "V", "stages": [10]})
        g.state["own"] = {"scheme": {"name": "S", "stages": [[3, 1, 5]]}, "villain": {"name": "K", "stages": [9]}}
        with self.assertRaises(Refused):
            check(g.state)
        with self.assertRaises(Refused):
            Champions.setup(
                [{"name": "A", "hp": 10}],
                SCHEME,
                {"name": "V", "stages": [10]},
                (g.state["own"]["scheme"], g.state["own"]["villain"]),
            )
