"""The saved game and the files the tower reads at power-up, on the bench: damaged, crafted, too big,
replaced by a new game, brought back. What the player sees (the OLED), what the console and errors.log
say, and what is on flash. CPython and the VM."""

import json
import os
import unittest

from test_store import coded, good_content, sealed

from table import Table


def write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def body(save):
    return json.loads(save.split(b"\n", 1)[1])


def notice_text(t):
    """A notice's pages, read by paging with B."""
    text = []
    while True:
        text += t.screen()[:7]
        if "B: more" not in t.screen()[7]:
            return " ".join(line.strip() for line in text if line.strip())
        t.presses("b")


def logged(t):
    return " ".join(e["text"] for e in t.events("log"))


def tidy(root, *names):
    for name in names:
        try:
            os.remove(root + name)
        except OSError:
            pass


class RefusedSave(unittest.TestCase):
    def test_a_damaged_save_is_named_in_full_on_the_oled_the_console_and_errors_log(self):
        t = Table()
        t.presses("c a a c")  # Battlerealm, two heroes: saved
        data = bytearray(read(t.root + "game.sav"))
        data[60] ^= 1
        write(t.root + "game.sav", bytes(data))
        again = Table(root=t.root, keep_files=True)
        said = "The saved game could not be loaded: the checksum does not match. It is kept as game.sav.bad1."
        self.assertEqual(notice_text(again), said)  # whole, over the notice's pages: not cut
        self.assertIn(said, logged(again))
        self.assertIn(said, read(t.root + "errors.log").decode())
        self.assertEqual(read(t.root + "game.sav.bad1"), bytes(data))
        again.presses("c")
        self.assertEqual(again.screen()[0], "DICETOWER")
        self.assertEqual(again.screen()[1], "New Battlerealm")  # nothing to resume
        self.assertEqual(again.screen()[7], "A/B move C choose")  # the hint, not the refusal cut short

    def test_a_save_with_a_good_checksum_and_a_broken_body_boots_to_the_start_menu(self):
        """Before, a missing "actions" list raised outside every try at boot: the OLED stayed dark."""
        t = Table()
        content = good_content()
        del content["actions"]
        for name in ("game.sav", "game.sav.tmp"):
            write(t.root + name, sealed(coded(content)))
            again = Table(root=t.root, keep_files=True)
            self.assertEqual(again.events("error"), [])
            # The saved game, or the last save alone (a power cut before its rename): said and kept either way.
            self.assertIn(
                "the body has no 'actions' list. It is kept as game.sav.bad%d." % (1 if name == "game.sav" else 2),
                notice_text(again),
            )
            again.presses("c")
            self.assertEqual(again.screen()[:2], ["DICETOWER", "New Battlerealm"])
            self.assertFalse("game.sav" in os.listdir(t.root) or "game.sav.tmp" in os.listdir(t.root))

    def test_an_impossible_game_is_not_offered(self):
        t = Table()
        content = good_content()
        content["base"]["turn"] = 5  # three heroes
        write(t.root + "game.sav", sealed(coded(content)))
        again = Table(root=t.root, keep_files=True)
        self.assertIn("an impossible game: Whose turn must be 0 to 2, not 5.", notice_text(again))
        again.presses("c")
        self.assertEqual(again.screen()[1], "New Battlerealm")


