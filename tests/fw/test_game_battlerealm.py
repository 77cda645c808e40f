"""Battlerealm's score, rule by rule. Runs on CPython and the MicroPython VM."""

import unittest

from dicetower.core.game import Refused
from dicetower.core.games.battlerealm.tracker import Battlerealm


def game(*heroes):
    return Battlerealm.setup([dict(h) for h in heroes])


HULK = {"name": "Hulk", "pvp": 10, "abilities": ["Tough", "Cunning", "Peaceful"]}
THOR = {"name": "Thor", "pvp": 12}
VISION = {"name": "Vision", "pvp": 8}
HAWK = {"name": "Hawkeye", "pvp": 9, "abilities": ["Elusive"]}


def pvp(g):
    return [h["pvp"] for h in g.state["heroes"]]


class Setup(unittest.TestCase):
    def test_starting_pvp(self):
        """Rulebook: "Set the Hero's PVP Point counter to it's starting position (red number)." """
        self.assertEqual(pvp(game(HULK, THOR)), [10, 12])

    def test_two_to_six_heroes(self):
        with self.assertRaises(Refused):
            game(HULK)
        with self.assertRaises(Refused):
            Battlerealm.setup([{"name": "H%d" % i} for i in range(7)])
        with self.assertRaises(Refused):
            game(HULK, {"name": "Thor", "abilities": ["Mighty"]})
        with self.assertRaises(Refused):
            game(HULK, {"name": "Thor", "pvp": -1})


class Rolls(unittest.TestCase):
    def test_mystic_and_peaceful_points(self):
        """Rulebook: "The Hero gains a single PVP Point for each Mystic rolled." """
        g = game(HULK, THOR)
        line = g.do("roll", "YYCCMS")  # no Skill or Tech: Peaceful's 2 too
        self.assertEqual(pvp(g), [14, 12])
        self.assertIn("+4 PVP", line)

    def test_one_roll_per_turn(self):
        g = game(HULK, THOR)
        g.do("roll", "KKTTCC")
        with self.assertRaises(Refused):
            g.do("roll", "KKTTCC")

    def test_bad_dice_refused(self):
        g = game(HULK, THOR)
        for bad in ("KKTT", "KKTTCX", 6):
            with self.assertRaises(Refused):
                g.do("roll", bad)
        self.assertEqual(g.state["rolled"], 0)

    def test_explosion_hits_the_marked_heroes_and_is_not_an_attack(self):
        """Rulebook: "The Hero ignores the first PVP Point of damage done by each Attack from the same location. An Explosion is not an Attack." """
        g = game(THOR, HULK, VISION)
        line = g.do("roll", "SSSSKT", [1, 2])
        self.assertEqual(pvp(g), [12, 8, 6])  # 2 damage each: Tough does not apply
        self.assertIn("Explosion 2: Hulk -2, Vision -2.", line)

    def test_explosion_never_hits_the_roller(self):
        """Rulebook: "A Hero can never cause damage to themself." """
        g = game(THOR, HULK)
        with self.assertRaises(Refused):
            g.do("roll", "SSSKKT", [0])

    def test_entering_the_prison_ends_the_turn(self):
        """Rulebook: "As soon as a Hero enters the Crystal Prison, their turn is over." """
        g = game(THOR, HULK, VISION)
        line = g.do("roll", "MMMYKT")
        self.assertEqual(g.state["heroes"][0]["prison"], 1)
        self.assertEqual(g.state["turn"], 1)
        self.assertEqual(pvp(g)[0], 13)  # the Mystic still counts
        self.assertIn("Crystal Prison", line)

    def test_escape_on_a_triple(self):
        """Rulebook: "Players can escape by rolling triples of any die results." """
        g = game(THOR, HULK, VISION)
        g.do("roll", "MMMKKT")
        g.do("end_turn")
        g.do("end_turn")
        g.do("roll", "CCKTYY")
        self.assertEqual(g.state["heroes"][0]["prison"], 1)
        g.do("end_turn")
        g.do("end_turn")
        g.do("end_turn")
        g.do("roll", "CCCKTY")
        self.assertEqual(g.state["heroes"][0]["prison"], 0)


