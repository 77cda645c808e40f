"""What goes wrong on a real table: no profile, no OLED, a crash, a power cut. CPython and the VM."""

import json
import os
import unittest

from dicetower.core.dice import BATTLEREALM
from table import Table


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


class Profiles(unittest.TestCase):
    def test_the_chip_picks_its_profile(self):
        t = Table()
        self.assertEqual(t.device.board.name, "Raspberry Pi Pico")

    def test_config_names_the_board(self):
        t = Table()
        write(t.root + "config.json", json.dumps({"board": "rp2040_zero"}))
        t2 = Table(board="rp2040_zero", root=t.root, keep_files=True)
        self.assertEqual(t2.device.board.name, "Waveshare RP2040-Zero")
        os.remove(t.root + "config.json")

    def test_an_unknown_board_is_explained_on_console_and_screen(self):
        t = Table()
        write(t.root + "config.json", json.dumps({"board": "pico3"}))
        t2 = Table(root=t.root, keep_files=True)
        os.remove(t.root + "config.json")
        error = t2.events("error")[0]["error"]
        self.assertIn("pico3", error)
        screen = t2.screen()
        self.assertEqual(screen[0], "BOARD PROBLEM")
        self.assertIn("pico3", " ".join(screen))
        t2.wait(100)  # the device idles without crashing

    def test_a_wrong_profile_names_the_field(self):
        t = Table()
        with open(t.root + "boards/pico.json") as f:
            good = f.read()
        bad = json.loads(good)
        bad["oled"]["sda"] = 7
        write(t.root + "boards/broken.json", json.dumps(bad))
        write(t.root + "config.json", json.dumps({"board": "broken"}))
        t2 = Table(root=t.root, keep_files=True)
        os.remove(t.root + "config.json")
        os.remove(t.root + "boards/broken.json")
        self.assertIn("oled.sda GP7 is not an SDA pin", t2.events("error")[0]["error"])


def named(machine_name, board, root, keep_files=True):
    """The tower on a bench whose chip gives `machine_name` (os.uname().machine), its parts wired as
    boards/`board`.json says."""
    import devices

    reset = devices.reset

    def renamed():
        bench = reset()
        bench.machine_name = machine_name
        return bench

    devices.reset = renamed
    try:
        return Table(board=board, root=root, keep_files=keep_files)
    finally:
        devices.reset = reset


class Zero(unittest.TestCase):
    """An RP2040-Zero whose config.json is broken, without the manifest `dicetower flash` writes (copied
    by hand, or `mpremote mip install`): its pins from its own MicroPython's name, else said and any
    button goes on."""

    def broken_config(self):
        t = Table()
        write(t.root + "config.json", '{"board": "rp2040_zero"},')
        return t.root

    def test_its_own_micropython_names_it_and_its_c_passes_the_notice(self):
        root = self.broken_config()
        try:
            zero = named("Waveshare RP2040-Zero with RP2040", "rp2040_zero", root)
            self.assertEqual(zero.device.board.name, "Waveshare RP2040-Zero")
            self.assertEqual(zero.app.mode, "notice")
            self.assertFalse("cannot tell" in " ".join(zero.screen()))
            zero.presses("c")  # the Zero's own C (GP11)
            self.assertEqual(zero.app.mode, "start")
            zero.presses("b c")  # and its B and C choose New Champions
            self.assertEqual((zero.app.mode, zero.app.kind), ("setup", "champions"))
        finally:
            os.remove(root + "config.json.bad1")

    def test_under_the_picos_micropython_it_says_it_cannot_tell_and_any_button_goes_on(self):
        for button in ("b", "c"):  # (its A, a button no Pico has, tells the tower it is a Zero: below)
            root = self.broken_config()
            try:
                zero = named("Raspberry Pi Pico with RP2040", "rp2040_zero", root)
                self.assertEqual(zero.device.board.name, "Raspberry Pi Pico")  # the Pico's pins: it cannot tell
                said = ""
                for _ in range(4):  # each press of the Zero's `button` a page on, then past the notice
                    if zero.app.mode != "notice":
                        break
                    said += " " + " ".join(zero.screen()[:7])
                    zero.presses(button)
                self.assertEqual(zero.app.mode, "start", button)
                self.assertIn("cannot tell a Raspberry Pi Pico from a Waveshare RP2040-Zero", said)
                self.assertIn("On the other, press its A: the tower names it in config.json and restarts.", said)
                self.assertIn("Any button goes on.", said)
            finally:
                os.remove(root + "config.json.bad1")

    def test_under_the_picos_micropython_with_no_config_its_a_names_it_and_it_restarts_on_its_pins(self):
        """An `mpremote mip` install: no config.json, no manifest. The Zero's B and C are the Pico's A and B
        (GP10, GP11) and nothing is its C; its A (GP9), which no Pico has, tells the tower what it is."""
        root = Table().root
        zero = named("Raspberry Pi Pico with RP2040", "rp2040_zero", root)
        try:
            self.assertEqual((zero.device.board.name, zero.app.mode), ("Raspberry Pi Pico", "start"))
            with self.assertRaises(SystemExit):  # machine.reset(), on the bench
                zero.presses("a")
            with open(root + "config.json") as f:
                self.assertEqual(json.load(f)["board"], "rp2040_zero")
            again = named("Raspberry Pi Pico with RP2040", "rp2040_zero", root)
            self.assertEqual(again.device.board.name, "Waveshare RP2040-Zero")
            again.presses("b c")  # its own B and C: New Champions
            self.assertEqual((again.app.mode, again.app.kind), ("setup", "champions"))
        finally:
            os.remove(root + "config.json")

    def test_a_pico_found_by_its_name_keeps_its_buttons(self):
        t = Table()  # every profile on flash, no config.json: the Pico in doubt, unsaid without a notice
        self.assertEqual(t.app.mode, "start")
        t.presses("b b a")
        self.assertEqual(t.app.cursor, 1)


