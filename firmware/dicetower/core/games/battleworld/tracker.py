"""Marvel Battleworld: battles, their hit and danger tracks, battles won and lost.

Rules from the Battleworld rulebook:
- The chart: starting heroes 1-5 set the Thanostones, the Battle Cards and
  the "Battle Wins to Win Game" (3, 5, 7, 9, 11). Each row counts two kinds
  of card: "a deck of 13 Battle Cards that has 3 Thanostone Battle Cards and
  10 other Battle Cards"; each count is a limit of its own.
- "If your total is equal to or higher than the Attack Target Number on the
  Battle Card, you hit"; "the Attack Die's star face always hits and its
  blank face always misses".
- A hit moves along the Hit Track (1, 2 or 3 hits to win the Battle); a miss
  puts a Danger Token on the Danger Track; "If the Danger Token is placed on
  the third and final space of the Danger Track, the Battle is lost."
- The Danger Coin advances danger on every Battle whose Danger symbol
  matches the flip.
- "If you lose 3 Battles, you lose"; winning the chart's number of Battles
  wins the game.
"""

from dicetower.core.dice import ATTACK, COIN_FACES, DANGER_COIN, Die, attack_hits, check_attack_faces
from dicetower.core.game import Game, Refused, number, plural, text
from dicetower.core.actions import CHOICE, FIXED, FLIP_COIN, NAMED, NUMBER, PICK, ROLL_ATTACK

# starting heroes: (Thanostones, Thanostone Battle Cards, other Battle Cards, Battle wins to win)
CHART = {1: (1, 1, 4, 3), 2: (2, 2, 7, 5), 3: (3, 3, 10, 7), 4: (4, 4, 13, 9), 5: (5, 5, 16, 11)}
DANGER_TRACK = 3
LOSSES = 3
FACE_MOST = 99  # an Attack Die's highest number: 30 hits any Attack Target Number already


def checked_faces(faces):
    """The Attack Die's faces as a list (dice.check_attack_faces), numbers up to FACE_MOST; or ValueError."""
    faces = list(check_attack_faces(faces))
    for face in faces:
        if face.isdigit() and int(face) > FACE_MOST:
            raise ValueError("an Attack Die face is at most %d, not %s" % (FACE_MOST, face))
    return faces


def card_left(state, thanostone):
    """Refused unless the deck still holds a Battle Card of this kind (1 Thanostone, 0 other, None
    not said): each of the chart's two counts is a limit."""
    battles = state["battles"]
    if len(battles) >= state["deck"]:
        raise Refused("The deck has %d Battle Cards and all are drawn." % state["deck"])
    if thanostone is None:
        return
    stone_cards, other_cards = CHART[state["starting"]][1:3]
    stones = sum(b["thanostone"] for b in battles)
    if thanostone and stones >= stone_cards:
        raise Refused("No Thanostone Battle Card is left: the deck has %d." % stone_cards)
    if thanostone == 0 and len(battles) - stones >= other_cards:
        raise Refused(
            "No other Battle Card is left: all %d are drawn. Thanostone ones left: %d."
            % (other_cards, stone_cards - stones)
        )


