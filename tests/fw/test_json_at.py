"""Where a hand-edited JSON file goes wrong (core/json_at.py): the line and column a user mends, the
same place CPython's own parser names (MicroPython's says only that the text is not JSON). Runs on
CPython and on the MicroPython VM."""

import unittest

from dicetower.core.game import parsed
from dicetower.core.json_at import where

# (text, (line, column)) as CPython's json.JSONDecodeError gives them (lineno, colno).
TYPOS = (
    ('{"a": 1 "b": 2}', (1, 9)),  # a comma missing
    ("{'a': 1}", (1, 2)),  # single quotes
    ('{"a": [1, 2}', (1, 12)),  # a bracket not closed
    ('{"a": "x\n"}', (1, 9)),  # a string not closed before the line ends
    ('{"a": tru}', (1, 7)),
    ('{"heroes": [\n  {"name": "X", "hp": 10},\n  {"name": "Y" "hp": 3}\n]}', (3, 16)),
    ("", (1, 1)),
    ('{"a": 1}}', (1, 9)),  # something after the value
    ('{"a": "\\x"}', (1, 8)),  # an escape JSON has not
    ('{"a" 1}', (1, 6)),  # a colon missing
    ('{"a": 1', (1, 8)),  # the end too soon
)


class Where(unittest.TestCase):
    def test_each_typo_is_placed_where_cpythons_parser_places_it(self):
        for text, at in TYPOS:
            self.assertEqual(where(text), at, text)

    def test_a_comma_before_a_closing_bracket_is_placed_on_the_comma(self):
        # JSON has no trailing comma; the comma is what to delete.
        self.assertEqual(where('{"a": 1,\n "b": [1, 2,]}'), (2, 12))
        self.assertEqual(where('{"a": 1,}'), (1, 8))

    def test_valid_json_has_no_place(self):
        for text in ('{"a": [1, -2.5e3, true, null, "\\u00e9\\n"]}', " [ ] ", "0", '"x"'):
            self.assertIsNone(where(text), text)

    def test_a_refused_file_is_named_with_its_place(self):
        with self.assertRaises(ValueError) as refused:
            parsed('{"heroes": [\n  {"name": "Wasp",}\n]}', "champions.json", strict=True)
        self.assertEqual(str(refused.exception), "champions.json is not valid JSON at line 2, column 18")


if __name__ == "__main__":
    unittest.main()


class Strict(unittest.TestCase):
    def test_a_file_only_a_person_writes_is_refused_for_a_comma_micropythons_parser_would_take(self):
        # MicroPython's json takes '[1, 2,]' and a missing comma between two objects: the same file
        # would mean one thing on the tower and be refused everywhere else.
        for text, at in (('{"a": [1, 2,]}', "line 1, column 12"), ('[{"a": 1}\n {"b": 2}]', "line 2, column 2")):
            with self.assertRaises(ValueError) as refused:
                parsed(text, "dice.json", strict=True)
            self.assertEqual(str(refused.exception), "dice.json is not valid JSON at line %s" % at[5:])
        self.assertEqual(parsed('{"a": [1, 2]}', "dice.json", strict=True), {"a": [1, 2]})