class NewGame(unittest.TestCase):
    def test_a_new_game_asks_first_and_keeps_the_one_it_replaces(self):
        t = Table()
        t.presses("c a a c")  # Battlerealm, two heroes
        t.presses("c")  # cut the seal
        t.wait(200)  # its first save
        saved = read(t.root + "game.sav")
        t.presses("C")  # back to the start menu
        self.assertEqual(t.screen()[1], "Resume Battlerealm")
        t.presses("bbbb c")  # New Battleworld
        self.assertEqual(t.screen()[0], "Replace the saved game?")
        self.assertEqual(t.screen()[1:3], ["No: keep playing it", "Yes: a new game"])
        self.assertIn("kept: the start menu can bring it back.", " ".join(t.screen()[4:]))
        t.presses("c")  # No
        self.assertEqual((t.app.mode, t.screen()[1]), ("start", "Resume Battlerealm"))
        self.assertEqual(read(t.root + "game.sav"), saved)
        t.presses("bbbb c b c c")  # New Battleworld, Yes, one starting hero
        self.assertEqual((t.app.mode, t.app.kind), ("cut", "battleworld"))
        t.presses("c")  # cut the seal
        self.assertEqual((t.app.mode, t.app.kind), ("play", "battleworld"))
        t.wait(200)  # the new game's save
        self.assertEqual(read(t.root + "game.sav.old1"), saved)
        t.presses("C aa")  # the start menu: up past Settings to the item above it
        self.assertEqual(t.app.menus.start_items(t.app)[t.app.cursor][0], "Bring back Battlerealm")
        self.assertIn("Bring back Battlerealm", t.screen())
        t.presses("c")
        self.assertEqual((t.app.mode, t.app.kind), ("seed", "battlerealm"))  # its seal, read from flash, revealed
        t.presses("c c")  # past the old seal's seed, then cut the new one
        self.assertEqual((t.app.mode, t.app.kind), ("play", "battlerealm"))
        t.wait(200)
        back, kept = body(read(t.root + "game.sav")), body(saved)  # (as JSON: MicroPython's dicts keep no order)
        self.assertEqual(back.pop("seals")[-1]["commitment"], kept["seal"]["commitment"])  # the old seal, revealed
        self.assertNotEqual(back.pop("seal")["commitment"], kept.pop("seal")["commitment"])  # and a new one
        self.assertEqual(back, kept)  # the game itself as it was kept
        self.assertEqual(body(read(t.root + "game.sav.old1"))["game"], "battleworld")
        again = Table(root=t.root, keep_files=True)  # power off and on: both still there
        self.assertEqual(again.screen()[1], "Resume Battlerealm")
        self.assertIn("Bring back Battleworld", again.screen())

    def test_a_kept_game_damaged_after_the_menu_offered_it_is_said_on_the_start_menu(self):
        t = Table()
        t.presses("c a a c")  # Battlerealm, two heroes
        t.presses("c")  # cut the seal
        t.wait(200)
        t.presses("C bbbb c")  # New Battleworld: "Replace the saved game?"
        self.assertIn("saved Battlerealm game", " ".join(t.screen()[4:]))
        t.presses("b c c")  # Yes, one starting hero
        t.presses("c")  # cut the seal
        t.wait(200)
        t.presses("C aa")  # the start menu, on "Bring back Battlerealm"
        self.assertEqual(t.app.menus.start_items(t.app)[t.app.cursor][0], "Bring back Battlerealm")
        write(t.root + "game.sav.old1", b"damaged over USB")
        t.presses("c")
        self.assertEqual((t.app.mode, t.screen()[-1].strip()), ("start", "Could not bring it back."))
        self.assertEqual(t.app.kind, "battleworld")  # the saved game is still the one played last
        t.presses("a")
        self.assertEqual(t.screen()[-1].strip(), "Could not bring it back.")  # until the next choice

    def test_no_question_after_a_finished_game_but_it_is_kept(self):
        t = Table()
        t.presses("bb c c")  # United
        while t.app.mode != "over":
            t.presses("c c")  # a KO token on the first hero, until the heroes lose
        t.presses("c")  # past GAME OVER, to the start menu
        t.wait(200)
        finished = read(t.root + "game.sav")
        t.presses("bbb c")  # New Battleworld: nothing to resume, no question
        self.assertEqual((t.app.mode, t.app.kind), ("setup", "battleworld"))
        t.presses("c")
        t.wait(200)
        self.assertEqual(read(t.root + "game.sav.old1"), finished)


