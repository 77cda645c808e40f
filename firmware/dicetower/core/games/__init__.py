"""The four games' score trackers, each a `Game` (see core/game.py)."""
