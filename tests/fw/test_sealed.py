"""A game's sealed dice, version 2 (core/sealed.py): the faces are the seed's and the players' cut's, in
order, whenever the DRBG's requests are made; no face before the cut closes or outside a throw; the
record names every throw's place, die and faces; a contribution to the cut is what a phone or the
buttons can give, once; a damaged seal is read as far as it goes, never a crash. CPython and the VM."""

import unittest

from sources import Noise

from dicetower.core.dice import BATTLEREALM, D6, DANGER_COIN, Die, plain
from dicetower.core.entropy import FairDice
from dicetower.core.game import NO_HERO
from dicetower.core.health import EntropyFailure
from dicetower.core.sealed import SealedDice, commitment
from dicetower.ui.resealing import CUT_MOST, add, contribution, dice_text
from dicetower.ui.revealing import checked

SEED = bytes(range(32))
REALM = dice_text([BATTLEREALM])
PHONE = "0123456789abcdef0123456789abcdef"
# Known answers from the players' verifier (host_tools/dicetower_host/verify/, CPython's hmac and
# hashlib, written from docs/fairness.md's steps): this seed's commitment for a Battlerealm game of four,
# the tower's second seal, and its first faces for two cuts.
COMMITMENT = "dee8cb904b3432cb4f2e27b43b51c563828166b7e6dab39000c16234b7dab531"
UNCUT = [5, 2, 3, 3, 2, 0, 5, 4, 3, 3, 3, 2]
CUT = [1, 1, 2, 0, 2, 0, 1, 4, 3, 3, 0, 5]


def sealed(cut=None, tower=None, dice=REALM):
    seal = SealedDice(tower, SEED, "battlerealm", 4, 2, dice)
    for text in cut or ():
        add(seal, text)
    seal.close()
    return seal


def faces(seal, n, die=BATTLEREALM, at=0):
    seal.throw(at, NO_HERO, 0)
    got = [seal.draw(die) for _ in range(n)]
    seal.ends()
    return got


class Stream(unittest.TestCase):
    def test_the_faces_are_the_seeds_and_the_cuts_as_the_verifier_computes_them(self):
        self.assertEqual(sealed().commitment, COMMITMENT)
        self.assertEqual(faces(sealed(), 12), UNCUT)
        self.assertEqual(faces(sealed([PHONE, "#4711"]), 12), CUT)

    def test_the_faces_are_the_same_whenever_the_requests_are_made(self):
        lazy = sealed()
        got = []
        for at in range(50):
            got.extend(faces(lazy, 6, at=at))
        ahead = sealed()
        again = []
        for at in range(50):
            while ahead.prime():  # the next request made at idle, as the device's loop does
                pass
            again.extend(faces(ahead, 6, at=at))
        self.assertEqual(again, got)
        self.assertEqual(len(set(got)), 6)

    def test_another_seed_identity_die_or_cut_is_another_game(self):
        other = SealedDice(None, bytes(31) + b"\x01", "battlerealm", 4, 2, REALM)
        other.close()
        self.assertNotEqual(faces(other, 60), faces(sealed(), 60))
        self.assertNotEqual(faces(sealed(["#1"]), 60), faces(sealed(["#2"]), 60))
        self.assertNotEqual(commitment(SEED, "battlerealm", 4, 3, REALM), COMMITMENT)
        self.assertNotEqual(commitment(SEED, "battleworld", 4, 2, REALM), COMMITMENT)
        loaded = dice_text([Die("Attack", ("Star", "5", "5", "5", "5", "Blank"))])  # a dice.json's die
        self.assertNotEqual(commitment(SEED, "battlerealm", 4, 2, loaded), COMMITMENT)
        self.assertEqual(loaded, "Attack=Star,5,5,5,5,Blank")

    def test_no_face_before_the_cut_or_outside_a_throw(self):
        seal = SealedDice(None, SEED, "battlerealm", 4, 2, REALM)
        with self.assertRaises(EntropyFailure):
            seal.throw(0, NO_HERO, 0)  # the seal waits for its cut
        seal.close()
        with self.assertRaises(EntropyFailure):
            seal.draw(D6)  # no throw opened: a face would go unrecorded
        self.assertEqual(faces(seal, 12), UNCUT)


