"""The toy game's descriptor, as a new game's package has one (core/games/__init__.py)."""

PLAYERS = (1, 4, 2)
COUNTING = None
SETUP = False
HOLD_B = ""
AHEAD = ("tracker",)
