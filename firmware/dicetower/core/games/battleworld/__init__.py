"""Battleworld: the Attack Die, the Danger Coin, battles won and lost.

Its descriptor: what the idle passes know of the game before its tracker is loaded
(core/games/__init__.py says what each name is; its players and count screen are its line there)."""

AHEAD = ("tracker",)
