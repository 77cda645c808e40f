"""Whatever a player presses, a Roll keeps the rules: property tests with hypothesis."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetower.core.dice import BATTLEREALM
from dicetower.core.entropy import FairDice
from dicetower.core.games.battlerealm.roll import Roll, RollRefused
from dicetower.core.replay import SeededSource

LOCKING = (BATTLEREALM.index("Mutant"), BATTLEREALM.index("Science"))

requests = st.lists(
    st.one_of(
        st.tuples(st.just("reroll"), st.lists(st.integers(-1, 7), max_size=7)),
        st.tuples(st.just("lucky"), st.integers(-1, 7)),
        st.tuples(st.just("finalize"), st.none()),
    ),
    max_size=8,
)


def is_legal(kind, arg, roll, lucky):
    """The rules, written again independently of Roll, to judge each request."""
    if roll.finalized:
        return False
    if kind == "finalize":
        return True
    if kind == "lucky":
        return lucky and roll.lucky_left == 1 and 0 <= arg < 6
    return (
        roll.rerolls_left > 0
        and len(arg) > 0
        and len(set(arg)) == len(arg)
        and all(0 <= d < 6 and not roll.locked[d] for d in arg)
    )


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**32), lucky=st.booleans(), disorientated=st.booleans(), presses=requests)
def test_any_sequence_of_requests_keeps_the_rules(seed, lucky, disorientated, presses):
    roll = Roll(FairDice(SeededSource(seed)), abilities=("Lucky",) if lucky else (), disorientated=disorientated)
    roll.roll()
    rerolls_done = 0
    lucky_done = 0
    for kind, arg in presses:
        before = (bytes(roll.faces), bytes(roll.locked), roll.rerolls_left, roll.lucky_left, roll.finalized)
        legal = is_legal(kind, arg, roll, lucky)
        try:
            if kind == "reroll":
                roll.reroll(arg)
                rerolls_done += 1
                changed = set(arg)
                # Only chosen dice may change, and none of them was locked.
                for die in range(6):
                    if die not in changed:
                        assert roll.faces[die] == before[0][die]
                    assert not before[1][die] or die not in changed
            elif kind == "lucky":
                roll.lucky_reroll(arg)
                lucky_done += 1
                for die in range(6):
                    if die != arg:
                        assert roll.faces[die] == before[0][die]
            else:
                roll.finalize()
            assert legal, "%s %r was allowed against the rules" % (kind, arg)
        except RollRefused:
            assert not legal, "%s %r was refused though the rules allow it" % (kind, arg)
            after = (bytes(roll.faces), bytes(roll.locked), roll.rerolls_left, roll.lucky_left, roll.finalized)
            assert after == before, "a refused request changed the roll"
        # Locks: every die showing Mutant or Science is locked, and locks never lift.
        for die in range(6):
            if roll.faces[die] in LOCKING:
                assert roll.locked[die]
            if before[1][die]:
                assert roll.locked[die]
    assert rerolls_done <= (1 if disorientated else 2)
    assert lucky_done <= (1 if lucky else 0)
