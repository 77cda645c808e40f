"""A save whose checksum holds must still hold only what the rules allow: every number in each game's
state is bounded by its `check` (core/savefile.py refuses the rest), and the extremes play can reach
still load. Runs on CPython and the MicroPython VM."""

import unittest

from dicetower.core.game import Refused
from dicetower.core.games.battlerealm.tracker import Battlerealm
from dicetower.core.games.battleworld.tracker import Battleworld
from dicetower.core.games.champions.tracker import Champions
from dicetower.core.games.united.tracker import United
from dicetower.core.save_reader import decode
from dicetower.core.savefile import SaveError, encode

HUGE = 10**30


def said(n):
    """What a refusal says of figure `n`: a huge one by its start, so a line of the OLED still says it."""
    return "not %d" % n if len(str(n)) <= 10 else "not %s.." % str(n)[:8]


CUT = said(HUGE)


def saved(game, change=None):
    """The game's save, its base (the state the actions replay from) changed first by `change`."""
    if change is not None:
        change(game.base)
    return encode(game)


def ended(game):
    """A game whose save holds its last state as the base: a finished game, with nothing to replay."""
    return type(game)(game.state)


class Bounds(unittest.TestCase):
    def refused(self, game, change, *words):
        """Loading the game's save with `change` made is refused, the reason naming each of `words`."""
        with self.assertRaises(SaveError) as caught:
            decode(saved(game, change))
        for word in words:
            self.assertIn(word, str(caught.exception))

    def last_round(self, new_game):
        """The tracker's rounds: 0, 10000 and 10**18 refused; a game at round 9999 loads. Returns that game."""
        for n in (0, 10000, 10**18):
            self.refused(new_game(), lambda base: base.update(round=n), "Round", said(n))
        game = new_game()
        game.base["round"] = 9999
        game.state["round"] = 9999
        self.loads(game)
        return game

    def loads(self, game, change=None):
        """The game's save, `change` made to its base, loads as it was saved."""
        again = decode(saved(game, change))
        self.assertEqual((again.base, again.actions), (game.base, game.actions))
        if change is None:
            self.assertEqual(again.state, game.state)
        return again


def realm():
    return Battlerealm.setup(
        [
            {"name": "Hulk", "pvp": 10, "abilities": ["Cunning"]},
            {"name": "Thor", "pvp": 12},
            {"name": "Vision", "pvp": 8},
        ]
    )


def pvp(n, hero=0):
    return lambda base: base["heroes"][hero].update(pvp=n)


