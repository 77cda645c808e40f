"""The Battlerealm turn of the six dice (core/games/battlerealm/turn.py), without the box. Runs on CPython and the VM."""

import unittest

from dicetower.core.game import Refused
from dicetower.core.games.battlerealm.roll import RollRefused
from dicetower.core.games.battlerealm.tracker import Battlerealm
from dicetower.core.games.battlerealm.turn import Turn
from dicetower.core.replay import ScriptedFaces

WAREHOUSE = 3  # cards.LOCATIONS.index(cards.WAREHOUSE)
M, S, K, T, C, Y = "Mutant", "Science", "Skill", "Tech", "Cosmic", "Mystic"


def turn(heroes=None, cards=None):
    """A two-hero game (Hulk acting) and its Turn, with the actions it records written down."""
    game = Battlerealm.setup(heroes or [{"name": "Hulk", "pvp": 10}, {"name": "Thor", "pvp": 12}])
    done = []
    t = Turn(lambda name, values, line: done.append((name, list(values))))
    t.game = game
    t.heroes = [{"name": "Hulk", "cards": cards or []}]
    return t, done


def roll(t, *faces):
    t.start(ScriptedFaces(faces))


def rolled_and_undone(t, *faces):
    """A roll of `faces`, finalized and recorded, then undone: its faces are the turn's to roll again."""
    roll(t, *faces)
    t.record(t.finalize())
    t.game.undo()


