"""A real game set up on the tower with its three buttons: seats and heroes, hit points, the villain and
the scheme, the mode; remembered for the next game; bad files and values refused on the OLED.
CPython and the VM.

Presses: on the player count, hold B (`B`) opens the set-up's rows; its first row starts the game. A/B
move, C takes a row, A/B change its value (held: ten at a time), C keeps it.
"""

import json
import os
import unittest

from dicetower.core.games import GAMES, game, players, setup_of
from table import Table

START_MENU = {"battlerealm": "", "champions": "b", "united": "bb", "battleworld": "bbb"}


def new(t, kind, count_keys=""):
    """From the start menu: New <kind>, the player count changed by `count_keys`, then the set-up's rows."""
    t.presses(START_MENU[kind] + "c" + count_keys + "B")
    assert t.app.mode == "form", t.app.mode


def row(t, label):
    """Move the cursor to the row whose text starts with `label` (on the panel: read back from its RAM)."""
    for _ in range(40):
        line = [s for s in t.screen()[1:7] if s.startswith(label)]
        chosen = t.app.form.rows()[t.app.cursor - 1][0] if t.app.cursor else "Start the game"
        if chosen.startswith(label.split(":")[0]) and line:
            return line[0]
        t.presses("b")
    raise AssertionError("no row %r on %r" % (label, t.screen()))


def set_to(t, label, value, most=120):
    """Change a row until it reads `label: value` (each step checked on the OLED)."""
    line = row(t, label)
    t.presses("c")
    key = "b"
    if value.isdigit() and line[len(label) + 2 :].isdigit() and int(value) < int(line[len(label) + 2 :]):
        key = "a"  # a number below: down
    for _ in range(most):
        if "%s: %s" % (label, value) in t.screen():
            t.presses("c")
            return
        t.presses(key)
    raise AssertionError("%s never read %r: %r" % (label, value, t.screen()))


def start(t):
    """Up to the first row, "Start the game", and start it."""
    while t.app.cursor:
        t.presses("a")
    t.presses("c")


class Defaults(unittest.TestCase):
    def test_a_game_set_up_as_offered_is_the_game_new_game_makes(self):
        """The saves check a loaded game against `new_game`'s: the set-up's defaults must make that game."""
        checked = 0
        for _, kind, *_ in GAMES:
            rules = game(kind)
            name = setup_of(kind)
            if name is None:
                continue  # a count only (Battleworld)
            setup = __import__(name, None, None, ["_"])
            for count in range(players(kind)[0], players(kind)[1] + 1):
                made = rules.TRACKER.setup(*setup.start(count, setup.setup_default({}), {})).state
                self.assertEqual(made, rules.new_game(count, {}).state, (kind, count))
                checked += 1
        self.assertEqual(checked, 5 + 4 + 6)  # Battlerealm 2-6, Champions 1-4, United 1-6


class Battlerealm(unittest.TestCase):
    def test_players_pick_their_heroes_seat_by_seat_and_none_is_offered_twice(self):
        t = Table()
        new(t, "battlerealm", "aa")  # two players
        self.assertEqual(t.screen()[2:4], ["Seat 1: Hulk", "Seat 2: Thor"])
        set_to(t, "Seat 1", "Vision")
        row(t, "Seat 2")
        t.presses("c")
        seen = set()
        for _ in range(13):  # every hero seat 2 is offered, round: Vision, seat 1's, never among them
            seen.add(t.app.setup["heroes"][1])
            t.presses("b")
        self.assertFalse("Vision" in seen, seen)
        self.assertIn("Hulk", seen)
        t.presses("c")  # kept
        set_to(t, "Seat 2", "Falcon")
        start(t)
        self.assertEqual(t.app.mode, "cut")
        t.presses("c")  # cut the seal
        self.assertEqual(t.app.mode, "play")
        self.assertEqual([h["name"] for h in t.app.game.state["heroes"]], ["Vision", "Falcon"])
        self.assertTrue(t.screen()[0].startswith("R1 Vision"), t.screen())


