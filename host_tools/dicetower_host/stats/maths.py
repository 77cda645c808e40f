"""Fairness statistics for rolled faces, in plain Python (no numpy needed).

- chi_square: Pearson's goodness of fit against equal faces, with its
  p-value from the regularised upper incomplete gamma function.
- runs_test: Wald-Wolfowitz runs of low (below the middle face) and high
  faces; too few runs means streaks, too many means alternation.
- serial_correlation: lag-1 Pearson correlation of successive faces, with a
  two-sided p-value from its normal approximation (z = r * sqrt(n)).

tests/test_stats.py checks them against scipy.stats.
"""

import math


def _gamma_q(a, x):
    """Q(a, x) = Gamma(a, x) / Gamma(a): series below a + 1, continued fraction above."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Lentz's method for the continued fraction.
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(log_front) * h


def chi_square(counts):
    """(statistic, degrees of freedom, p-value) for counts that should be equal."""
    n = sum(counts)
    k = len(counts)
    if k < 2 or n == 0:
        raise ValueError("need at least two faces and one roll")
    expected = n / k
    stat = sum((c - expected) ** 2 for c in counts) / expected
    return stat, k - 1, _gamma_q((k - 1) / 2, stat / 2)


def _two_sided_normal(z):
    return math.erfc(abs(z) / math.sqrt(2))


def runs_test(faces, sides):
    """(runs, expected runs, z, p-value) of low/high faces; low = index < sides / 2."""
    half = sides / 2
    runs = 0
    low = 0
    previous = None
    for face in faces:
        is_low = face < half
        low += is_low
        if is_low != previous:
            runs += 1
            previous = is_low
    return runs_from_counts(runs, low, len(faces))


def runs_from_counts(runs, low, n):
    """runs_test from its counts alone (a stream's: runs, faces below the middle, all faces)."""
    high = n - low
    if low == 0 or high == 0:
        raise ValueError("every face fell on one side: no runs test possible")
    expected = 2 * low * high / n + 1
    variance = (expected - 1) * (expected - 2) / (n - 1)
    if variance <= 0:
        raise ValueError("too few faces for a runs test")
    z = (runs - expected) / math.sqrt(variance)
    return runs, expected, z, _two_sided_normal(z)


def serial_correlation(faces):
    """(r, p-value) of the lag-1 correlation of successive faces."""
    n = len(faces) - 1
    if n < 3:
        raise ValueError("need at least four faces")
    xs = faces[:-1]
    ys = faces[1:]
    mx = sum(xs) / n
    my = sum(ys) / n
    sxy = sxx = syy = 0.0
    for x, y in zip(xs, ys):
        dx = x - mx
        dy = y - my
        sxy += dx * dy
        sxx += dx * dx
        syy += dy * dy
    if sxx == 0 or syy == 0:
        raise ValueError("every face was the same: no correlation possible")
    r = sxy / math.sqrt(sxx * syy)
    return r, _two_sided_normal(r * math.sqrt(n))


def verdict(p_values, alpha=0.001):
    """Plain words for a set of p-values."""
    worst = min(p_values)
    if worst < alpha:
        return "suspicious: a test rejects fairness at p = %.2g (below %g)" % (worst, alpha)
    return "fair: no test rejects fairness at p below %g (smallest p = %.3f)" % (alpha, worst)
