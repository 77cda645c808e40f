"""Battlerealm's built-in heroes, as data: imported only when Battlerealm is played (or its heroes
are edited), since they take about 10 KB of a Pico's heap.

A user's own roster is `/heroes.json` on the device (core/games/battlerealm/roster.py reads
it). Shipped here: every hero and power
card the rulebook names, with the dice it gives (Hulk's Thunderclap and
World Breaker, Thor's Odin's Wrath, Vision's Physical Disruption, Black
Panther's Panther's Stealth, Falcon's (Redwing's) Raptor Strike, Hawkeye's
Incendiary Arrow from the Ghost Orchid example). Everything the rulebook
does not print is a user-fillable entry, marked so: a card with "dice":
null (never paid, never advised) and a "_fill" note, heroes 9 to 13 named
"Hero 9"... ASSUMPTIONS: the starting PVP (10) and abilities of every hero
but the Hulk (Cunning, Peaceful, Tough) are placeholders too.
"""

from dicetower.core.games.battlerealm.cards import MAX_CARDS

FILL = "not in the rulebook: fill in"


def _card(name, dice=None):
    card = {"name": name, "dice": dice}
    if dice is None:
        card["_fill"] = "dice " + FILL
    return card


def _hero(name, cards, abilities=(), primary=""):
    cards = list(cards) + [_card("Card %d" % n) for n in range(len(cards) + 1, MAX_CARDS + 1)]
    hero = {"name": name, "pvp": 10, "abilities": list(abilities), "primary": primary, "cards": cards}
    if not primary:
        hero["_fill"] = "starting PVP, abilities and primary power " + FILL
    return hero


M, S, K, T, C, Y = "Mutant", "Science", "Skill", "Tech", "Cosmic", "Mystic"
HEROES = [
    _hero(
        "Hulk",
        [_card("Thunderclap", [M, S, K, K]), _card("World Breaker", [K, K, Y, Y])],
        ["Cunning", "Peaceful", "Tough"],
        "Gamma Rage: for each PVP Point the Hulk spends, +1 damage to his Skill results.",
    ),
    _hero("Thor", [_card("Odin's Wrath", [M, M, S, S])]),
    _hero("Vision", [_card("Physical Disruption", [M, M, Y])]),
    _hero("Black Panther", [_card("Panther's Stealth", [M, C])]),
    _hero("Falcon", [_card("Raptor Strike", [M, Y])]),
    _hero("Hawkeye", [_card("Incendiary Arrow", [M, M, T]), _card("Explosive Barrage")]),
    _hero("Ant-Man", [_card("Ant Swarm")]),
    _hero("Iron Man", [_card("Uni-beam")]),
] + [_hero("Hero %d" % n, []) for n in range(9, 14)]