class BattlerealmBounds(Bounds):
    def test_pvp_at_or_past_the_win_while_the_game_goes_on(self):
        """No hero has 21 in a game that goes on. Rulebook: "The game ends immediately if one Hero manages to reach 21 PVP Points at any point during their turn." """
        for n in (21, 23, 999, HUGE):
            self.refused(realm(), pvp(n), "Hulk's PVP", "0 to 20", said(n))

    def test_twenty_pvp_in_a_game_that_goes_on_loads(self):
        self.assertEqual(self.loads(realm(), pvp(20)).state["heroes"][0]["pvp"], 20)

    def test_a_game_that_really_ended_at_21_loads(self):
        game = Battlerealm.setup([{"name": "Hulk", "pvp": 18}, {"name": "Thor", "pvp": 12}])
        self.assertIn("reaches 21 PVP and wins", game.do("land", 3))
        self.loads(game)  # the actions replayed from the start
        self.assertEqual(self.loads(ended(game)).state["heroes"][0]["pvp"], 21)  # and held as the base

    def test_the_most_one_winning_action_gives_loads_and_no_more(self):
        game = Battlerealm.setup([{"name": "Hulk", "pvp": 20}, {"name": "Thor", "pvp": 12}])
        game.do("gain", 0, 99)  # Gain PVP's most, from 20: 119
        self.assertEqual(self.loads(ended(game)).state["heroes"][0]["pvp"], 119)
        self.refused(ended(game), pvp(120), "not 120")

    def test_round(self):
        game = self.last_round(realm)
        for _ in range(2):
            game.do("end_turn")
        with self.assertRaises(Refused):  # the tracker's last round: play cannot pass the save's bound
            game.do("end_turn")

    def test_every_other_count(self):
        cases = (
            (lambda b: b.update(rolled=2), "Rolled"),
            (lambda b: b.update(bought=4), "Results bought"),
            (lambda b: b["heroes"][1].update(block=10), "block"),
            (lambda b: b["heroes"][1].update(survivor=3), "survivor"),
            (lambda b: b["heroes"][1].update(disorientated=HUGE), "disorientated"),
            (lambda b: b["heroes"][1].update(prison=2), "prison"),
            (lambda b: b["heroes"][1].update(last_hit_by=3), "Last hit by"),
            (lambda b: b.update(attacks=[[1, 2, 3, 0, 0, 0, 0]]), "not 2"),
            (lambda b: b.update(attacks=[[1, 1, 1000, 0, 0, 0, 0]]), "not 1000"),
            (lambda b: b.update(attacks=[[1, 1, 3, 4, 0, 0, 0]]), "not 4"),  # dealt more than the damage
            (lambda b: b.update(attacks=[[1, 1, 3, 2, 1, 1, 10]]), "not 10"),
        )
        for change, words in cases:
            self.refused(realm(), change, words)

    def test_an_attack_that_really_happened_loads(self):
        game = realm()
        game.do("attack", 1, 4, True)
        self.assertEqual(self.loads(ended(game)).state["attacks"], [[1, 1, 4, 4, 0, 0, 0]])

    def test_an_attacks_damage_in_a_turn_stops_at_the_bound(self):
        game = realm()
        game.base["attacks"] = [[1, 1, 990, 990, 0, 0, 0]]
        game.state["attacks"] = [[1, 1, 990, 990, 0, 0, 0]]
        with self.assertRaises(Refused):
            game.do("attack", 1, 10, True)
        game.do("attack", 1, 9, True)
        self.assertEqual(self.loads(ended(game)).state["attacks"][0][2], 999)


def champions():
    return Champions.setup(
        [{"name": "You", "hp": 10}, {"name": "Left", "hp": 12}],
        {"name": "The Break-In", "stages": [[10, 1, 7], [12, 2, 2]]},
        {"name": "Rhino", "stages": [14, 15]},
    )


def area(change):
    return lambda base: change(base["areas"][0])


def put(items, i, value):
    items[i] = value