class Display(unittest.TestCase):
    def test_a_missing_oled_leaves_the_ring_and_the_game_going(self):
        t2 = Table(oled=False)
        self.assertFalse(t2.device.oled.present)
        t2.presses("c a a c")  # a new Battlerealm game, without a screen
        self.assertEqual(t2.app.mode, "cut")
        t2.presses("c")  # cut the seal
        self.assertEqual(t2.app.mode, "play")
        t2.presses("c")  # roll
        t2.wait(1200)
        self.assertTrue(any(t2.strip.data))
        logs = [e["text"] for e in t2.events("log")]
        self.assertTrue(any("carrying on without the screen" in line for line in logs), logs)
        t2.panel.present = True  # plugged in again: found at the next retry
        t2.wait(5200)
        self.assertTrue(t2.device.oled.present)
        self.assertIn("Hulk  re-rolls 2", t2.screen())  # the dice screen, drawn in full again


class Crashes(unittest.TestCase):
    def test_an_error_is_logged_shown_and_the_game_survives(self):
        t = Table()
        t.presses("c a a c")  # Battlerealm, two heroes
        t.presses("c")  # cut the seal
        pvp = t.app.game.state["heroes"][0]["pvp"]

        def broken(button, kind):
            raise ZeroDivisionError("boom")

        t.app.press = broken
        t.presses("c")
        self.assertEqual(t.events("error")[0]["error"], "ZeroDivisionError: boom")
        with open(t.root + "errors.log") as f:
            self.assertIn("ZeroDivisionError: boom", f.read())
        self.assertEqual(t.screen()[7], "Error: ZeroDivisionError")  # one line; errors.log has the rest
        self.assertEqual(t.app.mode, "play")
        self.assertEqual(t.app.game.state["heroes"][0]["pvp"], pvp)

    def test_out_of_memory_saves_the_game_says_so_in_words_and_play_goes_on(self):
        """A MemoryError in a step (a heap a long game or a maker's own files filled) is no traceback on
        the OLED and no lost game: the action done before it is on flash, the screen says what to do."""
        from dicetower.core.save_reader import decode

        t = Table()
        t.presses("c a a c")  # Battlerealm, two heroes
        t.presses("c")  # cut the seal
        t.wait(500)  # saved: the game's start
        press = t.app.press

        def runs_out(button, kind):
            press(button, kind)
            if t.app.game.state["heroes"][1]["pvp"] == 11:
                raise MemoryError("memory allocation failed, allocating 1636 bytes")

        t.app.press = runs_out
        t.presses("bbbb c c c")  # Gain PVP: Thor (offered first: not the acting hero), 1; then the heap runs out
        with open(t.root + "game.sav", "rb") as f:
            saved = decode(f.read())
        self.assertEqual(saved.state["heroes"][1]["pvp"], 11)  # the action the failed step came after, on flash
        screen = " ".join(t.screen())
        self.assertIn("Out of memory", screen)
        self.assertFalse("MemoryError" in screen, screen)  # (micropython-lib's unittest has no assertNotIn)
        with open(t.root + "errors.log") as f:
            self.assertIn("MemoryError: memory allocation failed, allocating 1636 bytes (the game is saved)", f.read())
        t.app.press = press
        t.presses("c c c")  # the heap has room again: Gain PVP (the menu stays on it), Thor, 1
        self.assertEqual(t.app.game.state["heroes"][1]["pvp"], 12)

    def test_the_error_log_stays_bounded(self):
        t = Table()
        for n in range(200):
            t.device._crash(ValueError("error number %d" % n))
        self.assertTrue(os.stat(t.root + "errors.log")[6] <= 2048)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def champions_in_play():
    """A one-player Champions game in play, saved: (the tower, the save's bytes)."""
    t = Table()
    t.presses("bc ac")  # New Champions, one player
    t.wait(500)
    return t, read(t.root + "game.sav")


