"""Undo, redo and history, for every tracker. Runs on CPython and the MicroPython VM."""

import unittest

from dicetower.core.game import UNDO_DEPTH, Refused, clone
from dicetower.core.games.battlerealm.tracker import Battlerealm
from dicetower.core.games.united.tracker import United


def realm():
    return Battlerealm.setup([{"name": "Hulk", "pvp": 10, "abilities": ["Tough"]}, {"name": "Thor", "pvp": 12}])


class Undo(unittest.TestCase):
    def test_undo_and_redo(self):
        g = realm()
        before = clone(g.state)
        g.do("end_turn")
        g.do("attack", 0, 3, True)
        after = clone(g.state)
        self.assertEqual(g.undo(), "Undone: Hulk -2 PVP (Attack by Thor, Tough -1).")
        g.undo()
        self.assertEqual(g.state, before)
        g.redo()
        g.redo()
        self.assertEqual(g.state, after)
        with self.assertRaises(Refused):
            g.redo()

    def test_a_refused_press_says_why_and_changes_nothing(self):
        g = realm()
        before = clone(g.state)
        self.assertEqual(g.attempt("remove_hero", [0]), (False, "battlerealm has no action 'remove_hero'."))
        self.assertEqual(g.attempt("land", [9]), (False, "A location's PVP must be 0 to 3, not 9."))
        self.assertEqual(g.state, before)
        self.assertEqual(g.actions, [])
        done, line = g.attempt("land", [2])
        self.assertTrue(done)
        self.assertEqual(line, g.lines[-1])
        self.assertEqual(len(g.actions), 1)

    def test_a_new_action_clears_redo(self):
        g = realm()
        g.do("land", 1)
        g.undo()
        g.do("land", 2)
        with self.assertRaises(Refused):
            g.redo()

    def test_fifty_steps_deep(self):
        g = United.setup([{"name": "Medusa"}], threshold=99)
        for _ in range(UNDO_DEPTH + 10):
            g.do("ko", 0)
        for _ in range(UNDO_DEPTH):
            g.undo()
        self.assertEqual(g.state["heroes"][0]["ko"], 10)
        with self.assertRaises(Refused) as caught:
            g.undo()
        self.assertEqual(str(caught.exception), "Nothing to undo.")
        self.assertTrue(UNDO_DEPTH >= 50)

    def test_refused_changes_nothing_and_is_not_history(self):
        g = realm()
        g.do("land", 1)
        state = clone(g.state)
        with self.assertRaises(Refused):
            g.do("attack", 0, 3, True)
        with self.assertRaises(Refused):
            g.do("fly", 1)
        with self.assertRaises(Refused):
            g.do("land")
        self.assertEqual(g.state, state)
        self.assertEqual(g.history(), ["Hulk lands: +1 PVP."])

    def test_history_reads_like_the_table(self):
        g = realm()
        g.do("end_turn")
        g.do("attack", 0, 4, True)
        self.assertEqual(g.history(), ["Hulk ends the turn.", "Hulk -3 PVP (Attack by Thor, Tough -1)."])
