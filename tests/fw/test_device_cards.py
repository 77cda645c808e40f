"""Power cards at the table: the advice on the OLED and the ring, the aim and location chosen
with the buttons, the cards the finalized dice pay, a bad heroes.json. CPython and the VM."""

import builtins
import json
import os
import sys
import unittest

from dicetower.core.games.battlerealm.roster import heroes
from dicetower.core.games.battlerealm.turn import ADVISOR_MODULES, LUCKY_MODULES
from dicetower.core.replay import ScriptedFaces
from kept_modules import firmware_modules, put_back
from table import Scripted, Table
from tower import Tower

HEROES = heroes({}, True)  # the built-in roster, as its file (heroes.json) has it

ROLL = ["Mutant", "Skill", "Science", "Tech", "Cosmic", "Mystic"]
ADVICE = ADVISOR_MODULES + LUCKY_MODULES
RANKS, LUCKY_TABLES = ADVISOR_MODULES[0], LUCKY_MODULES[0]
LUCKY = {"name": "Ant-Man", "abilities": ["Lucky"], "cards": [{"name": "Shrink", "dice": ["Mutant", "Tech"]}]}


def start_rolling(t):
    t.presses("c a a c c")  # New Battlerealm, two heroes, start, Hulk rolls


def result_text(t):
    """The result screen's pages, read by paging with B."""
    text = []
    while True:
        text += t.screen()[:7]
        if "B: more" not in t.screen()[7]:
            return " ".join(text)
        t.presses("b")


class Advice(unittest.TestCase):
    def test_the_advice_is_on_screen_and_its_dice_blink(self):
        t = Scripted(ROLL)
        start_rolling(t)
        # Keep Mutant, Skill, Science for Thunderclap (one Skill short); re-roll the other three.
        self.assertEqual(t.screen()[5:7], ["Any card 51%", "Prison or Explosion 27%"])
        self.assertEqual(t.app.advised, 0b111000)
        t.wait(1200)  # the roll's animation is over: the ring shows the dice
        seen = {}
        for _ in range(24):
            t.wait(30)
            for die in range(6):
                seen.setdefault(die, set()).add(t.strip.rgb(die * 2) != (0, 0, 0))
        self.assertEqual([seen[d] for d in range(3)], [{True}] * 3)  # kept: always lit
        self.assertEqual([seen[d] for d in range(3, 6)], [{True, False}] * 3)  # to re-roll: blinking

    def test_aim_at_one_card_and_at_a_location(self):
        t = Scripted(ROLL)
        start_rolling(t)
        t.presses("aaa")  # from die 1 back past Finalize and the location to the aim
        self.assertEqual(t.screen()[4], "Aim: Any card")
        t.presses("c")
        self.assertEqual(t.screen()[4], "Aim: Thunderclap")
        self.assertTrue(t.screen()[5].startswith("Thunderclap "), t.screen()[5])
        t.presses("c")
        self.assertTrue(t.screen()[5].startswith("World Breaker "), t.screen()[5])
        t.presses("c")
        self.assertTrue(t.screen()[5].startswith("Any card 51%"), t.screen()[5])
        t.presses("b c")  # the location
        self.assertEqual(t.screen()[4], "At: Ghost Orchid")
        # One die fewer: Mutant, Science and Skill already pay Thunderclap there.
        self.assertEqual(t.screen()[5], "Any card 100%")
        self.assertEqual(t.app.advised, 0)

    def test_after_a_reroll_the_advice_follows_the_new_dice(self):
        t = Scripted(ROLL + ["Skill", "Tech", "Tech"])
        start_rolling(t)
        for die in (3, 4, 5):  # pick the advised dice, then Re-roll picked
            t.presses("b" * (die - t.app.cursor) + "c")
        t.presses("b" * (6 - t.app.cursor) + "c")
        self.assertEqual(list(t.app.roll.symbols()), ["Mutant", "Skill", "Science", "Skill", "Tech", "Tech"])
        self.assertEqual(t.screen()[5], "Any card 100%")  # Thunderclap is paid: finalize


