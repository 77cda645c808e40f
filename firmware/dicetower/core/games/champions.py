"""Marvel Champions' score: threat on schemes, villain and hero hit points, rounds.

A game has one or more game *areas* (The Once and Future Kang separates the
players; other scenarios have one). Each area holds its players, a main
scheme (stages of target threat, acceleration and starting threat), its
side schemes and a villain (hit points per player for each stage).

Rules from the rules refresher, quoted where they decide something:
- "The moment it equals or exceeds the target threat ... the scheme advances
  to the next stage, and the old threat is removed. If the final stage of
  the scheme deck advances, the players lose immediately."
- "A side scheme with the crisis icon must be cleared before any threat can
  be removed from the main scheme"; side schemes "are discarded when their
  threat reaches zero".
- Villain phase, first step: "place threat on the main scheme equal to its
  acceleration field, plus one for each acceleration icon on side schemes
  in play"; fifth: "pass the first player token and start the next round".
- "set the villain's dial to the hit points on the villain card multiplied
  by the number of players"; "Defeat the final villain stage and you all win."
- A hero's recovery never goes "above your maximum hit points"; a player is
  eliminated when "their hit point dial reaches zero"; "The players also
  lose if every player is eliminated".
- "You may control at most three allies. If you already have three and play
  a fourth, you immediately discard one of the previous ones."
- "To use an ally, exhaust it, declare attack or thwart and the target,
  resolve the damage or threat removal, and then deal the ally any
  consequential damage shown under the value you used. Damage on allies and
  minions is tracked with tokens and defeats them at zero hit points."
- "Minions enter play engaged with the player who revealed them."
Choices: thwarting more threat than a scheme holds clears it (the rest is
lost). Allies and minions are lists [player, name, hit points] under the
state's "allies" and "minions", made at the first one played (a game saved
before they were tracked loads as it was); an ally's attack or thwart is the
usual action, its consequential damage `ally_damage`. An eliminated player's
allies and the minions engaged with them leave play. A villain's hit points
per stage are multiplied by the players in its game area who are still in
the game (at least one). A villain may be *interim* ("final": false; Kang I,
and every Kang II an area made by `separate` holds): its defeat wins
nothing; the area's players then `join` another area, or a card brings the
next villain (`villain`, Kang III, final by default). The game is won when a
final villain's last stage falls and no other game area with players is
still fighting. An area may be left with no players (stage 2B's central
area); its scheme stays in play.
"""

from dicetower.core.actions import CHOICE, FIXED, HERO, NAMED, NUMBER, PICK, PICK_IF
from dicetower.core.game import Refused, fields, number, text
from dicetower.core.games import players
from dicetower.core.games.champions_allies import HP, MAX_ALLIES, MAX_MINIONS, NAME, OWNER
from dicetower.core.games.champions_rules import MAX_SIDES, MOST, PHASES, ROUNDS, SIDE_THREAT, Champions

TRACKER = Champions
TITLE = "Marvel Champions"  # its name in full: the phones' page
PLAYERS = players("champions")
KEYS = ()
WORDS = ()
# The Kang scenario's own game areas (the play menu's "Kang: own area"): figures to be set to the cards.
KANG_AREA_SCHEME = {"name": "Stage 3A", "stages": [[8, 1, 1]]}
KANG_II = {"name": "Kang (II)", "stages": [12]}
# A new game without a set-up (the saves' template): each player 10 hit points, the tracker's scenario.
HEROES = [{"name": n, "hp": 10} for n in ("P1", "P2", "P3", "P4")]
SCHEME = {"name": "Main Scheme", "stages": [[10, 1, 3], [12, 1, 0]]}
VILLAIN = {"name": "Villain", "stages": [14, 15]}


def new_game(count, options):
    return Champions.setup([dict(h) for h in HEROES[:count]], SCHEME, VILLAIN)


def _areas(state, values):
    return [("Area %d" % (i + 1), i) for i in range(len(state["areas"]))]


def _sides(state, values):
    """The side schemes of the game area chosen for this action (its first value)."""
    area = values[0] if values and values[0] is not None else 0
    if not 0 <= area < len(state["areas"]):
        area = 0
    sides = [(s["name"], i) for i, s in enumerate(state["areas"][area]["sides"])]
    if not sides:
        raise Refused("No side scheme in play in area %d." % (area + 1))
    return sides


def _next_side(state):
    return "Side %d" % (sum(len(a["sides"]) for a in state["areas"]) + 1)