class Champions(unittest.TestCase):
    def test_kangs_own_game_areas_bring_the_kang_ii_and_stage_3a_the_set_up_gives(self):
        """The Once and Future Kang: "each player creates their own game area", with Kang (II) and Stage
        3A. Their figures were fixed in code (12 hit points; target 8, start 1, acceleration 1): the
        Kang scenario's rows set them, as the cards print them."""
        t = Table()
        new(t, "champions")  # two players
        set_to(t, "Scenario", "Kang")
        self.assertIn("Kang (II) HP: 12", row(t, "Kang (II) HP"))
        set_to(t, "Kang (II) HP", "16")
        set_to(t, "Stage 3A target", "9")
        set_to(t, "Stage 3A start", "2")
        start(t)
        self.assertEqual(t.app.mode, "play")
        labels = [label for label, _, _ in t.app.menu]
        t.presses("b" * labels.index("Kang: own area") + "c b c")  # P2 makes their own area: what the set-up gave
        area = t.app.game.state["areas"][1]
        self.assertEqual((area["villain"]["name"], area["villain"]["hp"]), ("Kang (II)", 16))
        self.assertEqual(
            (area["scheme"]["name"], area["scheme"]["stages"], area["scheme"]["threat"]), ("Stage 3A", [[9, 1, 2]], 2)
        )

    def test_a_scenario_without_own_game_areas_shows_no_rows_for_them(self):
        t = Table()
        new(t, "champions")
        labels = [label for label, _, _ in t.app.form.rows()]
        self.assertFalse(any("Kang (II)" in label or "Stage 3A" in label for label in labels), labels)

    def test_a_15_hit_point_hero_against_a_villain_of_three_stages_reaches_the_real_end(self):
        """ "set the villain's dial to the hit points on the villain card multiplied by the number of
        players"; "Defeat the final villain stage and you all win." """
        t = Table()
        new(t, "champions")  # two players
        set_to(t, "P1 hero", "She-Hulk")
        self.assertIn("P1 hit points: 15", t.screen())  # the hero's own hit points came with her
        set_to(t, "P2 hit points", "12")
        set_to(t, "Villain stages", "3")
        set_to(t, "Stage 3 hit points", "20")
        start(t)
        state = t.app.game.state
        self.assertEqual(
            [(h["name"], h["hp"], h["max"]) for h in state["heroes"]], [("She-Hulk", 15, 15), ("P2", 12, 12)]
        )
        villain = state["areas"][0]["villain"]
        self.assertEqual((villain["stages"], villain["hp"]), ([14, 15, 20], 28))
        self.assertEqual(t.screen()[2], "Villain 28 hp")
        t.app.do("damage", [0, 5])
        t.app.do("heal", [0, 9])
        self.assertEqual(t.app.game.state["heroes"][0]["hp"], 15)  # "never above your maximum hit points"
        for damage in (20, 8, 20, 10):  # stage 1: 28; stage 2: 30
            self.assertTrue(t.app.do("hit", [0, damage]))
        villain = t.app.game.state["areas"][0]["villain"]
        self.assertEqual((villain["stage"], villain["hp"]), (2, 40))  # stage 3: 20 per player
        self.assertIsNone(t.app.game.state["over"])
        t.app.do("hit", [0, 20])
        t.app.do("hit", [0, 20])
        self.assertEqual(t.app.game.state["over"], "Villain's final stage is defeated: the players win!")
        self.assertEqual(t.app.mode, "over")

    def test_scheme_figures_per_player_are_multiplied_and_a_fixed_villain_is_not(self):
        t = Table()
        new(t, "champions", "b")  # three players
        set_to(t, "S1 target", "7")
        set_to(t, "S1 target is", "per player")
        set_to(t, "S1 start", "1")
        set_to(t, "S1 start is", "per player")
        set_to(t, "Villain HP", "fixed")
        start(t)
        area = t.app.game.state["areas"][0]
        self.assertEqual(area["scheme"]["stages"][0], [21, 1, 3])
        self.assertEqual(area["scheme"]["threat"], 3)
        self.assertEqual(area["villain"]["hp"], 14)
        t.app.do("hit", [0, 14])
        self.assertEqual(t.app.game.state["areas"][0]["villain"]["hp"], 15)  # the next stage: not per player either

    def test_the_kang_preset_is_interim_and_its_areas_come_from_the_play_menu(self):
        t = Table()
        new(t, "champions")
        set_to(t, "Scenario", "Kang")
        start(t)
        state = t.app.game.state
        self.assertEqual(state["areas"][0]["villain"]["name"], "Kang (I)")
        self.assertEqual(state["areas"][0]["interim"], 1)
        t.app.do("hit", [0, 20])
        t.app.do("hit", [0, 8])
        self.assertIsNone(t.app.game.state["over"])  # Kang (I)'s defeat wins nothing
        self.assertTrue(
            t.app.do(
                "separate", [0, {"name": "Stage 3A", "stages": [[8, 1, 1]]}, {"name": "Kang (II)", "stages": [12]}]
            )
        )
        self.assertEqual(len(t.app.game.state["areas"]), 2)

    def test_a_value_out_of_its_range_is_refused_with_the_range(self):
        t = Table()
        new(t, "champions")
        row(t, "P1 hit points")
        t.presses("c a a a a a a a a a a")  # 10 down to 1, then below
        self.assertEqual(t.app.setup["heroes"][0][1], 1)
        self.assertIn("P1 hit points: 1 to 99.", t.screen())
        t.presses("B B B B B B B B B B B")  # held: ten at a time, up to 99 and no further
        self.assertEqual(t.app.setup["heroes"][0][1], 99)
        self.assertIn("P1 hit points: 1 to 99.", t.screen())

    def test_a_start_the_tracker_cannot_hold_is_refused_on_the_screen(self):
        t = Table()
        new(t, "champions", "bb")  # four players
        set_to(t, "S1 target", "30")
        set_to(t, "S1 target is", "per player")  # 120 threat: over the tracker's 99
        start(t)
        self.assertEqual(t.app.mode, "form")
        self.assertIsNone(t.app.game)
        self.assertIn(
            "S1 target threat for 4 players must be 1 to 99, not 120.", " ".join(line for line in t.screen() if line)
        )
        self.assertEqual(chosen(t), "S1 target: 30")  # the row to change, chosen
        t.wait(500)  # idle passes: a set-up remembered would be written now
        # Only a set-up that started a game is remembered (micropython-lib's unittest has no assertNotIn).
        self.assertFalse("champions" in _setup_json(t))

    def test_a_start_threat_per_player_at_its_target_stays_on_the_form_and_every_button_answers(self):
        """The hostile run's lock: 4 players, the first stage's start "per player" (3 x 4 = 12, at or over
        its target of 10): the tracker would refuse it, so the set-up refuses it before its form goes.
        Rule (the tracker's): threat reaching a stage's target advances the scheme at once."""
        t = Table()
        new(t, "champions", "bb")  # four players
        set_to(t, "S1 start is", "per player")
        start(t)
        self.assertEqual(t.app.mode, "form")
        self.assertIsNone(t.app.game)
        said = " ".join(line for line in t.screen() if line)
        self.assertIn("S1 for 4 players: starting threat 12 must be below the target, 10.", said)
        self.assertEqual(chosen(t), "S1 start: 3")
        t.presses("c a c")  # take the row, 3 down to 2 per player (8 for four), keep it
        self.assertEqual(chosen(t), "S1 start: 2")
        start(t)
        self.assertEqual(t.app.mode, "play")
        self.assertEqual(t.app.game.state["areas"][0]["scheme"]["threat"], 8)

    def test_a_refused_start_from_the_count_screen_opens_the_form_on_its_row(self):
        t = Table()
        t.presses("b c b b B")  # Champions, four players, the set-up's rows
        set_to(t, "S1 start is", "per player")
        t.presses("C")  # back to the player count: C there starts the game as set up
        self.assertEqual(t.app.mode, "setup")
        t.presses("c")
        self.assertEqual(t.app.mode, "form")
        self.assertEqual(chosen(t), "S1 start: 3")


