"""dicetower_host.stats.maths against scipy.stats, the reference implementation."""

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from dicetower_host.stats import maths as fairness_maths


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5000), min_size=2, max_size=30).filter(lambda c: sum(c) > 0))
def test_chi_square_matches_scipy(counts):
    stat, dof, p = fairness_maths.chi_square(counts)
    ref = scipy_stats.chisquare(counts)
    assert dof == len(counts) - 1
    assert stat == pytest.approx(ref.statistic, rel=1e-9, abs=1e-9)
    assert p == pytest.approx(ref.pvalue, rel=1e-6, abs=1e-12)


def test_chi_square_far_tail_and_near_one():
    for counts in ([1000, 1000, 1000, 1000, 1000, 1000], [1500, 900, 1000, 1000, 800, 800], [10, 0]):
        stat, dof, p = fairness_maths.chi_square(counts)
        assert p == pytest.approx(scipy_stats.chi2.sf(stat, dof), rel=1e-6, abs=1e-300)


def test_runs_test_matches_its_formula_and_scipy_normal():
    rng = random.Random(5)
    faces = [rng.randrange(6) for _ in range(5000)]
    runs, expected, z, p = fairness_maths.runs_test(faces, 6)
    low = np.array(faces) < 3
    assert runs == 1 + int(np.count_nonzero(low[1:] != low[:-1]))
    n1, n2 = int(low.sum()), int((~low).sum())
    mu = 2 * n1 * n2 / (n1 + n2) + 1
    sigma = math.sqrt(2 * n1 * n2 * (2 * n1 * n2 - n1 - n2) / ((n1 + n2) ** 2 * (n1 + n2 - 1)))
    assert expected == pytest.approx(mu)
    assert z == pytest.approx((runs - mu) / sigma, rel=1e-9)
    assert p == pytest.approx(2 * scipy_stats.norm.sf(abs(z)), rel=1e-9)


def test_runs_test_catches_streaks_and_alternation():
    assert fairness_maths.runs_test([0, 5] * 500, 6)[3] < 1e-6
    assert fairness_maths.runs_test([0] * 50 + [5] * 50, 6)[3] < 1e-6


def test_serial_correlation_matches_scipy():
    rng = random.Random(8)
    faces = [rng.randrange(20) for _ in range(3000)]
    r, p = fairness_maths.serial_correlation(faces)
    ref = scipy_stats.pearsonr(faces[:-1], faces[1:])
    assert r == pytest.approx(ref.statistic, rel=1e-9)
    assert p == pytest.approx(2 * scipy_stats.norm.sf(abs(r) * math.sqrt(len(faces) - 1)), rel=1e-9)


def test_serial_correlation_catches_a_pattern():
    faces = [(i // 10) % 6 for i in range(600)]  # each face ten times in a row
    r, p = fairness_maths.serial_correlation(faces)
    assert r > 0.5 and p < 1e-9


def test_degenerate_inputs_say_why():
    with pytest.raises(ValueError):
        fairness_maths.chi_square([5])
    with pytest.raises(ValueError):
        fairness_maths.runs_test([0, 0, 0], 6)
    with pytest.raises(ValueError):
        fairness_maths.serial_correlation([2, 2, 2, 2, 2])


def test_verdict_words():
    assert fairness_maths.verdict([0.5, 0.2]).startswith("fair")
    assert fairness_maths.verdict([0.5, 1e-5]).startswith("suspicious")
