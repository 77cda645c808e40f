"""Every game's module (core/games/) is complete: its tracker, set-up, menu, status line, gauge and save
codes agree with one another. Runs on CPython and the MicroPython VM."""

import unittest

from dicetower.core import actions
from dicetower.core.game import Refused
from dicetower.core.games import GAMES, game, part, players
from dicetower.core.save_reader import decode
from dicetower.core.savefile import encode

KINDS = (
    actions.HERO,
    actions.OTHER,
    actions.FOE,
    actions.NUMBER,
    actions.CHOICE,
    actions.PICK,
    actions.PICK_IF,
    actions.FIXED,
    actions.NAMED,
    actions.ROLL_ATTACK,
    actions.FLIP_COIN,
    actions.SIX_DICE,
)


class Registry(unittest.TestCase):
    def test_a_game_has_a_set_up_exactly_when_its_line_says_how_to_open_it(self):
        """The hold-B line is the count screen's way to the set-up: a set-up without one could not be
        opened, a line without a set-up would open nothing."""
        for line in GAMES:
            try:
                __import__(part(line[1], "setup"))
                has = True
            except ImportError:
                has = False
            self.assertEqual(bool(line[4]), has, line[1])

    def test_each_game_sets_up_its_whole_player_range(self):
        for _label, kind, *_ in GAMES:
            rules = game(kind)
            self.assertEqual(rules.TRACKER.KIND, kind)
            low, high, default = players(kind)
            self.assertTrue(low <= default <= high, kind)
            for count in (low, default, high):
                tracker = rules.new_game(count, {})
                self.assertEqual(decode(encode(tracker)).state, tracker.state)  # and it saves

    def test_every_menu_entry_is_an_action_of_the_tracker_with_known_arg_kinds(self):
        for _label, kind, *_ in GAMES:
            rules = game(kind)
            state = rules.new_game(players(kind)[2], {}).state
            for entry, name, args in rules.MENU:
                self.assertTrue(hasattr(rules.TRACKER, "act_" + name), (kind, name))
                values = []
                for arg in args:
                    self.assertIn(arg[1], KINDS, (kind, entry))
                    if actions.asks(arg[1]):
                        # Something to pick, or (nothing in play yet: no open battle) a reason, at once.
                        try:
                            options = actions.choices(state, arg, values)
                        except Refused as e:
                            self.assertTrue(str(e), (kind, entry, arg[0]))
                            break
                        self.assertTrue(options or arg[1] == actions.PICK_IF, (kind, entry, arg[0]))
                    values.append(None)

    def test_the_status_is_text_and_the_gauge_fills_its_four(self):
        for _label, kind, *_ in GAMES:
            rules = game(kind)
            state = rules.new_game(players(kind)[1], {}).state
            rows = rules.status(state, 4)
            self.assertTrue(rows and all(isinstance(row, str) and row for row in rows), (kind, rows))
            out = [None] * 4
            rules.gauge(state, out)
            self.assertTrue(all(isinstance(n, int) for n in out), (kind, out))
            self.assertTrue(0 <= out[0] and out[1] > 0 and out[3] in (0, 1), (kind, out))

    def test_an_unknown_game_is_none_of_them(self):
        with self.assertRaises(KeyError):
            game("monopoly")


if __name__ == "__main__":
    unittest.main()