class Rolling(unittest.TestCase):
    def test_a_roll_once_a_turn(self):
        t, done = turn()
        roll(t, K, K, T, T, C, Y)
        t.record(t.finalize())
        with self.assertRaises(Refused):
            roll(t, K, K, T, T, C, Y)
        self.assertEqual([name for name, _ in done], ["roll"])

    def test_a_locked_die_is_not_picked_without_lucky(self):
        """Rulebook: "Only the Mutant and Science results that have been locked cannot be re-rolled." """
        t, _ = turn()
        roll(t, M, K, T, T, C, Y, S)  # the last face for the re-roll
        self.assertFalse(t.pick(0))
        self.assertEqual((t.picked, t.message), (0, "Die 1 is locked."))
        self.assertTrue(t.pick(1))
        self.assertEqual(t.reroll(), [1])
        self.assertEqual(t.roll.rerolls_left, 1)
        self.assertEqual(t.roll.locked[1], 1)  # a Science re-rolled locks in turn

    def test_lucky_rerolls_one_die_even_a_locked_one(self):
        """Rulebook: "The Hero may re-roll any single die result one additional time each turn, including both Mutant and Science results, even if there were already three of them rolled." """
        t, _ = turn([{"name": "Hulk", "abilities": ["Lucky"]}, {"name": "Thor"}])
        t.start(ScriptedFaces([M, M, M, K, T, C, Y]))
        self.assertTrue(t.pick(0))
        self.assertTrue(t.pick(1))
        with self.assertRaises(RollRefused):
            t.lucky()  # two dice picked
        t.pick(1)
        self.assertEqual(t.lucky(), 0)
        self.assertEqual(t.roll.symbols()[0], Y)
        self.assertEqual((t.roll.lucky_left, t.roll.rerolls_left), (0, 2))

    def test_an_undone_roll_comes_back_with_its_faces_and_the_re_rolls_it_had_left(self):
        """Rulebook: "The player may choose to re-roll any or all of the six dice up to two times." A die
        that has landed stays landed: the roll comes back as it stood, not as new chances."""
        t, _ = turn()
        roll(t, M, K, T, T, C, Y)
        t.pick(1)
        t.roll.dice = ScriptedFaces([Y])
        t.reroll()
        t.record(t.finalize())
        t.game.undo()
        t.start(ScriptedFaces([S, S, S, S, S, S]))  # fresh dice are not used
        self.assertEqual(t.roll.symbols(), (M, Y, T, T, C, Y))
        self.assertEqual((t.roll.rerolls_left, t.roll.lucky_left), (1, 0))  # one used, one left
        self.assertEqual(t.message, "The dice as they landed. Pick dice to re-roll.")

    def test_the_re_rolls_an_undone_roll_had_left_roll_new_dice(self):
        """Rulebook: "The player may choose to re-roll any or all of the six dice up to two times." An undone
        roll's own faces come back, and re-rolling some of them draws new faces from the tower's dice."""
        t, _ = turn()
        rolled_and_undone(t, K, K, T, T, C, Y)
        t.start(ScriptedFaces([S, M]))  # the tower's dice: the re-rolls draw from them
        self.assertEqual(t.roll.symbols(), (K, K, T, T, C, Y))
        t.pick(0)
        t.reroll()
        self.assertEqual(t.roll.symbols(), (S, K, T, T, C, Y))
        self.assertEqual(t.roll.rerolls_left, 1)
        t.pick(5)
        t.reroll()
        self.assertEqual((t.roll.symbols(), t.roll.locked[5]), ((S, K, T, T, C, M), 1))  # a Mutant locks

    def test_an_undone_roll_keeps_its_locks_and_lucky_used(self):
        """Rulebook: "When a Mutant is rolled, that individual die is locked and cannot be re-rolled that turn." """
        t, _ = turn([{"name": "Hulk", "abilities": ["Lucky"]}, {"name": "Thor"}])
        roll(t, M, K, T, T, C, Y)
        t.pick(0)
        t.roll.dice = ScriptedFaces([K])
        t.lucky()  # the locked Mutant becomes a Skill, still locked for the turn
        t.record(t.finalize())
        t.game.undo()
        t.start(ScriptedFaces([S] * 6))
        self.assertEqual(t.roll.symbols(), (K, K, T, T, C, Y))
        self.assertEqual((t.roll.rerolls_left, t.roll.lucky_left, t.roll.locked[0]), (2, 0, 1))
        self.assertFalse(t.pick(0))  # no Lucky left to take it

    def test_a_roll_read_back_from_flash_comes_back_as_it_stood(self):
        """What landed is saved with the game: a power cut between the roll and its record brings back the
        same dice, locks and re-rolls left, on a Turn that never saw them."""
        from dicetower.core.save_reader import decode
        from dicetower.core.savefile import encode

        t, _ = turn()
        roll(t, M, K, T, T, C, Y)
        t.pick(1)
        t.roll.dice = ScriptedFaces([S])
        t.reroll()
        t2, _ = turn()
        t2.game = decode(encode(t.game))  # the power comes back: the save, read
        t2.start(ScriptedFaces([C] * 6))
        self.assertEqual(t2.roll.symbols(), (M, S, T, T, C, Y))
        self.assertEqual((list(t2.roll.locked), t2.roll.rerolls_left), ([1, 1, 0, 0, 0, 0], 1))
        self.assertEqual(t2.message, "The dice as they landed. Pick dice to re-roll.")

    def test_a_roll_undone_across_turns_comes_back_as_it_stood(self):
        t, _ = turn()
        roll(t, K, K, T, T, C, Y)
        t.record(t.finalize())
        t.game.do("end_turn")
        roll(t, C, C, Y, Y, T, T)  # Thor's
        t.record(t.finalize())
        for _ in range(3):
            t.game.undo()  # Thor's roll, Hulk's end of turn, Hulk's roll
        t.start(ScriptedFaces([S] * 6))
        self.assertEqual(t.roll.symbols(), (K, K, T, T, C, Y))
        t.record(t.finalize())
        t.game.do("end_turn")
        t.start(ScriptedFaces([S] * 6))
        self.assertEqual(t.roll.symbols(), (C, C, Y, Y, T, T))  # Thor's, too: a new action did not lose it

    def test_an_undone_roll_is_not_replayed_in_another_turn(self):
        t, _ = turn()
        rolled_and_undone(t, K, K, T, T, C, Y)
        t.game.do("end_turn")
        roll(t, C, C, Y, Y, T, T)
        self.assertEqual(t.roll.symbols(), (C, C, Y, Y, T, T))
        self.assertEqual(t.roll.rerolls_left, 2)


