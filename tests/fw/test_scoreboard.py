"""The scoreboard's JSON (web/scoreboard.py): what the phones at the table are sent. CPython and the VM.

The device remakes the document after each change, as a piece of work of its own; these tests
press the tower's buttons on the bench and read the document a phone would get.
"""

import gc
import json
import unittest

from table import Table


def shared(seed=3):
    t = Table(seed=seed)
    board = t.device.share()
    t.wait(100)
    return t, board


def doc(board):
    return json.loads(board.latest)


class Document(unittest.TestCase):
    def test_the_start_menu_is_a_document_with_no_game(self):
        t, board = shared()
        d = doc(board)
        self.assertEqual(d["mode"], "start")
        self.assertFalse("kind" in d)
        self.assertTrue(d["version"] >= 1)

    def test_a_battlerealm_game_sends_every_heros_pvp_and_whose_turn(self):
        t, board = shared()
        t.presses("c a a c")  # New Battlerealm, 2 heroes, start
        t.wait(100)
        d = doc(board)
        self.assertEqual(d["kind"], "battlerealm")
        self.assertEqual([h["name"] for h in d["state"]["heroes"]], ["Hulk", "Thor"])
        self.assertEqual([h["pvp"] for h in d["state"]["heroes"]], [h["pvp"] for h in t.app.game.state["heroes"]])
        self.assertEqual(d["state"]["turn"], 0)
        self.assertEqual(d["goal"], 21)  # "The first hero to reach 21 PVP Points wins"
        self.assertEqual(d["places"][0], "Elsewhere")
        self.assertEqual(d["over"], "")

    def test_a_roll_sends_its_faces_locks_and_the_advice_once_ready(self):
        t, board = shared()
        t.presses("c a a c")  # New Battlerealm, 2 heroes, start
        t.presses("c")  # cut the seal
        t.presses("c")  # ... and Hulk rolls
        t.wait(2000)  # the animation ends and the advisor has answered
        d = doc(board)
        roll = t.app.roll
        self.assertEqual(d["roll"]["faces"], list(roll.symbols()))
        self.assertEqual(d["roll"]["locked"], list(roll.locked))
        self.assertEqual(d["roll"]["rerolls_left"], roll.rerolls_left)
        self.assertEqual(d["roll"]["chance"], t.app.advice.percent())
        self.assertEqual(d["roll"]["advised"], [die for die in range(6) if t.app.advised >> die & 1])
        # Mutant and Science lock when they show: the phone sees the same locks as the OLED.
        for die, face in enumerate(d["roll"]["faces"]):
            if face in ("Mutant", "Science"):
                self.assertEqual(d["roll"]["locked"][die], 1)

    def test_each_change_is_a_new_version_and_nothing_else_is(self):
        t, board = shared()
        first = doc(board)["version"]
        t.wait(500)  # nothing happens: the same document
        self.assertEqual(doc(board)["version"], first)
        t.presses("c")
        self.assertTrue(doc(board)["version"] > first)
        self.assertEqual(doc(board)["mode"], "setup")

    def test_the_history_is_every_line_of_the_game_from_where_asked(self):
        t, board = shared()
        t.presses("caac")  # New Battlerealm, 2 heroes, start
        t.presses("c")  # cut the seal
        t.presses("c ac")  # roll and finalize (A from the first die wraps to Finalize)
        while t.app.mode == "mark":
            t.presses("ac")
        t.presses("c")  # past the result
        t.wait(500)
        lines = t.app.game.history()
        self.assertTrue(lines)
        self.assertEqual(json.loads(_history(t))["lines"], lines)
        self.assertEqual(json.loads(_history(t, 1))["lines"], lines[1:])
        self.assertEqual(doc(board)["moves"], len(lines))
        self.assertEqual(doc(board)["results"], lines[-6:])

    def test_a_united_game_sends_the_ko_tokens_and_threshold(self):
        t, board = shared()
        t.presses("b b c c")  # New United, start
        t.wait(100)
        d = doc(board)
        self.assertEqual(d["kind"], "united")
        self.assertEqual(d["state"]["threshold"], t.app.game.state["threshold"])
        self.assertEqual(sum(h["ko"] for h in d["state"]["heroes"]), 0)

    def test_a_champions_game_sends_each_players_allies_and_the_minions_engaged_with_them(self):
        """Rulebook: "Minions enter play engaged with the player who revealed them." """
        t, board = shared()
        t.presses("b c c")  # New Champions, two players (P1, P2)
        t.wait(100)
        d = doc(board)
        # None played yet: the state has neither list, as a game saved before they were tracked.
        self.assertEqual(d["kind"], "champions")
        self.assertFalse("allies" in d["state"] or "minions" in d["state"])
        t.presses("aaaaa c c b c")  # Play ally: P1, Ally 1, 2 hit points (above The table)
        t.presses("bb c c bbb c")  # Minion engages: P1, Minion 1, 4 hit points
        t.presses("c b c b c")  # Minion engages: P2, Minion 2, 2 hit points
        t.wait(100)
        d = doc(board)
        self.assertEqual(d["state"]["allies"], [[0, "Ally 1", 2]])
        self.assertEqual(d["state"]["minions"], [[0, "Minion 1", 4], [1, "Minion 2", 2]])
        self.assertEqual(d["results"][-1], "Minion 2 enters play engaged with P2 (2 hit points).")


def _history(t, since=0):
    from dicetower.web.scoreboard import history

    return history(t.app, since)


class Memory(unittest.TestCase):
    def test_a_document_is_made_in_a_few_kilobytes(self):
        if not hasattr(gc, "mem_alloc"):
            self.skipTest("CPython has no gc.mem_alloc; the VM run checks this")
        t, board = shared()
        t.presses("c a a a a c")  # New Battlerealm, four heroes, start
        t.presses("c")  # cut the seal
        t.presses("c")  # a roll
        self.assertEqual(t.app.mode, "dice")
        t.wait(2000)
        gc.collect()
        before = gc.mem_alloc()
        board.update(t.app)
        made = gc.mem_alloc() - before
        self.assertTrue(made < 12000, made)

    def test_a_champions_document_with_every_ally_minion_and_side_scheme_is_made_in_a_few_kilobytes(self):
        if not hasattr(gc, "mem_alloc"):
            self.skipTest("CPython has no gc.mem_alloc; the VM run checks this")
        t, board = shared()
        t.presses("b c bb c")  # New Champions, four players
        game = t.app.game
        for n in range(12):  # "You may control at most three allies": three each, names at their longest
            game.do("ally", n // 3, "Ally of P%d, no %d" % (n // 3 + 1, n % 3 + 1), 20)
        for n in range(8):  # the tracker's most minions and side schemes
            game.do("minion", n % 4, "Minion number %02d" % n, 30)
            game.do("side", 0, "Side scheme no %02d" % n, 12, 1, 3, 3)
        gc.collect()
        before = gc.mem_alloc()
        board.update(t.app)
        made = gc.mem_alloc() - before
        self.assertEqual(len(json.loads(board.latest)["state"]["allies"]), 12)
        self.assertTrue(made < 12000, made)


if __name__ == "__main__":
    unittest.main()
