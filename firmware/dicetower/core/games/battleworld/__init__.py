"""Battleworld: the Attack Die, the Danger Coin, battles won and lost.

Its descriptor: what the start menu's count screen and the idle passes know of the game before its
tracker is loaded (core/games/__init__.py says what each name is)."""

PLAYERS = (1, 5, 1)
COUNTING = "Starting heroes (%d-%d):"
SETUP = False
HOLD_B = ""
AHEAD = ("tracker",)