class Paying(unittest.TestCase):
    def test_the_result_names_the_cards_the_dice_pay(self):
        t = Scripted(["Mutant", "Science", "Skill", "Skill", "Mystic", "Mystic"])
        start_rolling(t)
        t.presses("ac")  # Finalize
        self.assertIn("Pays Thunderclap (dice 1 2 3 4). Or instead: World Breaker.", result_text(t))

    def test_a_die_that_paid_a_card_is_not_offered_for_its_dice_action_too(self):
        """Power Cards "must be activated by rolling a specific set of dice symbols and 'expending' those
        dice results": the Skill dice that paid Thunderclap were offered as Skill damage as well."""
        t = Scripted(["Mutant", "Science", "Skill", "Skill", "Tech", "Cosmic"])
        start_rolling(t)
        t.presses("ac")  # Finalize
        said = result_text(t)
        self.assertIn("Pays Thunderclap (dice 1 2 3 4).", said)
        self.assertIn("Tech 1: up to 1 damage to heroes at other locations", said)
        self.assertIn("Cosmic 1: move", said)
        self.assertFalse("Skill 2" in said or "Skill 1" in said, said)

    def test_the_attack_is_from_the_dice_left_or_a_power(self):
        """An Attack "can include damage caused by his Power Cards, dice results and location abilities";
        the dice that paid Thunderclap are expended, so only the Tech is offered as dice damage."""
        t = Scripted(["Mutant", "Science", "Skill", "Skill", "Tech", "Cosmic"])
        start_rolling(t)
        t.presses("ac")  # Finalize
        result_text(t)
        t.presses("c")  # past the result: the play menu
        while t.app.menu[t.app.cursor % len(t.app.menu)][0] != "Attack":
            t.presses("b")
        t.presses("c c c")  # Attack: Thor, 1 damage
        offered = []
        for _ in range(3):
            offered.append([line for line in t.screen() if line.startswith("From: ")][0])
            t.presses("b")
        self.assertEqual(offered, ["From: Tech (1 left)", "From: power, same loc", "From: Blast (power)"])
        t.pick("From: Tech (1 left)")
        self.assertIn("Thor -1 PVP (Attack by Hulk).", " ".join(t.screen()))
        self.assertEqual(t.app.game.state["dice"], [0, 0])

    def test_the_warehouse_buys_what_is_missing(self):
        t = Scripted(["Skill", "Tech", "Cosmic", "Cosmic", "Tech", "Tech"])
        start_rolling(t)
        t.presses("aa ccc b c")  # the location: to the Warehouse; Finalize
        self.assertIn("Pays Thunderclap (dice 1, buy Mutant Science Skill: 3 PVP).", result_text(t))

    def test_the_warehouse_charges_its_pvp_and_the_place_survives_a_power_cut(self):
        """Rulebook: "Heroes at the Collector's Cosmic Warehouse may spend up to 3 PVP points to gain additional dice results of their choosing. One PVP point for each additional die result." """
        faces = ["Skill", "Tech", "Cosmic", "Cosmic", "Tech", "Tech"]
        t = Scripted(faces)
        start_rolling(t)
        t.presses("aa ccc")  # the location, three times: to the Warehouse
        self.assertEqual(t.screen()[4], "At: Warehouse")
        self.assertEqual(t.app.game.history(), ["Hulk moves to Collector's Cosmic Warehouse."])  # one move
        # The power goes before the dice are finalized; back on, Hulk is still at the Warehouse.
        t2 = Tower(t.root, "pico", ScriptedFaces(faces))
        t2.presses("c")  # Resume: the roll thrown and not finalized is back on the dice screen, as it landed
        self.assertEqual(t2.screen()[0], "Hulk  re-rolls 2")
        self.assertEqual(t2.screen()[6], "The dice as they landed.")
        self.assertEqual(list(t2.app.roll.symbols()), faces)
        t2.presses("aa")  # back to the location
        self.assertEqual(t2.screen()[4], "At: Warehouse")
        t2.presses("b c")  # Finalize
        text = result_text(t2)
        self.assertIn("buy Mutant Science Skill: 3 PVP", text)
        self.assertIn("Hulk buys 3 results at the Warehouse: -3 PVP.", text)
        self.assertEqual(t2.app.game.state["heroes"][0]["pvp"], 10 - 3)
        t2.presses("c")
        t2.press("a", "long")  # undo: the PVP comes back
        self.assertEqual(t2.app.game.state["heroes"][0]["pvp"], 10)
        t2.press("b", "long")  # redo, then the power goes again
        t3 = Tower(t.root, "pico", ScriptedFaces(faces))
        t3.presses("c")
        self.assertEqual(t3.app.game.state["heroes"][0]["pvp"], 7)
        self.assertEqual(t3.app.game.state["heroes"][0]["place"], 3)

    def test_sent_to_the_prison_the_hero_buys_before_going(self):
        t = Scripted(["Mutant", "Mutant", "Mutant", "Skill", "Skill", "Science"])
        t.presses("c a c c")  # New Battlerealm, three heroes, start, Hulk rolls
        t.presses("aa ccc b c")  # to the Warehouse; Finalize
        self.assertIn("buy Mutant: 1 PVP", result_text(t))  # the Prison's Mutants pay nothing
        self.assertEqual([line.split(" ")[1] for line in t.app.game.history()], ["moves", "buys", "rolls"])
        hulk = t.app.game.state["heroes"][0]
        self.assertEqual((hulk["pvp"], hulk["prison"], hulk["place"]), (9, 1, 0))

    def test_results_bought_from_the_menu_are_charged_only_at_the_warehouse(self):
        """Rulebook: "One PVP point for each additional die result." """
        t = Scripted(ROLL)
        t.presses("c a a c")  # New Battlerealm, two heroes, start
        t.app.game.do("move", 3)  # Hulk stands at the Warehouse (the dice screen's At: item does this)
        pvp = t.app.game.state["heroes"][0]["pvp"]
        t.presses("aa c")  # the menu's last action (before The table), Buy Warehouse results
        self.assertEqual(t.screen()[4], "Results: 1")
        t.presses("b c")  # 2 results
        self.assertEqual(t.app.game.state["heroes"][0]["pvp"], pvp - 2)
        self.assertEqual(t.app.game.history()[-1], "Hulk buys 2 results at the Warehouse: -2 PVP.")
        t.presses("A")  # undo
        self.assertEqual(t.app.game.state["heroes"][0]["pvp"], pvp)

    def test_buying_away_from_the_warehouse_is_refused(self):
        t = Scripted(ROLL)
        t.presses("c a a c")  # New Battlerealm, two heroes, start: Hulk stands Elsewhere
        t.presses("aa c c")  # Buy Warehouse results (before The table), 1 result
        self.assertIn("Hulk is not at the Collector's Cosmic Warehouse.", " ".join(t.screen()))
        self.assertEqual(t.app.game.history(), [])

    def test_cycling_back_to_the_start_leaves_no_move(self):
        t = Scripted(ROLL)
        start_rolling(t)
        t.presses("aa cccc")
        self.assertEqual(t.screen()[4], "At: Elsewhere")
        self.assertEqual(t.app.game.history(), [])