class ChampionsBounds(Bounds):
    def test_hit_points_above_their_maximum(self):
        self.refused(champions(), lambda b: b["heroes"][0].update(hp=11), "You's hit points", "0 to 10", "not 11")
        self.refused(champions(), lambda b: b["heroes"][0].update(hp=HUGE, max=HUGE), "Maximum", CUT)
        # The villain's: its stage's hit points per player times the players (14 x 2).
        self.refused(champions(), area(lambda a: a["villain"].update(hp=29)), "Rhino's hit points", "not 29")
        self.loads(champions(), area(lambda a: a["villain"].update(hp=28)))
        # "Damage on allies and minions is tracked with tokens": as they were played (1 to 20, 1 to 30).
        self.refused(champions(), lambda b: b.update(allies=[[0, "Ally 1", 21]]), "Hit points", "not 21")
        self.refused(champions(), lambda b: b.update(minions=[[0, "Minion 1", 31]]), "Hit points", "not 31")
        self.refused(champions(), lambda b: b.update(minions=[[0, "Minion 1", HUGE]]), CUT)

    def test_a_hero_is_out_exactly_at_zero(self):
        self.refused(champions(), lambda b: b["heroes"][0].update(hp=0), "Out", "not 0")
        self.refused(champions(), lambda b: b["heroes"][0].update(out=1), "Out", "not 1")

    def test_hit_points_play_reaches_load(self):
        game = champions()
        game.do("damage", 0, 10)  # to 0: out
        game.do("ally", 1, "Ally 1", 20)
        game.do("minion", 1, "Minion 1", 30)
        game.do("hit", 0, 27)  # 28 - 27: the villain on 1
        self.assertEqual(self.loads(ended(game)).state["heroes"][0]["out"], 1)

    def test_threat(self):
        """Below its target in a game that goes on; the last threat placed (99 at most) may pass it when the
        players lose. Rulebook: "The moment it equals or exceeds the target threat in the top left corner, the scheme advances to the next stage, and the old threat is removed." """
        for n in (10, 999, 10**9):
            self.refused(champions(), area(lambda a: a["scheme"].update(threat=n)), "threat", "0 to 9", said(n))
        self.loads(champions(), area(lambda a: a["scheme"].update(threat=9)))
        game = champions()
        game.do("threat", 0, 3)  # stage 2, on 2 threat
        self.assertIn("the players lose", game.do("threat", 0, 99))
        self.assertEqual(self.loads(ended(game)).state["areas"][0]["scheme"]["threat"], 101)
        self.refused(ended(game), area(lambda a: a["scheme"].update(threat=111)), "not 111")

    def test_rounds_and_stages(self):
        game = self.last_round(champions)
        game.do("end_phase")  # to the villain phase
        with self.assertRaises(Refused):  # no round 10000
            game.do("end_phase")
        self.refused(champions(), area(lambda a: a["scheme"].update(stage=2)), "A stage", "not 2")
        self.refused(champions(), area(lambda a: a["villain"].update(stage=-1)), "stage")
        self.refused(champions(), area(lambda a: put(a["scheme"]["stages"][0], 0, 100)), "Target threat", "not 100")
        self.refused(champions(), area(lambda a: put(a["scheme"]["stages"][0], 2, 10)), "starting threat")
        self.refused(champions(), area(lambda a: put(a["villain"]["stages"], 1, HUGE)), CUT)
        self.refused(champions(), area(lambda a: a.update(done=2)), "done", "not 2")

    def test_side_schemes(self):
        def side(**figures):
            one = {"name": "Side", "threat": 3, "crisis": 0, "accel": 0, "hazard": 0}
            one.update(figures)
            return area(lambda a: a.update(sides=[one]))

        for key, n in (("threat", 100), ("threat", 0), ("crisis", 2), ("accel", 10), ("hazard", HUGE)):
            self.refused(champions(), side(**{key: n}), "A side scheme's " + key, said(n))
        self.loads(champions(), side(threat=99, crisis=1, accel=9, hazard=9))
        game = champions()
        game.do("side", 0, "Side", 99)
        with self.assertRaises(Refused):  # play cannot pass the save's bound
            game.do("side_threat", 0, 0, 1)


class UnitedBounds(Bounds):
    def test_ko_tokens(self):
        """Fewer in a game that goes on, and that many in one that ended. Rulebook: "The Heroes lose if they have a total of 6 KO tokens (counting both Teams' KO tokens), regardless of the number of Heroes in the game." """
        for n in (6, 7, 10**9):
            self.refused(
                United.setup([{"name": "Medusa"}, {"name": "Karnak"}]),
                lambda b: b["heroes"][0].update(ko=n),
                "not %d" % n,
            )
        self.refused(
            United.setup([{"name": "Medusa"}, {"name": "Karnak"}]),
            lambda b: [h.update(ko=3) for h in b["heroes"]],
            "KO tokens in all",
            "0 to 5",
            "not 6",
        )
        self.loads(United.setup([{"name": "Medusa"}, {"name": "Karnak"}]), lambda b: b["heroes"][1].update(ko=5))
        game = United.setup([{"name": "Medusa"}, {"name": "Karnak"}])
        for hero in (0, 1, 0, 1, 0, 1):
            game.do("ko", hero)
        self.assertTrue(game.over())
        self.loads(game)
        self.loads(ended(game))
        self.refused(ended(game), lambda b: b["heroes"][0].update(ko=2), "KO tokens in all", "6 to 6", "not 5")

    def test_tokens_left(self):
        for key, n in (("mist", 7), ("water", 4), ("mist", HUGE)):
            self.refused(United.setup([{"name": "Medusa"}]), lambda b: b.update({key: n}), "tokens", said(n))
        self.loads(United.setup([{"name": "Medusa"}]), lambda b: b.update(mist=0, water=0))

    def test_duel_trackers(self):
        for key in ("gladiator", "heroes_duel"):
            self.refused(United.setup([{"name": "Medusa"}]), lambda b: b.update({key: HUGE}), "Duel tracker", CUT)
            # "Gladiator CANNOT be used as the Villain in Team vs Team mode": no Duel there.
            self.refused(
                United.setup([{"name": "Medusa"}, {"name": "Karnak", "team": 1}], teams=2),
                lambda b: b.update({key: 1}),
                "Duel tracker",
                "not 1",
            )
        game = United.setup([{"name": "Medusa"}])
        game.base["gladiator"] = 98
        game.state["gladiator"] = 98
        game.do("duel", "gladiator")
        self.assertEqual(self.loads(game).state["gladiator"], 99)
        with self.assertRaises(Refused):  # play cannot pass the save's bound
            game.do("duel", "gladiator")


