"""Battleworld's help: what its status lines' short forms mean (Settings -> Help, ui/help.py)."""

TEXT = (
    'Battleworld. "Won 1/5 Lost 0/3": battles won of those the chart asks, lost of three. '
    '"Battle 2 h0/1 d0/3 E": an open battle\'s hits of those needed, danger of three, the '
    'coin\'s symbol (E Energy, M Moon); Battle 5* a Thanostone Battle Card. "+3 more": more battles '
    "are open than fit: the play menu's The table shows every one."
)
