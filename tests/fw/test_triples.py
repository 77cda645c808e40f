"""What finalized Battlerealm dice mean. Runs on CPython and the MicroPython VM."""

import unittest

from dicetower.core.games.battlerealm.roll import Roll, RollRefused
from dicetower.core.games.battlerealm.triples import SPENT_ESCAPE, SPENT_EXPLOSION, SPENT_PRISON, judge
from dicetower.core.replay import ScriptedFaces

M, S, K, T, C, Y = "Mutant", "Science", "Skill", "Tech", "Cosmic", "Mystic"


class Triples(unittest.TestCase):
    def test_three_mutant_send_the_hero_to_prison(self):
        """Rulebook: "rolling three Mutant sends the Hero to the Crystal Prison location" """
        out = judge((M, M, M, K, T, C))
        self.assertTrue(out.prison)
        self.assertEqual(out.spent[:3], [SPENT_PRISON] * 3)
        self.assertIn("Crystal Prison", out.mandatory[0])
        self.assertIn("ends your turn", out.mandatory[0])

    def test_fewer_than_three_mutant_do_nothing(self):
        """Rulebook: "Rolling one Mutant does nothing on its own, but rolling three Mutant sends the Hero to the Crystal Prison" """
        out = judge((M, M, K, T, C, Y))
        self.assertFalse(out.prison)
        self.assertEqual(out.mandatory, [])

    def test_honest_needs_four_mutant(self):
        """Rulebook: "It requires four Mutant, not three, to put the Honest Hero into the Crystal Prison." """
        self.assertFalse(judge((M, M, M, K, T, C), ("Honest",)).prison)
        self.assertTrue(judge((M, M, M, M, T, C), ("Honest",)).prison)

    def test_three_science_explode_for_one(self):
        """Rulebook: "rolling three Science causes an Explosion which causes one PVP Point of damage to all Heroes at the rolling Hero's location." """
        out = judge((S, S, S, K, T, C))
        self.assertEqual(out.explosion, 1)
        self.assertEqual(out.spent[:3], [SPENT_EXPLOSION] * 3)
        self.assertIn("1 damage", out.mandatory[0])

    def test_the_explosion_spares_the_roller(self):
        """Rulebook: "A Hero can never cause damage to themself." """
        self.assertIn("every other hero at your location", judge((S, S, S, K, T, C)).mandatory[0])

    def test_each_extra_science_adds_one_damage(self):
        """Rulebook: "One additional PVP Point of damage is caused for each additional Science rolled above the initial three." """
        self.assertEqual(judge((S, S, S, S, T, C)).explosion, 2)
        self.assertEqual(judge((S, S, S, S, S, S)).explosion, 4)

    def test_careful_needs_four_science(self):
        """Rulebook: "It requires four Science results, not three, for the Hero to cause an Explosion." """
        self.assertEqual(judge((S, S, S, K, T, C), ("Careful",)).explosion, 0)
        # design.md: 1 damage plus 1 for each Science above the threshold.
        self.assertEqual(judge((S, S, S, S, T, C), ("Careful",)).explosion, 1)
        self.assertEqual(judge((S, S, S, S, S, C), ("Careful",)).explosion, 2)

    def test_science_resolves_before_mutant(self):
        """Rulebook: "If both triple Mutant and triple Science are rolled, resolve the Science results first." """
        out = judge((M, S, M, S, M, S))
        self.assertEqual(out.explosion, 1)
        self.assertTrue(out.prison)
        self.assertIn("Explosion", out.mandatory[0])
        self.assertIn("Crystal Prison", out.mandatory[1])
        self.assertEqual(out.free(), [])

    def test_spent_dice_cannot_pay_cards(self):
        """Rulebook: "Any Mutant or Science dice that resulted in an Explosion or Crystal Prison sentence cannot be used to activate Power cards." """
        out = judge((S, S, S, M, K, Y))
        self.assertEqual(out.free(), [3, 4, 5])