CHAMPIONS_RULES = "dicetower.core.games.champions.tracker"


def without_champions_rules():
    """As a tower just booted: Champions' rules not loaded (another test's game may have left them)."""
    from dicetower.core.scope import Scope

    scope = Scope("a tower just booted")
    scope.adopt(CHAMPIONS_RULES)
    scope.close()


class Recovery(unittest.TestCase):
    """A press or a redraw that raises never leaves a screen no button answers: the last good screen comes
    back at once (the game, else the start menu), the error said in one line and kept in errors.log, and
    the game on flash as it was."""

    def test_a_set_up_form_that_is_gone_brings_back_the_start_menu(self):
        """The lock of issue 46 (the form let go while its mode stayed): a screen up whose every redraw raises."""
        t = Table()
        t.presses("bc")  # New Champions: its count screen
        t.app.screen.app = None  # what it draws from, gone
        t.app.changed = True
        t.wait(50)
        self.assertEqual(t.app.mode, "start")
        screen = t.screen()
        self.assertEqual(screen[0], "DICETOWER")
        self.assertEqual(screen[7], "Error: AttributeError")
        self.assertIn("AttributeError: 'NoneType' object has no attribute", read(t.root + "errors.log").decode())
        t.presses("b")  # the next press answers, and the error's line goes
        self.assertEqual(t.app.cursor, 1)
        self.assertEqual(t.screen()[7], "A/B move C choose")
        t.presses("c")  # New Champions again: its count screen
        self.assertEqual((t.app.mode, t.app.kind), ("setup", "champions"))

    def test_a_press_on_a_form_that_is_gone_brings_back_the_start_menu(self):
        t = Table()
        t.presses("bc")  # New Champions: its count screen
        t.app.screen.app = None  # what it works on, gone (not drawn: the press comes first)
        t.presses("c")
        self.assertEqual(t.app.mode, "start")
        self.assertEqual(t.screen()[7], "Error: AttributeError")
        self.assertIn("'NoneType' object has no attribute", read(t.root + "errors.log").decode())

    def test_a_press_that_raises_in_a_game_brings_back_the_game_and_leaves_its_save(self):
        t, saved = champions_in_play()
        t.presses("bb c")  # Hit villain: its area asked
        self.assertEqual(t.app.mode, "args")

        def broken(button, kind):
            raise LookupError("no area 9")

        t.app.screen.press = broken  # the screen picking the area
        t.presses("c")
        self.assertEqual(t.app.mode, "play")  # the half-chosen action dropped
        screen = t.screen()
        self.assertEqual(screen[:3], ["R1 player  1st:P1", "Threat 3/10 st1", "Villain 14 hp"])
        self.assertEqual(screen[7], "Error: LookupError")
        self.assertIn("LookupError: no area 9", read(t.root + "errors.log").decode())
        t.wait(500)
        self.assertEqual(read(t.root + "game.sav"), saved)
        t.presses("bb c c")  # the game goes on: Hit villain in area 1, 1 hit point
        self.assertEqual(t.app.mode, "args")
        self.assertFalse("Error" in " ".join(t.screen()))

    def test_a_redraw_that_raises_in_a_game_brings_back_the_game(self):
        t, saved = champions_in_play()
        t.presses("bb c")  # Hit villain: its area asked

        def broken(canvas):
            raise IndexError("list index out of range")

        t.app.screen.draw = broken  # the screen picking the area
        t.presses("b")  # the next area: its redraw raises
        self.assertEqual(t.app.mode, "play")
        self.assertEqual(t.screen()[2], "Villain 14 hp")
        self.assertEqual(t.screen()[7], "Error: IndexError")
        t.wait(500)
        self.assertEqual(read(t.root + "game.sav"), saved)

    def test_a_start_whose_rules_cannot_be_imported_brings_back_the_start_menu_and_the_next_one_plays(self):
        """Champions' rules are imported after the press that starts it, once the OLED says it is starting
        (App.later): a flash that fails that read leaves no half-started game and no press waiting for
        good; the error is said, the start menu is back, and the next start plays."""
        from dicetower.core.scope import Scope

        without_champions_rules()
        t = Table()
        t.presses("b c")  # New Champions: its set-up made ready at idle
        t.wait(1000)
        load = Scope.load

        def failing(scope, name):
            if name == CHAMPIONS_RULES:
                raise OSError(5, "EIO")
            return load(scope, name)

        Scope.load = failing
        try:
            t.presses("c")  # start, with the defaults: "Starting Champions...", then the read fails
        finally:
            Scope.load = load
        self.assertEqual((t.app.mode, t.app.game, t.app.later), ("start", None, None))
        self.assertEqual(t.screen()[7], "Error: OSError")
        t.presses("b c")  # New Champions again
        t.wait(1000)
        t.presses("c")
        self.assertEqual((t.app.mode, t.app.kind), ("play", "champions"))
        self.assertEqual(t.screen()[1], "Threat 3/10 st1")
        os.remove(t.root + "errors.log")

    def test_a_start_its_rules_refuse_after_the_set_up_let_it_pass_brings_back_the_form_with_why(self):
        """The set-up's checks are the rules' own, but should one be missing there, the rules' refusal,
        after their import in a pass of their own, brings the form back with the reason, as it did when the
        press imported them."""
        from dicetower.core.game import Refused
        from dicetower.core.scope import Scope

        without_champions_rules()
        t = Table()
        t.presses("b c")  # New Champions
        t.wait(1000)
        load = Scope.load
        refused = []

        def refusing(*args):
            raise Refused("The villain is not one the box has.")

        def loaded(scope, name):
            module = load(scope, name)
            if name == CHAMPIONS_RULES:
                refused.append(module.TRACKER)
                module.TRACKER.setup = refusing
            return module

        Scope.load = loaded
        try:
            t.presses("c")  # start
        finally:
            Scope.load = load
            without_champions_rules()  # its class, refusing, forgotten: imported afresh when next needed
        self.assertEqual(len(refused), 1)  # imported after the press, as a tower just booted does
        self.assertEqual((t.app.mode, t.app.game, t.app.later), ("form", None, None))
        self.assertEqual(t.screen()[0], "Set up Champions")
        self.assertIn("villain is not one", " ".join(t.screen()[6:]))  # the reason, over the form's last lines
        t.presses("b")  # the next press: the form's own last line back
        self.assertEqual(t.screen()[7], "C: choose  Hold C: back")

    def test_a_game_whose_screen_cannot_be_drawn_goes_to_the_start_menu_kept_to_resume(self):
        from dicetower.ui import screens

        t, saved = champions_in_play()
        draw_play = screens.Play.draw

        def broken(screen, canvas):
            raise ValueError("a status line the game cannot make")

        screens.Play.draw = broken
        try:
            t.presses("b")  # its redraw raises, and again on the game's screen: the start menu
            self.assertEqual(t.app.mode, "start")
            screen = t.screen()
            self.assertEqual(screen[1], "Resume Champions")
            self.assertEqual(screen[7], "Error: ValueError")
        finally:
            screens.Play.draw = draw_play
        t.wait(500)
        self.assertEqual(read(t.root + "game.sav"), saved)
        t.presses("c")  # resumed
        self.assertEqual((t.app.mode, t.screen()[2]), ("play", "Villain 14 hp"))


