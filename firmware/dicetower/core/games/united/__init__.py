"""Marvel United: KO tokens.

Its descriptor: what the idle passes know of the game before its tracker is loaded
(core/games/__init__.py says what each name is; its players and count screen are its line there)."""

AHEAD = ("dicetower.core.names", "tracker")  # what its set-up imports of it: the game's scope's, not the set-up's
