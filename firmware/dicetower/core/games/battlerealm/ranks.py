"""Multisets of six dice and the tables over them, for the re-roll advisor (core/games/battlerealm/advisor.py).

Only the counts of each symbol matter, so a roll is a multiset, and the multisets of at most
n dice are ranked 0..C(n+6, 6)-1 (colex rank of the stars-and-bars positions: b_j = c_0 + ... +
c_j + j). A table over the ranks holds a key for each: chance * KEY - risk. Here: the ranks,
the work arrays a plan fills, a plan's slices (`_over`), and the two passes every search
begins with: the finalized dice scored (`_base`, with `_compile`) and the layers below
spread from them (`_spread`). The advisor's modules (ranks, keeps, lucky, advisor) are
imported one at a time by the device's loop, each a short pass (see core/games/battlerealm/turn.py).
"""

import micropython
from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


from array import array

try:
    from micropython import ptr16, ptr32  # the annotations of a Viper pass: CPython's stand-in
except ImportError:
    pass  # a board's Viper has them built in; bytecode never reads an annotation

from dicetower.core.games.battlerealm.cards import ELSEWHERE, GHOST_ORCHID, PAYS, RISK, WAREHOUSE
from dicetower.core.games.battlerealm.work_arrays import (
    WORK as _POOL,
)  # made while the heap is whole: the module says why

DICE = const(6)


def _binomials():
    """C[j][b] = binomial(b, j), row by row by Pascal's rule (the import's cheapest way on a Pico)."""
    rows = [(1,) * (DICE + 7)]
    for j in range(1, DICE + 1):
        above = rows[j - 1]
        row = [0] * (DICE + 7)
        for b in range(j, DICE + 7):
            row[b] = row[b - 1] + above[b - 1]
        rows.append(tuple(row))
    return tuple(rows)


# C[j][b] = binomial(b, j), for the ranks.
C = _binomials()
C1, C2, C3, C4, C5, C6 = C[1], C[2], C[3], C[4], C[5], C[6]
SIX6 = const(46656)
POW6 = tuple(6**i for i in range(14))
FIVE = const(210)  # the first rank of five dice: C6[10]
SIXES = const(462)  # the first rank of six dice (C6[11]); how many ranks at most five dice have
ALL = const(924)  # how many ranks six dice have: C6[12]
# v * 6^t as a pair (high, low < 6^6): high = v // QT[t] * HT[t], low = v % QT[t] * LT[t].
QT = tuple(6 ** (6 - t) if t < 6 else 1 for t in range(20))
HT = tuple(6 ** (t - 6) if t >= 6 else 1 for t in range(20))
LT = tuple(6**t if t < 6 else 0 for t in range(20))
# A key: chance * KEY - risk, both in units of at most 6^5 (< KEY), so that six keys add up
# below 2^30 (a small int on a Pico: no heap) and the sum of two still decodes.
KEY = const(16384)  # 1 << 14
ROUND = const(16383)
NONE = const(-536870912)  # -(1 << 29): below every key, a keep that is not open
_RISK_BIT = const(268435456)  # 1 << 28: _compile's risk flag, above the shortfall fields

# Slices: a plan yields before a block of work that would take its slice past SLICE microseconds
# (at 125 MHz, MicroPython 1.27's rp2 port). The costs per table entry (or per call) were measured
# on the emulated RP2040 as bytecode; a block is never split (benchmarks/vm_advisor.py --rp2040 times the
# slices). A board's Viper passes are quicker: its slices are shorter than SLICE, never longer.
SLICE = const(4000)
COST_CHECK = const(500)  # one goal.check, in the Prison (the dearest)
_COST_BASE = const(36)
COST_SPREAD = const(40)
COST_KEEP = const(90)  # one keep weighed by best_keep
_COST_COMPILE = const(1500)


def _slot(i):
    """Work array i of the pool, as the last plan left it (every pass writes before it reads): a
    table's half (i < 4; the search with Lucky has three more, lucky_tables.py's WORK)."""
    return _POOL[i]


def rank(counts):
    """The rank of a multiset given as counts in SYMBOLS order."""
    r = 0
    b = -1
    for j in range(DICE):
        b += counts[j] + 1
        r += C[j + 1][b]
    return r