class Cut(unittest.TestCase):
    def test_a_contribution_is_a_phones_32_hex_digits_or_a_number(self):
        self.assertEqual(contribution(PHONE.upper()), PHONE)
        self.assertEqual(contribution("#004711"), "#4711")
        self.assertEqual(contribution("#0"), "#0")
        for bad in (
            "0x" + PHONE[2:],
            PHONE[:31],
            PHONE + "0",
            "g" * 32,
            " " + PHONE[1:],
            "#",
            "#1234567",
            "#-1",
            7,
            None,
        ):
            with self.assertRaises(ValueError, msg=repr(bad)):
                contribution(bad)

    def test_the_cut_takes_each_contribution_once_and_nothing_once_closed(self):
        seal = SealedDice(None, SEED, "battlerealm", 4, 2, REALM)
        add(seal, PHONE)
        with self.assertRaises(ValueError):
            add(seal, PHONE.upper())  # the same as one taken
        for n in range(CUT_MOST - 1):
            add(seal, "#%d" % n)
        with self.assertRaises(ValueError):
            add(seal, "#999")  # full
        seal.close()
        with self.assertRaises(ValueError):
            add(seal, "f" * 32)  # late
        self.assertEqual(len(seal.cut), CUT_MOST)


class Record(unittest.TestCase):
    def test_the_record_names_each_throws_place_die_and_faces(self):
        dice = dice_text([Die("Attack", ("Star", "2", "3", "4", "5", "Blank")), DANGER_COIN, plain(20)])
        seal = sealed(dice=dice)
        seal.throw(7, NO_HERO, 0)
        attack = seal.draw(D6)
        seal.throw(8, NO_HERO, 1)
        coin = seal.draw(DANGER_COIN)
        seal.ends()
        seal.again(7, NO_HERO, 0, [attack])
        seal.throw(9, 2, 2, 0b101)  # a re-roll of dice 1 and 3 of a d20 throw, at hero 2's place
        d20 = [seal.draw(plain(20)) for _ in range(2)]
        seal.throw(4321, NO_HERO, 1)  # a long game's place: its position takes two bytes
        late = seal.draw(DANGER_COIN)
        seal.ends()
        self.assertEqual(
            seal.text(),
            "7:0:%d 8:1:%d 7=0:%d 9.2:2:%d.%d@13 4321:1:%d" % (attack, coin, attack, d20[0], d20[1], late),
        )
        self.assertEqual((seal.draws(), seal.throws), (5, 4))

    def test_a_long_games_record_reads_the_same_asked_after_every_step_or_once(self):
        # Every save writes the record: the throws before the last are written out once and kept. Asked
        # after every step (a throw that drew nothing, dice given back, re-rolls), it is every throw's
        # place, die and faces, and the same as asked once at the end.
        asked, once = sealed(), sealed()
        tokens = []
        for at in range(220):  # past RECORD_MOST's bytes: the longest record a game keeps
            hero = at % 4
            if at % 5 == 0:
                asked.throw(at, hero, 0)  # a locked die picked: refused before its first face
                self.assertTrue(asked.text().endswith("%d.%d:0:" % (at, hero)))
                asked.ends()
                self.assertEqual(asked.text(), " ".join(tokens))
            reroll = 0b11 if at % 3 == 0 else 0
            got = []
            for seal in (asked, once):
                seal.throw(at, hero, 0, reroll)
                got = [seal.draw(BATTLEREALM)]
                if seal is asked:  # a throw still open, its first face drawn
                    now = "%d.%d:0:%d%s" % (at, hero, got[0], "@12" if reroll else "")
                    self.assertEqual(asked.text(), " ".join(tokens + [now]))
                got += [seal.draw(BATTLEREALM) for _ in range(1 if reroll else 5)]
                seal.ends()
            digits = "".join(str(face) for face in got)
            tokens.append("%d.%d:0:%s%s" % (at, hero, digits, "@12" if reroll else ""))
            if at % 7 == 0:
                for seal in (asked, once):
                    seal.again(at, hero, 0, got)
                tokens.append("%d.%d=0:%s" % (at, hero, digits))
            self.assertEqual(asked.text(), " ".join(tokens))
        self.assertEqual(once.text(), " ".join(tokens))
        self.assertEqual(asked.saved()["record"], once.saved()["record"])

    def test_a_long_throw_of_numbered_faces_reads_whole_and_from_its_header(self):
        # Numbers joined by "." (more than 10 sides), and the record from a throw on, as the monitor reads it.
        seal = sealed(dice=dice_text([plain(20)]))
        seal.throw(7, NO_HERO, 0)
        first = seal.draw(plain(20))
        told = seal.size  # as the monitor is told a throw's record (ui/sealing.py): from its header on
        seal.throw(300, NO_HERO, 0)
        got = [seal.draw(plain(20)) for _ in range(120)]
        seal.ends()
        faces = ".".join(str(face) for face in got)
        self.assertEqual((seal.text(), seal.text(told)), ("7:0:%d 300:0:%s" % (first, faces), "300:0:" + faces))

    def test_a_throw_that_draws_nothing_is_not_recorded(self):
        seal = sealed()
        seal.throw(3, NO_HERO, 0)
        seal.ends()  # refused before its first face (a locked die picked)
        self.assertEqual((seal.text(), seal.draws(), seal.throws), ("", 0, 0))