def chosen(t):
    """The row the form's cursor is on, as the OLED shows it (lit: the panel's line read back)."""
    form = t.app.form
    rows = form.rows()
    label = rows[t.app.cursor - 1][0] if t.app.cursor else "Start the game"
    lines = [line for line in t.screen()[1:7] if line.startswith(label)]
    return lines[0] if lines else None


def _setup_json(t):
    """setup.json on the tower's flash, as the next game's set-up will read it ({} with none)."""
    try:
        with open(t.root + "setup.json") as f:
            return json.load(f)
    except OSError:
        return {}


class United(unittest.TestCase):
    def test_team_vs_team_against_vulcan_with_a_hero_of_another_box_and_a_threshold(self):
        t = Table()
        new(t, "united")  # four players
        self.assertIn("Villain: Gladiator", t.screen())
        set_to(t, "Mode", "Team vs Team")
        # "Gladiator CANNOT be used as the Villain in Team vs Team mode."
        self.assertIn("Villain: Vulcan", t.screen())
        row(t, "Villain")
        t.presses("c b")
        self.assertEqual(t.app.setup["villain"], "vulcan")
        t.presses("c")
        set_to(t, "Seat 1", "Lockjaw")
        set_to(t, "Seat 2", "Hero 2")
        set_to(t, "KO threshold", "4")
        start(t)
        state = t.app.game.state
        self.assertEqual(
            [(h["name"], h["team"]) for h in state["heroes"]],
            [("Lockjaw", 0), ("Hero 2", 1), ("Crystal", 0), ("Karnak", 1)],
        )
        self.assertEqual((state["teams"], state["threshold"], state["villain"]), (2, 4, "vulcan"))
        self.assertEqual(t.screen()[0], "KO 0/4  T1 0  T2 0")  # each team's too
        self.assertFalse(t.app.do("duel", ["hero"]))
        for hero in (0, 1, 2):
            t.app.do("ko", [hero])
        self.assertIsNone(t.app.game.state["over"])
        t.app.do("ko", [3])
        self.assertEqual(t.app.game.state["over"], "4 KO tokens: the heroes lose.")

    def test_co_operative_with_one_player_against_gladiator(self):
        t = Table()
        new(t, "united", "aaa")
        self.assertEqual(t.app.count, 1)
        t.presses("c")  # the first row: start
        state = t.app.game.state
        self.assertEqual(([h["name"] for h in state["heroes"]], state["teams"]), (["Black Bolt"], 1))
        self.assertTrue(t.app.do("duel", ["gladiator"]))