def _next_name(cards, word):
    """ "Ally 1", "Minion 2"...: the lowest number no card of that kind in play has."""
    names = [c[NAME] for c in cards]
    n = 1
    while "%s %d" % (word, n) in names:
        n += 1
    return "%s %d" % (word, n)


def _next_ally(state):
    return _next_name(state.get("allies", ()), "Ally")


def _next_minion(state):
    return _next_name(state.get("minions", ()), "Minion")


def _label(state, card):
    """ "Ally 1 2hp P1": the name, the hit points and the player, short enough for the picker's line."""
    return "%s %dhp %s" % (card[NAME], card[HP], state["heroes"][card[OWNER]]["name"][:3])


def _allies(state, values):
    allies = state.get("allies")
    if not allies:
        raise Refused("No ally in play: play one with Play ally.")
    return [(_label(state, allies[i]), i) for i in range(len(allies))]


def _to_discard(state, values):
    """The allies of the player playing a fourth: the one they discard (none to pick below three)."""
    allies = state.get("allies", ())
    own = [(_label(state, allies[i]), i) for i in range(len(allies)) if allies[i][OWNER] == values[0]]
    return own if len(own) >= MAX_ALLIES else []


def _minions(state, values):
    minions = state.get("minions")
    if not minions:
        raise Refused("No minion in play: one enters with Minion engages.")
    return [(_label(state, minions[i]), i) for i in range(len(minions))]


AREA = ("Area", PICK, _areas)
MENU = (
    ("Thwart main scheme", "thwart", (AREA, ("Scheme", FIXED, -1), ("Threat", NUMBER, (1, 12)))),
    ("Thwart side scheme", "thwart", (AREA, ("Side scheme", PICK, _sides), ("Threat", NUMBER, (1, 12)))),
    ("Hit villain", "hit", (AREA, ("Damage", NUMBER, (1, 20)))),
    (
        "Villain attacks",
        "villain_attack",
        (("Hero", HERO, None), ("ATK", NUMBER, (0, 9)), ("Boost icons", NUMBER, (0, 5)), ("Defense", NUMBER, (0, 9))),
    ),
    ("Damage hero", "damage", (("Hero", HERO, None), ("Damage", NUMBER, (1, 20)))),
    ("Heal hero", "heal", (("Hero", HERO, None), ("Hit points", NUMBER, (1, 20)))),
    ("Threat on main", "threat", (AREA, ("Threat", NUMBER, (1, 12)))),
    ("Incite X", "incite", (AREA, ("X", NUMBER, (1, 9)))),
    (
        "Side scheme in play",
        "side",
        (
            AREA,
            ("Name", NAMED, _next_side),
            ("Threat", NUMBER, (1, 12)),
            ("Crisis", CHOICE, (("no", 0), ("yes", 1))),
            ("Acceleration", NUMBER, (0, 3)),
            ("Hazard", NUMBER, (0, 3)),
        ),
    ),
    ("Threat on side", "side_threat", (AREA, ("Side scheme", PICK, _sides), ("Threat", NUMBER, (1, 12)))),
    ("End phase", "end_phase", ()),
    (
        "Kang: own area",
        "separate",
        (("Player", HERO, None), ("Scheme", FIXED, KANG_AREA_SCHEME), ("Villain", FIXED, KANG_II)),
    ),
    ("Kang: join area", "join", (("From area", PICK, _areas), ("To area", PICK, _areas))),
    (
        "New villain",
        "villain",
        (
            AREA,
            ("Name", FIXED, "Kang (III)"),
            ("Hit points", CHOICE, tuple(("%d per player" % n, [n]) for n in (10, 12, 14, 16, 18, 20))),
        ),
    ),
    (
        "Play ally",
        "ally",
        (
            ("Player", HERO, None),
            ("Name", NAMED, _next_ally),
            ("Hit points", NUMBER, (1, 9)),
            ("Discard", PICK_IF, _to_discard),
        ),
    ),
    ("Damage ally", "ally_damage", (("Ally", PICK, _allies), ("Damage", NUMBER, (1, 9)))),
    (
        "Minion engages",
        "minion",
        (("Player", HERO, None), ("Name", NAMED, _next_minion), ("Hit points", NUMBER, (1, 20))),
    ),
    ("Hit minion", "hit_minion", (("Minion", PICK, _minions), ("Damage", NUMBER, (1, 20)))),
)