class Attacks(unittest.TestCase):
    def test_tough_takes_one_off_each_attack_not_each_piece(self):
        """Rulebook: "Attacks are all the damage done by one Hero against another Hero during that Hero's turn from a single location." """
        g = game(THOR, HULK)
        self.assertEqual(g.do("attack", 1, 2, True), "Hulk -1 PVP (Attack by Thor, Tough -1).")
        self.assertEqual(g.do("attack", 1, 3, True), "Hulk -3 PVP (Attack by Thor, Tough -1).")
        self.assertEqual(pvp(g)[1], 6)

    def test_tough_only_at_the_same_location(self):
        g = game(THOR, HULK)
        g.do("attack", 1, 2, False)
        self.assertEqual(pvp(g)[1], 8)

    def test_elusive_only_from_another_location(self):
        """Rulebook: "The Hero ignores the first PVP Point of damage done by each Attack from another location." """
        g = game(THOR, HAWK)
        g.do("attack", 1, 2, False)
        self.assertEqual(pvp(g)[1], 8)
        g.do("attack", 1, 2, True)
        self.assertEqual(pvp(g)[1], 6)

    def test_a_new_turn_is_a_new_attack(self):
        g = game(THOR, HULK, VISION)
        g.do("attack", 1, 1, True)
        self.assertEqual(pvp(g)[1], 10)
        g.do("end_turn")
        g.do("end_turn")
        g.do("end_turn")
        g.do("attack", 1, 1, True)
        self.assertEqual(pvp(g)[1], 10)

    def test_block_until_the_start_of_their_next_turn(self):
        """Rulebook: "A Block allows the Hero to reduce the damage they take by the listed amount from each Attack until the start of their next turn." """
        g = game(THOR, VISION, {"name": "Panther", "pvp": 10})
        g.do("block", 0, 2)
        g.do("end_turn")
        self.assertEqual(g.do("attack", 0, 3, True), "Thor -1 PVP (Attack by Vision, Block -2).")
        g.do("end_turn")
        g.do("attack", 0, 2, False)
        self.assertEqual(pvp(g)[0], 11)
        g.do("end_turn")  # Thor's turn starts: the Block is gone
        self.assertEqual(g.state["heroes"][0]["block"], 0)

    def test_no_damage_to_themself_or_the_eliminated(self):
        """Rulebook: "A Hero can never cause damage to themself." """
        g = game(THOR, HULK)
        for bad in ((0, 2, True), (5, 2, True), (1, 0, True), (1, -3, True)):
            with self.assertRaises(Refused):
                g.do("attack", *bad)
        self.assertEqual(pvp(g), [12, 10])

    def test_no_attacks_into_or_out_of_the_prison(self):
        """Rulebook: "Heroes in the Crystal Prison cannot be attacked or attack other Heroes" """
        g = game(THOR, HULK, VISION)
        g.do("roll", "MMMKKT")  # Thor to the Prison; Hulk's turn
        with self.assertRaises(Refused):
            g.do("attack", 0, 2, True)

    def test_negated_abilities(self):
        """Rulebook: "This power allows Vision to negate the powers of one Hero until the start of Vision's next turn." """
        g = game(VISION, HULK, THOR)
        g.do("negate", 1)
        g.do("attack", 1, 2, True)
        self.assertEqual(pvp(g)[1], 8)  # no Tough
        g.do("end_turn")
        g.do("end_turn")
        g.do("end_turn")  # Vision's next turn: Hulk is Tough again
        g.do("attack", 1, 2, True)
        self.assertEqual(pvp(g)[1], 7)


