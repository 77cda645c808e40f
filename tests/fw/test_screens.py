"""What a new player reads on the OLED: whole letters on highlighted lines, the dice screen's marks and
words, the long presses' hint, the menu after a turn, names and counts. CPython and the VM."""

import json
import sys
import unittest

from dicetower.core.games import GAMES, game
from dicetower.core.games.battlerealm.roster import heroes
from dicetower.ui import font
from dicetower.ui.canvas import COLUMNS
from dicetower.ui.flow import TABLE_ROW
from dicetower.ui.resealing import ROW
from dicetower.ui.screens import HINT
from table import Scripted, Table

HEROES = heroes({}, True)  # the built-in roster, as its file (heroes.json) has it

ROLL = ["Mutant", "Skill", "Science", "Tech", "Cosmic", "Mystic"]
WIDTH = 128


def lucky_heroes():
    heroes = json.loads(json.dumps(HEROES))
    heroes[0]["abilities"] = heroes[0]["abilities"] + ["Lucky"]  # Hulk, who rolls first
    return heroes


def stroke(ram, page):
    """(the column before a line's first letter, that letter's first column), on the panel."""
    return ram[page * WIDTH], ram[page * WIDTH + 1]


class HighlightedLines(unittest.TestCase):
    def assert_first_letter_whole(self, t, page, text):
        self.assertEqual(t.screen()[page][: len(text)], text)
        before, first = stroke(t.panel.ram, page)
        glyph = font.GLYPHS[(ord(text[0]) - font.FIRST) * font.WIDTH]
        self.assertNotEqual(glyph, 0)
        # Lit before the letter, so its left stroke shows dark on lit: "B" is not read as "3".
        self.assertEqual((before, first), (0xFF, glyph ^ 0xFF), text)

    def test_the_first_letter_of_every_highlighted_line_keeps_its_left_stroke(self):
        t = Scripted(ROLL + ["Skill"] * 12)
        self.assert_first_letter_whole(t, 1, "New Battlerealm")  # the start menu's cursor
        t.presses("c a a c")
        self.assert_first_letter_whole(t, 4, "Roll the dice")
        t.presses("c")
        self.assert_first_letter_whole(t, 4, "Die 1: Mutant")
        t.presses("ac")  # finalize: the result, paged
        self.assertEqual(t.app.mode, "result")
        footer = t.screen()[7]
        self.assertTrue(footer.startswith("B: more") or footer.startswith("C: go on"), footer)
        self.assert_first_letter_whole(t, 7, footer[:6])


class Refusals(unittest.TestCase):
    def test_a_refusal_is_said_until_the_next_press_then_what_was_said_before_is_back(self):
        t = Table()
        t.presses("b b b c c")  # New Battleworld, one starting hero, start
        t.presses("c")  # cut the seal
        cut = "Seal %s, cut by nobody (an empty cut): %s." % (
            t.app.sealing.dice.commitment[:16],
            t.events("cut")[-1]["nonce"][:8],
        )
        self.assertEqual(" ".join(t.screen()[5:8]), cut)
        t.presses("c")  # Attack a battle, with none open
        self.assertEqual(t.screen()[5:7], ["No open battle: draw one", "with New battle."])
        t.presses("b")  # the next action: a new step; the menu is shown while the player moves through it
        self.assertEqual(t.screen()[4:8], ["Flip Danger Coin", "New battle", "Thanostone battle", "2/6  C: choose"])
        t.presses("c")  # the coin flipped: its result under the action, no refusal, no list
        self.assertEqual(t.screen()[5], t.app.message[: len(t.screen()[5])])
        self.assertTrue(t.app.message.startswith("Danger Coin"), t.app.message)


class MarkingScreen(unittest.TestCase):
    def test_the_explosions_prompt_is_whole_and_each_hero_says_where_they_are(self):
        """An Explosion hurts every other hero at the roller's location (docs/rules.md): the screen asks in
        full (it was cut to "Explosion 1: mark the") and shows where the game has each hero."""
        t = Scripted(["Science", "Science", "Science", "Skill", "Tech", "Cosmic"])
        t.presses("c a c c a c")  # New Battlerealm, three heroes, start; roll; finalize
        screen = t.screen()
        self.assertEqual(screen[4:6], ["Explosion 1: mark the", "heroes at your location."])
        self.assertEqual(screen[6:8], ["[ ] Thor     Elsewhere", "[ ] Vision   Elsewhere"])
        t.presses("c")  # Thor marked
        self.assertEqual(t.screen()[6], "[x] Thor     Elsewhere")