class Saved(unittest.TestCase):
    def test_a_saved_seal_is_read_whole(self):
        seal = sealed([PHONE])
        faces(seal, 6)
        kept, problem = checked(seal.saved())
        self.assertIsNone(problem)
        self.assertEqual(
            (kept["record"], kept["draws"], kept["cut"], kept["commitment"]), (seal.text(), 6, [PHONE], COMMITMENT)
        )

    def test_a_damaged_seal_is_read_as_far_as_it_goes_never_a_crash(self):
        good = sealed().saved()
        for change, lost in (
            ({"seed": "00"}, "seed"),
            ({"seed": "zz" * 32}, "seed"),
            ({"seed": 7}, "seed"),
            ({"record": ["6:9"]}, "record"),
            ({"counter": True}, "counter"),
            ({"cut": ["x" * 40]}, "cut"),
            ({"draws": "12"}, "draws"),
        ):
            saved = dict(good)
            saved.update(change)
            kept, problem = checked(saved)
            self.assertIn(lost, problem, msg=repr(change))
            self.assertFalse(lost in kept, msg=repr(change))
            self.assertEqual(kept["commitment"], COMMITMENT)  # what could be read is kept, and revealed
        self.assertEqual(checked([]), ({}, "the seal is not a record"))


class Paused(unittest.TestCase):
    def test_the_game_pauses_with_the_towers_noise_and_goes_on_from_the_same_draw(self):
        tower = FairDice(Noise(5))
        dice = sealed(tower=tower)
        got = faces(dice, 6)
        tower.failure = "Dice paused: noise failed its health check."  # as a failed test leaves it
        with self.assertRaises(EntropyFailure):
            dice.throw(1, NO_HERO, 0)
        self.assertEqual(dice.failure, tower.failure)  # what the screen says of the game's dice
        tower.failure = None  # as a passed retry leaves it: the loop's next idle pass sees it
        dice.prime()
        self.assertIsNone(dice.failure)
        got.extend(faces(dice, 6, at=1))
        self.assertEqual(got, UNCUT)


if __name__ == "__main__":
    unittest.main()