class Explosion(unittest.TestCase):
    def test_the_heroes_marked_take_the_explosion(self):
        """Rulebook: "rolling three Science causes an Explosion which causes one PVP Point of damage to all Heroes at the rolling Hero's location." """
        t, done = turn([{"name": "Hulk"}, {"name": "Thor"}, {"name": "Vision"}])
        roll(t, S, S, S, K, T, C)
        self.assertTrue(t.needs_marks())
        self.assertEqual(t.mark_items(), [1, 2])
        t.mark(2)
        self.assertTrue(t.record(t.finalize()))
        self.assertEqual([h["pvp"] for h in t.game.state["heroes"]], [10, 10, 9])
        self.assertEqual(done, [("roll", ["SSSKTC", [2]])])

    def test_no_marks_without_an_explosion(self):
        t, _ = turn()
        roll(t, S, S, K, K, T, C)
        self.assertFalse(t.needs_marks())


class Place(unittest.TestCase):
    def test_moving_round_the_locations_leaves_one_move(self):
        t, done = turn()
        roll(t, K, K, T, T, C, Y)
        for _ in range(3):
            t.move()
        self.assertEqual(t.place(), "Collector's Cosmic Warehouse")
        self.assertEqual(t.game.actions, [["move", 3]])
        t.move()  # round to where the hero stood: no move at all, and nothing left to redo
        self.assertEqual(t.message, "At: Elsewhere, as before.")
        self.assertEqual(t.game.actions, [])
        with self.assertRaises(Refused):
            t.game.redo()
        self.assertEqual([name for name, _ in done], ["move", "move", "move"])

    def test_a_hero_in_the_prison_cannot_move(self):
        t, done = turn([{"name": "Hulk"}, {"name": "Thor"}, {"name": "Vision"}])
        roll(t, M, M, M, K, T, C)
        t.record(t.finalize())  # to the Prison; the turn ends
        t.game.do("end_turn")
        t.game.do("end_turn")
        roll(t, K, K, T, T, C, Y)
        t.move()
        self.assertIn("Crystal Prison and cannot move", t.message)
        self.assertEqual(t.place(), "Elsewhere")


class Advice(unittest.TestCase):
    def test_the_aim_goes_round_the_cards_and_the_advice_is_worked_out_in_slices(self):
        cards = [
            {"name": "Thunderclap", "dice": [M, S, K, K]},
            {"name": "World Breaker", "dice": [K, K, Y, Y]},
            {"name": "Card 3", "dice": None},
        ]
        t, _ = turn(cards=cards)
        roll(t, K, K, T, T, C, Y)
        self.assertEqual(t.target_name(), "Any card")
        t.aim()
        self.assertEqual(t.target_name(), "Thunderclap")
        t.aim()
        self.assertEqual(t.target_name(), "World Breaker")
        t.aim()
        self.assertEqual(t.target_name(), "Any card")  # a card still to fill in is never aimed at
        slices = 0
        while t.thinking():
            t.think()
            slices += 1
        self.assertTrue(slices > 4, slices)  # the advisor's four modules, one a slice, then the plan
        self.assertIsNotNone(t.advice)
        self.assertEqual(t.advised & ~0x3F, 0)

    def test_no_cards_no_advice(self):
        t, _ = turn()
        roll(t, K, K, T, T, C, Y)
        self.assertFalse(t.thinking())
        self.assertEqual(t.target_name(), "No cards")