def _pair_rank(f, s):
    counts = bytearray(DICE)
    counts[f] += 1
    counts[s] += 1
    return rank(counts)


# The rank of two dice showing f and s: PAIR[6 * f + s] (the rank of one die showing f is 6 - f).
PAIR = bytes(_pair_rank(f, s) for f in range(DICE) for s in range(DICE))


def _science_ranks(out):
    """Fills SCIENCE: a generator that yields between blocks of at most 126 entries (about 4 ms)."""
    r = 0
    for b5 in range(5, DICE + 5):
        for b4 in range(4, b5):
            for b3 in range(3, b4):
                for b2 in range(2, b3):
                    d1 = C5[b5] + C4[b4] + C3[b3] + C2[b2] - (SIXES if b5 == DICE + 4 else 0)
                    for b1 in range(1, b2):
                        for _b0 in range(b1):
                            out[r] = r + d1 + b1
                            r += 1
            yield


# The rank of the dice of rank r (five at most) and one more showing Science: SCIENCE[r] (a
# Mutant more: SCIENCE[r] + 1); for five dice, less SIXES (an index into the upper half). It lets
# _spread's innermost loop run over all the Mutant and Science counts at once (924 bytes). Filled
# by the first plan, in slices of its own (_guard): the import stays short.
SCIENCE = array("H", range(SIXES))
del _binomials, _pair_rank


def _over(w, cost):
    """Count `cost` of work about to be done outside a pass: True if the slice must end first (the
    caller yields; the cost counts in the next slice). A function, not a generator: no heap."""
    if w[0] + cost > SLICE:
        w[0] = cost
        return True
    w[0] += cost
    return False


def _compile(goal, fixed):  # noqa: C901 (a kernel: loops in one frame, no call per entry)
    """The goal as six additions and a mask, or None where only goal.check knows (the Prison, Avengers Tower).

    It mirrors cards.Goal for the other places (tests/fw/test_advisor.py checks it against
    goal.check on every roll), because goal.check costs a tenth of a millisecond a roll on a
    Pico: field w (4 bits) of the sum over the six symbols is 7 - slack plus what card w lacks,
    so bit 3 of a field is clear when the card is paid (short <= slack: 0 elsewhere, 1 at the
    Ghost Orchid, the results bought at the Warehouse). Mutant and Science that reach the Prison
    or an Explosion count as none and set bit 28. `fixed` are dice outside the table.
    """
    wants = goal.wants
    if goal.in_prison or len(wants) > 6:
        return None
    if goal.location == ELSEWHERE:
        slack = 0
    elif goal.location == GHOST_ORCHID:
        slack = 1
    elif goal.location == WAREHOUSE:
        slack = goal.buys
    else:
        return None
    gone = (goal.prison_at, goal.explosion_at)  # Mutant, Science from here on count as none
    rows = [[0] * (DICE + 1) for _ in range(DICE)]
    for s in range(2):
        for c in range(DICE + 1):
            if c + fixed[s] >= gone[s]:
                rows[s][c] = _RISK_BIT
    mask = 0
    for w in range(len(wants)):
        mask += 8 << (4 * w)
        for c in range(DICE + 1):
            rows[5][c] += (7 - slack) << (4 * w)
        for s, k in wants[w]:
            row = rows[s]
            for c in range(DICE + 1):
                have = c + fixed[s]
                if s < 2 and have >= gone[s]:
                    have = 0
                if k > have:
                    row[c] += (k - have) << (4 * w)
    return rows, mask


