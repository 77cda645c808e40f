"""Marvel Champions' score: threat on schemes, villain and hero hit points, rounds, allies and minions.

Its tracker (Champions: game areas, schemes, villains, heroes, allies and minions, rounds) and what the
box shows and asks. What a game's figures must be is core/games/champions/check.py's, a module of its
own: the set-up imports it without the tracker.

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

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

from dicetower.core.game import Game, Refused, fields, number, plural, text

# check.py's `hero` as `new_hero`: the module's check() loops over its heroes as `hero`.
from dicetower.core.games.champions.check import hero as new_hero, stage, stages, villain_hp
from dicetower.core.games.champions.menu import MENU, gauge, status  # noqa: F401 (the game's: its registry)

# Private constants are const(): no name of theirs in the chip's table of names (docs/architecture.md).
_MAX_SIDES = const(8)  # in play at once, over all game areas; keeps a save under 2 KB
_MOST = const(99)  # the most threat one action places (Threat, Incite X: 1 to 99; acceleration 9 + 8 x 9 at most)
_SIDE_THREAT = const(99)  # a side scheme's threat the tracker holds (a table sees tens)
_ROUNDS = const(9999)  # the tracker's last round: a table plays tens; a save claiming more is damaged
_MAX_ALLIES = const(3)  # per player: "You may control at most three allies."
_MAX_MINIONS = const(8)  # in play at once, over all players; keeps a save small
# An ally or a minion: [player, name, hit points] (menu.py repeats these and _MAX_ALLIES).
_OWNER = const(0)
_NAME = const(1)
_HP = const(2)


class Champions(Game):
    KIND = "champions"
    STATE_KEYS = ("heroes", "first", "round", "phase", "areas", "over")

    @classmethod
    def setup(cls, heroes, scheme, villain, own=None):
        """A new game.

        heroes   1-4 dicts: name, hp (starting and maximum hit points)
        scheme   dict: name, stages: [[target, acceleration, starting threat], ...]
        villain  dict: name, stages: [hit points per player, ...]
        own      (scheme, villain) a player's own game area brings (The Once and Future Kang: Stage 3A
                 and Kang (II), as the set-up gives them), or None: the play menu's (menu.py's OWN)
        """
        if not isinstance(heroes, list) or not 1 <= len(heroes) <= 4:
            raise Refused("Marvel Champions takes 1 to 4 players.")
        roster = [new_hero(spec) for spec in heroes]
        state = {"heroes": roster, "first": 0, "round": 1, "phase": "player", "areas": [], "over": None}
        state["areas"].append(cls._area(state, list(range(len(roster))), scheme, villain))
        if own is not None:
            cls._area(state, [], own[0], own[1])  # checked as an area's
            state["own"] = {"scheme": own[0], "villain": own[1]}
        return cls(state)

    @staticmethod
    def _players_here(state, area):
        """What the villain's hit points are multiplied by: the players in its area still in the game
        (at least one), or 1 for a villain whose card gives them whole ("fixed")."""
        if area["villain"].get("fixed"):
            return 1
        return max(1, len([p for p in area["players"] if not state["heroes"][p]["out"]]))

    @staticmethod
    def _area(state, players, scheme, villain):
        name = text(fields(scheme, "A scheme").get("name"), "A scheme's name")
        checked = [stage(spec, name) for spec in stages(scheme.get("stages"), name)]
        vname = text(fields(villain, "A villain").get("name"), "A villain's name")
        hp = stages(villain.get("stages"), vname)
        for per_player in hp:
            villain_hp(per_player, vname)
        area = {
            "players": players,
            "scheme": {"name": name, "stages": checked, "stage": 0, "threat": checked[0][2]},
            "villain": {"name": vname, "stages": hp, "stage": 0, "hp": 0},
            "sides": [],
            "done": 0,
            "interim": 0 if villain.get("final", True) else 1,
        }
        if villain.get("fixed"):  # a card whose hit points are not per player
            area["villain"]["fixed"] = 1
        area["villain"]["hp"] = hp[0] * Champions._players_here(state, area)
        return area

    # -- helpers ------------------------------------------------------------

    @staticmethod
    def _area_of(state, a):
        number(a, 0, len(state["areas"]) - 1, "Game area")
        area = state["areas"][a]
        if area["done"]:
            raise Refused("That game area's villain is defeated; join another area.")
        return area

    def _place(self, state, area, amount):
        """Threat onto the main scheme, advancing it at its target."""
        scheme = area["scheme"]
        scheme["threat"] += amount
        notes = []
        if scheme["threat"] >= scheme["stages"][scheme["stage"]][0]:
            if scheme["stage"] + 1 == len(scheme["stages"]):
                state["over"] = "%s completes its final stage: the players lose." % scheme["name"]
                return " " + state["over"]
            scheme["stage"] += 1
            scheme["threat"] = scheme["stages"][scheme["stage"]][2]
            notes.append(
                " %s advances to stage %d (%d threat)." % (scheme["name"], scheme["stage"] + 1, scheme["threat"])
            )
        return "".join(notes)

    def _players_in_game(self, state):
        return [i for i in range(len(state["heroes"])) if not state["heroes"][i]["out"]]

    # -- threat ---------------------------------------------------------------

    def act_threat(self, state, a, amount):
        """Place threat on area `a`'s main scheme (a villain schemes, a card says so)."""
        area = self._area_of(state, a)
        number(amount, 1, 99, "Threat")
        return "+%d threat on %s.%s" % (amount, area["scheme"]["name"], self._place(state, area, amount))

    def act_incite(self, state, a, x):
        """Incite X: "place X threat on the main scheme"."""
        area = self._area_of(state, a)
        number(x, 1, 99, "Incite X")
        return "Incite %d on %s.%s" % (x, area["scheme"]["name"], self._place(state, area, x))

    def act_thwart(self, state, a, scheme, amount):
        """Remove threat from the main scheme (`scheme` -1) or side scheme `scheme`."""
        area = self._area_of(state, a)
        number(amount, 1, 99, "Thwart")
        if scheme == -1:
            crisis = [s["name"] for s in area["sides"] if s["crisis"]]
            if crisis:
                raise Refused("Crisis: clear %s before removing threat from the main scheme." % crisis[0])
            main = area["scheme"]
            removed = min(amount, main["threat"])
            main["threat"] -= removed
            return "Thwart %d: %s -%d threat (%d left)." % (amount, main["name"], removed, main["threat"])
        number(scheme, 0, len(area["sides"]) - 1, "Side scheme")
        side = area["sides"][scheme]
        removed = min(amount, side["threat"])
        side["threat"] -= removed
        line = "Thwart %d: %s -%d threat." % (amount, side["name"], removed)
        if side["threat"] == 0:
            area["sides"].pop(scheme)
            line += " %s is cleared and discarded." % side["name"]
        return line

    def act_side(self, state, a, name, threat, crisis=0, accel=0, hazard=0):
        """A side scheme enters play in area `a` with its threat and icons."""
        area = self._area_of(state, a)
        text(name, "A side scheme's name", 24)
        if sum(len(x["sides"]) for x in state["areas"]) >= _MAX_SIDES:
            raise Refused("%d side schemes are in play: the tracker holds no more." % _MAX_SIDES)
        number(threat, 1, _SIDE_THREAT, "Threat")
        side = {
            "name": name,
            "threat": threat,
            "crisis": 1 if crisis else 0,
            "accel": number(accel, 0, 9, "Acceleration icons"),
            "hazard": number(hazard, 0, 9, "Hazard icons"),
        }
        area["sides"].append(side)
        return "%s enters play with %d threat." % (name, threat)

    def act_side_threat(self, state, a, scheme, amount):
        """Place threat on side scheme `scheme`."""
        area = self._area_of(state, a)
        number(scheme, 0, len(area["sides"]) - 1, "Side scheme")
        number(amount, 1, 99, "Threat")
        side = area["sides"][scheme]
        side["threat"] = number(side["threat"] + amount, 1, _SIDE_THREAT, "A side scheme's threat")
        return "+%d threat on %s." % (amount, area["sides"][scheme]["name"])

    # -- hit points --------------------------------------------------------------

    def act_hit(self, state, a, amount):
        """Damage to area `a`'s villain; at 0 the stage is defeated."""
        area = self._area_of(state, a)
        number(amount, 1, 99, "Damage")
        villain = area["villain"]
        dealt = min(amount, villain["hp"])
        villain["hp"] -= dealt
        line = "%s -%s (%d left)." % (villain["name"], plural(dealt, "hit point"), villain["hp"])
        if villain["hp"] == 0:
            if villain["stage"] + 1 < len(villain["stages"]):
                villain["stage"] += 1
                villain["hp"] = villain["stages"][villain["stage"]] * self._players_here(state, area)
                line += " Stage %d: %s." % (villain["stage"] + 1, plural(villain["hp"], "hit point"))
            else:
                area["done"] = 1
                fighting = [x for x in state["areas"] if not x["done"] and x["players"]]
                if not area["interim"] and not fighting:
                    state["over"] = "%s's final stage is defeated: the players win!" % villain["name"]
                    line += " " + state["over"]
                elif fighting:
                    line += " %s is defeated here; join another game area." % villain["name"]
                else:
                    line += " %s is defeated; bring in the next villain." % villain["name"]
        return line

    def act_villain(self, state, a, name, stages, final=1, replace=None):
        """A card brings a new villain into area `a`: final (Kang III) unless `final` is 0. One still
        standing there is replaced only when the player said so (`replace` 1; 0 keeps it; None: not
        asked, as a save from before the question)."""
        number(a, 0, len(state["areas"]) - 1, "Game area")
        area = state["areas"][a]
        if replace == 0:
            raise Refused("%s stays in area %d." % (area["villain"]["name"], a + 1))
        fresh = self._area(
            state,
            area["players"],
            {"name": area["scheme"]["name"], "stages": [[1, 0, 0]]},
            {"name": name, "stages": stages, "final": bool(final)},
        )
        area["villain"] = fresh["villain"]
        area["done"] = 0
        area["interim"] = fresh["interim"]
        return "%s enters play with %s." % (name, plural(area["villain"]["hp"], "hit point"))

    def act_villain_attack(self, state, target, attack, boost, defense):
        """The villain attacks `target`: ATK plus boost icons, minus the defender's DEF."""
        hero = self._hero(state, target)
        number(attack, 0, 99, "ATK")
        number(boost, 0, 9, "Boost icons")
        number(defense, 0, 99, "DEF")
        damage = max(0, attack + boost - defense)
        return "Villain attacks %s: %d + %d boost - %d defense. %s" % (
            hero["name"],
            attack,
            boost,
            defense,
            self._hurt(state, target, damage),
        )

    def act_damage(self, state, target, amount):
        """Damage to a hero from any other source."""
        self._hero(state, target)
        number(amount, 1, 99, "Damage")
        return self._hurt(state, target, amount)

    def act_heal(self, state, target, amount):
        """A hero recovers hit points, never above their maximum."""
        hero = self._hero(state, target)
        number(amount, 1, 99, "Hit points")
        healed = min(amount, hero["max"] - hero["hp"])
        hero["hp"] += healed
        return "%s +%s (%d)." % (hero["name"], plural(healed, "hit point"), hero["hp"])

    def _hero(self, state, i):
        number(i, 0, len(state["heroes"]) - 1, "Hero")
        hero = state["heroes"][i]
        if hero["out"]:
            raise Refused("%s is eliminated." % hero["name"])
        return hero

    def _hurt(self, state, i, damage):
        hero = state["heroes"][i]
        taken = min(damage, hero["hp"])
        hero["hp"] -= taken
        line = "%s -%s (%d)." % (hero["name"], plural(taken, "hit point"), hero["hp"])
        if hero["hp"] == 0:
            hero["out"] = 1
            line += " %s is eliminated." % hero["name"]
            for key in ("allies", "minions"):
                if key in state:  # their allies, and the minions engaged with them, leave play
                    state[key] = [card for card in state[key] if card[_OWNER] != i]
            if not self._players_in_game(state):
                state["over"] = "Every player is eliminated: the players lose."
                line += " " + state["over"]
        return line

    # -- allies and minions -------------------------------------------------------

    def act_ally(self, state, player, name, hp, discard=None):
        """`player` plays an ally with `hp` hit points. With three allies in play they "immediately
        discard one of the previous ones": `discard`, its index among the allies."""
        hero = self._hero(state, player)
        text(name, "An ally's name")
        number(hp, 1, 20, "An ally's hit points")
        allies = state.get("allies", [])
        own = len([a for a in allies if a[_OWNER] == player])
        gone = ""
        if own >= _MAX_ALLIES:
            if discard is None:
                raise Refused("%s controls %d allies: pick the one to discard." % (hero["name"], own))
            number(discard, 0, len(allies) - 1, "The ally to discard")
            if allies[discard][_OWNER] != player:
                raise Refused("%s is not %s's ally." % (allies[discard][_NAME], hero["name"]))
            gone = " %s is discarded." % allies.pop(discard)[_NAME]
        elif discard is not None:
            raise Refused("%s controls fewer than three allies: nothing to discard." % hero["name"])
        allies.append([player, name, hp])
        state["allies"] = allies
        return "%s plays %s (%s).%s" % (hero["name"], name, plural(hp, "hit point"), gone)

    def act_ally_damage(self, state, ally, amount):
        """Damage to an ally: the consequential damage printed under the value it used, or an attack
        it defended ("a defending ally takes all of it")."""
        return self._wound(state, "allies", "Ally", ally, amount)

    def act_minion(self, state, player, name, hp):
        """A minion enters play engaged with `player`."""
        hero = self._hero(state, player)
        text(name, "A minion's name")
        number(hp, 1, 30, "A minion's hit points")
        minions = state.get("minions", [])
        if len(minions) >= _MAX_MINIONS:
            raise Refused("%d minions are in play: the tracker holds no more." % _MAX_MINIONS)
        minions.append([player, name, hp])
        state["minions"] = minions
        return "%s enters play engaged with %s (%s)." % (name, hero["name"], plural(hp, "hit point"))

    def act_hit_minion(self, state, minion, amount):
        """Damage to a minion."""
        return self._wound(state, "minions", "Minion", minion, amount)

    def _wound(self, state, key, what, i, amount):
        """Damage on an ally or a minion; "defeats them at zero hit points" (it leaves play)."""
        cards = state.get(key)
        if not cards:
            raise Refused("No %s in play." % what.lower())
        number(i, 0, len(cards) - 1, what)
        number(amount, 1, 99, "Damage")
        card = cards[i]
        taken = min(amount, card[_HP])
        card[_HP] -= taken
        if card[_HP]:
            return "%s -%s (%d left)." % (card[_NAME], plural(taken, "hit point"), card[_HP])
        cards.pop(i)
        return "%s -%s: defeated." % (card[_NAME], plural(taken, "hit point"))

    # -- rounds -------------------------------------------------------------

    def act_end_phase(self, state):
        """Player phase -> villain phase (threat accelerates); villain phase -> next round."""
        if state["phase"] == "player":
            state["phase"] = "villain"
            parts = ["Villain phase."]
            for area in state["areas"]:
                if area["done"]:
                    continue
                hazard = sum(side["hazard"] for side in area["sides"])
                players = [p for p in area["players"] if not state["heroes"][p]["out"]]
                parts.append("Encounter cards: %d (+%d for hazard icons)." % (len(players) + hazard, hazard))
                scheme = area["scheme"]  # its stage's acceleration, and an icon's on each side scheme
                accel = scheme["stages"][scheme["stage"]][1] + sum(side["accel"] for side in area["sides"])
                if accel:
                    parts.append("+%d threat on %s." % (accel, area["scheme"]["name"]))
                    parts.append(self._place(state, area, accel).strip())
                if state["over"]:
                    break
            return " ".join(p for p in parts if p)
        state["phase"] = "player"
        state["round"] = number(state["round"] + 1, 1, _ROUNDS, "Round")
        players = self._players_in_game(state)
        first = state["first"]
        for _ in range(len(state["heroes"])):
            first = (first + 1) % len(state["heroes"])
            if first in players:
                break
        state["first"] = first
        return "Round %d: %s has the first player token." % (state["round"], state["heroes"][first]["name"])

    # -- separate game areas (The Once and Future Kang) -----------------------

    def act_separate(self, state, player, scheme, villain):
        """`player` creates their own game area with its own scheme and villain."""
        self._hero(state, player)
        for area in state["areas"]:
            if player in area["players"]:
                if area.get("own"):
                    raise Refused("%s has their own game area already." % state["heroes"][player]["name"])
                area["players"].remove(player)  # the area stays, with its scheme, if they were the last
        villain = dict(fields(villain, "A villain"))
        villain["final"] = False
        new = self._area(state, [player], scheme, villain)
        new["own"] = 1
        state["areas"].append(new)
        return "%s creates their own game area: %s against %s." % (
            state["heroes"][player]["name"],
            new["scheme"]["name"],
            new["villain"]["name"],
        )

    def act_join(self, state, a, b):
        """The players of area `a` join area `b`, bringing its side schemes."""
        number(a, 0, len(state["areas"]) - 1, "Game area")
        number(b, 0, len(state["areas"]) - 1, "Game area")
        if a == b:
            raise Refused("Join a different game area.")
        source = state["areas"][a]
        target = state["areas"][b]
        if not source["done"]:
            raise Refused("Players join another game area when they defeat the villain in theirs.")
        target["players"].extend(source["players"])
        target["sides"].extend(source["sides"])
        state["areas"].pop(a)
        sides = plural(len(source["sides"]), "side scheme")
        return "Game area %d joins game area %d, bringing %s." % (a + 1, b + 1, sides)


