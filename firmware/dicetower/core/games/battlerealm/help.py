"""Battlerealm's help: what its status lines' short forms mean (Settings -> Help, ui/help.py)."""

TEXT = (
    'Battlerealm. "R1 Hulk\'s turn": round 1, whose turn. "*Hulk 10": * marks whose turn, then '
    "the hero's PVP. A P before a name: in the Crystal Prison; an x: eliminated. Dice: "
    '"re-rolls 2 L": re-rolls left, L while Lucky\'s re-roll is left. Under a die: L locked, ^ '
    "picked to re-roll, * the advice re-rolls it, ! with Lucky's re-roll."
)
