"""Default rosters and scenarios for a new game, as data.

Battlerealm heroes, in `/heroes.json` on the device (edited without
reflashing code): {"heroes": [{"name", "pvp", "abilities", "primary",
"cards": [{"name", "dice"}, ...]}, ...]}. Shipped here: every hero and power
card the rulebook names, with the dice it gives (Hulk's Thunderclap and
World Breaker, Thor's Odin's Wrath, Vision's Physical Disruption, Black
Panther's Panther's Stealth, Falcon's (Redwing's) Raptor Strike, Hawkeye's
Incendiary Arrow from the Ghost Orchid example). Everything the rulebook
does not print is a user-fillable entry, marked so: a card with "dice":
null (never paid, never advised) and a "_fill" note, heroes 9 to 13 named
"Hero 9"... ASSUMPTIONS: the starting PVP (10) and abilities of every hero
but the Hulk (Cunning, Peaceful, Tough) are placeholders too. The Champions
scheme and villain figures are likewise assumptions to be set to the cards
in play.
"""

import json

from dicetower.core.triples import check_abilities
from dicetower.core.cards import MAX_CARDS, check_card

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
BATTLEREALM_HEROES = [
    _hero("Hulk", [_card("Thunderclap", [M, S, K, K]), _card("World Breaker", [K, K, Y, Y])],
          ["Cunning", "Peaceful", "Tough"],
          "Gamma Rage: for each PVP Point the Hulk spends, +1 damage to his Skill results."),
    _hero("Thor", [_card("Odin's Wrath", [M, M, S, S])]),
    _hero("Vision", [_card("Physical Disruption", [M, M, Y])]),
    _hero("Black Panther", [_card("Panther's Stealth", [M, C])]),
    _hero("Falcon", [_card("Raptor Strike", [M, Y])]),
    _hero("Hawkeye", [_card("Incendiary Arrow", [M, M, T]), _card("Explosive Barrage")]),
    _hero("Ant-Man", [_card("Ant Swarm")]),
    _hero("Iron Man", [_card("Uni-beam")]),
] + [_hero("Hero %d" % n, []) for n in range(9, 14)]
CHAMPIONS_HEROES = [{"name": n, "hp": 10} for n in ("P1", "P2", "P3", "P4")]  # named on the table as seated
CHAMPIONS_SCHEME = {"name": "Main Scheme", "stages": [[10, 1, 3], [12, 1, 0]]}
CHAMPIONS_VILLAIN = {"name": "Villain", "stages": [14, 15]}
KANG_AREA_SCHEME = {"name": "Stage 3A", "stages": [[8, 1, 1]]}
KANG_II = {"name": "Kang (II)", "stages": [12]}
UNITED_HEROES = [{"name": n} for n in ("Black Bolt", "Medusa", "Crystal", "Karnak", "Gorgon", "Triton")]


def load_heroes(text):
    """A user's Battlerealm roster from heroes.json, or ValueError naming the field."""
    try:
        data = json.loads(text)
    except ValueError:
        raise ValueError("heroes.json is not valid JSON")
    heroes = data.get("heroes") if isinstance(data, dict) else None
    if not isinstance(heroes, list) or not 2 <= len(heroes) <= 13:
        raise ValueError("heroes.json needs \"heroes\": a list of 2 to 13 heroes")
    out = []
    for n, hero in enumerate(heroes):
        where = "heroes.json hero %d" % (n + 1)
        if not isinstance(hero, dict) or not isinstance(hero.get("name"), str) or not hero["name"]:
            raise ValueError("%s: \"name\" is missing" % where)
        where = "%s (%s)" % (where, hero["name"])
        pvp = hero.get("pvp", 10)
        if not isinstance(pvp, int) or not 1 <= pvp <= 20:
            raise ValueError("%s: \"pvp\" must be 1 to 20" % where)
        abilities = hero.get("abilities", [])
        if not isinstance(abilities, list):
            raise ValueError("%s: \"abilities\" must be a list" % where)
        try:
            check_abilities(abilities)
        except ValueError as e:
            raise ValueError("%s: %s" % (where, e))
        primary = hero.get("primary", "")
        if not isinstance(primary, str):
            raise ValueError("%s: \"primary\" must be text" % where)
        cards = hero.get("cards", [])
        if not isinstance(cards, list) or len(cards) > MAX_CARDS:
            raise ValueError("%s: \"cards\" must be a list of up to %d power cards" % (where, MAX_CARDS))
        checked = []
        for i, card in enumerate(cards):
            try:
                checked.append(check_card(card))
            except ValueError as e:
                name = card.get("name") if isinstance(card, dict) else None
                label = " (%s)" % name if isinstance(name, str) and name else ""
                raise ValueError("%s card %d%s: %s" % (where, i + 1, label, e))
        entry = {"name": hero["name"][:16], "pvp": pvp, "abilities": list(abilities), "primary": primary,
                 "cards": checked}
        if "_fill" in hero:
            entry["_fill"] = hero["_fill"]
        out.append(entry)
    return out


def cards_of(heroes, name):
    """The power cards of the hero called `name` in a roster ([] if none)."""
    for hero in heroes:
        if hero["name"] == name:
            return hero.get("cards") or []
    return []