class Battleworld(Game):
    KIND = "battleworld"
    STATE_KEYS = ("starting", "thanostones", "deck", "wins_needed", "battles", "won", "lost", "faces", "over")
    THROWS = ("attack", "danger")  # each throws one die: the Attack Die, the Danger Coin

    def dice(self):
        """The Attack Die (its faces this game's: dice.json's, if the tower has one) and the Danger Coin."""
        return Die(ATTACK.name, self.state["faces"]), DANGER_COIN

    @classmethod
    def setup(cls, starting_heroes, attack_faces=None):
        """A new game for 1-5 starting heroes; `attack_faces` from dice.json if the user has one."""
        number(starting_heroes, 1, 5, "Starting heroes")
        try:
            faces = checked_faces(attack_faces or ATTACK.faces)
        except ValueError as e:
            raise Refused(str(e))
        stones, stone_cards, other_cards, wins = CHART[starting_heroes]
        state = {
            "starting": starting_heroes,
            "thanostones": stones,
            "deck": stone_cards + other_cards,
            "wins_needed": wins,
            "battles": [],
            "won": 0,
            "lost": 0,
            "faces": faces,
            "over": None,
        }
        return cls(state)

    def _battle(self, state, b):
        number(b, 0, len(state["battles"]) - 1, "Battle")
        battle = state["battles"][b]
        if battle["result"]:
            raise Refused("%s is %s already." % (battle["name"], battle["result"]))
        return battle

    def act_battle(self, state, name, hits, target, danger_symbol, thanostone=None):
        """A Battle Card enters play: its Hit Track length, Attack Target Number, Danger symbol, and
        whether it is a Thanostone Battle Card (1) or another (0). None, its kind not said (saved
        before the device asked), counts as another card against the deck's total only, so that
        game still loads."""
        text(name, "A battle's name", 24)
        number(hits, 1, 3, "Hit Track length")
        number(target, 1, 30, "Attack Target Number")
        if danger_symbol not in COIN_FACES:
            raise Refused("The Danger symbol is Energy or Moon.")
        if thanostone is not None:
            number(thanostone, 0, 1, "Thanostone Battle Card (1) or other (0)")
        card_left(state, thanostone)
        state["battles"].append(
            {
                "name": name,
                "hits_needed": hits,
                "target": target,
                "symbol": danger_symbol,
                "thanostone": 1 if thanostone else 0,
                "hits": 0,
                "danger": 0,
                "result": "",
            }
        )
        return "%s enters Battleworld (%s, target %d, %s)." % (name, plural(hits, "hit"), target, danger_symbol)

    def act_attack(self, state, b, face, bonus):
        """A hero attacks Battle `b`: the Attack Die's face plus the hero's bonus."""
        battle = self._battle(state, b)
        if face not in state["faces"]:
            raise Refused("%r is not a face of the Attack Die %s." % (face, state["faces"]))
        number(bonus, 0, 20, "Attack Bonus")
        if attack_hits(face, bonus, battle["target"]):
            battle["hits"] += 1
            line = "%s + %d vs %d at %s: hit (%d of %d)." % (
                face,
                bonus,
                battle["target"],
                battle["name"],
                battle["hits"],
                battle["hits_needed"],
            )
            if battle["hits"] == battle["hits_needed"]:
                line += self._end(state, battle, "won")
            return line
        return "%s + %d vs %d at %s: miss." % (face, bonus, battle["target"], battle["name"]) + self._danger(
            state, battle
        )

    def _danger(self, state, battle):
        battle["danger"] += 1
        line = " Danger %d of %d." % (battle["danger"], DANGER_TRACK)
        if battle["danger"] == DANGER_TRACK:
            line += self._end(state, battle, "lost")
        return line

    def _end(self, state, battle, result):
        battle["result"] = result
        state[result] += 1
        line = " %s is %s (%d won, %d lost)." % (battle["name"], result, state["won"], state["lost"])
        if state["lost"] >= LOSSES:
            state["over"] = "%d Battles lost: the Heroes are defeated." % state["lost"]
        elif state["won"] >= state["wins_needed"]:
            state["over"] = "%d Battles won: the Heroes defeat Thanos!" % state["won"]
        if state["over"]:
            line += " " + state["over"]
        return line

    def act_danger(self, state, face):
        """The Danger Coin lands on `face`: danger advances on every matching Battle."""
        if face not in COIN_FACES:
            raise Refused("The Danger Coin shows Energy or Moon.")
        parts = ["Danger Coin: %s." % face]
        for battle in state["battles"]:
            if not battle["result"] and battle["symbol"] == face and not state["over"]:
                parts.append("%s:%s" % (battle["name"], self._danger(state, battle)))
        if len(parts) == 1:
            parts.append("No open battle shows %s." % face)
        return " ".join(parts)


# -- what the box shows and asks (see core/games/__init__.py) ----------------

TRACKER = Battleworld
TITLE = "Battleworld"  # its name in full: the phones' page
KEYS = ()
WORDS = ()


def new_game(count, options):
    return Battleworld.setup(count, options.get("attack_faces"))


def _open_battles(state, values):
    battles = state["battles"]
    open_battles = [(battles[i]["name"], i) for i in range(len(battles)) if not battles[i]["result"]]
    if not open_battles:
        raise Refused("No open battle: draw one with New battle.")
    return open_battles