class Battleworld(unittest.TestCase):
    def test_the_starting_heroes_have_their_range_and_no_more_to_set_up(self):
        t = Table()
        t.presses("bbbc")
        self.assertEqual(t.screen()[2], "Starting heroes (1-5):")
        self.assertEqual(t.screen()[7], "")  # no rows to hold B for
        t.presses("B")
        self.assertEqual(t.app.mode, "setup")


class Remembered(unittest.TestCase):
    def test_the_last_set_up_is_the_default_one_press_starts_it_again_even_after_a_power_cut(self):
        t = Table()
        new(t, "champions", "a")  # one player
        set_to(t, "P1 hero", "Iron Man")
        set_to(t, "Villain stages", "1")
        start(t)
        t.wait(2000)  # the save, then the set-up, written at idle
        first = json.loads(json.dumps(t.app.game.state))
        again = Table(root=t.root, keep_files=True)
        again.presses("C")  # the notice of the game kept... or the start menu already
        while again.app.mode != "start":
            again.presses("c")
        items = [label for label, _ in again.app.menus.start_items(again.app)]
        again.presses("b" * items.index("New Champions") + "c")
        if again.app.mode == "replace":
            again.presses("bc")  # Yes: a new game
        self.assertEqual((again.app.mode, again.app.count), ("setup", 1))
        again.wait(500)  # the set-up made ready at idle: the count screen says what its C starts
        self.assertEqual(again.screen()[5], "Standard: Iron Man")
        again.presses("b")
        self.assertEqual(again.screen()[5], "Standard: Iron Man, P2")
        again.presses("a c")  # one press
        self.assertEqual(again.app.game.state["heroes"], first["heroes"])
        self.assertEqual(again.app.game.state["areas"][0]["villain"]["stages"], [14])

    def test_a_remembered_set_up_of_another_shape_is_not_used(self):
        t = Table()
        with open(t.root + "setup.json", "w") as f:
            json.dump({"champions": {"count": 3, "setup": {"heroes": "Thor"}}, "united": {"count": 9, "setup": {}}}, f)
        t.presses("bc")
        self.assertEqual((t.app.mode, t.app.count), ("setup", 2))  # the default set-up and count
        self.assertEqual(t.app.setup["heroes"][0], ["P1", 10])
        t.presses("c")
        self.assertEqual(t.app.mode, "play")


