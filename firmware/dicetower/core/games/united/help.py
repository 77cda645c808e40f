"""United's help: what its status lines' short forms mean (Settings -> Help, ui/help.py)."""

TEXT = (
    'United. "KO 2/6": KO tokens in all of the threshold that loses. "Blac 1": a hero\'s first '
    "letters and KO tokens. \"Duel G0 H0\": the Duel trackers, Gladiator's and the heroes'. "
    '"Mist 6 Water 3": tokens left.'
)
