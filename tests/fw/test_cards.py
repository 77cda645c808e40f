"""Power cards: the hero file, paying with finalized dice, the locations that change the price. CPython and the VM."""

import json
import unittest

from dicetower.core.games.battlerealm import cards, roster
from dicetower.core.games.battlerealm.roster import heroes
from dicetower.core.games.battlerealm.triples import judge

HEROES = heroes({}, True)  # the built-in roster, as its file (heroes.json) has it

HULK = roster.cards_of(HEROES, "Hulk")


def known(name):
    for hero in HEROES:
        for card in hero["cards"]:
            if card["name"] == name:
                return card["dice"]
    return None


def paid(faces, hero_cards, location=cards.ELSEWHERE, pvp=10, abilities=(), in_prison=False):
    outcome = judge(faces, abilities, in_prison)
    return cards.pay(outcome.symbols, outcome.spent, hero_cards, location, pvp)


class ShippedCards(unittest.TestCase):
    def test_the_built_in_roster_is_read_once_a_set_up_and_let_go_when_the_game_begins(self):
        from table import Table

        roster.forget()
        t = Table()
        t.presses("c")  # New Battlerealm: its count screen, the roster read at idle for what C starts
        t.wait(2000)
        read = roster._READ[0]
        t.presses("a a")  # two heroes
        t.wait(2000)
        self.assertIs(roster._READ[0], read)  # not read again
        t.presses("c")  # start
        self.assertEqual(roster._READ, [])  # the heroes not seated went
        self.assertEqual([h["name"] for h in t.app.turn.heroes], ["Hulk", "Thor"])

    def test_a_game_keeps_only_what_it_plays_of_the_built_in_roster(self):
        """Each hero's name, PVP, abilities and the power cards whose dice are known: what the seats, the new
        state and the advice use. The notes to fill in, the primary powers' text and the cards without dice
        stay in the file, for the heroes' editor (test_device_faults.py saves them)."""
        roster.forget()
        played = roster.heroes({})
        roster.forget()
        self.assertEqual([h["name"] for h in played], [h["name"] for h in HEROES])
        for hero, shipped in zip(played, HEROES):
            self.assertEqual(sorted(hero), ["abilities", "cards", "name", "pvp"], hero["name"])
            self.assertEqual((hero["pvp"], hero["abilities"]), (shipped["pvp"], shipped["abilities"]))
            self.assertEqual(hero["cards"], [c for c in shipped["cards"] if c["dice"] is not None], hero["name"])
        self.assertEqual(sum(len(h["cards"]) for h in played), 7)  # the seven the rulebook prints
        self.assertEqual(roster.cards_of(played, "Hulk"), HULK[:2])  # Thunderclap, World Breaker

    def test_the_built_in_heroes_are_a_heroes_json_the_tower_takes(self):
        """Read from flash, not held by a module: the same file a player writes as /heroes.json."""
        with open(roster.BUILT_IN) as f:
            taken = roster.load_heroes(f.read())
        self.assertEqual([h["name"] for h in taken], [h["name"] for h in HEROES])
        self.assertEqual(
            [[c["dice"] for c in h["cards"]] for h in taken], [[c["dice"] for c in h["cards"]] for h in HEROES]
        )
        self.assertEqual(len(HEROES), 13)

    def test_thunderclap(self):
        """Rulebook: "For example: The Hulk's Thunderclap power requires the following combat dice symbols to activate: Mutant, Science, Skill and Skill." """
        self.assertEqual(known("Thunderclap"), ["Mutant", "Science", "Skill", "Skill"])

    def test_odins_wrath(self):
        """Rulebook: "Card text: "Thor may Destroy any one location and the two adjacent locations." Dice needed: Mutant, Mutant, Science, Science." """
        self.assertEqual(known("Odin's Wrath"), ["Mutant", "Mutant", "Science", "Science"])

    def test_physical_disruption(self):
        """Rulebook: "Card text: "Vision can Negate the powers of one Hero." Dice needed: Mutant, Mutant, Mystic." """
        self.assertEqual(known("Physical Disruption"), ["Mutant", "Mutant", "Mystic"])

    def test_world_breaker(self):
        """Rulebook: "Card text: "The Hulk Destroys all but one location." Dice needed: Skill, Skill, Mystic, Mystic." """
        self.assertEqual(known("World Breaker"), ["Skill", "Skill", "Mystic", "Mystic"])

    def test_panthers_stealth(self):
        """Rulebook: "Card text: "Black Panther may Escape." Dice needed: Mutant, Cosmic." """
        self.assertEqual(known("Panther's Stealth"), ["Mutant", "Cosmic"])

    def test_raptor_strike(self):
        """Rulebook: "Card text: "Redwing may move to another location." Dice needed: Mutant, Mystic." """
        self.assertEqual(known("Raptor Strike"), ["Mutant", "Mystic"])

    def test_incendiary_arrow_from_the_ghost_orchid_example(self):
        """Rulebook: "Hawkeye's Incendiary Arrow card could be played with only 2 of the 3 dice results shown on the card such as one Mutant and one Tech or two Mutant." """
        self.assertEqual(sorted(known("Incendiary Arrow")), ["Mutant", "Mutant", "Tech"])

    def test_thirteen_heroes_of_four_cards_the_unknown_marked_to_fill_in(self):
        """Rulebook: "Contest of Champions includes 13 different Heroes. Each Hero has a Character Card, four Power Cards and a standee containing the Hero's image." """
        heroes = HEROES
        self.assertEqual(len(heroes), 13)
        for hero in heroes:
            self.assertEqual(len(hero["cards"]), 4, hero["name"])
            for card in hero["cards"]:
                self.assertEqual(card["dice"] is None, "_fill" in card, card["name"])
        self.assertEqual(sum(1 for h in heroes for c in h["cards"] if c["dice"] is not None), 7)
        self.assertEqual([h["name"] for h in heroes if "_fill" in h], [h["name"] for h in heroes[1:]])