class HeroFile(unittest.TestCase):
    def test_a_bad_heroes_file_is_named_and_the_built_in_heroes_play(self):
        t = Table()
        heroes = json.loads(json.dumps(HEROES))
        heroes[0]["cards"][0]["dice"] = ["Mutant", "Sciense"]
        with open(t.root + "heroes.json", "w") as f:
            f.write(json.dumps({"heroes": heroes}))
        t2 = Table(root=t.root, keep_files=True)
        os.remove(t.root + "heroes.json")
        self.assertIn("hero 1 (Hulk) card 1 (Thunderclap): \"dice\" has 'Sciense'", result_text(t2))
        t2.presses("c")
        self.assertEqual(t2.screen()[0], "DICETOWER")
        t2.presses("c a a c")
        t2.presses("c")  # cut the seal
        self.assertEqual(t2.screen()[0], "R1 Hulk's turn")
        self.assertEqual(t2.app.turn.hero_cards()[0]["dice"], ["Mutant", "Science", "Skill", "Skill"])

    def test_a_hero_whose_name_a_save_cannot_hold_or_whose_pvp_is_not_a_number_is_refused_at_load(self):
        """Names starting with "=" or "~" are a save's short codes, and true is not a number of PVP: such a
        file once loaded, and every new Battlerealm game was then refused. Now the file is named on the OLED
        at boot and the built-in heroes play."""
        for change, said in (
            (("name", "=Hulk"), 'hero 1 (=Hulk): a name cannot start with "=" or "~"'),
            (("name", "~Thor"), "hero 1 (~Thor): a name cannot start with"),
            (("pvp", True), 'hero 1 (Hulk): "pvp" must be 1 to 20'),
        ):
            t = Table()
            heroes = json.loads(json.dumps(HEROES))
            heroes[0][change[0]] = change[1]
            with open(t.root + "heroes.json", "w") as f:
                f.write(json.dumps({"heroes": heroes}))
            t2 = Table(root=t.root, keep_files=True)
            os.remove(t.root + "heroes.json")
            self.assertIn(said, result_text(t2))
            t2.presses("c")
            t2.presses("c a a c")
            t2.presses("c")  # cut the seal
            self.assertEqual(t2.screen()[0], "R1 Hulk's turn", change)
            t2.presses("c")  # a roll: the game goes on with the built-in heroes
            self.assertEqual(t2.app.game.state["heroes"][0]["name"], "Hulk")


