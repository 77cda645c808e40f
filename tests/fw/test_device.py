"""main.py boots on virtual peripherals and plays: what a player sees and touches. CPython and the VM."""

import os
import unittest

from dicetower.core.dice import SYMBOLS
from dicetower.device import FRAME_MS
from dicetower.ui import icons
from dicetower.ui.leds import BLINK, FACE_COLOURS
from table import Table


def _allocated_by_frames(t):
    """Heap bytes 20 LED frames allocate, after one frame to warm up (MicroPython's gc.mem_alloc)."""
    import gc

    t.device.frame()
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _i in range(20):
        t.device.frame()
    used = gc.mem_alloc() - before
    gc.enable()
    return used


class Boot(unittest.TestCase):
    def test_boots_to_the_start_menu_and_says_ready(self):
        t = Table()
        screen = t.screen()
        self.assertEqual(screen[0], "DICETOWER")
        self.assertIn("New Battlerealm", screen)
        ready = t.events("ready")[0]
        self.assertEqual(ready["board"], "Raspberry Pi Pico")
        self.assertTrue(t.panel.on)

    def test_a_battlerealm_roll_shows_its_faces_on_screen_and_ring(self):
        t = Table(seed=3)
        t.presses("c")  # New Battlerealm
        self.assertIn("Players (2-6):", t.screen())
        t.presses("a a c")  # 2 heroes, start
        self.assertEqual(t.app.mode, "cut")
        t.presses("c")  # cut the seal
        self.assertIn("R1 Hulk's turn", t.screen())
        t.presses("c")  # Roll the dice
        roll = t.app.roll
        faces = roll.symbols()
        for die in range(6):
            icon = icons.SYMBOL_ICONS[SYMBOLS.index(faces[die])]
            x = die * 21 + 2
            shown = bytes(t.panel.ram[128 + x : 128 + x + 16]) + bytes(t.panel.ram[256 + x : 256 + x + 16])
            expected = bytes(b ^ 0xFF for b in icon) if die == 0 else icon  # die 1 has the cursor
            self.assertEqual(shown, expected, "die %d" % (die + 1))
        t.wait(1200)  # the roll animation ends; the ring shows the dice
        cap = t.device.board.cap
        # The dice the advice re-rolls blink (dark every other BLINK frames): each die shows its face's
        # colour in some frame of two blinks, and is dark in the others only if the advice re-rolls it.
        seen = [set() for _ in range(6)]
        for _ in range(4 * BLINK):
            t.wait(FRAME_MS)
            for die in range(6):
                seen[die].add(t.strip.rgb(die * 2))
                self.assertEqual(t.strip.rgb(die * 2 + 1) != (0, 0, 0), bool(roll.locked[die]))
        for die in range(6):
            r, g, b = FACE_COLOURS[SYMBOLS.index(faces[die])]
            lit = ((r * int(cap * 256)) >> 8, (g * int(cap * 256)) >> 8, (b * int(cap * 256)) >> 8)
            self.assertEqual(seen[die], {lit, (0, 0, 0)} if t.app.advised & (1 << die) else {lit}, die)
        self.assertEqual(t.events("roll")[0]["faces"], list(faces))


if __name__ == "__main__":
    unittest.main()


class Answers(unittest.TestCase):
    def test_a_tap_acts_at_the_first_poll_after_its_release(self):
        # Not DEBOUNCE_MS later: a release counts at its first edge (hw/buttons.py).
        from dicetower.hw.buttons import POLL_MS

        t = Table()
        t.wait(500)  # idle at the start menu
        pin = t.pin("b")
        acted = []
        press = t.app.press

        def pressed(button, kind):
            acted.append(t.clock.now)
            press(button, kind)

        t.app.press = pressed
        for held in (80, 83, 101, 117):  # releases at every phase of the 10 ms poll
            t.bench.press(pin)
            t.wait(held)
            t.bench.release(pin)
            released = t.clock.now
            t.wait(200)
            self.assertTrue(0 <= acted[-1] - released <= POLL_MS, (held, acted[-1] - released))
        self.assertEqual(len(acted), 4)