class AttackSources(unittest.TestCase):
    """Rulebook: "For each Skill rolled, the Hero can do one PVP Point of damage to another Hero in the same
    location as the rolling Hero." and "For each Tech rolled, ... in another location". An Attack "can
    include damage caused by his Power Cards, dice results and location abilities"."""

    def test_damage_from_the_dice_is_limited_to_the_dice_rolled(self):
        g = game(HULK, THOR)
        with self.assertRaises(Refused):
            g.do("attack", 1, 1, "Skill")  # nothing rolled yet
        g.do("roll", "KKTCCY")
        self.assertEqual(g.state["dice"], [2, 1])
        with self.assertRaises(Refused) as caught:
            g.do("attack", 1, 3, "Skill")
        self.assertEqual(
            str(caught.exception),
            "Skill left from this turn's roll: 2. An Attack by a power needs no die (From: power).",
        )
        self.assertEqual(pvp(g), [11, 12])
        self.assertEqual(g.do("attack", 1, 2, "Skill"), "Thor -2 PVP (Attack by Hulk).")
        with self.assertRaises(Refused):
            g.do("attack", 1, 1, "Skill")  # both Skill spent
        self.assertEqual(g.do("attack", 1, 1, "Tech"), "Thor -1 PVP (Attack by Hulk).")
        self.assertEqual(g.state["dice"], [0, 0])
        self.assertEqual(pvp(g), [11, 9])

    def test_a_power_needs_no_die(self):
        g = game(HULK, THOR)
        g.do("roll", "YYCCMS")  # no Skill, no Tech
        self.assertEqual(g.do("attack", 1, 3, False), "Thor -3 PVP (Attack by Hulk).")  # a Blast
        self.assertEqual(g.do("attack", 1, 1, True), "Thor -1 PVP (Attack by Hulk).")
        with self.assertRaises(Refused):
            g.do("attack", 1, 1, "Cosmic")

    def test_dice_and_a_power_from_one_location_are_one_attack(self):
        """Rulebook: "Attacks are all the damage done by one Hero against another Hero during that Hero's
        turn from a single location." Tough takes one point off the Skill and the power's damage together."""
        g = game(THOR, HULK)
        g.do("roll", "KTTCCY")
        g.do("attack", 1, 1, "Skill")
        self.assertEqual(g.do("attack", 1, 2, True), "Hulk -2 PVP (Attack by Thor, Tough -1).")
        self.assertEqual(pvp(g), [13, 8])  # Thor +1 for the Mystic

    def test_dice_that_paid_a_card_deal_no_damage(self):
        """Rulebook (power cards): "expending those dice results"."""
        g = game(HULK, THOR)
        g.do("roll", "KKTCCY", [], None, [0, 2])  # a Skill and the Tech paid a card
        self.assertEqual(g.state["dice"], [1, 0])
        with self.assertRaises(Refused):
            g.do("attack", 1, 1, "Tech")
        for bad in ([6], "02", [0, 0, 0, 0, 0, 0, 0]):
            with self.assertRaises(Refused):
                Battlerealm.setup([dict(HULK), dict(THOR)]).do("roll", "KKTCCY", [], None, bad)

    def test_undo_gives_the_dice_back_and_a_new_turn_has_none(self):
        g = game(HULK, THOR)
        g.do("roll", "KKTCCY")
        g.do("attack", 1, 2, "Skill")
        g.undo()
        self.assertEqual(g.state["dice"], [2, 1])
        g.do("end_turn")
        self.assertEqual(g.state["dice"], [0, 0])
        with self.assertRaises(Refused):
            g.do("attack", 0, 1, "Skill")


class AttackEdges(unittest.TestCase):
    def test_a_later_negate_does_not_undo_tough(self):
        """Rulebook: "Negate does not affect powers that have triggered previously." """
        g = game(VISION, HULK)
        g.do("attack", 1, 1, True)  # Tough takes it
        g.do("negate", 1)
        g.do("attack", 1, 1, True)
        self.assertEqual(pvp(g)[1], 9)

    def test_a_block_given_mid_attack_never_gives_damage_back(self):
        g = game(THOR, VISION)
        g.do("attack", 1, 3, True)
        g.do("block", 1, 2)
        g.do("attack", 1, 1, True)
        g.do("attack", 1, 1, True)
        self.assertEqual(pvp(g)[1], 3)  # all 5 land: the Block came after this Attack began

    def test_explosion_cannot_reach_into_the_prison(self):
        g = game(THOR, HULK, VISION)
        g.do("roll", "MMMKKT")  # Thor to the Prison
        with self.assertRaises(Refused):
            g.do("roll", "SSSKKT", [0])
        self.assertEqual(pvp(g)[0], 12)