BATTLEREALM = "dicetower.core.games.battlerealm"


class HeroFileRead(unittest.TestCase):
    """A user's heroes.json is checked at power-up and read by each Battlerealm set-up, as the built-in heroes
    are (roster.py): kept as read from power-up, with the roster's and the rules' modules that checked it,
    it held 32 KB of the VM's heap in every game, of every kind."""

    def setUp(self):
        self.kept = firmware_modules()  # Battlerealm's modules loaded afresh: a new tower has none
        for name in [name for name in sys.modules if name.startswith(BATTLEREALM)]:
            del sys.modules[name]

    def tearDown(self):
        put_back(self.kept)

    def tower(self, heroes):
        t = Table()
        with open(t.root + "heroes.json", "w") as f:
            f.write(json.dumps({"heroes": heroes}))
        return Table(root=t.root, keep_files=True)  # the next Table() removes the file

    def test_the_start_menu_holds_none_of_the_file_and_a_battlerealm_set_up_offers_its_heroes(self):
        t = self.tower([{"name": "Wasp"}, {"name": "Hank", "pvp": 12}])
        self.assertEqual(t.screen()[1], "New Battlerealm")  # no notice: the file passed
        self.assertEqual([name for name in sys.modules if name.startswith(BATTLEREALM)], [])
        self.assertFalse("heroes" in t.app.options)
        t.presses("c a a c c")  # New Battlerealm, two heroes, start, cut the seal
        self.assertEqual(t.screen()[0], "R1 Wasp's turn")
        self.assertEqual([(h["name"], h["pvp"]) for h in t.app.game.state["heroes"]], [("Wasp", 10), ("Hank", 12)])

    def test_a_file_damaged_after_power_up_leaves_the_set_up_the_built_in_heroes(self):
        """Checked at power-up, changed since (over USB): the set-up finds it no longer passes and offers the
        built-in heroes, as power-up would have; nothing stops."""
        t = self.tower([{"name": "Wasp"}, {"name": "Hank"}])
        with open(t.root + "heroes.json", "w") as f:
            f.write('{"heroes": [{"name": "Wasp"}]}')  # one hero: a roster needs two
        t.presses("c a a c c")
        self.assertEqual(t.screen()[0], "R1 Hulk's turn")

    def test_a_heap_too_short_for_the_file_is_said_as_such_not_played_with_the_built_in_heroes(self):
        """Parsed now in a set-up, not on power-up's fresh heap: a MemoryError reading the user's file goes to
        the device (which says "Out of memory" and keeps the game), never the built-in heroes in its place."""
        from dicetower.core.games.battlerealm import roster

        t = self.tower([{"name": "Wasp"}, {"name": "Hank"}])
        checked = roster._checked

        def short(data):
            raise MemoryError

        roster._checked = short
        try:
            roster.forget()
            with self.assertRaises(MemoryError):
                roster.heroes(t.app.options)
        finally:
            roster._checked = checked
        self.assertEqual([h["name"] for h in roster.heroes(t.app.options)], ["Wasp", "Hank"])

    def test_lucky_is_found_in_the_file_wherever_its_pieces_split_it(self):
        """The descriptor looks for the word in the file 512 bytes at a time, not read whole: a Lucky hero's
        word across the first piece's end still loads Lucky's search ahead."""
        from dicetower.core.games import battlerealm

        lucky_ahead = battlerealm.ahead_of({"heroes": [{"name": "Hank", "abilities": ["Lucky"]}]})
        split = 0
        for pad in range(400, 520):
            heroes = [{"name": "W" * pad}, {"name": "Hank", "abilities": ["Lucky"]}]
            at = json.dumps({"heroes": heroes}).index("Lucky")  # as the tower's file is written
            if at < 512 < at + 5:
                split += 1
                t = self.tower(heroes)
                self.assertEqual(battlerealm.ahead_of(t.app.options), lucky_ahead)
        self.assertEqual(split, 4)  # each place the word can be cut
        self.assertNotEqual(lucky_ahead, battlerealm.AHEAD)
        t = self.tower([{"name": "Wasp"}, {"name": "Hank"}])
        self.assertEqual(battlerealm.ahead_of(t.app.options), battlerealm.AHEAD)

    def test_heroes_edited_where_the_flash_refuses_them_are_the_ones_that_play(self):
        """Done in the heroes' editor: written, the file is what a set-up reads; refused by the flash, the
        edited heroes are held and play this session."""
        t = Table()
        t.app.write_json = lambda name, data: None  # the flash refuses (logged by the device)
        t.presses("a c bb c")  # Settings, Heroes and abilities
        t.presses("b c")  # Thor
        t.presses("c")  # starting PVP 10 -> 11
        t.presses("a c")  # Done: back to the list
        t.presses("aa c")  # Done: save
        self.assertEqual(t.app.options["heroes"][1]["pvp"], 11)
        t.presses("C c a a c")  # a new Battlerealm game
        self.assertEqual(t.app.game.state["heroes"][1]["pvp"], 11)