class HeroFile(unittest.TestCase):
    def test_the_shipped_heroes_round_trip_through_the_file(self):
        text = json.dumps({"heroes": HEROES})
        self.assertEqual(roster.load_heroes(text), HEROES)

    def bad(self, change):
        heroes = json.loads(json.dumps(HEROES))
        change(heroes)
        with self.assertRaises(ValueError) as caught:
            roster.load_heroes(json.dumps({"heroes": heroes}))
        return str(caught.exception)

    def test_a_misspelt_symbol_is_named_with_its_hero_and_card(self):
        def typo(heroes):
            heroes[0]["cards"][1]["dice"][2] = "Mystc"

        message = self.bad(typo)
        self.assertTrue(
            message.startswith("heroes.json hero 1 (Hulk) card 2 (World Breaker): \"dice\" has 'Mystc'"), message
        )

    def test_other_mistakes_name_the_field(self):
        def five_cards(heroes):
            heroes[1]["cards"].append({"name": "Extra", "dice": ["Skill"]})

        def no_name(heroes):
            heroes[2]["cards"][0] = {"dice": ["Skill"]}

        def seven_dice(heroes):
            heroes[3]["cards"][0]["dice"] = ["Skill"] * 7

        def primary_number(heroes):
            heroes[0]["primary"] = 5

        self.assertIn('hero 2 (Thor): "cards" must be a list of up to 4', self.bad(five_cards))
        self.assertIn('hero 3 (Vision) card 1: "name" is missing', self.bad(no_name))
        self.assertIn(
            'hero 4 (Black Panther) card 1 (Panther\'s Stealth): "dice" must be a list of 1 to 6', self.bad(seven_dice)
        )
        self.assertIn('hero 1 (Hulk): "primary" must be text', self.bad(primary_number))

    def test_two_heroes_of_one_name_are_refused(self):
        """A seat's hero is chosen by name: two of one name would trap B on the seat's row."""

        def twice(heroes):
            heroes[2]["name"] = heroes[0]["name"]

        def alike_on_the_oled(heroes):  # names are kept to 16 characters
            heroes[0]["name"] = "Captain America (1)"
            heroes[1]["name"] = "Captain America (2)"

        self.assertIn("hero 3 (Hulk): a hero is named so already", self.bad(twice))
        self.assertIn("hero 2 (Captain America (2)): a hero is named so already", self.bad(alike_on_the_oled))

    def test_a_file_without_cards_still_loads(self):
        heroes = roster.load_heroes('{"heroes": [{"name": "A"}, {"name": "B", "pvp": 12}]}')
        self.assertEqual(heroes[1]["cards"], [])