def press_with_no_screen(t, error):
    """Press B on a tower whose every screen raises `error` when drawn (the loop fails each pass)."""
    from dicetower.ui import screens

    draw = screens.draw

    def broken(app, canvas):
        raise error

    screens.draw = broken
    try:
        t.presses("b")
    finally:
        screens.draw = draw


class Restart(unittest.TestCase):
    """A loop that raises LOOP_FAILS passes in a row, recovered or not, restarts the board through the
    watchdog, and the next boot says why."""

    def test_a_recovery_that_fails_too_never_stops_the_loop(self):
        """Out of heap inside the guard itself (App.recover making its picker): the loop was left by the
        exception, and nothing but the watchdog could bring the tower back; it counts as a failed pass."""
        from dicetower.device import LOOP_FAILS

        t = Table()

        def no_heap(to_game=True):
            raise MemoryError("memory allocation failed")

        t.app.recover = no_heap
        t.app.screen.app = None  # a screen with nothing to draw from
        t.app.changed = True
        t.wait(1000)  # the MemoryError left the loop before: here it goes on, LOOP_FAILS passes, to the restart
        self.assertEqual(t.device._fails, LOOP_FAILS)
        self.assertTrue("errors.reset" in os.listdir(t.root[:-1] or "/"))
        self.assertEqual(t.screen()[0], "RESTARTING")
        os.remove(t.root + "errors.reset")

    def test_work_between_presses_that_raises_is_set_down_and_play_goes_on(self):
        """A set-up module that cannot be imported (a flash gone bad) raised at every idle pass, and ten
        in a row restarted the board: the work is set down, said once, and the buttons still play."""
        t = Table()
        t.presses("b c")  # New Champions: its set-up is made ready at idle
        t.app.unready = "no_such_setup"  # what the idle work would import next
        t.wait(1000)
        self.assertFalse("errors.reset" in os.listdir(t.root[:-1] or "/"))
        self.assertEqual(t.app.mode, "setup")
        said = t.screen()[7]  # ImportError (CPython: ModuleNotFoundError), cut to the line's width
        self.assertTrue(said.startswith("Error: ") and ("ImportError" in said or "ModuleNotFound" in said), said)
        self.assertEqual(read(t.root + "errors.log").decode().count("no_such_setup"), 1)  # logged once
        t.presses("c")  # start, with the defaults
        self.assertEqual(t.app.mode, "play")
        os.remove(t.root + "errors.log")

    def test_a_loop_that_raises_every_pass_restarts_through_the_watchdog_and_says_why(self):
        from dicetower.device import LOOP_FAILS
        from dicetower.startup import RESTART_MS

        t, saved = champions_in_play()
        self.assertIsNone(t.bench.watchdog)  # none runs by default
        press_with_no_screen(t, RuntimeError("every screen fails"))
        errors = [e["error"] for e in t.events("error")]
        self.assertEqual(
            errors[-1], "Restarting: %d errors in a row, the last RuntimeError: every screen fails" % LOOP_FAILS
        )
        dog = t.bench.watchdog
        self.assertEqual(dog.timeout, RESTART_MS)  # started by the restart, and never fed: it resets the board
        fed = dog.fed
        t.wait(3000)
        self.assertEqual(dog.fed, fed)
        self.assertEqual(t.screen()[0], "RESTARTING")
        self.assertIn("errors in a row", read(t.root + "errors.log").decode())
        self.assertEqual(read(t.root + "game.sav"), saved)
        again = Table(root=t.root, keep_files=True)  # the board after its reset
        self.assertEqual(again.app.mode, "notice")
        said = " ".join(again.screen()[:7])
        self.assertIn("The tower restarted itself: %d errors in a row" % LOOP_FAILS, said)
        self.assertFalse("errors.reset" in os.listdir(t.root))  # said once
        while again.app.mode == "notice":
            again.presses("c")  # C goes on (B pages)
        self.assertEqual(again.screen()[1], "Resume Champions")
        self.assertEqual(again.events("error"), [])

    def test_a_watchdog_already_running_is_left_unfed(self):

        t = Table()
        write(t.root + "config.json", json.dumps({"watchdog": True}))
        t2 = Table(root=t.root, keep_files=True)
        os.remove(t.root + "config.json")
        dog = t2.bench.watchdog
        press_with_no_screen(t2, ZeroDivisionError("no screen"))
        self.assertIs(t2.bench.watchdog, dog)  # the same, at its 8 s
        fed = dog.fed
        t2.wait(1000)
        self.assertEqual(dog.fed, fed)
        os.remove(t.root + "errors.reset")

    def test_a_board_without_a_watchdog_is_reset_by_its_platform(self):

        t = Table()
        resets = []

        def no_watchdog(ms):
            raise RuntimeError("this board has no watchdog")

        t.platform.watchdog = no_watchdog
        t.platform.reset = lambda: resets.append(True)
        press_with_no_screen(t, ZeroDivisionError("no screen"))
        self.assertEqual(resets, [True])
        self.assertIsNone(t.bench.watchdog)
        os.remove(t.root + "errors.reset")