class BattleworldBounds(Bounds):
    def test_battles_won_and_lost(self):
        """Each battle ends once; winning the chart's number of Battles wins. Rulebook: "If you lose 3 Battles, you lose and the Heroes have been defeated by the threats of Battleworld." """
        self.refused(Battleworld.setup(1), lambda b: b.update(won=99), "Battles won", "0 to 2", "not 99")
        self.refused(Battleworld.setup(1), lambda b: b.update(lost=HUGE), "Battles lost", CUT)
        self.refused(Battleworld.setup(1), lambda b: b.update(won=1), "Battles won: 1")  # no battle won
        self.refused(Battleworld.setup(1), lambda b: b.update(wins_needed=99), "wins_needed", "not 99")
        self.refused(Battleworld.setup(1), lambda b: b.update(wins_needed=0), "wins_needed", "not 0")
        self.refused(Battleworld.setup(1), lambda b: b.update(deck=99), "deck")
        self.refused(Battleworld.setup(1), lambda b: b.update(thanostones=HUGE), "thanostones")

    def test_a_game_won_in_full_loads(self):
        game = Battleworld.setup(1)  # three Battle wins to win
        for b in range(3):
            game.do("battle", "B%d" % b, 1, 8, "Moon", 0)
            game.do("attack", b, "Star", 0)
        self.assertTrue(game.over())
        self.loads(game)
        self.assertEqual(self.loads(ended(game)).state["won"], 3)

    def test_a_game_lost_in_full_loads(self):
        game = Battleworld.setup(1)
        for b in range(3):
            game.do("battle", "B%d" % b, 3, 8, "Moon", 0)
        game.do("attack", 0, "Star", 0)
        for _ in range(3):
            game.do("danger", "Moon")
        self.assertTrue(game.over())
        self.assertEqual(self.loads(ended(game)).state["lost"], 3)

    def test_the_attack_die(self):
        """A die needs at least two faces. Rulebook: "Note: the Attack Die's star face always hits and its blank face always misses." """
        for faces in ([], ["Star"], ["Blank"], ["2", "3"]):
            self.refused(Battleworld.setup(1), lambda b: b.update(faces=faces), "Star and one Blank")
        self.refused(Battleworld.setup(1), lambda b: b.update(faces=["Star", "100", "Blank"]), "not 100")
        self.refused(Battleworld.setup(1), lambda b: b.update(faces=["Star", str(HUGE), "Blank"]), str(HUGE))
        self.loads(Battleworld.setup(1), lambda b: b.update(faces=["Star", "Blank"]))
        self.loads(Battleworld.setup(1), lambda b: b.update(faces=["Star", "0", "99", "Blank"]))
        with self.assertRaises(Refused):  # nor can a game start with a face the save would refuse
            Battleworld.setup(1, ["Star", "100", "Blank"])

    def test_hit_and_danger_tracks(self):
        def battle(**figures):
            one = {
                "name": "B",
                "hits_needed": 2,
                "target": 8,
                "symbol": "Moon",
                "thanostone": 0,
                "hits": 0,
                "danger": 0,
                "result": "",
            }
            one.update(figures)
            return lambda b: b.update(battles=[one])

        cases = (
            (battle(hits=2), "Hits", "not 2"),
            (battle(danger=3), "Danger", "not 3"),
            (battle(danger=HUGE), "Danger", CUT),
            (battle(hits_needed=4), "Hit Track", "not 4"),
            (battle(target=31), "Attack Target Number", "not 31"),
            (battle(thanostone=2), "Thanostone"),
            (battle(hits=1, result="won"), "Hits", "not 1"),
            (battle(danger=1, result="lost"), "Danger"),
        )
        for case in cases:
            self.refused(Battleworld.setup(1), case[0], *case[1:])
        self.loads(Battleworld.setup(1), battle(hits=1, danger=2, target=30))