class PlayMenu(unittest.TestCase):
    def test_moving_through_the_menu_shows_the_actions_after_the_chosen_one_and_its_place(self):
        t = Table()
        t.presses("b c c")  # New Champions, two players, start
        # Champions rolls no dice: nothing to seal, no seal's row in its menu (ui/sealing.py).
        self.assertEqual(t.screen()[4:6], ["Thwart main scheme", "New game."])
        t.presses("a")  # round to the last of 18 actions and The table
        self.assertEqual(t.screen()[4:8], ["The table", "", "", "19/19  C: choose"])
        t.presses("b b")
        self.assertEqual(t.screen()[4:8], ["Thwart side scheme", "Hit villain", "Villain attacks", "2/19  C: choose"])
        t.presses("b c b c c")  # Hit villain, area 1 (the only one: B stays on it), 1 damage
        self.assertFalse(t.app.browsing)
        self.assertEqual(t.screen()[5], "Villain -1 hit point (27")


class Help(unittest.TestCase):
    def test_the_help_screen_explains_the_status_lines_of_the_game_in_play_first(self):
        t = Table()
        t.presses("bbb c c")  # New Battleworld, one starting hero, start
        t.presses("c")  # cut the seal
        t.presses("C")  # to the start menu: the game kept to resume
        items = [label for label, _ in t.app.menus.start_items(t.app)]
        t.presses("b" * items.index("Settings") + "c" + "bbb")
        self.assertEqual(t.screen()[4], "Help: the screens")
        t.presses("c")
        self.assertEqual(t.app.mode, "help")
        self.assertFalse("dicetower.ui.help" in sys.modules)  # the text is made: its module is let go
        self.assertTrue(t.screen()[0].startswith('Battleworld. "Won 1/5'), t.screen())
        pages = 1
        while t.screen()[7].startswith("B: more"):
            t.presses("b")
            pages += 1
        shown = " ".join(t.app.message.split())
        for short in ("R1 Hulk's turn", "Duel G0 H0", "h0/1 d0/3 E", "P1:10(2)", "! with Lucky"):
            self.assertTrue(short in shown, short)
        self.assertTrue(pages >= 4, pages)
        t.presses("c")
        self.assertEqual((t.app.mode, t.app.cursor), ("settings", 3))

    def test_holding_c_on_the_help_leaves_it_for_the_settings(self):
        """Hold C is "back" on every screen: on the help it raised NameError (the device's loop caught it)."""
        t = Table()
        items = [label for label, _ in t.app.menus.start_items(t.app)]
        t.presses("b" * items.index("Settings") + "c" + "bbb c")
        self.assertEqual(t.app.mode, "help")
        t.presses("C")
        self.assertEqual((t.app.mode, t.app.cursor), ("settings", 3))


class DiceScreen(unittest.TestCase):
    def test_a_picked_die_is_boxed_and_its_marks_lit(self):
        t = Scripted(ROLL)
        t.presses("c a a c c")  # New Battlerealm, two heroes, start, Hulk rolls
        ram = t.panel.ram

        def boxed(die):
            x = die * 21 + 2
            sides = [ram[page * WIDTH + col] for page in (1, 2) for col in (x - 2, x + 17)]
            top = [ram[col] & 0x80 for col in range(x - 2, x + 18)]
            bar = [ram[3 * WIDTH + col] & 0x7F for col in range(x - 2, x + 18)]
            if sides == [0xFF] * 4 and top == [0x80] * 20 and bar.count(0x7F) >= 5:
                return True
            self.assertEqual(sides + top, [0] * 24, die)  # nothing of a box
            return False

        self.assertEqual([boxed(d) for d in range(6)], [False] * 6)
        t.presses("bbb c")  # pick die 4
        self.assertEqual([boxed(d) for d in range(6)], [False, False, False, True, False, False])
        t.presses("b c")  # and die 5
        self.assertEqual([boxed(d) for d in range(6)], [False, False, False, True, True, False])
        t.presses("c")  # die 5 again: left
        self.assertEqual([boxed(d) for d in range(6)], [False, False, False, True, False, False])
        self.assertEqual(ram[4 * WIDTH], 0xFF)  # the highlighted line below keeps its place
        self.assertEqual(ram[3 * WIDTH + 3 * 21 + 2] & 0x80, 0)  # the bar stops a row above it

    def test_the_chance_of_the_prison_or_an_explosion_is_said_in_words(self):
        t = Scripted(ROLL)
        t.presses("c a a c c")
        screen = t.screen()
        self.assertEqual(screen[5], "Any card 51%")
        self.assertEqual(screen[6], "Prison or Explosion 27%")
        self.assertEqual(screen[7], "Pick dice to re-roll.")
        self.assertFalse("P/E" in " ".join(screen))

    def test_lucky_re_roll_is_offered_to_a_lucky_hero_only(self):
        t = Scripted(ROLL)
        t.presses("c a a c c")  # Hulk, without Lucky
        seen = []
        for _ in range(11):
            t.presses("b")
            seen.append(t.screen()[4])
        self.assertEqual(
            seen,
            [
                "Die 2: Skill",
                "Die 3: Science",
                "Die 4: Tech",
                "Die 5: Cosmic",
                "Die 6: Mystic",
                "Re-roll picked",
                "Aim: Any card",
                "At: Elsewhere",
                "Finalize",
                "Die 1: Mutant",
                "Die 2: Skill",
            ],
        )
        self.assertEqual(t.screen()[0], "Hulk  re-rolls 2")
        t.presses("aaaaa")  # the other way: die 1, Finalize, At:, Aim:, then Re-roll picked
        self.assertEqual(t.screen()[4], "Re-roll picked")

        t = Scripted(ROLL, lucky_heroes())
        t.presses("c a a c c")  # Hulk, Lucky
        self.assertEqual(t.screen()[0], "Hulk  re-rolls 2 L")
        t.presses("bbbbbb b")  # past the six dice and Re-roll picked
        self.assertEqual(t.screen()[4], "Lucky re-roll")

    def test_a_long_name_on_the_dice_screen_still_names_the_hero(self):
        heroes = json.loads(json.dumps(HEROES))
        heroes[0], heroes[3] = heroes[3], heroes[0]  # Black Panther rolls first
        t = Scripted(ROLL, heroes)
        t.presses("c a a c")
        self.assertEqual(t.screen()[0], "R1 Black Panther's turn")
        t.presses("c")
        self.assertEqual(t.screen()[0], "Panther  re-rolls 2")