class PowerCut(unittest.TestCase):
    def test_a_cut_while_a_settings_file_was_written_leaves_no_temporary_file(self):
        t = Table()
        write(t.root + "config.json", json.dumps({"brightness": 70}))
        write(t.root + "config.json.tmp", '{"brightness": 4')  # cut while the settings were saved
        write(t.root + "setup.json.tmp", '{"champions": {"cou')  # cut while the first set-up was remembered
        write(t.root + "heroes.json.tmp", '{"heroes": [{"name": "Wa')
        again = Table(root=t.root, keep_files=True)
        os.remove(t.root + "config.json")
        left = [n for n in os.listdir(t.root) if n.endswith(".tmp")]
        self.assertEqual(left, [])
        self.assertEqual(again.app.settings["brightness"], 70)  # the file before the cut
        self.assertEqual(again.app.mode, "start")  # nothing to say: nothing was lost but the cut write
        self.assertFalse("heroes.json" in os.listdir(t.root))

    def test_a_cut_in_a_new_games_first_save_is_said_as_what_it_is(self):
        t = Table()
        t.presses("bbb c c")  # New Battleworld, one hero: its first save
        t.wait(500)
        whole = read(t.root + "game.sav")
        os.remove(t.root + "game.sav")
        with open(t.root + "game.sav.tmp", "wb") as f:
            f.write(whole[: len(whole) // 2])  # the power went halfway through it
        again = Table(root=t.root, keep_files=True)
        self.assertEqual(again.app.mode, "notice")
        said = " ".join(line for line in again.screen()[:7] if line)
        self.assertEqual(said, "The new game's first save was cut short: start it again. It is kept as game.sav.bad1.")
        self.assertEqual(read(t.root + "game.sav.bad1"), whole[: len(whole) // 2])
        again.presses("c")
        self.assertEqual(again.screen()[1], "New Battlerealm")  # nothing to resume

    def test_unplugged_mid_game_resumes_where_it_was(self):
        t = Table(seed=6)
        t.presses("c a a c")  # Battlerealm, two heroes
        t.presses("c")  # cut the seal
        t.presses("bbbb c a c" + "b" * 4 + "c")  # Gain PVP: Hulk +5
        state = t.app.game.to_dict()
        again = Table(seed=6, root=t.root, keep_files=True)  # power back on
        self.assertEqual(again.screen()[1], "Resume Battlerealm")
        again.presses("c")
        self.assertEqual(again.app.mode, "seed")  # the seal read from flash is revealed
        again.presses("c c")  # past the old seal's seed, then cut the new one
        self.assertEqual(again.app.mode, "play")
        resumed = again.app.game.to_dict()
        old = state.pop("seal")
        self.assertEqual(resumed.pop("seals")[-1]["commitment"], old["commitment"])  # revealed, kept
        self.assertNotEqual(resumed.pop("seal")["commitment"], old["commitment"])  # sealed afresh
        self.assertEqual(resumed, state)
        self.assertEqual(again.app.game.history(), t.app.game.history())


class Console(unittest.TestCase):
    def test_every_roll_and_score_is_one_json_line(self):
        t = Table(seed=7)
        t.presses("c a a c")  # Battlerealm
        t.presses("c")  # cut the seal
        t.presses("c")  # roll
        for line in t.platform.lines:
            event = json.loads(line)
            self.assertIn("event", event)
            self.assertIn("t", event)
        # The game's seal before its start, its cut before its first die; the roll's draws numbered from 1,
        # told as the dice land, before the roll that shows them.
        self.assertEqual([e["event"] for e in t.events()][:6], ["ready", "seal", "game", "cut", "draws", "roll"])
        draws = t.events("draws")[0]
        self.assertEqual(draws["first"], 1)
        self.assertEqual(draws["record"][:6], "0.0:0:")  # the first throw, Hulk's, of the game's first die
        self.assertEqual(len(draws["record"]), 12)  # six faces of six sides
        roll = t.events("roll")[0]
        self.assertEqual(roll["at"], "0.0")
        faces = BATTLEREALM.faces  # the record numbers each face in the die's order
        self.assertEqual("".join(["%d" % faces.index(f) for f in roll["faces"]]), draws["record"][6:])


class Settings(unittest.TestCase):
    def test_brightness_is_kept_and_dims_the_ring(self):
        t = Table()
        t.presses("a c")  # Settings is the last item of the start menu
        self.assertEqual(t.screen()[0], "Settings")
        t.presses("c" * 7 + "b c C")  # brightness 100% -> 70% (it wraps), sounds off, back
        with open(t.root + "config.json") as f:
            saved = json.loads(f.read())
        self.assertEqual((saved["brightness"], saved["sounds"]), (70, False))
        again = Table(root=t.root, keep_files=True)
        self.assertEqual(again.app.settings["brightness"], 70)
        os.remove(t.root + "config.json")

    def test_the_settings_are_written_by_the_app_not_by_a_console_event(self):
        """The console's events are news for `dicetower monitor`: the settings reach flash by the App's own
        call, so a shell that drops every event still keeps them."""
        from dicetower.core.entropy import FairDice
        from dicetower.core.replay import SeededSource
        from dicetower.ui.flow import App

        written = []
        app = App(FairDice(SeededSource(1)), write_json=lambda name, data: written.append((name, dict(data))))
        for key in "a c" + "c" * 7 + "b c C":  # Settings; brightness 100% -> 70%, sounds off; back
            if key != " ":
                app.press(key.lower(), "long" if key.isupper() else "short")
        self.assertEqual(app.mode, "start")
        self.assertEqual(len(written), 1, written)
        name, settings = written[0]
        self.assertEqual((name, settings["brightness"], settings["sounds"]), ("config.json", 70, False))

    def test_files_that_are_not_utf8_are_reported_not_fatal(self):
        t = Table()
        with open(t.root + "config.json", "wb") as f:
            f.write(b'{"brightness": 50, "board": "Caf\xe9"}')  # Latin-1, as an old editor saves it
        with open(t.root + "heroes.json", "wb") as f:
            f.write(b'{"heroes": [{"name": "\xc9clair"}]}')
        again = Table(root=t.root, keep_files=True)
        os.remove(t.root + "config.json.bad1")  # kept aside: the settings written next cannot replace it
        os.remove(t.root + "heroes.json")
        logged = " ".join(e["text"] for e in again.events("log"))
        self.assertIn("config.json is not valid JSON", logged)
        self.assertIn("heroes.json is not valid JSON", logged)
        self.assertEqual(again.device.board.name, "Raspberry Pi Pico")  # the game starts on defaults
        shown = ""
        while again.app.mode == "notice":  # its pages, one a press
            shown += " " + " ".join(again.screen()[:7])
            again.presses("b")
        self.assertIn("kept as config.json.bad1", shown)  # said on the OLED too
        self.assertIn("heroes.json is not valid", shown)

    def test_watchdog_only_when_asked_and_then_fed(self):
        t = Table()
        self.assertIsNone(t.bench.watchdog)
        write(t.root + "config.json", json.dumps({"watchdog": True}))
        t2 = Table(root=t.root, keep_files=True)
        os.remove(t.root + "config.json")
        t2.wait(200)
        self.assertTrue(t2.bench.watchdog.fed >= 10)

    def test_the_buzzer_beeps_on_a_roll_and_stops(self):
        t = Table()
        t.presses("c a a c")
        t.presses("c")  # cut the seal
        buzzer = t.bench.pwm[15]
        t.press("c")  # roll
        self.assertEqual(buzzer.duty_u16(), 0)  # a 40 ms beep, over by now
        self.assertEqual(buzzer.freq(), 1760)

    def test_heroes_and_abilities_edited_on_the_device(self):
        t = Table()
        t.presses("a c bb c")  # Settings, Heroes and abilities
        self.assertEqual(t.screen()[0], "Heroes")
        t.presses("b c")  # Thor
        t.presses("c")  # starting PVP 10 -> 11
        t.presses("b" * 7 + "c")  # the seventh ability: Lucky
        self.assertIn("[x] Lucky", t.screen())
        t.presses("a" * 8 + "c")  # Done: back to the list
        t.presses("aa c")  # from Thor up past Hulk to Done: save
        with open(t.root + "heroes.json") as f:
            saved = json.loads(f.read())["heroes"]
        self.assertEqual((saved[1]["name"], saved[1]["pvp"], saved[1]["abilities"]), ("Thor", 11, ["Lucky"]))
        self.assertEqual(len(saved[1]["cards"]), 4)  # the built-in file's, those to fill in and its notes with them
        self.assertIn("_fill", saved[1])
        self.assertFalse("heroes" in t.app.options)  # written: the file is what a set-up reads
        t.presses("C c a a c")  # back to the start menu, a new Battlerealm game with them
        self.assertEqual(t.app.game.state["heroes"][1]["abilities"], ["Lucky"])

    def test_a_users_heroes_file(self):
        t = Table()
        write(
            t.root + "heroes.json",
            json.dumps(
                {"heroes": [{"name": "Ant-Man", "pvp": 9, "abilities": ["Lucky"]}, {"name": "Wasp", "pvp": 11}]}
            ),
        )
        t2 = Table(root=t.root, keep_files=True)
        t2.presses("c a a c")
        t2.presses("c")  # cut the seal
        self.assertEqual(t2.screen()[0], "R1 Ant-Man's turn")


class DieButtons(unittest.TestCase):
    def test_a_button_per_die_picks_it_for_the_reroll(self):
        t = Table()
        with open(t.root + "boards/pico.json") as f:
            profile = json.loads(f.read())
        for n in range(6):
            profile["buttons"]["d%d" % (n + 1)] = {"pin": 18 + n, "pull": "up"}
        write(t.root + "boards/pico_dice.json", json.dumps(profile))
        write(t.root + "config.json", json.dumps({"board": "pico_dice"}))
        t2 = Table(board="pico_dice", root=t.root, keep_files=True)
        os.remove(t.root + "config.json")
        os.remove(t.root + "boards/pico_dice.json")
        t2.presses("c a a c")  # Battlerealm
        t2.presses("c")  # cut the seal
        t2.presses("c")  # roll
        free = [d for d in range(6) if not t2.app.roll.locked[d]][0]
        t2.bench.press(18 + free)
        t2.wait(60)
        t2.bench.release(18 + free)
        t2.wait(400)
        self.assertEqual(t2.app.turn.picked, 1 << free)


class Knob(unittest.TestCase):
    def test_a_rotary_encoder_moves_and_its_push_chooses(self):
        t = Table()
        with open(t.root + "boards/pico.json") as f:
            profile = json.loads(f.read())
        profile["buttons"].update({"enc_a": {"pin": 20}, "enc_b": {"pin": 21}, "enc_push": {"pin": 22}})
        write(t.root + "boards/pico_knob.json", json.dumps(profile))
        write(t.root + "config.json", json.dumps({"board": "pico_knob"}))
        t2 = Table(board="pico_knob", root=t.root, keep_files=True)
        os.remove(t.root + "config.json")
        os.remove(t.root + "boards/pico_knob.json")
        for a, b in ((1, 1), (1, 0), (0, 0), (0, 1), (1, 1)):  # one click clockwise (B leads A)
            t2.bench.drive(20, a)  # each edge runs the encoder's interrupt
            t2.bench.drive(21, b)
            t2.wait(20)
        self.assertEqual(t2.app.cursor, 1)  # New Champions
        t2.bench.press(22)
        t2.wait(60)
        t2.bench.release(22)
        t2.wait(400)
        self.assertEqual((t2.app.mode, t2.app.kind), ("setup", "champions"))


class PlayerMistakes(unittest.TestCase):
    def test_a_new_game_of_another_kind_after_leaving_one(self):
        t = Table()
        t.presses("cc")  # Battlerealm, four heroes
        t.presses("c")  # cut the seal
        t.presses("C")  # back to the start menu
        t.presses("bbbb c b c c")  # New Battleworld (below "Resume Battlerealm"), yes replace it, one starting hero
        t.presses("c")  # cut the seal
        self.assertEqual((t.app.mode, t.app.kind), ("play", "battleworld"))
        self.assertEqual(t.events("error"), [])
        self.assertEqual(t.screen()[0], "Won 0/3  Lost 0/3")

    def test_a_roll_cannot_be_thrown_away(self):
        t = Table(seed=3)
        t.presses("caac")  # Battlerealm, two heroes
        t.presses("c")  # cut the seal
        t.presses("c")  # roll
        faces = t.app.roll.symbols()
        t.presses("C")  # hold C on the dice screen: the roll stays
        self.assertEqual((t.app.mode, t.app.roll.symbols()), ("dice", faces))
        self.assertIn("finalize them", " ".join(t.screen()))

    def test_an_undone_roll_comes_back_with_its_faces(self):
        t = Table(seed=3)
        t.presses("caac")  # Battlerealm, two heroes
        t.presses("c")  # cut the seal
        t.presses("c ac")  # roll and finalize
        while t.app.mode == "mark":
            t.presses("ac")
        t.presses("c")  # past the result
        faces = t.events("roll")[0]["faces"]
        finalized = t.app.roll.symbols()
        t.presses("A")  # undo the roll
        self.assertEqual(t.app.game.state["rolled"], 0)
        t.presses("c")  # roll again: the same finalized faces, and only the re-rolls they had left
        self.assertEqual(t.app.roll.symbols(), finalized)
        self.assertEqual(t.app.roll.rerolls_left, 2)  # finalized at once: none used (tests/fw/test_screens.py)
        self.assertIn("The dice as they landed.", t.screen())
        self.assertTrue(faces)

    def test_redo_on_game_over_stays_over(self):
        t = Table()
        t.presses("bc ac")  # Champions, one player
        t.presses("bbbb c c bbbbbbbbb c")  # Damage hero: 10, the only player is out
        self.assertIn("GAME OVER", t.screen())
        t.presses("B")  # nothing to redo
        self.assertEqual(t.app.mode, "over")
        t.presses("c")  # C on the game-over screen: the start menu
        self.assertEqual(t.events("error"), [])

    def test_the_result_of_a_roll_is_never_cut_off(self):
        t = Table()
        from dicetower.core.replay import ScriptedFaces

        # Set faces as the tower's own dice: a game cannot seal them (ui/sealing.py), their faces are rolled.
        t.device.app.dice = t.device.app.fair = ScriptedFaces(["Mutant"] * 3 + ["Science"] * 3)
        t.presses("cac c ac")  # Battlerealm, three heroes, roll, finalize
        while t.app.mode == "mark":
            t.presses("ac")
        pages = []
        for _ in range(3):
            pages.append(" ".join(t.screen()))
            t.presses("b")
        text = " ".join(pages)
        self.assertIn("Explosion", text)
        self.assertIn("entering it ends your", text)
        self.assertIn("+2 PVP (2 Peaceful)", text)  # the last line, on the second page

    def test_a_double_tap_moves_two_places(self):
        t = Table()
        t.press("b", "double")
        self.assertEqual(t.app.cursor, 2)