class DamagedFiles(unittest.TestCase):
    def tower_with(self, name, text):
        """A fresh tower with `name` on its flash holding `text`."""
        t = Table()
        self.root = t.root
        with open(t.root + name, "w") as f:
            f.write(text)
        return t

    def tearDown(self):
        for name in os.listdir(self.root):
            if name.startswith("champions.json") or name.startswith("setup.json"):
                os.remove(self.root + name)

    def test_a_damaged_presets_file_is_named_left_in_place_and_the_set_up_goes_on(self):
        t = self.tower_with("champions.json", '{"heroes": [{"name": "Wasp", "hp": 0}]}')
        t.presses("bc")
        text = " ".join(t.screen())
        self.assertEqual(t.app.mode, "notice")
        self.assertIn("champions.json", text)
        self.assertEqual(
            t.app.message,
            "champions.json: Wasp's hit points must be 1 to 99, not 0; the file is left as it is. "
            "The built-in presets are offered.",
        )
        self.assertIn("champions.json", os.listdir(t.root[:-1] or "/"))  # where the user left it, to mend
        self.assertFalse(
            "champions.json.bad1" in os.listdir(t.root[:-1] or "/")
        )  # the VM's unittest has no assertNotIn
        t.presses("c")  # read: back to the count screen it interrupted, the set-up going on
        self.assertEqual((t.app.mode, t.screen()[0]), ("setup", "New Champions"))
        t.presses("B")
        set_to(t, "P1 hero", "She-Hulk")

    def test_a_presets_file_that_is_not_json_is_refused_at_its_line_and_column(self):
        t = self.tower_with("champions.json", '{"heroes": [\n  {"name": "Wasp", "hp": 9}\n  {"name": "Hawkeye"}\n]}')
        t.presses("bc")
        self.assertEqual(t.app.mode, "notice")
        self.assertTrue(
            t.app.message.startswith("champions.json is not valid JSON at line 3, column 3; the file is left"),
            t.app.message,
        )

    def test_a_users_presets_are_offered_after_the_built_in_ones(self):
        t = self.tower_with(
            "champions.json",
            json.dumps(
                {
                    "heroes": [{"name": "Wasp", "hp": 9}],
                    "scenarios": [
                        {
                            "name": "My villain",
                            "villain": {"name": "Ultron", "stages": [17, 22]},
                            "scheme": {
                                "name": "Drones",
                                "stages": [{"target": 5, "target_per_player": True, "start": 2, "acceleration": 2}],
                            },
                        }
                    ],
                }
            ),
        )
        new(t, "champions", "a")
        set_to(t, "Scenario", "My villain")
        set_to(t, "P1 hero", "Wasp")
        start(t)
        state = t.app.game.state
        area = state["areas"][0]
        self.assertEqual((state["heroes"][0]["name"], state["heroes"][0]["hp"]), ("Wasp", 9))
        self.assertEqual((area["villain"]["name"], area["villain"]["hp"]), ("Ultron", 17))
        self.assertEqual((area["scheme"]["name"], area["scheme"]["stages"]), ("Drones", [[5, 2, 2]]))

    def test_a_users_scenario_gives_its_own_game_areas_villain_and_scheme(self):
        scenario = {
            "name": "My Kang",
            "villain": {"name": "Kang (I)", "stages": [10], "final": False},
            "scheme": {"name": "Kang scheme", "stages": [{"target": 9, "start": 1}]},
            "own_area": {
                "villain": {"name": "Ravonna", "hp": 9},
                "scheme": {"name": "Stage 3B", "target": 7, "start": 0, "acceleration": 2},
            },
        }
        t = self.tower_with("champions.json", json.dumps({"scenarios": [scenario]}))
        new(t, "champions", "a")  # one player
        set_to(t, "Scenario", "My Kang")
        self.assertEqual(row(t, "Ravonna HP"), "Ravonna HP: 9")
        start(t)
        labels = [label for label, _, _ in t.app.menu]
        t.presses("b" * labels.index("Kang: own area") + "c c")  # P1's own area
        area = t.app.game.state["areas"][-1]
        self.assertEqual((area["villain"]["name"], area["villain"]["hp"]), ("Ravonna", 9))
        self.assertEqual((area["scheme"]["name"], area["scheme"]["stages"]), ("Stage 3B", [[7, 2, 0]]))

    def test_an_own_area_that_can_never_start_is_refused_naming_it(self):
        scenario = {
            "name": "Bad",
            "villain": {"name": "V", "stages": [10]},
            "scheme": {"name": "S", "stages": [{"target": 9}]},
            "own_area": {"villain": {"name": "K", "hp": 9}, "scheme": {"name": "T", "target": 3, "start": 3}},
        }
        t = self.tower_with("champions.json", json.dumps({"scenarios": [scenario]}))
        t.presses("bc")
        self.assertEqual(t.app.mode, "notice")
        self.assertIn("champions.json: T: starting threat 3 must be below the target, 3", t.app.message)

    def test_a_damaged_setup_file_is_kept_aside_and_the_defaults_used(self):
        t = self.tower_with("setup.json", "{not json")
        t.presses("c")
        self.assertEqual(t.app.mode, "notice")
        self.assertIn("setup.json is not valid JSON at line 1, column 2. It is kept as setup.json.bad1.", t.app.message)
        t.presses("c")  # read: the count screen it interrupted, from the defaults
        self.assertEqual((t.app.mode, t.app.count), ("setup", 4))

    def remembered(self, kind, count, setup):
        """A tower whose setup.json remembers `setup` for `kind` (a hand edit), on that game's count screen."""
        t = self.tower_with("setup.json", json.dumps({kind: {"count": count, "setup": setup}}))
        t.presses(START_MENU[kind] + "c")
        return t

    def champions_setup(self, **changes):
        from dicetower.core.games.champions.setup import setup_default

        setup = setup_default({})
        for key, value in changes.items():
            part, field = key.split("_", 1)
            setup[part][field] = value
        return setup

    def test_a_remembered_stage_count_out_of_its_range_is_said_and_the_defaults_offered(self):
        """Five villain stages froze the form at "Stage 5"; -1 gave 3 stages, silently."""
        for count, said in ((5, "Villain stages 5."), (-1, "Villain stages -1.")):
            t = self.remembered("champions", 2, self.champions_setup(villain_count=count))
            self.assertEqual(t.app.mode, "notice")
            self.assertIn("setup.json: the last Champions set-up has " + said, t.app.message)
            self.assertIn("It is kept as setup.json.bad1.", t.app.message)
            t.presses("c")  # read: the count screen it interrupted, from the defaults
            self.assertEqual((t.app.mode, t.app.count), ("setup", 2))
            t.presses("C bc")  # Champions again: not the same notice
            self.assertEqual((t.app.mode, t.app.count), ("setup", 2))
            t.presses("B")
            self.assertEqual(t.app.setup["villain"]["count"], 2)
            start(t)
            self.assertEqual(t.app.mode, "play")
            self.tearDown()

    def test_a_remembered_count_of_true_is_not_a_count(self):
        t = self.remembered("united", True, {})
        self.assertEqual((t.app.mode, t.app.count), ("setup", 4))  # United's default count, not 1

    def test_united_seats_each_hero_once_whatever_was_remembered(self):
        """ "A box has one of each hero": a set-up remembered with 3 players, Triton moved up to seat 3
        while seat 6 kept its default Triton, seated two Tritons once the count went up to 6."""
        setup = {"teams": 1, "villain": "gladiator", "threshold": 6}
        setup["heroes"] = ["Black Bolt", "Medusa", "Triton", "Karnak", "Gorgon", "Triton"]
        t = self.remembered("united", 3, setup)
        t.presses("bbb")  # the count up to 6
        self.assertEqual(t.app.count, 6)
        t.presses("B")  # the set-up's rows: each seat a hero of its own
        seats = [row(t, "Seat %d" % n).split(": ", 1)[1] for n in range(1, 7)]
        self.assertEqual(seats, ["Black Bolt", "Medusa", "Triton", "Karnak", "Gorgon", "Crystal"])
        t = self.remembered("united", 3, dict(setup, heroes=list(setup["heroes"])))
        t.presses("bbb c")  # the one-press start, as last set up with 6 players
        self.assertEqual(t.app.mode, "play")
        names = [h["name"] for h in t.app.game.state["heroes"]]
        self.assertEqual(names, ["Black Bolt", "Medusa", "Triton", "Karnak", "Gorgon", "Crystal"])

    def test_a_preset_named_like_a_built_in_one_is_refused_naming_it(self):
        """Named like She-Hulk, a user's hero trapped B on the hero row and took her hit points."""
        for presets, said in (
            ({"heroes": [{"name": "She-Hulk", "hp": 3}]}, "The hero She-Hulk is named like another"),
            ({"heroes": [{"name": "P2", "hp": 3}]}, "The hero P2 is named like another"),
            (
                {
                    "scenarios": [
                        {
                            "name": "Standard",
                            "villain": {"name": "V", "stages": [9]},
                            "scheme": {"name": "S", "stages": [{"target": 5}]},
                        }
                    ]
                },
                "The scenario Standard is named like another",
            ),
        ):
            t = self.tower_with("champions.json", json.dumps(presets))
            t.presses("bc")
            self.assertEqual(t.app.mode, "notice")
            self.assertIn("champions.json: " + said, t.app.message)
            self.assertFalse("champions.json: champions.json" in t.app.message)
            self.tearDown()

    def test_a_scenario_that_can_never_start_is_refused(self):
        stage = {"target": 5, "start": 6}  # fixed both: 6 threat at the start, over its target, for any count
        presets = {
            "scenarios": [
                {"name": "Never", "villain": {"name": "V", "stages": [9]}, "scheme": {"name": "S", "stages": [stage]}}
            ]
        }
        t = self.tower_with("champions.json", json.dumps(presets))
        t.presses("bc")
        self.assertEqual(t.app.mode, "notice")
        self.assertIn("champions.json: Never's scheme stage 1 can never start", t.app.message)

    def test_a_battlerealm_roster_of_three_seats_three_beside_a_remembered_set_up_of_others(self):
        """heroes.json with 3 heroes and setup.json remembering 4 others: 4 on screen, blank seats, and a
        start that locked the loop. The count screen goes to 3 at most; the seats are the roster's."""
        heroes = [{"name": name} for name in ("Wasp", "Hawkeye", "Falcon")]
        root = Table().root
        with open(root + "setup.json", "w") as f:
            json.dump({"battlerealm": {"count": 4, "setup": {"heroes": ["Hulk", "Thor", "Vision", "Loki", "", ""]}}}, f)
        with open(root + "heroes.json", "w") as f:
            json.dump({"heroes": heroes}, f)
        self.root = root
        t = Table(root=root, keep_files=True)  # the set-up reads heroes.json: the next Table() removes it
        t.presses("c")
        while t.app.unready is not None:
            t.wait(50)
        self.assertEqual((t.app.mode, t.app.count), ("setup", 3))
        self.assertIn("Players (2-3):", t.screen())
        t.presses("b")  # no fourth seat
        self.assertEqual(t.app.count, 3)
        t.presses("B")
        self.assertEqual(t.screen()[2:5], ["Seat 1: Wasp", "Seat 2: Hawkeye", "Seat 3: Falcon"])
        start(t)
        self.assertEqual([h["name"] for h in t.app.game.state["heroes"]], ["Wasp", "Hawkeye", "Falcon"])


class IdlePasses(unittest.TestCase):
    def test_battlerealms_roster_is_read_in_an_idle_pass_of_its_own_before_its_rows(self):
        # On a Pico the built-in roster's read (5.8 KB of JSON) and the rows made of it were one 77 ms pass,
        # the buttons unread through it.
        from dicetower.core.games.battlerealm import roster

        t = Table()
        roster.forget()
        t.app.press("c", "short")  # New Battlerealm: its count screen; its modules and set-up come at idle
        passes = []
        while t.app.unready is not None:
            was_read = bool(roster._READ)
            t.app.think()
            passes.append((was_read, bool(roster._READ), t.app.setup is not None))
        self.assertIn((False, True, False), passes)  # read in a pass that made no rows
        self.assertEqual(passes[-1], (True, True, True))  # the rows in a pass of their own, the roster read
        self.assertEqual(t.app.setup["heroes"][:2], ["Hulk", "Thor"])  # the built-in roster's first seats


if __name__ == "__main__":
    unittest.main()