class Paying(unittest.TestCase):
    def test_expended_dice_pay_one_card_only(self):
        """Rulebook: "they must be activated by rolling a specific set of dice symbols and "expending" those dice results." """
        together, alone = paid(["Mutant", "Science", "Skill", "Skill", "Mystic", "Mystic"], HULK)
        self.assertEqual(together, [("Thunderclap", [0, 1, 2, 3], [])])
        self.assertEqual(alone, ["World Breaker"])  # it needs the two Skill Thunderclap took
        together, alone = paid(["Mutant", "Science", "Skill", "Skill", "Skill", "Skill"], HULK)
        self.assertEqual(together, [("Thunderclap", [0, 1, 2, 3], [])])
        together, _ = paid(
            ["Skill", "Skill", "Mystic", "Mystic", "Skill", "Mutant"],
            HULK[:2] + [{"name": "Two", "dice": ["Skill", "Mutant"]}],
        )
        self.assertEqual(together, [("World Breaker", [0, 1, 2, 3], []), ("Two", [4, 5], [])])

    def test_dice_of_a_prison_or_explosion_cannot_pay(self):
        """Rulebook: "Any Mutant or Science dice that resulted in an Explosion or Crystal Prison sentence cannot be used to activate Power cards." """
        self.assertEqual(paid(["Mutant", "Mutant", "Mutant", "Science", "Skill", "Skill"], HULK)[0], [])
        self.assertEqual(paid(["Mutant", "Science", "Science", "Science", "Skill", "Skill"], HULK)[0], [])
        # Honest needs four Mutant for the Prison: three can pay.
        vision = roster.cards_of(HEROES, "Vision")
        faces = ["Mutant", "Mutant", "Mutant", "Mystic", "Tech", "Tech"]
        self.assertEqual(paid(faces, vision)[0], [])
        self.assertEqual(paid(faces, vision, abilities=("Honest",))[0], [("Physical Disruption", [0, 1, 3], [])])

    def test_the_ghost_orchid(self):
        """Rulebook: "Card text: "Heroes in The Ghost Orchid can use their Power Cards for one less dice result of their choice." """
        arrow = roster.cards_of(HEROES, "Hawkeye")
        for faces in (
            ["Mutant", "Tech", "Skill", "Cosmic", "Cosmic", "Mystic"],
            ["Mutant", "Mutant", "Skill", "Cosmic", "Cosmic", "Mystic"],
        ):
            self.assertEqual(paid(faces, arrow)[0], [])
            self.assertEqual(paid(faces, arrow, cards.GHOST_ORCHID)[0], [("Incendiary Arrow", [0, 1], [])])
        self.assertEqual(
            paid(["Tech", "Skill", "Skill", "Cosmic", "Cosmic", "Mystic"], arrow, cards.GHOST_ORCHID)[0], []
        )

    def test_avengers_tower(self):
        """Rulebook: "For example, Hulk's World Breaker card can use any 4 dice results as long as one of them is a Skill or a Mystic." """
        breaker = [c for c in HULK if c["name"] == "World Breaker"]
        faces = ["Tech", "Cosmic", "Mystic", "Cosmic", "Tech", "Tech"]
        self.assertEqual(paid(faces, breaker)[0], [])
        ((name, dice, bought),) = paid(faces, breaker, cards.AVENGERS_TOWER)[0]
        self.assertEqual((name, len(dice), bought), ("World Breaker", 4, []))
        self.assertIn(2, dice)  # the Mystic, the one symbol it shows
        self.assertEqual(
            paid(["Tech", "Cosmic", "Cosmic", "Cosmic", "Tech", "Tech"], breaker, cards.AVENGERS_TOWER)[0], []
        )

    def test_avengers_tower_prices_a_single_card(self):
        """Rulebook: "Heroes here may use any dice results to activate a single power card." """
        two = [{"name": "A", "dice": ["Skill", "Tech"]}, {"name": "B", "dice": ["Skill", "Mystic"]}]
        together, alone = paid(["Skill", "Cosmic", "Skill", "Cosmic", "Cosmic", "Cosmic"], two, cards.AVENGERS_TOWER)
        self.assertEqual(len(together), 1)  # each alone by the Tower, never both
        self.assertEqual(alone, ["B"])

    def test_the_collectors_cosmic_warehouse(self):
        """Rulebook: "Heroes at the Collector's Cosmic Warehouse may spend up to 3 PVP points to gain additional dice results of their choosing. One PVP point for each additional die result." """
        faces = ["Skill", "Tech", "Cosmic", "Cosmic", "Tech", "Tech"]
        together, _ = paid(faces, HULK, cards.WAREHOUSE)
        self.assertEqual(together, [("Thunderclap", [0], ["Mutant", "Science", "Skill"])])
        self.assertEqual(paid(faces, HULK, cards.WAREHOUSE, pvp=2)[0], [])  # only as many results as PVP
        self.assertIn("buy Mutant Science Skill: 3 PVP", cards.describe(*paid(faces, HULK, cards.WAREHOUSE)))

    def test_cards_to_fill_in_are_never_paid(self):
        self.assertEqual(paid(["Skill"] * 6, roster.cards_of(HEROES, "Ant-Man")), ([], []))
        self.assertEqual(cards.describe([], []), "No power card can be paid.")