def _next_battle(state):
    card_left(state, 0)  # refused before the card's values are asked for
    return "Battle %d" % (len(state["battles"]) + 1)


def _next_thanostone_battle(state):
    card_left(state, 1)
    return "Battle %d" % (len(state["battles"]) + 1)


BATTLE_CARD = (
    ("Hits to win", NUMBER, (1, 3)),
    ("Target", NUMBER, (2, 15)),
    ("Danger", CHOICE, (("Energy", "Energy"), ("Moon", "Moon"))),
)
MENU = (
    (
        "Attack a battle",
        "attack",
        (("Battle", PICK, _open_battles), ("Face", ROLL_ATTACK, None), ("Bonus", NUMBER, (0, 9))),
    ),
    ("Flip Danger Coin", "danger", (("Coin", FLIP_COIN, None),)),
    ("New battle", "battle", (("Name", NAMED, _next_battle),) + BATTLE_CARD + (("Thanostone", FIXED, 0),)),
    (
        "Thanostone battle",
        "battle",
        (("Name", NAMED, _next_thanostone_battle),) + BATTLE_CARD + (("Thanostone", FIXED, 1),),
    ),
)


def status(state, lines):
    """The count, then an open battle a line ("Battle 4* h1/2 d0/3 E": * a Thanostone Battle Card); when
    more are open than fit, the last line says how many more the table (ui/table.py) shows."""
    rows = ["Won %d/%d  Lost %d/3" % (state["won"], state["wins_needed"], state["lost"])]
    open_battles = [b for b in state["battles"] if not b["result"]]
    shown = open_battles if len(open_battles) < lines else open_battles[: lines - 2]
    for b in shown:
        rows.append(
            "%s%s h%d/%d d%d/3 %s"
            % (b["name"][-9:], "*" if b["thanostone"] else "", b["hits"], b["hits_needed"], b["danger"], b["symbol"][0])
        )
    if len(shown) < len(open_battles):
        rows.append("+%d more: The table" % (len(open_battles) - len(shown)))
    return rows


def gauge(state, out):
    """Battles won toward the win; battles lost from the ring's other end."""
    out[0] = state["won"]
    out[1] = state["wins_needed"]
    out[2] = state["lost"]
    out[3] = 0


def check(state):
    """Refused unless a loaded state (its shape already a game's: core/savefile.py) can be played: the
    chart's row, and each battle drawn a Battle Card's (tracks within their lengths)."""
    row = CHART.get(state["starting"])
    if row is None or len(state["battles"]) > state["deck"]:
        raise Refused("The chart's row or the deck is damaged.")
    for key, value in (("thanostones", row[0]), ("deck", row[1] + row[2]), ("wins_needed", row[3])):
        number(state[key], value, value, key)  # the chart's, for its row
    try:
        checked_faces(state["faces"])
    except ValueError as e:
        raise Refused(str(e))
    for battle in state["battles"]:
        if (
            not isinstance(battle, dict)
            or battle.get("symbol") not in COIN_FACES
            or battle.get("result") not in ("", "won", "lost")
        ):
            raise Refused("A battle is damaged.")
        text(battle.get("name"), "A battle's name", 24)
        number(battle.get("hits_needed"), 1, 3, "Hit Track length")
        # An open battle's tracks short of their ends; a battle won full of hits, one lost of danger.
        won, lost = battle["result"] == "won", battle["result"] == "lost"
        top = battle["hits_needed"] - (0 if won else 1)
        number(battle.get("hits"), top if won else 0, top, "Hits")
        top = DANGER_TRACK - (0 if lost else 1)
        number(battle.get("danger"), top if lost else 0, top, "Danger")
        number(battle.get("target"), 1, 30, "Attack Target Number")
        number(battle.get("thanostone"), 0, 1, "Thanostone")
    # Each battle ends once, counted in "won" or "lost"; reaching wins_needed or LOSSES ends the game.
    for result, most in (("won", state["wins_needed"]), ("lost", LOSSES)):
        number(state[result], 0, most - (0 if state["over"] else 1), "Battles " + result)
        if state[result] != len([b for b in state["battles"] if b["result"] == result]):
            raise Refused("Battles %s: %d, not what the battles say." % (result, state[result]))
