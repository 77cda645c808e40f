"""A whole four-player game of each mode plays to its end. Runs on CPython and the VM."""

import unittest

from dicetower.core.save_reader import decode
from dicetower.core.savefile import encode
from scripted_games import GAMES, play


class WholeGames(unittest.TestCase):
    def test_every_registered_game_has_a_scripted_game(self):
        from dicetower.core.games import GAMES as REGISTERED

        self.assertEqual(sorted(maker.__name__ for maker in GAMES), sorted(kind for _, kind, *_ in REGISTERED))

    def test_each_game_reaches_its_end(self):
        for maker in GAMES:
            with self.subTest(game=maker.__name__):
                game, ending, done = play(maker)
                self.assertTrue(game.over() and ending in game.over(), (maker.__name__, game.over()))
                self.assertTrue(done >= 10)
                self.assertEqual(decode(encode(game)).state, game.state)
