"""A whole game of each mode played by pressing the virtual buttons of main.py's device.

Runs on CPython and on the MicroPython VM. Each test reads what a player
would: the text on the OLED (read back from the panel's memory), the LED
bytes, and the JSON lines on the console.
"""

import unittest

from dicetower.core.games import GAMES
from table import Table

START_ITEMS = tuple(kind for _, kind, *_ in GAMES)  # the start menu's order: the registry's


def new_game(t, kind, players_delta):
    t.presses("b" * START_ITEMS.index(kind) + "c")
    t.presses(("b" if players_delta > 0 else "a") * abs(players_delta) + "c")


def choose(t, menu_index):
    """From the play menu's first item, move to `menu_index` and choose it."""
    t.presses("b" * menu_index + "c")


def menu_home(t):
    """Step the play menu back to its first item, as a player would."""
    while t.app.cursor % len(t.app.menu):
        t.presses("a")


class FullGames(unittest.TestCase):
    def test_battlerealm(self):
        t = Table(seed=5)
        new_game(t, "battlerealm", -2)  # two heroes: Hulk and Thor
        self.assertEqual(t.app.mode, "cut")
        t.presses("c")  # cut the seal
        self.assertEqual(t.screen()[0], "R1 Hulk's turn")
        choose(t, 0)  # Roll the dice
        faces = t.app.roll.symbols()
        t.presses("a c")  # to Finalize
        if t.app.mode == "mark":
            t.presses("c" + "b" + "c")  # mark Thor, Done
        self.assertEqual(t.app.mode, "result")  # the roll's result on a screen of its own
        t.presses("c")
        self.assertEqual(t.events("action")[0]["action"], "roll")
        self.assertEqual(t.events("roll")[0]["faces"], list(faces))
        pvp = t.app.game.state["heroes"][0]["pvp"]
        self.assertIn("Hulk %d" % pvp, " ".join(t.screen()[1].split()))  # the PVP on screen is the tracker's
        menu_home(t)
        choose(t, 1)  # Attack: Thor, 2, by a power from the same location
        t.presses("c b c")
        t.pick("From: power, same loc")
        self.assertEqual(t.events("action")[-1]["action"], "attack")
        thor = t.app.game.state["heroes"][1]["pvp"]
        t.presses("A")  # undo
        self.assertEqual(t.app.game.state["heroes"][1]["pvp"], thor + 2)
        t.presses("B")  # redo
        self.assertEqual(t.app.game.state["heroes"][1]["pvp"], thor)
        menu_home(t)
        choose(t, 4)  # Gain PVP: Hulk (A from Thor), 12
        t.presses("a c" + "b" * 11 + "c")
        # The game's end shows its seed first (ui/sealing.py), then, past it, the game over.
        self.assertEqual(t.app.mode, "seed")
        self.assertIn("Seal %s revealed" % t.events("reveal")[0]["commitment"][:16], " ".join(t.screen()))
        t.presses("c")
        screen = t.screen()
        self.assertIn("GAME OVER", screen)
        self.assertIn("Hulk reaches", " ".join(screen))
        self.assertEqual(t.events("over")[0]["result"][:12], "Hulk reaches")
        t.wait(300)
        self.assertTrue(any(t.strip.data))  # the ring celebrates

    def test_champions(self):
        t = Table(seed=2)
        new_game(t, "champions", -1)  # one player
        self.assertEqual(t.screen()[1], "Threat 3/10 st1")
        choose(t, 2)  # Hit villain: area 1, 14 damage
        t.presses("c" + "b" * 13 + "c")
        self.assertIn("Villain 15 hp", t.screen())
        menu_home(t)
        choose(t, 10)  # End phase: the villain phase, +1 threat
        self.assertEqual(t.screen()[1], "Threat 4/10 st1")
        menu_home(t)
        choose(t, 2)
        t.presses("c" + "b" * 14 + "c")
        self.assertIn("GAME OVER", t.screen())
        self.assertIn("the players win", t.events("over")[0]["result"])

    def test_united(self):
        t = Table(seed=3)
        new_game(t, "united", 0)  # four heroes
        for hero in range(6):
            choose(t, 0)  # KO token
            t.presses("b" * (hero % 4) + "c")
            menu_home(t)
        self.assertIn("GAME OVER", t.screen())
        self.assertEqual(t.screen()[0], "KO 6/6")
        self.assertIn("heroes lose", t.events("over")[0]["result"])

    def test_battleworld(self):
        t = Table(seed=4)
        new_game(t, "battleworld", 0)  # one starting hero: three battles to win
        self.assertEqual(t.app.mode, "cut")
        t.presses("c")  # cut the seal
        self.assertEqual(t.app.mode, "play")
        state = t.app.game.state
        rounds = 0
        while not t.app.game.over() and rounds < 40:
            rounds += 1
            if not [b for b in state["battles"] if not b["result"]]:
                choose(t, 2)  # New battle: 1 hit, target 2, Energy
                t.presses("c c c")
                menu_home(t)
                state = t.app.game.state
            choose(t, 0)  # Attack a battle: the open one, bonus 1; the box rolls the Attack Die
            t.presses("c c")
            menu_home(t)
            state = t.app.game.state
        self.assertEqual(t.app.mode, "seed")  # the seed revealed at the game's end, then the game over
        t.presses("c")
        self.assertIn("GAME OVER", t.screen())
        faces = [e["args"][1] for e in t.events("action") if e["action"] == "attack"]
        self.assertTrue(faces and all(f in ("Star", "2", "3", "4", "5", "Blank") for f in faces))
        self.assertEqual(state["won"], 3)
        self.assertIn("Won 3/3", t.screen()[0])


if __name__ == "__main__":
    unittest.main()