class Config(unittest.TestCase):
    def test_a_stray_comma_on_an_rp2040_zero_keeps_its_pins_and_is_said(self):
        """The Zero runs the Pico's MicroPython: without config.json's "board", its pins were the
        Pico's (button C acted as B). The last flash's manifest names the board."""
        t = Table()
        # A comma after the object: MicroPython's parser skips commas inside one, not this.
        write(t.root + "config.json", '{"board": "rp2040_zero", "sounds": false},')
        write(t.root + "dicetower.manifest", json.dumps({"board": "rp2040_zero", "complete": True, "files": {}}))
        try:
            zero = Table(board="rp2040_zero", root=t.root, keep_files=True)
            self.assertEqual(zero.device.board.name, "Waveshare RP2040-Zero")
            said = notice_text(zero)
            self.assertIn(
                "config.json is not valid JSON. It is kept as config.json.bad1; the default settings are used.", said
            )
            self.assertIn("config.json.bad1", read(t.root + "errors.log").decode())
            self.assertEqual(read(t.root + "config.json.bad1"), b'{"board": "rp2040_zero", "sounds": false},')
            zero.presses("c b c")  # the Zero's own C: past the notice, to New Champions
            self.assertEqual((zero.app.mode, zero.app.kind), ("setup", "champions"))
        finally:
            tidy(t.root, "dicetower.manifest", "config.json.bad1")


class TooBig(unittest.TestCase):
    def test_a_heroes_file_too_big_to_read_is_kept_aside_and_said(self):
        t = Table()
        big = json.dumps({"heroes": [], "_note": "x" * 40000})
        write(t.root + "heroes.json", big)
        try:
            again = Table(root=t.root, keep_files=True)
            said = notice_text(again)
            self.assertIn(
                "heroes.json is %d bytes; the tower reads at most 16384. It is kept as heroes.json.bad1; "
                "the built-in heroes are used." % len(big),
                said,
            )
            self.assertFalse("heroes.json" in os.listdir(t.root))
            again.presses("c c a a c")
            again.presses("c")  # cut the seal
            self.assertEqual(again.screen()[0], "R1 Hulk's turn")
        finally:
            tidy(t.root, "heroes.json", "heroes.json.bad1")


class Measured(unittest.TestCase):
    def test_a_small_file_is_read_in_the_size_it_has_not_its_limit(self):
        # A board's profile may be up to 8 KB. MicroPython's read(n) takes n bytes in one piece before it
        # reads: asked for the limit, a Pico with .mpy files found no 8 KB block after a game (MemoryError
        # at boot on the emulated RP2040) for a profile of 1 KB.
        from dicetower.hw.storage import OsFiles, read_at_most

        asked = []

        class Recording(OsFiles):
            def open(self, path, mode="r"):
                f = OsFiles.open(self, path, mode)

                class File:
                    def read(self, n=-1):
                        asked.append(n)
                        return f.read(n)

                    def close(self):
                        f.close()

                return File()

        t = Table()
        write(t.root + "small.json", "{}" * 50)
        try:
            self.assertEqual(read_at_most(Recording(), t.root + "small.json", 8192), b"{}" * 50)
            self.assertEqual(asked, [100])
        finally:
            tidy(t.root, "small.json")


class ErrorLog(unittest.TestCase):
    def test_errors_log_is_appended_never_read_and_bounded(self):
        t = Table()
        write(t.root + "errors.log", "x" * 100000)  # from some older firmware: never read whole
        t.device._crash(ValueError("first"))
        self.assertTrue(os.stat(t.root + "errors.log")[6] < 100)
        self.assertTrue(read(t.root + "errors.log").endswith(b"ValueError: first\n"))
        for n in range(200):
            t.device._crash(ValueError("error number %d" % n))
        self.assertTrue(os.stat(t.root + "errors.log")[6] <= 2048)
        self.assertTrue(os.stat(t.root + "errors.log.1")[6] <= 2048)
        self.assertIn(b"error number 199", read(t.root + "errors.log"))

    def test_a_log_that_cannot_be_written_hides_nothing(self):
        t = Table()
        t.presses("c a a c")  # a game, whose screen shows the last message
        t.presses("c")  # cut the seal
        files = t.device.files

        class Failing:
            def __getattr__(self, name):
                return getattr(files, name)

            def open(self, path, mode):
                if path.endswith("errors.log"):
                    raise RuntimeError("the flash driver failed")
                return files.open(path, mode)

        t.device.files = Failing()
        t.device._crash(ZeroDivisionError("boom"))  # before, the log's failure escaped the error handler
        t.wait(100)
        self.assertEqual(t.events("error")[-1]["error"], "ZeroDivisionError: boom")
        self.assertIn("Error: ZeroDivisionError", t.screen())  # one line; errors.log has the rest
