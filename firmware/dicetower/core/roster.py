"""Default rosters and scenarios for a new game, as data.

ASSUMPTIONS: the rulebooks print no starting PVP and only the Hulk's
special abilities (Cunning, Peaceful, Tough). The other heroes' numbers and
abilities below are placeholders a user replaces in `/heroes.json` on the
device ({"heroes": [{"name": ..., "pvp": ..., "abilities": [...]}, ...]}),
without reflashing code. The Champions scheme and villain figures are
likewise assumptions to be set to the cards in play.
"""

import json

from dicetower.core.battlerealm import check_abilities

BATTLEREALM_HEROES = [
    {"name": "Hulk", "pvp": 10, "abilities": ["Cunning", "Peaceful", "Tough"]},
    {"name": "Thor", "pvp": 10, "abilities": []},
    {"name": "Vision", "pvp": 10, "abilities": []},
    {"name": "Black Panther", "pvp": 10, "abilities": []},
    {"name": "Falcon", "pvp": 10, "abilities": []},
    {"name": "Hawkeye", "pvp": 10, "abilities": []},
]
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
        pvp = hero.get("pvp", 10)
        if not isinstance(pvp, int) or not 1 <= pvp <= 20:
            raise ValueError("%s (%s): \"pvp\" must be 1 to 20" % (where, hero["name"]))
        abilities = hero.get("abilities", [])
        if not isinstance(abilities, list):
            raise ValueError("%s (%s): \"abilities\" must be a list" % (where, hero["name"]))
        try:
            check_abilities(abilities)
        except ValueError as e:
            raise ValueError("%s (%s): %s" % (where, hero["name"], e))
        out.append({"name": hero["name"][:16], "pvp": pvp, "abilities": list(abilities)})
    return out
