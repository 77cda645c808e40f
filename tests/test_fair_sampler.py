"""Faces are drawn without bias: an exact proof by enumeration, and properties.

`FairDice.below` (core/pool.py) keeps a uniform integer pool and rejects only the top
remainder of it. The enumeration runs the real method over every byte
sequence (with the pool floor lowered to one byte so the tree is small; the
logic is the same) and adds up each outcome's probability as an exact
fraction: every face, and every pair of faces from two draws in a row, must
have exactly the same probability.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetower.core import pool
from dicetower.core.dice import D6, plain
from dicetower.core.entropy import FairDice
from dicetower.core.replay import SeededSource


class NeedMore(Exception):
    pass


class Replay(FairDice):
    """FairDice fed from a fixed byte list, with no source or health tests."""

    def __init__(self, data):
        self._value, self._range = 0, 1
        self.failure = None
        self.bytes_used = 0
        self.data = list(data)

    def _byte(self):
        if not self.data:
            raise NeedMore()
        return self.data.pop(0)


class ModuloReplay(Replay):
    """The naive way, one byte per face and a bare modulo: for the check below."""

    def below(self, n):
        return self._byte() % n


def exact_distribution(sides_list, max_bytes, replay=Replay):
    """{faces: probability} over all byte strings of up to max_bytes, and the mass left undecided."""
    masses, undecided = {}, Fraction(0)
    stack = [()]
    while stack:
        prefix = stack.pop()
        try:
            dice = replay(prefix)
            faces = tuple(dice.below(n) for n in sides_list)
        except NeedMore:
            if len(prefix) == max_bytes:
                undecided += Fraction(1, 256 ** len(prefix))
            else:
                stack.extend(prefix + (b,) for b in range(256))
            continue
        assert not dice.data, "a draw left bytes unread"
        masses[faces] = masses.get(faces, 0) + Fraction(1, 256 ** len(prefix))
    return masses, undecided


@pytest.fixture
def one_byte_pool(monkeypatch):
    monkeypatch.setattr(pool, "_POOL_FLOOR", 256)  # core/pool.py, where every die draws


@pytest.mark.parametrize("sides", [2, 3, 5, 6, 7, 12, 20, 100])
def test_every_face_exactly_equally_likely(one_byte_pool, sides):
    masses, undecided = exact_distribution([sides], max_bytes=3)
    assert sorted(masses) == [(f,) for f in range(sides)]
    assert len(set(masses.values())) == 1, "faces are not equally likely"
    assert sum(masses.values()) + undecided == 1
    assert undecided < Fraction(1, 10**6)


@pytest.mark.parametrize("sides", [pytest.param([6, 6], marks=pytest.mark.slow), [2, 6], [6, 20]])
def test_two_draws_are_independent_and_uniform(one_byte_pool, sides):
    masses, undecided = exact_distribution(sides, max_bytes=3)
    assert len(masses) == sides[0] * sides[1]
    assert len(set(masses.values())) == 1, "pairs of faces are not equally likely"
    assert sum(masses.values()) + undecided == 1


def test_the_enumeration_catches_a_bare_modulo():
    """The same check run on `byte % 6` finds faces 0-3 at 43/256 and 4-5 at 42/256."""
    masses, undecided = exact_distribution([6], max_bytes=1, replay=ModuloReplay)
    assert undecided == 0
    assert masses[(0,)] == Fraction(43, 256) and masses[(5,)] == Fraction(42, 256)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), sides=st.lists(st.integers(2, 256), min_size=1, max_size=40))
def test_draws_in_range_and_pool_small(seed, sides):
    dice = FairDice(SeededSource(seed))
    for n in sides:
        assert 0 <= dice.below(n) < n
        # The pool stays in MicroPython's small ints (below 2**30): no heap use.
        assert 0 <= dice._value < dice._range < 2**30


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_d6_entropy_cost(seed):
    dice = FairDice(SeededSource(seed))
    start = dice.bytes_used
    for _ in range(2000):
        dice.draw(D6)
    assert (dice.bytes_used - start) / 2000 <= 0.40


def test_d100_costs_near_its_information():
    dice = FairDice(SeededSource(1))
    for _ in range(5000):
        dice.draw(plain(100))
    import math

    assert dice.bytes_used / 5000 <= math.log2(100) / 8 + 0.01
