"""Marvel United: KO tokens.

Its descriptor: what the idle passes know of the game before its tracker is loaded
(core/games/__init__.py says what each name is; its players and count screen are its line there)."""

AHEAD = ("dicetower.core.names", "tracker")  # its tracker, which its set-up imports, and what it imports