class UndoneRoll(unittest.TestCase):
    def test_an_undone_roll_comes_back_with_the_re_rolls_it_had_not_used(self):
        """Rulebook: "The player may choose to re-roll any or all of the six dice up to two times." """
        t = Scripted(ROLL)
        t.presses("c a a c c ac")  # Hulk rolls and finalizes at once: both re-rolls unused
        t.presses("c A")  # past the result; undo the roll
        t.presses("c")  # roll again: the same faces, and the two re-rolls he never used
        self.assertEqual(list(t.app.roll.symbols()), ROLL)
        screen = t.screen()
        self.assertEqual(screen[0], "Hulk  re-rolls 2")
        self.assertIn("Pick dice to re-roll.", " ".join(screen[5:]))

    def test_after_both_re_rolls_the_undone_roll_asks_only_to_finalize(self):
        t = Scripted(ROLL + ["Skill"] * 6)
        t.presses("c a a c c")
        t.presses("bbb c bbb c")  # pick die 4, Re-roll picked
        self.assertIn("Re-rolled 1 die.", " ".join(t.screen()[5:]))
        t.presses("aaa c bbb c")  # from Re-roll picked back to die 4, pick it, re-roll again
        self.assertEqual(t.app.roll.rerolls_left, 0)
        self.assertEqual(t.screen()[0], "Hulk  re-rolls 0")
        self.assertIn("Re-rolls used: finalize.", " ".join(t.screen()[5:]))
        t.presses("bbb c")  # past Aim: and At: to Finalize
        while t.app.mode == "mark":
            t.presses("ac")
        t.presses("c A c")  # past the result, undo, roll again
        screen = t.screen()
        self.assertEqual(screen[0], "Hulk  re-rolls 0")
        said = " ".join(screen[5:])
        self.assertIn("Re-rolls used: finalize.", said)
        self.assertFalse("Pick dice" in said)
        t.presses("bbb c")  # die 4 cannot be re-rolled now: picking it is allowed, re-rolling is not
        t.presses("bbb c")
        self.assertIn("No re-rolls left", " ".join(t.screen()[5:]))


