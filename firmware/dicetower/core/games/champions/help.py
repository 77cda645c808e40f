"""Champions's help: what its status lines' short forms mean (Settings -> Help, ui/help.py)."""

TEXT = (
    'Champions. "R1 player 1st:P1": round 1, the player (or villain) phase, the first player. '
    '"Threat 3/10 st1 +1 side": the main scheme\'s threat of its target, its stage, side '
    "schemes in play, +1 areas: other game areas, each on the play menu's The table. \"Kang 28 hp M:4\": the villain's hit "
    "points, M: the minions'. \"P1:10(2)\": a hero's hit points, in brackets their allies'."
)
