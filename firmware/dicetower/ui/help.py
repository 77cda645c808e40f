"""The help screen (Settings, "Help: the screens"): what the status lines' short forms mean, game by
game, as docs/playing.md's table says it. Imported only while it is read."""

from dicetower.core.games import GAMES

TEXT = {
    "battlerealm": 'Battlerealm. "R1 Hulk\'s turn": round 1, whose turn. "*Hulk 10": * marks whose turn, '
    "then the hero's PVP. A P before a name: in the Crystal Prison; an x: eliminated. "
    'Dice: "re-rolls 2 L": re-rolls left, L while Lucky\'s re-roll is left. Under a die: '
    "L locked, ^ picked to re-roll, * the advice re-rolls it, ! with Lucky's re-roll.",
    "champions": 'Champions. "R1 player 1st:P1": round 1, the player (or villain) phase, the first '
    'player. "Threat 3/10 st1 +1 side": the main scheme\'s threat of its target, its stage, '
    'side schemes in play, (2 areas) with separate game areas. "Kang 28 hp M:4": the '
    "villain's hit points, M: the minions'. \"P1:10(2)\": a hero's hit points, in brackets "
    "their allies'.",
    "united": 'United. "KO 2/6": KO tokens in all of the threshold that loses. "Blac 1": a hero\'s first '
    "letters and KO tokens. \"Duel G0 H0\": the Duel trackers, Gladiator's and the heroes'. "
    '"Mist 6 Water 3": tokens left.',
    "battleworld": 'Battleworld. "Won 1/5 Lost 0/3": battles won of those the chart asks, lost of '
    'three. "Battle 2 h0/1 d0/3 E": an open battle\'s hits of those needed, danger of '
    "three, the coin's symbol (E Energy, M Moon).",
}


def text(first=None):
    """Every game's help, the game being played (`first`) first."""
    kinds = [kind for _, kind in GAMES]
    if first in kinds:
        kinds.remove(first)
        kinds.insert(0, first)
    return " ".join(TEXT[kind] for kind in kinds)
