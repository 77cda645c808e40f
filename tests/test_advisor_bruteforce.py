"""The advisor (core/games/battlerealm/advisor.py) against brute-force enumeration (tests/bruteforce.py), on 2,040 positions.

Every shipped card is a target, and "any of my cards", at each location that
changes the price, with Honest, Careful, Lucky (over 300 positions with Lucky
and a re-roll left, its re-roll tried at every point) and the Crystal Prison. For
each position the advisor's chance and Prison/Explosion risk equal the brute
force's exactly (so well within 1e-9), and the move it advises reaches them.
"""

import gc
import random
from fractions import Fraction

import pytest
from bruteforce import UNIT, Brute

from dicetower.core.games.battlerealm import advisor, cards, roster
from dicetower.core.games.battlerealm.roster import heroes as built_in

HEROES = built_in({})
SHIPPED = [(c["name"], c["dice"]) for h in HEROES for c in h["cards"] if c["dice"] is not None]
HULK = [c["dice"] for c in roster.cards_of(HEROES, "Hulk") if c["dice"] is not None]
POSITIONS_PER_GOAL = 170


def card(name):
    return [dice for n, dice in SHIPPED if n == name]


# (label, requirements, location, abilities, in the Prison, Lucky held this turn)
GOALS = [
    ("Thunderclap", card("Thunderclap"), cards.ELSEWHERE, (), False, False),
    ("World Breaker at the Tower", card("World Breaker"), cards.AVENGERS_TOWER, (), False, False),
    ("Odin's Wrath, Careful", card("Odin's Wrath"), cards.ELSEWHERE, ("Careful",), False, False),
    ("Physical Disruption, Orchid, Honest", card("Physical Disruption"), cards.GHOST_ORCHID, ("Honest",), False, False),
    ("Panther's Stealth in the Prison", card("Panther's Stealth"), cards.ELSEWHERE, (), True, False),
    ("Raptor Strike at the Warehouse", card("Raptor Strike"), cards.WAREHOUSE, (), False, False),
    ("Incendiary Arrow at the Orchid", card("Incendiary Arrow"), cards.GHOST_ORCHID, (), False, False),
    ("Incendiary Arrow, Lucky", card("Incendiary Arrow"), cards.ELSEWHERE, ("Lucky",), False, True),
    ("any Hulk card, Lucky", HULK, cards.ELSEWHERE, ("Lucky",), False, True),
    ("any Hulk card at the Warehouse", HULK, cards.WAREHOUSE, (), False, False),
    ("any Hulk card at the Orchid", HULK, cards.GHOST_ORCHID, (), False, False),
    ("any Hulk card at the Tower, Lucky", HULK, cards.AVENGERS_TOWER, ("Lucky",), False, True),
]


def test_every_shipped_card_is_a_target():
    targets = set(name for _, needs, _, _, _, _ in GOALS for name, dice in SHIPPED if [dice] == needs)
    assert targets == set(name for name, _ in SHIPPED)
    assert len(GOALS) * POSITIONS_PER_GOAL >= 2000


@pytest.fixture(scope="module")
def tally():
    """Counts over the module's positions, checked once all have run."""
    counts = {"positions": 0, "Lucky and re-rolls left": 0, "Lucky first": 0}
    yield counts
    if counts["positions"] == len(GOALS) * POSITIONS_PER_GOAL:  # the whole module ran
        assert counts["Lucky and re-rolls left"] >= 300, counts
        assert counts["Lucky first"] >= 10, counts  # plans that use Lucky before a re-roll are found


def positions(rng, lucky):
    """Faces, locks and re-rolls as a turn could leave them."""
    for _ in range(POSITIONS_PER_GOAL):
        faces = [rng.randrange(6) for _ in range(6)]
        locked = [1 if f <= 1 else 0 for f in faces]
        lucky_left = 1 if lucky and rng.random() < 0.75 else 0
        if lucky and not lucky_left and rng.random() < 0.5:
            locked[rng.randrange(6)] = 1  # Lucky re-rolled a locked die to this face earlier
        yield faces, locked, rng.choice((0, 1, 1, 2, 2, 2)), lucky_left


def value_of_advice(brute, faces, locked, rerolls, lucky_left, advice):
    free = tuple(sorted(faces[d] for d in range(6) if not locked[d]))
    held = tuple(sorted(faces[d] for d in range(6) if locked[d]))
    if advice.reroll:
        rolled = sorted(faces[d] for d in advice.reroll)
        mask = 0
        for i in range(len(free)):
            if free[i] in rolled:
                rolled.remove(free[i])
                mask |= 1 << i
        return brute.reroll(free, held, rerolls, lucky_left, mask)
    if advice.lucky >= 0:
        face = faces[advice.lucky]
        die = held.index(face) + len(free) if locked[advice.lucky] else free.index(face)
        return brute.lucky(free, held, rerolls, die)
    return brute.final(tuple(faces))


@pytest.mark.slow
@pytest.mark.parametrize("goal", GOALS, ids=lambda g: g[0])
def test_the_advisor_agrees_with_brute_force(goal, tally):
    label, needs, location, abilities, in_prison, lucky = goal
    target = cards.Goal([cards.need(d) for d in needs], abilities, in_prison, location, pvp=2)
    brute = Brute(target)
    rng = random.Random(label)
    for faces, locked, rerolls, lucky_left in positions(rng, lucky):
        advice = advisor.advise(bytearray(faces), bytearray(locked), rerolls, lucky_left, target)
        free = tuple(sorted(faces[d] for d in range(6) if not locked[d]))
        held = tuple(sorted(faces[d] for d in range(6) if locked[d]))
        best = brute.value(free, held, rerolls, lucky_left)
        chance, risk = Fraction(*advice.chance()), Fraction(*advice.risk())
        where = (label, faces, locked, rerolls, lucky_left, advice)
        assert abs(float(chance) - best[0] / UNIT) < 1e-9, where
        assert (chance, risk) == (Fraction(best[0], UNIT), Fraction(best[1], UNIT)), where
        for die in advice.reroll:
            assert not locked[die], where
        assert value_of_advice(brute, faces, locked, rerolls, lucky_left, advice) == best, where
        tally["positions"] += 1
        if lucky_left and rerolls:
            tally["Lucky and re-rolls left"] += 1
            tally["Lucky first"] += advice.lucky >= 0
    brute.value.cache_clear()  # hundreds of MB otherwise, held by a cycle until a full collection
    gc.collect()
