"""Marvel Champions: threat and hit points.

Its descriptor: what the idle passes know of the game before its tracker is loaded
(core/games/__init__.py says what each name is; its players and count screen are its line there)."""

AHEAD = ("check", "dicetower.core.names")  # the checks its set-up and tracker import, the names its play menu does
STARTS = ("menu",)  # its play menu, the tracker's: not beside the set-up (core/games/__init__.py)