class Points(unittest.TestCase):
    def test_location_points_on_each_landing(self):
        """Rulebook: "A Hero may gain PVP Points from landing on multiple locations in one turn." """
        g = game(THOR, HULK)
        g.do("land", 2)
        g.do("land", 3)
        self.assertEqual(pvp(g)[0], 17)
        with self.assertRaises(Refused):
            g.do("land", 4)

    def test_spend_only_what_they_have(self):
        g = game(THOR, HULK)
        with self.assertRaises(Refused):
            g.do("spend", 13)
        g.do("spend", 3)
        self.assertEqual(pvp(g)[0], 9)


class Elimination(unittest.TestCase):
    def test_final_blow(self):
        """Rulebook: "When a Hero is removed from the game, the Hero who landed the final blow gains 3 PVP Points for doing so." """
        g = game(THOR, VISION, {"name": "Panther", "pvp": 10})
        line = g.do("attack", 1, 9, True)
        self.assertEqual(g.state["heroes"][1]["out"], 1)
        self.assertEqual(pvp(g)[0], 15)
        self.assertIn("final blow +3 to Thor", line)
        with self.assertRaises(Refused):
            g.do("attack", 1, 1, True)

    def test_cunning_gains_on_any_elimination(self):
        """Rulebook: "Each time another Hero is eliminated from the game, the Cunning Hero gains an additional 3 PVP Points, regardless of who eliminated the Hero from the game." """
        g = game(THOR, VISION, HULK)
        g.do("attack", 1, 8, False)
        self.assertEqual(pvp(g), [15, 0, 13])

    def test_eliminated_heroes_lose_their_turns(self):
        g = game(THOR, VISION, HULK)
        g.do("attack", 1, 8, False)
        g.do("end_turn")
        self.assertEqual(g.state["turn"], 2)
        g.do("end_turn")
        self.assertEqual((g.state["turn"], g.state["round"]), (0, 2))

    def test_survivor_stays_until_the_end_of_their_next_turn(self):
        """Rulebook: "When the Hero loses their last PVP Point, they are not removed until the end of their next turn, provided that they are not in the Crystal Prison or one of the last two remaining Heroes." """
        survivor = {"name": "Falcon", "pvp": 3, "abilities": ["Survivor"]}
        g = game(THOR, survivor, VISION)
        g.do("attack", 1, 5, True)
        self.assertEqual((pvp(g)[1], g.state["heroes"][1]["out"]), (0, 0))
        g.do("end_turn")
        g.do("roll", "KKTTCC")
        g.do("end_turn")  # still at 0 at the end of their next turn
        self.assertEqual(g.state["heroes"][1]["out"], 1)
        self.assertEqual(pvp(g)[0], 15)  # Thor landed the last hit

    def test_survivor_who_recovers_stays(self):
        g = game(THOR, {"name": "Falcon", "pvp": 3, "abilities": ["Survivor"]}, VISION)
        g.do("attack", 1, 5, True)
        g.do("end_turn")
        g.do("roll", "YKTTCC")
        g.do("end_turn")
        self.assertEqual((pvp(g)[1], g.state["heroes"][1]["out"]), (1, 0))

    def test_survivor_who_spent_their_last_point_gives_no_final_blow(self):
        g = game({"name": "Falcon", "pvp": 3, "abilities": ["Survivor"]}, THOR, VISION)
        g.do("end_turn")
        g.do("attack", 0, 2, True)  # Thor hits Falcon first
        g.do("end_turn")
        g.do("end_turn")
        g.do("spend", 1)  # Falcon spends their own last point
        g.do("end_turn")
        g.do("end_turn")
        g.do("end_turn")
        g.do("end_turn")  # the end of Falcon's next turn
        self.assertEqual(g.state["heroes"][0]["out"], 1)
        self.assertEqual(pvp(g)[1], 12)  # no final blow for Thor

    def test_waiting_survivor_goes_when_two_are_left(self):
        """Rulebook: "provided that they are not in the Crystal Prison or one of the last two remaining Heroes." """
        g = game(THOR, {"name": "Falcon", "pvp": 3, "abilities": ["Survivor"]}, VISION)
        g.do("attack", 1, 5, True)
        g.do("attack", 2, 9, False)  # Vision out: only two left
        self.assertEqual(g.state["heroes"][1]["out"], 1)
        self.assertIn("Thor is the last hero standing", g.over())

    def test_negate_ends_with_its_maker(self):
        g = game(VISION, HULK, THOR)
        g.do("negate", 1)
        g.do("end_turn")
        g.do("end_turn")
        g.do("attack", 0, 9, True)  # Thor eliminates Vision
        g.do("attack", 1, 2, True)
        self.assertEqual(pvp(g)[1], 10 + 3 - 1)  # Cunning +3, then Tough again

    def test_survivor_of_the_last_two_goes_at_once(self):
        g = game(THOR, {"name": "Falcon", "pvp": 3, "abilities": ["Survivor"]})
        g.do("attack", 1, 5, True)
        self.assertEqual(g.state["heroes"][1]["out"], 1)
        self.assertIn("last hero standing", g.over())