class LongPresses(unittest.TestCase):  # was a second `PlayMenu`, which hid the first's test
    def test_the_long_presses_are_on_every_game_screen(self):
        t = Table()
        t.presses("c a a c")  # Battlerealm, two heroes
        t.presses("c")  # cut the seal: the play menu, the cut said on the three lines the hint would take
        self.assertEqual(t.app.mode, "play")
        self.assertFalse(HINT in t.screen())  # a message is never cut for the hint (below)
        t.presses("b c C")  # Attack, and back: a one-line message, and the hint under it
        self.assertEqual((t.app.mode, t.screen()[7]), ("play", HINT))
        t.presses("c")  # Attack: its first value is being chosen; the picker's own hint (ui/picker.py)
        self.assertEqual(t.screen()[4], "Target: Thor")
        self.assertEqual(t.screen()[7], "A/B pick  C ok/back")
        t.presses("C")  # hold C: as the hint says, back (the action is dropped)
        self.assertEqual((t.app.mode, t.screen()[7]), ("play", HINT))
        t.presses("c c c")  # Attack: Thor, 1 damage, by a power from the same location
        t.pick("From: power, same loc")
        self.assertIn("Thor -1 PVP", " ".join(t.screen()))
        t.presses("A")  # hold A: undo, as the hint says
        self.assertIn("Undone: Thor -1 PVP", " ".join(t.screen()))
        self.assertEqual(t.app.game.history(), [])

    def test_a_message_is_never_cut_for_the_hint(self):
        t = Table()
        t.presses("bc ac")  # Champions, one player
        t.presses("bbbb c c bbbbbbbbb c")  # Damage hero: 10, the only player is out
        screen = t.screen()
        self.assertEqual(screen[4], "GAME OVER")
        self.assertEqual(" ".join(screen[5:]), "Every player is eliminated: the players lose.")
        t.presses("A")  # undo: a three-line message fills the lines the hint would take
        message = " ".join(t.screen()[5:])
        self.assertTrue(message.startswith("Undone: P1 -10 hit points (0). P1 is eliminated."), message)
        self.assertFalse(HINT in t.screen())

    def test_after_end_turn_the_next_heros_menu_starts_at_the_top(self):
        t = Table(seed=3)
        t.presses("c a a c")
        t.presses("c")  # cut the seal
        t.presses("b" * 10)
        self.assertEqual(t.screen()[4], "End turn")
        t.presses("c")
        self.assertEqual(t.screen()[0], "R1 Thor's turn")
        self.assertEqual(t.screen()[4], "Roll the dice")
        t.presses("c")  # the next press rolls Thor's dice, not ends his turn too
        self.assertEqual((t.app.mode, t.app.game.state["turn"]), ("dice", 1))

    def test_every_menu_item_fits_its_line(self):
        for _, kind, *_ in GAMES:
            for item in game(kind).MENU + TABLE_ROW + ROW:
                self.assertTrue(len(item[0]) <= COLUMNS - 4, item[0])
        t = Table()
        t.presses("c a a c")  # Battlerealm
        t.presses("c")  # cut the seal
        t.presses("a")  # the menu round from the top: the seal's row
        self.assertEqual(t.screen()[4], "Reveal the seed")
        t.presses("a")  # the row of the game's table
        self.assertEqual(t.screen()[4], "The table")
        t.presses("a")  # its last action
        self.assertEqual(t.screen()[4], "Buy Warehouse results")


class Words(unittest.TestCase):
    def test_a_game_is_named_as_the_start_menu_names_it(self):
        t = Table()
        for steps, name in enumerate(label for label, *_ in GAMES):
            t.presses("b" * steps + "c")
            self.assertEqual(t.screen()[0], "New " + name)
            t.presses("C")  # back to the start menu, at its top
        t.presses("c c")  # a Battlerealm game
        t.presses("c")  # cut the seal
        t.presses("C")  # left: offered to resume
        self.assertEqual(t.screen()[1], "Resume Battlerealm")

    def test_names_keep_a_space_before_their_pvp(self):
        heroes = json.loads(json.dumps(HEROES))
        heroes[0], heroes[2] = heroes[2], heroes[0]  # Vision, Thor, Hulk, Black Panther
        t = Scripted(ROLL, heroes)
        t.presses("c c")  # Battlerealm, four heroes
        screen = t.screen()
        self.assertEqual(screen[1], "*Vision   10  Thor     10")
        self.assertEqual(screen[2], "Hulk     10  Panther  10")
        self.assertFalse("Vision10" in " ".join(screen))

    def test_one_hit_one_ko_token_one_hit_point(self):
        t = Table()
        t.presses("bbbc c")  # Battleworld, one starting hero
        t.presses("c")  # cut the seal
        t.presses("bbcccc")  # New battle: 1 hit to win, target 2, Energy
        said = " ".join(t.screen()[5:])
        self.assertIn("(1 hit, target 2, Energy)", said)

        t = Table()
        t.presses("bbc c")  # United, four heroes
        t.presses("cc")  # a KO token
        said = " ".join(t.screen()[5:])
        self.assertIn("(1 KO token in all, team 1 has 1)", said)
        t.presses("cc")
        self.assertIn("(2 KO tokens in all", " ".join(t.screen()[5:]))

        t = Table()
        t.presses("bc ac")  # Champions, one player
        t.presses("bb c c c")  # Hit villain in game area 1 for 1
        self.assertIn("Villain -1 hit point (13 left).", " ".join(t.screen()[5:]))


if __name__ == "__main__":
    unittest.main()