# -- what the box shows and asks (see core/games/__init__.py) ----------------

TRACKER = Champions
TITLE = "Marvel Champions"  # its name in full: the phones' page
KEYS = ()
WORDS = ()
# A new game without a set-up (the saves' template): each player 10 hit points, the tracker's scenario.
HEROES = [{"name": n, "hp": 10} for n in ("P1", "P2", "P3", "P4")]
SCHEME = {"name": "Main Scheme", "stages": [[10, 1, 3], [12, 1, 0]]}
VILLAIN = {"name": "Villain", "stages": [14, 15]}


def new_game(count, options):
    return Champions.setup([dict(h) for h in HEROES[:count]], SCHEME, VILLAIN)


def check(state):
    """Refused unless a loaded state (its shape already a game's: core/savefile.py) can be played:
    players, first player, stages and side schemes all within their lists."""
    heroes = state["heroes"]
    number(len(heroes), 1, 4, "Players")
    number(state["first"], 0, len(heroes) - 1, "First player")
    number(state["round"], 1, _ROUNDS, "Round")
    for hero in heroes:
        text(hero["name"], "A hero's name")
        number(hero["max"], 1, 99, "Maximum hit points")
        number(hero["hp"], 0, hero["max"], hero["name"] + "'s hit points")
        number(hero["out"], 0 if hero["hp"] else 1, 0 if hero["hp"] else 1, "Out (at 0 hit points)")
    if state["phase"] not in ("player", "villain") or not 1 <= len(state["areas"]) <= 1 + len(heroes):
        raise Refused("The phase or the game areas are damaged.")
    for area in state["areas"]:
        for p in area["players"]:
            number(p, 0, len(heroes) - 1, "A player")
        scheme, villain = area["scheme"], area["villain"]
        Champions._area(state, [], scheme, villain)  # noqa: SLF001 (the module's own class); names and stages as a new game's
        for part in (scheme, villain):
            number(part["stage"], 0, len(part["stages"]) - 1, "A stage")
        # Below the stage's target (reaching it advances the scheme), unless the last threat placed lost.
        number(
            scheme["threat"],
            0,
            scheme["stages"][scheme["stage"]][0] - 1 + (_MOST if state["over"] else 0),
            scheme["name"] + "'s threat",
        )
        number(villain["hp"], 0, villain["stages"][villain["stage"]] * len(heroes), villain["name"] + "'s hit points")
        for key in ("done", "interim", "own"):
            number(area.get(key, 0), 0, 1, key)
        number(villain.get("fixed", 0), 0, 1, "fixed")
        for side in area["sides"]:
            fields(side, "A side scheme")
            for key, low, high in (("threat", 1, _SIDE_THREAT), ("crisis", 0, 1), ("accel", 0, 9), ("hazard", 0, 9)):
                number(side.get(key), low, high, "A side scheme's " + key)
            text(side.get("name"), "A side scheme's name", 24)
    number(sum(len(area["sides"]) for area in state["areas"]), 0, _MAX_SIDES, "Side schemes")
    if "own" in state:  # what a player's own game area brings, as a new area's
        own = fields(state["own"], "A player's own game area")
        Champions._area(state, [], own.get("scheme"), own.get("villain"))  # noqa: SLF001 (the module's own class)
    _check_cards(state, heroes)


def _check_cards(state, heroes):
    """check()'s last part: allies and minions, when any were played: [player, name, hit points], within
    what play allows."""
    for key, most, top in (("allies", _MAX_ALLIES * len(heroes), 20), ("minions", _MAX_MINIONS, 30)):
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
        if sum(1 for ally in state.get("allies", []) if ally[0] == p) > _MAX_ALLIES:
            raise Refused("A player controls more than %d allies." % _MAX_ALLIES)