if __name__ == "__main__":
    unittest.main()


def _every_set(symbols, spent, hero_cards, location, pvp):
    """pay as it was first written, trying every set of cards: the oracle for the pruned search."""
    free = [[] for _ in cards.SYMBOLS]
    for i in range(len(symbols)):
        if spent[i] is None:
            free[cards.SYMBOLS.index(symbols[i])].append(i)
    known = [(c["name"], cards.need(c["dice"])) for c in hero_cards if c.get("dice") is not None]
    buys = min(cards.WAREHOUSE_BUYS, pvp) if location == cards.WAREHOUSE else 0
    best = []
    for mask in range(1, 1 << len(known)):
        chosen = [known[i] for i in range(len(known)) if mask & (1 << i)]
        if len(chosen) > len(best):
            best = cards._payable(free, chosen, location, buys) or best
    names = [name for name, _, _ in best]
    return best, [c[0] for c in known if c[0] not in names and cards._payable(free, [c], location, buys)]


class PrunedSearch(unittest.TestCase):
    def test_pay_agrees_with_trying_every_set_of_cards(self):
        # pay skips the sets holding a card the dice cannot pay alone; that must change no payment,
        # at any location, with any PVP to buy with, in or out of the Prison.
        from dicetower.core.replay import SeededSource

        source = SeededSource(14)  # the same cases on CPython and the VM

        def pick(n):
            return source._next() % n

        symbols = cards.SYMBOLS
        for case in range(600):
            hero_cards = [
                {"name": "Card %d" % n, "dice": [symbols[pick(6)] for _ in range(1 + pick(4))]}
                for n in range(1 + pick(4))
            ]
            faces = [symbols[pick(6)] for _ in range(6)]
            outcome = judge(faces, (), pick(5) == 0)  # one in five in the Prison
            location = cards.LOCATIONS[pick(len(cards.LOCATIONS))]
            pvp = pick(5)
            args = (outcome.symbols, outcome.spent, hero_cards, location, pvp)
            self.assertEqual(cards.pay(*args), _every_set(*args), (case, args))
