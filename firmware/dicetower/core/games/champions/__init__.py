"""Marvel Champions: threat and hit points.

Its descriptor: what the start menu's count screen and the idle passes know of the game before its
tracker is loaded (core/games/__init__.py says what each name is)."""

PLAYERS = (1, 4, 2)
COUNTING = None
SETUP = True
HOLD_B = "Hold B: heroes, villain.."
AHEAD = ("check",)  # what its set-up imports of it: the game's scope's, not the set-up's
