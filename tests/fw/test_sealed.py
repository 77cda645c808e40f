"""A game's sealed dice (core/sealed.py): every face from the seed, in order, whenever the DRBG's requests
are made; the record as a player reads it; a power cut resumed at the same draw; a damaged or doctored
save refused. CPython and the VM."""

import unittest

from sources import Noise

from dicetower.core.dice import BATTLEREALM, D6, DANGER_COIN, plain
from dicetower.core.entropy import FairDice
from dicetower.core.health import EntropyFailure
from dicetower.core.sealed import SealedDice, commitment, from_saved

SEED = bytes(range(32))


def sealed(record=""):
    return SealedDice(None, SEED, "battlerealm", 4, 2, record)


def faces(dice, n, die=BATTLEREALM):
    return [dice.draw(die) for _ in range(n)]


class Stream(unittest.TestCase):
    def test_the_faces_are_the_seeds_whenever_the_requests_are_made(self):
        lazy = faces(sealed(), 300)
        ahead = sealed()
        got = []
        for _ in range(50):
            while ahead.prime():  # the next request made at idle, as the device's loop does
                pass
            got.extend(faces(ahead, 6))
        self.assertEqual(got, lazy)
        self.assertEqual(len(set(lazy)), 6)

    def test_another_seed_or_identity_is_another_game(self):
        other = SealedDice(None, bytes(31) + b"\x01", "battlerealm", 4, 2)
        self.assertNotEqual(faces(other, 60), faces(sealed(), 60))
        self.assertNotEqual(commitment(SEED, "battlerealm", 4, 3), sealed().commitment)
        self.assertNotEqual(commitment(SEED, "battleworld", 4, 2), sealed().commitment)
        self.assertEqual(len(sealed().commitment), 64)

    def test_the_record_numbers_rolls_and_marks_an_undo(self):
        dice = sealed()
        first = faces(dice, 6)
        dice.roll_ends()
        dice.undone()
        coin = dice.draw(DANGER_COIN)
        d20 = [dice.draw(plain(20)) for _ in range(2)]
        dice.roll_ends()
        record = dice.text()
        self.assertEqual(record, "6:%s ~ 2:%d/20:%d.%d" % ("".join(str(f) for f in first), coin, d20[0], d20[1]))
        self.assertEqual((dice.draws(), dice.rolls), (9, 2))


class PowerCut(unittest.TestCase):
    def test_a_resumed_game_goes_on_from_the_same_draw(self):
        dice = sealed()
        faces(dice, 6)
        dice.roll_ends()
        faces(dice, 3, D6)
        dice.roll_ends()
        again = from_saved(None, "battlerealm", dice.saved())
        self.assertEqual((again.draws(), again.rolls, again.commitment), (dice.draws(), dice.rolls, dice.commitment))
        self.assertEqual(faces(again, 20), faces(dice, 20))

    def test_a_record_that_the_seed_does_not_give_is_refused(self):
        dice = sealed()
        faces(dice, 6)
        saved = dice.saved()
        saved["record"] = saved["record"][:-1] + str((int(saved["record"][-1]) + 1) % 6)
        with self.assertRaises(ValueError):
            from_saved(None, "battlerealm", saved)

    def test_a_damaged_seal_is_refused_never_a_crash(self):
        good = sealed().saved()
        for change in (
            {"seed": "00"},
            {"seed": "zz" * 32},
            {"seed": 7},
            {"record": "6:9"},
            {"record": "x:1"},
            {"record": "1:0"},
            {"players": -1},
            {"counter": True},
            {"commitment": "0" * 64},
        ):
            saved = dict(good)
            saved.update(change)
            with self.assertRaises(ValueError, msg=repr(change)):
                from_saved(None, "battlerealm", saved)
        with self.assertRaises(ValueError):
            from_saved(None, "battlerealm", [])


class Paused(unittest.TestCase):
    def test_the_game_pauses_with_the_towers_noise_and_goes_on_from_the_same_draw(self):
        noise = Noise(5)
        tower = FairDice(noise)
        dice = SealedDice(tower, SEED, "battlerealm", 4, 2)
        honest = faces(sealed(), 12)
        got = faces(dice, 6)
        tower.failure = "Dice paused: noise failed its health check."  # as a failed test leaves it
        with self.assertRaises(EntropyFailure):
            dice.draw(BATTLEREALM)
        self.assertEqual(dice.failure, tower.failure)  # what the screen says of the game's dice
        tower.failure = None  # as a passed retry leaves it: the loop's next idle pass sees it
        dice.prime()
        self.assertIsNone(dice.failure)
        got.extend(faces(dice, 6))
        self.assertEqual(got, honest)


if __name__ == "__main__":
    unittest.main()
