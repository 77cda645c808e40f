"""Marvel Champions' tracker: its game areas, schemes, villains, heroes and rounds (the rules it keeps
are quoted in core/games/champions.py, the game's module, with the choices made). Allies and minions are
core/games/champions_allies.py's."""

from dicetower.core.game import Game, Refused, fields, number, plural, text
from dicetower.core.games.champions_allies import OWNER, Allies
from dicetower.core.games.champions_check import hero, stage, stages, villain_hp

PHASES = ("player", "villain")
MAX_SIDES = 8  # in play at once, over all game areas; keeps a save under 2 KB
MOST = 99  # the most threat one action places (Threat, Incite X: 1 to 99; acceleration 9 + 8 x 9 at most)
SIDE_THREAT = 99  # a side scheme's threat the tracker holds (a table sees tens)
ROUNDS = 9999  # the tracker's last round: a table plays tens; a save claiming more is damaged


class Champions(Allies, Game):
    KIND = "champions"
    STATE_KEYS = ("heroes", "first", "round", "phase", "areas", "over")

    @classmethod
    def setup(cls, heroes, scheme, villain):
        """A new game.

        heroes   1-4 dicts: name, hp (starting and maximum hit points)
        scheme   dict: name, stages: [[target, acceleration, starting threat], ...]
        villain  dict: name, stages: [hit points per player, ...]
        """
        if not isinstance(heroes, list) or not 1 <= len(heroes) <= 4:
            raise Refused("Marvel Champions takes 1 to 4 players.")
        roster = [hero(spec) for spec in heroes]
        state = {"heroes": roster, "first": 0, "round": 1, "phase": "player", "areas": [], "over": None}
        state["areas"].append(cls._area(state, list(range(len(roster))), scheme, villain))
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

    def _acceleration(self, area):
        scheme = area["scheme"]
        return scheme["stages"][scheme["stage"]][1] + sum(s["accel"] for s in area["sides"])

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
        if sum(len(x["sides"]) for x in state["areas"]) >= MAX_SIDES:
            raise Refused("%d side schemes are in play: the tracker holds no more." % MAX_SIDES)
        number(threat, 1, SIDE_THREAT, "Threat")
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
        side["threat"] = number(side["threat"] + amount, 1, SIDE_THREAT, "A side scheme's threat")
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

    def act_villain(self, state, a, name, stages, final=1):
        """A card brings a new villain into area `a`: final (Kang III) unless `final` is 0."""
        number(a, 0, len(state["areas"]) - 1, "Game area")
        area = state["areas"][a]
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
                    state[key] = [card for card in state[key] if card[OWNER] != i]
            if not self._players_in_game(state):
                state["over"] = "Every player is eliminated: the players lose."
                line += " " + state["over"]
        return line

    # -- allies and minions -------------------------------------------------------

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
                accel = self._acceleration(area)
                if accel:
                    parts.append("+%d threat on %s." % (accel, area["scheme"]["name"]))
                    parts.append(self._place(state, area, accel).strip())
                if state["over"]:
                    break
            return " ".join(p for p in parts if p)
        state["phase"] = "player"
        state["round"] = number(state["round"] + 1, 1, ROUNDS, "Round")
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