class Advice(unittest.TestCase):
    def test_the_roll_shows_its_dice_before_the_advisor_is_loaded(self):
        # From .mpy on a Pico, importing the advisor blocks the loop for tens of ms: it is the first
        # slice of the first plan, after the roll's press has drawn the dice, never inside the press.
        t = Table(seed=3)
        t.presses("c a a c")  # New Battlerealm, two heroes, start
        t.presses("c")  # cut the seal
        self.assertIsNone(t.app.turn._advisor)
        t.app.press("c", "short")  # roll
        self.assertIsNone(t.app.turn._advisor)
        self.assertTrue(t.app.thinking())
        for _ in range(10):  # the loop's next passes, one piece of work each: the dice drawn, sent
            t.device.tick(t.clock.now)
            if t.screen()[5].endswith(" ..."):
                break
        self.assertTrue(t.screen()[5].endswith(" ..."), t.screen())  # the dice on the OLED, the advice to come,
        self.assertIsNone(t.app.turn._advisor)  # and the advisor not yet imported
        t.wait(200)
        self.assertFalse(t.app.thinking())
        self.assertIsNotNone(t.app.turn._advisor)
        self.assertIsNotNone(t.app.advice)
        self.assertFalse(t.screen()[5].endswith(" ..."), t.screen())

    def test_games_without_the_custom_dice_leave_the_advisor_out(self):
        t = Table()
        t.presses("b c c")  # New Champions, start
        self.assertEqual((t.app.mode, t.app.kind), ("play", "champions"))
        t.wait(200)
        self.assertIsNone(t.app.turn)  # neither the dice's turn nor its advisor is made


class Saves(unittest.TestCase):
    def test_a_press_is_answered_on_screen_before_its_game_is_saved_after_the_next_poll(self):
        # A save takes about 20 ms on a Pico: written after the redraw and after one more poll of the
        # buttons, it delays neither the screen nor the next press.
        t = Table(seed=3)
        t.presses("c a a")  # New Battlerealm, two heroes
        seen = []
        press, saving = t.app.press, t.device.saves.saving

        def pressed(button, kind):
            seen.append(("press", t.bench.reads))
            press(button, kind)

        def saved(game):
            seen.append(("save", t.bench.reads, t.screen()[0]))
            return saving(game)

        t.app.press, t.device.saves.saving = pressed, saved
        t.presses("c")  # start: the seal's cut screen
        (_, reads_at_press), (_, reads_at_save, screen) = seen
        self.assertEqual(screen, "Seal " + t.app.sealing.dice.commitment[:16])  # shown before it was written
        self.assertTrue(reads_at_save > reads_at_press, seen)  # and the buttons were polled in between
        self.assertIn("game.sav", os.listdir(t.root[:-1] or "/"))
        del seen[:]
        t.presses("c")  # cut the seal
        (_, reads_at_press), (_, reads_at_save, screen) = seen
        self.assertEqual(screen, "R1 Hulk's turn")  # the OLED showed the game before it was written
        self.assertTrue(reads_at_save > reads_at_press, seen)  # and the buttons were polled in between

    def test_a_save_is_written_in_three_passes_with_the_buttons_polled_between_them(self):
        # The game's bytes, the temporary file, the rename over the old save: on a Pico each takes a few
        # ms (the rename up to 14 on littlefs), together over 20, so each has a pass of the loop.
        t = Table(seed=3)
        t.presses("c a a")  # New Battlerealm, two heroes
        files = t.device.saves.fs
        steps = []
        saving, open_, rename = t.device.saves.saving, files.open, files.rename

        def started(game):
            steps.append(("bytes", t.bench.reads))
            return saving(game)

        def opened(path, mode):
            if path.endswith("game.sav.tmp"):
                steps.append(("file", t.bench.reads))
            return open_(path, mode)

        def renamed(old, new):
            if old.endswith("game.sav.tmp"):
                steps.append(("rename", t.bench.reads))
            elif new.endswith("setup.json"):
                steps.append(("set-up", t.bench.reads))  # the set-up remembered, after the game
            return rename(old, new)

        t.device.saves.saving, files.open, files.rename = started, opened, renamed
        t.presses("c")  # start: the game's first save
        self.assertEqual([name for name, _ in steps], ["bytes", "file", "rename", "set-up"])
        reads = [n for _, n in steps][:3]
        self.assertTrue(reads[0] < reads[1] < reads[2], steps)  # the buttons read between each two
        with open(t.root + "game.sav", "rb") as f:
            self.assertTrue(f.read().startswith(b"DICETOWER 5 "))  # schema 5: Battlerealm's dice left for damage