def status(state, lines):
    area = state["areas"][0]
    scheme = area["scheme"]
    target = scheme["stages"][scheme["stage"]][0]
    minions = _hit_points(state, "minions", -1)
    rows = [
        "R%d %s  1st:%s" % (state["round"], state["phase"], state["heroes"][state["first"]]["name"][:8]),
        "Threat %d/%d st%d%s"
        % (scheme["threat"], target, scheme["stage"] + 1, " +%d side" % len(area["sides"]) if area["sides"] else ""),
        "%s %d hp%s" % (area["villain"]["name"][:14], area["villain"]["hp"], " M:" + minions if minions else ""),
        " ".join(_hero_status(state, i) for i in range(len(state["heroes"]))),
    ]
    if len(state["areas"]) > 1:
        rows[1] += " (%d areas)" % len(state["areas"])
    return rows


def _hero_status(state, i):
    """ "You:6", or "You:6(1,3)" with the hit points of the allies they control."""
    hero = state["heroes"][i]
    allies = _hit_points(state, "allies", i)
    return "%s:%d%s" % (hero["name"][:3], hero["hp"], "(" + allies + ")" if allies else "")


def _hit_points(state, key, owner):
    """The hit points of the allies of player `owner`, or of every minion (-1): "1,3", or ""."""
    return ",".join(str(c[HP]) for c in state.get(key, ()) if owner < 0 or c[OWNER] == owner)


def gauge(state, out):
    """Threat toward the main scheme's target in the first game area: an alarm."""
    scheme = state["areas"][0]["scheme"]
    out[0] = scheme["threat"]
    out[1] = scheme["stages"][scheme["stage"]][0]
    out[2] = 0
    out[3] = 1


def check(state):
    """Refused unless a loaded state (its shape already a game's: core/savefile.py) can be played:
    players, first player, stages and side schemes all within their lists."""
    heroes = state["heroes"]
    number(len(heroes), 1, 4, "Players")
    number(state["first"], 0, len(heroes) - 1, "First player")
    number(state["round"], 1, ROUNDS, "Round")
    for hero in heroes:
        text(hero["name"], "A hero's name")
        number(hero["max"], 1, 99, "Maximum hit points")
        number(hero["hp"], 0, hero["max"], hero["name"] + "'s hit points")
        number(hero["out"], 0 if hero["hp"] else 1, 0 if hero["hp"] else 1, "Out (at 0 hit points)")
    if state["phase"] not in PHASES or not 1 <= len(state["areas"]) <= 1 + len(heroes):
        raise Refused("The phase or the game areas are damaged.")
    for area in state["areas"]:
        for p in area["players"]:
            number(p, 0, len(heroes) - 1, "A player")
        scheme, villain = area["scheme"], area["villain"]
        Champions._area(state, [], scheme, villain)  # names and stages as a new game's
        for part in (scheme, villain):
            number(part["stage"], 0, len(part["stages"]) - 1, "A stage")
        # Below the stage's target (reaching it advances the scheme), unless the last threat placed lost.
        number(
            scheme["threat"],
            0,
            scheme["stages"][scheme["stage"]][0] - 1 + (MOST if state["over"] else 0),
            scheme["name"] + "'s threat",
        )
        number(villain["hp"], 0, villain["stages"][villain["stage"]] * len(heroes), villain["name"] + "'s hit points")
        for key in ("done", "interim", "own"):
            number(area.get(key, 0), 0, 1, key)
        number(villain.get("fixed", 0), 0, 1, "fixed")
        for side in area["sides"]:
            fields(side, "A side scheme")
            for key, low, high in (("threat", 1, SIDE_THREAT), ("crisis", 0, 1), ("accel", 0, 9), ("hazard", 0, 9)):
                number(side.get(key), low, high, "A side scheme's " + key)
            text(side.get("name"), "A side scheme's name", 24)
    number(sum(len(area["sides"]) for area in state["areas"]), 0, MAX_SIDES, "Side schemes")
    # Allies and minions, when any were played: [player, name, hit points], within what play allows.
    for key, most, top in (("allies", MAX_ALLIES * len(heroes), 20), ("minions", MAX_MINIONS, 30)):
        pieces = state.get(key, [])
        if not isinstance(pieces, list) or len(pieces) > most:
            raise Refused("The %s are damaged." % key)
        for piece in pieces:
            if not isinstance(piece, list) or len(piece) != 3:
                raise Refused("The %s are damaged." % key)
            number(piece[0], 0, len(heroes) - 1, "A player")
            text(piece[1], "A name")
            number(piece[2], 1, top, "Hit points")
    for p in range(len(heroes)):
        if sum(1 for ally in state.get("allies", []) if ally[0] == p) > MAX_ALLIES:
            raise Refused("A player controls more than %d allies." % MAX_ALLIES)
