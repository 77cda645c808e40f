"""The toy game's descriptor, as a new game's package has one (core/games/__init__.py); its players and
count screen are its line in the registry (tests/fw/toy_game.py makes it)."""

AHEAD = ("tracker",)