class LuckyHero(unittest.TestCase):
    def setUp(self):
        self.kept = firmware_modules()  # these tests load the advice afresh

    def tearDown(self):
        put_back(self.kept)

    def lucky_tower(self, heroes):
        """A tower with `heroes` as its heroes.json, the advice's modules not loaded (as on a new tower: an
        earlier test's game may have), counting them after each pass of its loop."""
        for name in ADVICE:
            sys.modules.pop(name, None)
        t = Table()
        with open(t.root + "heroes.json", "w") as f:
            f.write(json.dumps({"heroes": heroes}))
        t2 = Table(root=t.root, keep_files=True)  # a set-up reads the file: the next Table() removes it
        t2.loaded = []  # which of them are in after each pass
        tick = t2.device.tick

        def counted(now):
            pause = tick(now)
            t2.loaded.append([name for name in ADVICE if name in sys.modules])
            return pause

        t2.device.tick = counted
        return t2

    def test_a_lucky_heros_search_is_loaded_while_the_heap_is_whole_one_module_a_pass(self):
        """Lucky's search is machine code that needs whole blocks of the heap: at the first Lucky roll, or
        even as the game began, a Pico's heap cut up by the set-up once had none for it. A roster with a
        Lucky hero has it (and the ranks it reads) loaded with the game's first modules when the game is
        chosen; the rest of the advice while the seal waits for its cut; one module a loop pass."""
        t = self.lucky_tower([LUCKY, {"name": "Wasp"}])
        t.presses("c a a")  # New Battlerealm, two heroes
        self.assertEqual(t.loaded[-1], [RANKS, LUCKY_TABLES])  # while it is set up
        t.presses("c")  # start: the seal's cut
        t.presses("c")  # cut and play
        self.assertEqual(t.screen()[0], "R1 Ant-Man's turn")
        self.assertIsNone(t.app.roll)  # before the first roll
        self.assertEqual(sorted(t.loaded[-1]), sorted(ADVICE))
        self.assertEqual(max(len(b) - len(a) for a, b in zip(t.loaded, t.loaded[1:])), 1)  # never two in one pass
        imported = []  # the advice's modules imported a slice each while the roll is advised
        real = builtins.__import__

        def watched(name, *args):
            if name in ADVICE and not args:  # __import__(name) alone: turn.py's Turn._planned, a slice a module
                imported.append(name)
            return real(name, *args)

        builtins.__import__ = watched
        try:
            t.presses("c")  # Ant-Man rolls: Lucky's re-roll is advised
            self.assertEqual(t.app.roll.lucky_left, 1)
            t.wait(2000)
        finally:
            builtins.__import__ = real
        self.assertIsNotNone(t.app.turn.advice)  # for Shrink, Lucky's search among it
        self.assertEqual(imported, [])  # each was in: no slice of the advice spent asking for it

    def test_a_resumed_game_with_a_lucky_hero_loads_its_search_while_the_seal_is_shown(self):
        """A game saved with a Lucky hero seated (no heroes.json on the tower any more: the save has the
        heroes), brought back after a power cut: its advice and Lucky's search come at idle as it is
        resumed, before its first roll."""
        t = self.lucky_tower([LUCKY, {"name": "Wasp"}])
        t.presses("c a a c c")  # New Battlerealm, two heroes, start, cut and play
        for name in ADVICE:  # the tower off: nothing of the last run is on the heap
            sys.modules.pop(name, None)
        os.remove(t.root + "heroes.json")
        again = Table(root=t.root, keep_files=True)  # power back on
        self.assertEqual(again.screen()[1], "Resume Battlerealm")
        again.presses("c")  # resume: the old seal's seed shows
        self.assertEqual(again.app.mode, "seed")
        self.assertEqual(sorted(name for name in ADVICE if name in sys.modules), sorted(ADVICE))

    def test_a_game_without_a_lucky_hero_after_one_with_lets_go_of_lucky_search_whole(self):
        """Lucky's modules leave together, lucky.py before the lucky_tables.py it imports from: left behind,
        it kept the machine code on the heap, and the next Lucky game imported a second copy beside it."""
        from dicetower.core.games.battlerealm.tracker import Battlerealm

        t = self.lucky_tower([LUCKY, {"name": "Wasp"}])
        t.presses("c a a c c")  # a game with Ant-Man (Lucky) seated, cut and played
        self.assertEqual(sorted(t.loaded[-1]), sorted(ADVICE))
        screens = t.app.dice_screens
        screens.begin(t.app, Battlerealm.setup([{"name": "Wasp", "pvp": 10, "abilities": []}] * 2))
        self.assertEqual([name for name in LUCKY_MODULES if name in sys.modules], [])
        self.assertTrue(RANKS in sys.modules)  # the advice's own: every game of the dice uses it
        screens.begin(t.app, Battlerealm.setup([LUCKY, {"name": "Wasp", "pvp": 10, "abilities": []}]))
        t.wait(1000)  # Lucky's modules again, at idle
        lucky, tables = sys.modules[LUCKY_MODULES[1]], sys.modules[LUCKY_TABLES]
        self.assertIs(lucky.lucky0, tables.lucky0)  # one copy of the machine code

    def test_lucky_search_loaded_for_the_roster_goes_when_no_lucky_hero_is_seated(self):
        t = self.lucky_tower([{"name": "Wasp"}, {"name": "Hank"}, LUCKY])
        t.presses("c a a")  # New Battlerealm, two heroes: Wasp and Hank
        self.assertTrue(LUCKY_TABLES in sys.modules)  # the roster has a Lucky hero
        t.presses("c c")  # start, cut and play
        self.assertEqual(t.screen()[0], "R1 Wasp's turn")
        self.assertFalse(LUCKY_TABLES in sys.modules)  # its heap is the game's

    def test_without_a_lucky_hero_the_advice_waits_for_the_first_roll(self):
        for name in ADVICE:
            sys.modules.pop(name, None)
        t = Table()
        t.presses("c a a c c")  # the built-in Hulk and Thor: no Lucky
        self.assertEqual(t.screen()[0], "R1 Hulk's turn")
        self.assertEqual([name for name in ADVICE if name in sys.modules], [])


if __name__ == "__main__":
    unittest.main()