def _base(T, n, fixed, goal, unit, w):  # noqa: C901 (a kernel: loops in one frame, no call per entry)
    """Layer n (every roll of the n dice in the table): the key of the finalized dice, in `unit`,
    into T, the half of the table that holds it (the upper for six dice)."""
    pay = unit * KEY
    b5 = n + 5
    r = C6[b5] - (SIXES if n == DICE else 0)
    code = _compile(goal, fixed)
    if _over(w, _COST_COMPILE):
        yield
    work = w[0]
    if code is None:
        counts = bytearray(DICE)
        check = goal.check
        for b4 in range(4, b5):
            counts[5] = b5 - b4 - 1 + fixed[5]
            for b3 in range(3, b4):
                counts[4] = b4 - b3 - 1 + fixed[4]
                for b2 in range(2, b3):
                    counts[3] = b3 - b2 - 1 + fixed[3]
                    for b1 in range(1, b2):
                        work += b1 * COST_CHECK
                        if work > SLICE:
                            work = b1 * COST_CHECK
                            yield
                        counts[2] = b2 - b1 - 1 + fixed[2]
                        for b0 in range(b1):
                            counts[0] = b0 + fixed[0]
                            counts[1] = b1 - b0 - 1 + fixed[1]
                            bits = check(counts)
                            T[r] = (pay if bits & PAYS else 0) - (unit if bits & RISK else 0)
                            r += 1
        w[0] = work
        return
    (S0, S1, S2, S3, S4, S5), mask = code
    # Mutant and Science trade places in the innermost run: their part of the sum and the key's
    # risk, per run length (c0 + c1 + 1).
    runs = []
    for t in range(n + 1):
        ms = [0] * (t + 1)
        yes = [pay] * (t + 1)
        no = [0] * (t + 1)
        for c0 in range(t + 1):
            ms[c0] = S0[c0] + S1[t - c0]
            if ms[c0] >> 28:
                yes[c0] -= unit
                no[c0] = -unit
        runs.append((ms, yes, no))
    for b4 in range(4, b5):
        v5 = S5[b5 - b4 - 1]
        for b3 in range(3, b4):
            work += C3[b3] * _COST_BASE
            if work > SLICE:
                work = C3[b3] * _COST_BASE
                yield
            v4 = v5 + S4[b4 - b3 - 1]
            for b2 in range(2, b3):
                v3 = v4 + S3[b3 - b2 - 1]
                for b1 in range(1, b2):
                    v2 = v3 + S2[b2 - b1 - 1]
                    ms, yes, no = runs[b1 - 1]
                    for c0 in range(b1):
                        T[r + c0] = yes[c0] if (v2 + ms[c0]) & mask != mask else no[c0]
                    r += b1
    w[0] = work


# -- Passes over a table (generators that yield between blocks of work) ---------------------------
# A table is its lower half L (ranks below SIXES) and its upper half H (six dice: rank - SIXES);
# a table of at most five dice is L alone (H is L).


def _spread(L, H, top, floor, scaled, w):
    """Layers top-1 down to floor of the table (into L) from layer top: each entry the sum, or mean
    if scaled, of the six entries with one more die. The mean of keys is exact where every chance is."""
    r = C6[top + 5] - 1
    work = w[0]
    for b5 in range(top + 4, floor + 4, -1):
        U = L  # the half that holds the layer above
        d5 = C5[b5]
        if b5 == DICE + 4:
            U = H
            d5 -= SIXES
        for b4 in range(b5 - 1, 3, -1):
            d4 = d5 + C4[b4]
            for b3 in range(b4 - 1, 2, -1):
                work += C3[b3] * COST_SPREAD
                if work > SLICE:
                    work = C3[b3] * COST_SPREAD
                    yield
                r = _spread_rows(L, U, SCIENCE, r, b3, d4 + C3[b3], d4, d5, scaled)
    w[0] = work


@micropython.viper
def _spread_rows(L: ptr32, U: ptr32, up: ptr16, r: int, b3: int, d3: int, d4: int, d5: int, scaled: int) -> int:
    """_spread's entries of one b3 (the Skill to Mystic offsets hold while only Mutant and Science
    change); returns the rank below them. Viper: every entry, an add of machine words, below 2^30."""
    b2 = b3 - 1
    while b2 > 1:
        c2 = (b2 * (b2 - 1)) >> 1  # C2[b2]
        d2 = d3 + c2
        lo = r - c2
        while r > lo:
            i = int(up[r])
            v = U[i + 1] + U[i] + U[r + d2] + U[r + d3] + U[r + d4] + U[r + d5]
            if scaled:
                v = v // 6
            L[r] = v
            r -= 1
        b2 -= 1
    return r