class GameEnd(unittest.TestCase):
    def test_twenty_one_wins_at_once(self):
        """Rulebook: "The game ends immediately if one Hero manages to reach 21 PVP Points at any point during their turn." """
        g = game({"name": "Thor", "pvp": 19}, HULK)
        line = g.do("land", 2)
        self.assertIn("Thor reaches 21 PVP and wins!", line)
        with self.assertRaises(Refused) as caught:
            g.do("land", 1)
        self.assertIn("The game is over", str(caught.exception))

    def test_last_hero_standing_wins(self):
        """Rulebook: "The game ends when only one Hero remains standing (is still in the game and not in the Prison)" """
        g = game(THOR, VISION, HULK)
        g.do("attack", 1, 8, True)
        g.do("end_turn")
        g.do("roll", "MMMKKT")  # Hulk to the Prison: only Thor stands
        self.assertIn("Thor is the last hero standing", g.over())

    def test_a_finished_game_can_be_undone(self):
        g = game({"name": "Thor", "pvp": 19}, HULK)
        g.do("land", 2)
        g.undo()
        self.assertIsNone(g.over())
        g.do("land", 1)
        self.assertEqual(pvp(g)[0], 20)


class FromTheDice(unittest.TestCase):
    def test_the_acting_heros_roll_feeds_the_turn(self):
        from dicetower.core.games.battlerealm.tracker import letters_from_symbols
        from dicetower.core.replay import ScriptedFaces

        g = game(THOR, {"name": "Panther", "pvp": 7, "abilities": ["Lucky", "Gifted"]})
        g.do("disorientate", 1)
        g.do("end_turn")
        roll = g.new_roll(ScriptedFaces(["Mystic", "Mystic", "Skill", "Tech", "Cosmic", "Mutant", "Mystic"]))
        self.assertEqual((roll.rerolls_left, roll.lucky_left), (1, 1))
        roll.roll()
        roll.reroll([2])
        roll.finalize()
        line = g.do("roll", letters_from_symbols(roll.symbols()))
        self.assertEqual(pvp(g)[1], 7 + 3 + 1)  # three Mystic, and Gifted's one
        self.assertIn("Panther rolls Mystic Mystic Mystic Tech Cosmic Mutant.", line)


class Flags(unittest.TestCase):
    def test_disorientated_lasts_their_next_turn(self):
        """Rulebook: "A Disorientated Hero only has one re-roll, instead of two, during their next turn." """
        g = game(THOR, HULK)
        g.do("disorientate", 1)
        g.do("end_turn")
        self.assertEqual(g.state["heroes"][1]["disorientated"], 1)
        g.do("end_turn")
        self.assertEqual(g.state["heroes"][1]["disorientated"], 0)

    def test_disorientating_oneself_lasts_the_next_turn(self):
        g = game(THOR, HULK)
        g.do("disorientate", 0)
        g.do("end_turn")
        g.do("end_turn")
        self.assertTrue(g.new_roll(None).disorientated)
        g.do("end_turn")
        g.do("end_turn")
        self.assertFalse(g.new_roll(None).disorientated)

    def test_escape_power(self):
        g = game(THOR, HULK, VISION)
        with self.assertRaises(Refused):
            g.do("escape")
        g.do("roll", "MMMKKT")
        g.do("end_turn")
        g.do("end_turn")
        g.do("escape")
        self.assertEqual(g.state["heroes"][0]["prison"], 0)