class Warehouse(unittest.TestCase):
    """Rulebook: "Heroes at the Collector's Cosmic Warehouse may spend up to 3 PVP points to gain additional dice results of their choosing. One PVP point for each additional die result." """

    def test_a_card_paid_with_a_result_bought_is_charged_after_the_roll(self):
        t, done = turn(cards=[{"name": "Smash", "dice": [K, K, K]}])
        t.move()
        t.move()
        t.move()
        roll(t, K, K, T, T, C, C)
        self.assertTrue(t.record(t.finalize()))
        self.assertEqual([name for name, _ in done[-2:]], ["roll", "buy"])
        self.assertEqual(t.game.state["heroes"][0]["pvp"], 9)
        self.assertIn("Pays Smash (dice 1 2, buy Skill: 1 PVP).", t.message)
        self.assertTrue(t.message.endswith("Hulk buys 1 result at the Warehouse: -1 PVP."))

    def test_sent_to_the_prison_the_hero_pays_first(self):
        """Rulebook: "As soon as a Hero enters the Crystal Prison, their turn is over." """
        t, done = turn(
            [{"name": "Hulk"}, {"name": "Thor"}, {"name": "Vision"}], cards=[{"name": "Smash", "dice": [K, K]}]
        )
        for _ in range(3):
            t.move()
        roll(t, M, M, M, K, T, C)
        self.assertTrue(t.record(t.finalize()))
        self.assertEqual([name for name, _ in done[-2:]], ["buy", "roll"])
        hulk = t.game.state["heroes"][0]
        self.assertEqual((hulk["pvp"], hulk["prison"]), (9, 1))
        self.assertEqual(t.game.state["turn"], 1)  # the turn is over

    def test_never_with_the_last_point_before_the_prison(self):
        t, done = turn([{"name": "Hulk", "pvp": 1}, {"name": "Thor"}], cards=[{"name": "Smash", "dice": [K, K]}])
        for _ in range(3):
            t.move()
        roll(t, M, M, M, K, T, C)
        self.assertTrue(t.record(t.finalize()))
        self.assertEqual([name for name, _ in done[-1:]], ["roll"])  # nothing bought: the roll still counts
        self.assertEqual(t.game.state["heroes"][0]["pvp"], 1)
        self.assertIn("No power card can be paid.", t.message)

    def test_a_refused_roll_takes_back_what_was_bought_for_it(self):
        t, done = turn(
            [{"name": "Hulk"}, {"name": "Thor"}, {"name": "Vision"}], cards=[{"name": "Smash", "dice": [K, K]}]
        )
        game = t.game
        game.do("end_turn")
        roll(t, M, M, M, K, T, C)  # Thor to the Prison: Vision's turn
        t.record(t.finalize())
        t.heroes = [{"name": "Vision", "cards": [{"name": "Smash", "dice": [K, K]}]}]
        for _ in range(3):
            t.move()
        roll(t, M, M, M, K, T, C)
        t.mark(1)  # Thor, in the Prison, is not at Vision's location
        saved = []
        t.save = lambda: saved.append(1)
        self.assertFalse(t.record(t.finalize()))
        self.assertIn("not at your location", t.message)
        vision = game.state["heroes"][2]
        self.assertEqual((vision["pvp"], vision["prison"], game.state["rolled"]), (10, 0, 0))
        self.assertEqual(game.actions[-1], ["move", 3])
        self.assertEqual(saved, [1])  # the take-back of the move, saved


class TakeBack(unittest.TestCase):
    def test_take_back_leaves_nothing_to_redo(self):
        """A move taken back is a choice changed, as a new action is: the actions undone after it may have
        needed it (a buy at the Warehouse it went to), so they cannot be redone without it."""
        game = Battlerealm.setup([{"name": "Hulk"}, {"name": "Thor"}])
        game.do("land", 2)
        game.undo()
        game.do("move", 1)
        game.redo_actions.append(["land", 2])  # as if the move came back by redo with more to redo
        self.assertEqual(game.take_back(), "Hulk moves to The Ghost Orchid.")
        self.assertEqual(game.state["heroes"][0]["place"], 0)
        self.assertEqual(game.redo_actions, [])
        with self.assertRaises(Refused):
            game.redo()
        with self.assertRaises(Refused):
            Battlerealm.setup([{"name": "Hulk"}, {"name": "Thor"}]).take_back()


if __name__ == "__main__":
    unittest.main()
