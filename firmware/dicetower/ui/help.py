"""The help screen (Settings, "Help: the screens"): what the status lines' short forms mean, game by
game, as docs/playing.md's table says it, each from its game's package (core/games/<game>/help.py).
Imported only while it is read (ui/menus.py's scope forgets it and the games' help once the text is made)."""

from dicetower.core.games import GAMES, part


def text(first=None):
    """Every game's help, the game being played (`first`) first."""
    kinds = [line[1] for line in GAMES]
    if first in kinds:
        kinds.remove(first)
        kinds.insert(0, first)
    return " ".join(__import__(part(kind, "help"), None, None, ["_"]).TEXT for kind in kinds)