class Warehouse(unittest.TestCase):
    """Where each hero stands is kept in the game, and the Collector's Cosmic Warehouse charges PVP."""

    def at_warehouse(self, *heroes):
        g = game(*heroes)
        self.assertEqual(g.do("move", 3), "Hulk moves to Collector's Cosmic Warehouse.")
        return g

    def test_results_cost_one_pvp_each_up_to_three(self):
        """Rulebook: "Heroes at the Collector's Cosmic Warehouse may spend up to 3 PVP points to gain additional dice results of their choosing. One PVP point for each additional die result." """
        g = self.at_warehouse(HULK, THOR)
        g.do("roll", "KTCCTT")
        self.assertEqual(g.do("buy", 2), "Hulk buys 2 results at the Warehouse: -2 PVP.")
        self.assertEqual(pvp(g), [8, 12])
        self.assertEqual(g.do("buy", 1), "Hulk buys 1 result at the Warehouse: -1 PVP.")
        self.assertEqual(pvp(g), [7, 12])
        before = g.state
        with self.assertRaises(Refused) as caught:
            g.do("buy", 1)  # a fourth result this turn
        self.assertEqual(str(caught.exception), "The Warehouse sells up to 3 results a turn; Hulk has bought 3.")
        self.assertEqual(g.state, before)
        self.assertEqual(g.undo(), "Undone: Hulk buys 1 result at the Warehouse: -1 PVP.")
        self.assertEqual(pvp(g), [8, 12])

    def test_refused_with_the_reason_and_nothing_changed(self):
        g = game(HULK, THOR)
        for results, why in (
            (1, "Hulk is not at the Collector's Cosmic Warehouse."),
            (4, "Results to buy must be 1 to 3, not 4."),
            (0, "Results to buy must be 1 to 3, not 0."),
        ):
            with self.assertRaises(Refused) as caught:
                g.do("buy", results)
            self.assertEqual(str(caught.exception), why)
        g.do("move", 1)  # The Ghost Orchid sells nothing
        with self.assertRaises(Refused):
            g.do("buy", 1)
        poor = self.at_warehouse(dict(HULK, pvp=2), THOR)
        before = poor.state
        with self.assertRaises(Refused) as caught:
            poor.do("buy", 3)
        self.assertEqual(str(caught.exception), "Hulk has only 2 PVP.")
        self.assertEqual(poor.state, before)
        self.assertEqual(poor.history(), ["Hulk moves to Collector's Cosmic Warehouse."])

    def test_the_allowance_is_per_turn(self):
        g = self.at_warehouse(HULK, THOR)
        g.do("buy", 3)
        g.do("end_turn")
        g.do("end_turn")
        self.assertEqual(g.do("buy", 3), "Hulk buys 3 results at the Warehouse: -3 PVP.")
        self.assertEqual(pvp(g), [4, 12])

    def test_each_hero_stands_somewhere_and_the_prison_is_a_place_of_its_own(self):
        g = self.at_warehouse(HULK, THOR, VISION)
        with self.assertRaises(Refused):
            g.do("move", 3)  # already there
        with self.assertRaises(Refused):
            g.do("move", 4)
        g.do("end_turn")
        self.assertEqual(g.do("move", 2), "Thor moves to Avengers Tower.")
        self.assertEqual([h["place"] for h in g.state["heroes"]], [3, 2, 0])
        g.do("end_turn")
        g.do("end_turn")
        g.do("roll", "MMMKKT")  # Hulk to the Crystal Prison; the turn ends
        self.assertEqual(g.state["heroes"][0]["place"], 0)
        g.do("end_turn")
        g.do("end_turn")
        self.assertEqual(g.state["turn"], 0)
        with self.assertRaises(Refused) as caught:
            g.do("move", 3)
        self.assertEqual(str(caught.exception), "Hulk is in the Crystal Prison and cannot move.")
        with self.assertRaises(Refused):
            g.do("buy", 1)

    def test_buying_the_last_point_eliminates_and_ends_the_turn(self):
        g = self.at_warehouse(dict(HULK, pvp=2), THOR, VISION)
        self.assertEqual(g.do("buy", 2), "Hulk buys 2 results at the Warehouse: -2 PVP. Hulk is eliminated.")
        self.assertEqual(g.state["turn"], 1)
        self.assertEqual(g.state["bought"], 0)
