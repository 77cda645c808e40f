"""What Battlerealm checks before a game is played: a new game's heroes (`new_state`), a save's body
from an older schema (`migrate`) and a loaded state (`check`). Loaded for each check by core/games/battlerealm/tracker.py's
wrappers and its set-up's start, and forgotten after (core/scope.py's `once`): a game played never holds it."""

from dicetower.core.games.battlerealm.triples import check_abilities
from dicetower.core.games.battlerealm.cards import LOCATIONS, WAREHOUSE_BUYS
from dicetower.core.game import Refused, fields, number, text
from dicetower.core.games.battlerealm import ATTACK_MOST, DEFAULT_PVP, MOST, ROUNDS, WIN_PVP


def new_state(heroes):
    """A new game's state. `heroes`: 2 to 6 dicts with name, pvp (optional), abilities."""
    if not isinstance(heroes, list) or not 2 <= len(heroes) <= 6:
        raise Refused("Battlerealm needs 2 to 6 heroes.")
    roster = []
    for spec in heroes:
        name = text(fields(spec, "A hero").get("name"), "A hero's name")
        pvp = number(spec.get("pvp", DEFAULT_PVP), 1, WIN_PVP - 1, name + "'s starting PVP")
        abilities = spec.get("abilities", [])
        if not isinstance(abilities, (list, tuple)):
            raise Refused("%s's abilities must be a list." % name)
        try:
            abilities = list(check_abilities(abilities))
        except ValueError as e:
            raise Refused(str(e))
        roster.append(
            {
                "name": name,
                "pvp": pvp,
                "abilities": abilities,
                "prison": 0,
                "disorientated": 0,
                "block": 0,
                "negated_by": -1,
                "out": 0,
                "survivor": 0,
                "last_hit_by": -1,
                "place": 0,
            }
        )
    state = {"heroes": roster, "turn": 0, "round": 1, "rolled": 0, "attacks": [], "bought": 0, "over": None}
    state["dice"] = [0, 0]  # the Skill and Tech the turn's roll left for damage
    return state


def migrate(schema, body):
    """A save's body from `schema` to the next (core/save_reader.py), its keys in their saved codes:
    schema 2 had no purchases and no locations, which schema 3 adds (none bought, every hero at the
    first location); schema 4 did not count the dice left for damage, which schema 5 does (none at the
    base: the roll's replay counts them)."""
    if schema == 4:
        from dicetower.core.savefile import SaveError, key_code

        base = body["base"]
        code = key_code("dice")
        if code in base:
            raise SaveError("a later save's body under schema 4")
        base[code] = [0, 0]
    if schema == 2:
        from dicetower.core.savefile import SaveError, key_code

        base = body["base"]
        bought, place = key_code("bought"), key_code("place")
        if bought in base:
            raise SaveError("a later save's body under schema 2")
        base[bought] = 0
        for hero in base[key_code("heroes")]:
            hero[place] = 0
    return body


def check(state):
    """Refused unless a loaded state (its shape already a game's: core/savefile.py) is one this tracker
    can play: 2 to 6 heroes, whose turn and every hero index among them, places, counts in range."""
    heroes = state["heroes"]
    last = len(heroes) - 1
    if not 2 <= len(heroes) <= 6:
        raise Refused("Battlerealm needs 2 to 6 heroes, not %d." % len(heroes))
    number(state["turn"], 0, last, "Whose turn")
    number(state["bought"], 0, WAREHOUSE_BUYS, "Results bought")
    number(state["round"], 1, ROUNDS, "Round")
    number(state["rolled"], 0, 1, "Rolled")
    # Reaching WIN_PVP ends the game. The action that ends it adds at most MOST to a hero: a gain, or a
    # roll (9 at most) with up to 5 eliminations' final blow and Cunning (6 each).
    pvp = WIN_PVP - 1 + (MOST if state["over"] else 0)
    for hero in heroes:
        text(hero["name"], "A hero's name")
        number(hero["pvp"], 0, pvp, hero["name"] + "'s PVP")
        number(hero["place"], 0, len(LOCATIONS) - 1, "A location")
        number(hero["negated_by"], -1, last, "Negated by")
        number(hero["last_hit_by"], -1, last, "Last hit by")
        for key, high in (("prison", 1), ("out", 1), ("disorientated", 2), ("survivor", 2), ("block", 9)):
            number(hero[key], 0, high, key)
        try:
            check_abilities(hero["abilities"])
        except ValueError as e:
            raise Refused(str(e))
    dice = state["dice"]
    if len(dice) != 2:
        raise Refused("The dice left for damage are damaged.")
    for n in dice:
        number(n, 0, 6, "Dice left for damage")
    if heroes[state["turn"]]["out"] and not state["over"]:
        raise Refused("It is the turn of a hero who is eliminated.")
    for attack in state["attacks"]:
        if not isinstance(attack, list) or len(attack) != 7:
            raise Refused("An Attack this turn is damaged.")
        number(attack[0], 0, last, "An Attack's target")
        # [target, same place, damage, dealt, Tough, Elusive, Block]: dealt is what the damage left.
        for n, low, high in zip(attack[1:], (0, 1, 0, 0, 0, 0), (1, ATTACK_MOST, attack[2], 1, 1, 9)):
            number(n, low, high, "An Attack's figure")
