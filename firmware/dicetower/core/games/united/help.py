"""United's help: what its status lines' short forms mean (Settings -> Help, ui/help.py)."""

TEXT = (
    'United. "KO 2/6": KO tokens in all of the threshold that loses; "T1 1 T2 1" in Team vs Team, '
    'each team\'s. "Bolt 1": a hero\'s name in four letters and KO tokens ("1Bolt 1": team 1\'s). '
    "\"Duel G0 H0\": the Duel trackers, Gladiator's and the heroes'. "
    '"Mist 6 Water 3": tokens left.'
)