class CrystalPrison(unittest.TestCase):
    def test_any_triple_escapes(self):
        """Rulebook: "Players can escape by rolling triples of any die results." """
        out = judge((C, C, C, K, T, Y), in_prison=True)
        self.assertTrue(out.escaped)
        self.assertEqual(out.escape_symbol, C)
        self.assertEqual(out.spent[:3], [SPENT_ESCAPE] * 3)
        self.assertEqual(out.cosmic, 0)
        self.assertIn("Escape", out.lines[0])

    def test_escape_triple_results_are_ignored(self):
        """Rulebook: "The results of this set of triples are ignored when using them to escape from the Crystal Prison." """
        out = judge((Y, Y, Y, Y, K, T), in_prison=True)
        self.assertEqual(out.escape_symbol, Y)
        self.assertEqual(out.mystic, 1)
        self.assertEqual(out.pvp, 1)

    def test_escape_with_three_mutant_does_not_reimprison(self):
        out = judge((M, M, M, K, T, C), in_prison=True)
        self.assertTrue(out.escaped)
        self.assertFalse(out.prison)

    def test_no_triple_stays_in_prison(self):
        """Rulebook: "The Hero must remain there until any set of triples are rolled, instead of the usual Cosmic result needed to change locations." """
        out = judge((C, C, K, K, T, Y), in_prison=True)
        self.assertFalse(out.escaped)
        self.assertIn("Still in the Crystal Prison", " ".join(out.lines))
        # No Attack and no move from the Prison: Skill, Tech and Cosmic offer nothing.
        for line in out.lines:
            self.assertFalse(line.startswith("Skill") or line.startswith("Tech") or line.startswith("Cosmic"), line)

    def test_player_may_choose_the_escape_triple(self):
        out = judge((S, S, S, C, C, C), in_prison=True, escape_with=C)
        self.assertEqual(out.escape_symbol, C)
        self.assertEqual(out.explosion, 1)
        default = judge((S, S, S, C, C, C), in_prison=True)
        self.assertEqual(default.escape_symbol, S)
        self.assertEqual(default.explosion, 0)
        self.assertEqual(default.cosmic, 3)

    def test_escape_with_a_symbol_not_rolled_three_times_is_refused(self):
        with self.assertRaises(ValueError):
            judge((S, S, K, C, C, C), in_prison=True, escape_with=S)
        roll = Roll(ScriptedFaces((S, S, K, C, C, C)), in_prison=True)
        roll.roll()
        with self.assertRaises(RollRefused):
            roll.finalize(escape_with=S)
        self.assertFalse(roll.finalized)
        self.assertEqual(roll.finalize().escape_symbol, C)

    def test_escape_outside_prison_refused(self):
        with self.assertRaises(ValueError):
            judge((C, C, C, K, T, Y), escape_with=C)

    def test_six_mutant_escape_and_return(self):
        out = judge((M, M, M, M, M, M), in_prison=True)
        self.assertTrue(out.escaped)
        self.assertTrue(out.prison)


class Points(unittest.TestCase):
    def test_each_mystic_gains_a_pvp_point(self):
        """Rulebook: "The Hero gains a single PVP Point for each Mystic rolled." """
        out = judge((Y, Y, K, T, C, M))
        self.assertEqual(out.pvp, 2)
        self.assertIn("+2 PVP", " ".join(out.lines))

    def test_gifted_adds_one_when_any_mystic(self):
        """Rulebook: "The Hero gains one additional PVP Point whenever one or more Mystic are rolled." """
        self.assertEqual(judge((Y, Y, K, T, C, M), ("Gifted",)).pvp, 3)
        self.assertEqual(judge((K, K, K, T, C, M), ("Gifted",)).pvp, 0)

    def test_peaceful_gains_two_without_skill_or_tech(self):
        """Rulebook: "If the Hero did not roll any Skill or Tech results in a turn, they gain 2 PVP Points." """
        self.assertEqual(judge((Y, C, C, M, S, Y), ("Peaceful",)).pvp, 4)
        self.assertEqual(judge((Y, C, C, M, S, K), ("Peaceful",)).pvp, 1)
        self.assertEqual(judge((Y, C, C, M, S, T), ("Peaceful",)).pvp, 1)

    def test_skill_damages_heroes_at_the_location(self):
        """Rulebook: "For each Skill rolled, the Hero can do one PVP Point of damage to another Hero in the same location as the rolling Hero." """
        out = judge((K, K, T, C, C, C))
        self.assertEqual(out.skill, 2)
        self.assertIn("Skill 2: up to 2 damage to heroes at your location (Attack, from: Skill).", out.lines)

    def test_tech_damages_heroes_elsewhere(self):
        """Rulebook: "For each Tech rolled, the Hero can do one PVP Point of damage to another Hero in another location than the rolling Hero." """
        out = judge((K, K, T, C, C, C))
        self.assertEqual(out.tech, 1)
        self.assertIn("Tech 1: up to 1 damage to heroes at other locations (Attack, from: Tech).", out.lines)

    def test_cosmic_moves(self):
        """Rulebook: "it takes one extra Cosmic result for each additional Hero at the starting location to leave that location." """
        out = judge((K, K, T, C, C, C))
        self.assertEqual(out.cosmic, 3)
        self.assertIn("Cosmic 3: move (1 Cosmic, plus 1 for each other hero at your location).", out.lines)

    def test_peaceful_counts_skill_spent_on_an_escape(self):
        """Rulebook: "If the Hero did not roll any Skill or Tech results in a turn, they gain 2 PVP Points." """
        out = judge((K, K, K, Y, C, C), ("Peaceful",), in_prison=True)
        self.assertTrue(out.escaped)
        self.assertEqual(out.pvp, 1)

    def test_unknown_face_refused(self):
        with self.assertRaises(ValueError):
            judge((K, K, T, C, C, "Star"))


if __name__ == "__main__":
    unittest.main()
