"""The dice as data. Runs on CPython and the MicroPython VM."""

import unittest

from dicetower.core import dice
from dicetower.core.dice import ATTACK, BATTLEREALM, DANGER_COIN, Die, attack_hits, load_overrides, plain


class TheDice(unittest.TestCase):
    def test_battlerealm_die_has_each_symbol_once(self):
        """Rulebook: "The dice symbols are: Mutant, Science, Skill, Tech, Cosmic and Mystic." """
        self.assertEqual(sorted(BATTLEREALM.faces), sorted(["Mutant", "Science", "Skill", "Tech", "Cosmic", "Mystic"]))
        self.assertEqual(BATTLEREALM.sides, 6)

    def test_danger_coin(self):
        """Rulebook: "the Danger advances on Energy Battles or on crescent-moon Battles (the two symbols on the coin's faces)." """
        self.assertEqual(DANGER_COIN.faces, ("Energy", "Moon"))

    def test_attack_die_has_a_star_and_a_blank(self):
        self.assertEqual(ATTACK.faces.count("Star"), 1)
        self.assertEqual(ATTACK.faces.count("Blank"), 1)
        self.assertEqual(ATTACK.sides, 6)

    def test_a_dice_json_face_is_a_number_in_ascii_digits(self):
        # str.isdigit takes "²", which int() refuses on MicroPython: such a dice.json is refused at load.
        for face in ("\u00b2", "\u0663", "", " 3", "-2", "3.5"):
            with self.assertRaises(ValueError):
                load_overrides('{"attack": ["Star", "Blank", "1", %s]}' % repr(face).replace("'", '"'))
        self.assertEqual(load_overrides('{"attack": ["Star", "Blank", "1", "12"]}').faces[3], "12")

    def test_plain_dice(self):
        self.assertEqual(plain(6).faces, ("1", "2", "3", "4", "5", "6"))
        self.assertEqual(plain(20).name, "d20")
        for bad in (0, 1, 101, "6", True):
            with self.assertRaises(ValueError):
                plain(bad)

    def test_face_index(self):
        self.assertEqual(BATTLEREALM.index("Mystic"), BATTLEREALM.faces.index("Mystic"))
        self.assertEqual(BATTLEREALM.index(3), 3)
        for bad in ("Star", 6, -1, None):
            with self.assertRaises(ValueError):
                BATTLEREALM.index(bad)

    def test_bad_die_definitions(self):
        for faces in ((), ("One",), ("A", ""), ("A", 2)):
            with self.assertRaises(ValueError):
                Die("bad", faces)


class AttackDie(unittest.TestCase):
    def test_star_always_hits_blank_always_misses(self):
        """Rulebook: "the Attack Die's star face always hits and its blank face always misses." """
        self.assertTrue(attack_hits("Star", 0, 99))
        self.assertFalse(attack_hits("Blank", 99, 0))

    def test_total_equal_or_higher_hits(self):
        """Rulebook: "If your total is equal to or higher than the Attack Target Number on the Battle Card, you hit." """
        # The rulebook's example: "Captain Americat rolls a 5 and adds +4 for his Speed Bonus"
        self.assertTrue(attack_hits("5", 4, 8))
        self.assertTrue(attack_hits("4", 4, 8))
        self.assertFalse(attack_hits("3", 4, 8))


class Overrides(unittest.TestCase):
    def test_user_faces_replace_the_assumed_numbers(self):
        die = load_overrides('{"_note": "my die", "attack": ["Star", "1", "2", "3", "4", "Blank"]}')
        self.assertEqual(die.faces, ("Star", "1", "2", "3", "4", "Blank"))

    def test_empty_file_keeps_the_defaults(self):
        self.assertIs(load_overrides("{}"), dice.ATTACK)

    def test_bad_files_say_what_is_wrong(self):
        cases = (
            ("not json", "not valid JSON"),
            ("[1, 2]", "must hold an object"),
            ('{"atack": []}', "unknown key"),
            ('{"attack": "Star"}', "must be a list"),
            ('{"attack": ["2", "3", "Blank"]}', "one Star"),
            ('{"attack": ["Star", "Star", "Blank"]}', "one Star"),
            ('{"attack": ["Star", "Moon", "Blank"]}', "'Moon'"),
            ('{"attack": ["Star", 5, "Blank"]}', "5"),
        )
        for text, words in cases:
            with self.subTest(text=text):
                with self.assertRaises(ValueError) as caught:
                    load_overrides(text)
                self.assertIn(words, str(caught.exception))