class Frames(unittest.TestCase):
    def test_frames_keep_their_pace_when_other_work_delays_them(self):
        # On a Pico a frame falls due while another piece of work runs: the next one then comes that much
        # sooner, so an animation of FRAMES frames still takes FRAMES * FRAME_MS (as in the sim, where
        # work takes no time).
        t = Table()
        t.wait(500)
        lit = []
        frame = t.device.frame

        def counted():
            lit.append(now)
            frame()

        t.device.frame = counted
        now = start = t.clock.now
        while now < start + 30 * FRAME_MS:
            pause = t.device.tick(now)
            if pause:
                now += pause + 4  # every sleep overruns by 4 ms, as if work had held the loop
        self.assertIn(len(lit), (30, 31), lit)

    def test_led_frames_allocate_nothing(self):
        import gc

        if not hasattr(gc, "mem_alloc"):
            self.skipTest("CPython has no gc.mem_alloc; the VM run checks this")
        t = Table(seed=3)
        t.presses("c a a c c")  # a roll: its animation, then the dice
        t.device.ring._bitstream = _no_strip  # the virtual strip keeps a copy; the real bitstream does not
        for playing in ("roll", "prison", "explosion", "over"):
            t.app.animate(playing)
            self.assertEqual(_allocated_by_frames(t), 0, playing)

    def test_gauge_frames_allocate_nothing_in_any_game(self):
        import gc

        if not hasattr(gc, "mem_alloc"):
            self.skipTest("CPython has no gc.mem_alloc; the VM run checks this")
        for game in range(4):
            t = Table(seed=3)
            t.presses("b" * game + "c c")  # New <game>, start: its gauge on the ring
            if t.app.mode == "cut":
                t.presses("c")  # cut the seal (a game of dice): the game's own screen
            self.assertEqual(t.app.mode, "play")
            t.device.ring._bitstream = _no_strip
            t.device.lights.playing = None  # the game's gauge, not the start's animation
            self.assertEqual(_allocated_by_frames(t), 0, t.app.kind)


class Ring(unittest.TestCase):
    def test_the_same_moment_twice_plays_twice_and_the_ring_writes_nothing_into_the_app(self):
        from dicetower.ui.leds import FRAMES

        t = Table(seed=3)
        t.presses("c a a c")  # New Battlerealm, two heroes, start
        t.presses("c")  # cut the seal
        t.presses("c")  # a roll: its animation
        lights = t.device.lights
        for _ in range(FRAMES):
            t.device.frame()
        self.assertIsNone(lights.playing)  # over: the ring shows the dice
        asked = (t.app.animation, t.app.animations)
        t.app.animate("roll")  # a second roll's moment, the same name as the first's
        t.device.frame()
        self.assertEqual((lights.playing, lights.frame), ("roll", 1))
        for _ in range(FRAMES):
            t.device.frame()
        self.assertIsNone(lights.playing)
        self.assertEqual((t.app.animation, t.app.animations), ("roll", asked[1] + 1))  # read, never cleared


def _no_strip(pin, encoding, timing, buf):
    return None
