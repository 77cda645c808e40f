"""The tables behind core/games/battlerealm/lucky.py's search, a pass over every roll at a time (best_first_move's
docstring says which is which). Each is a generator that yields when its slice of work is spent
(core/games/battlerealm/ranks.py's _over), so that the loop keeps answering presses while the advisor thinks."""

from array import array

import micropython
from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


from dicetower.core.games.battlerealm.ranks import (
    C2,
    C3,
    C4,
    C5,
    DICE,
    FIVE,
    KEY,
    PAIR,
    ROUND,
    SIXES,
    SLICE,
    _over,
    _spread,
)
from dicetower.core.games.battlerealm.work_arrays import FIVES, HALF

# The search's work arrays beyond work_arrays.py's four (best_first_move's 4, 5 and 6: a table's lower
# half, then PA and PB, the ranks of five dice), made with this module, which only a game with a Lucky hero
# loads, while the heap is whole: the descriptor's ahead_of for a new game, launch.py for a saved one.
WORK = [array("i", bytes(4 * HALF))] + [array("i", bytes(4 * FIVES)) for _ in range(2)]

_COST_ADD = const(20)
_COST_LUCKY0 = const(44)
_COST_LUCKY1 = const(90)
_COST_SUMS5 = const(32)


@micropython.native
def lucky0(TL, TH, S, w):  # noqa: C901 (a kernel: loops in one frame, no call per entry)
    """Six dice: S (an upper half) = the best of finalizing and Lucky's re-roll of one die then
    finalizing (the entry of T for the five other dice), as keys."""
    r = 0
    b5 = DICE + 5
    e5 = C5[b5 - 1] - SIXES
    work = w[0]
    for b4 in range(4, b5):
        e4 = e5 + C4[b4 - 1]
        p5 = b5 - b4 > 1
        for b3 in range(3, b4):
            work += C3[b3] * _COST_LUCKY0
            if work > SLICE:
                work = C3[b3] * _COST_LUCKY0
                yield
            e3 = e4 + C3[b3 - 1]
            p4 = b4 - b3 > 1
            for b2 in range(2, b3):
                e2 = e3 + C2[b2 - 1]
                p3 = b3 - b2 > 1
                for b1 in range(1, b2):
                    e1 = e2 + b1 - 1
                    p2 = b2 - b1 > 1
                    for b0 in range(b1):
                        k = TH[r]
                        if b0:
                            q = TL[r - e1 - 1]
                            if q > k:
                                k = q
                        if b1 - b0 > 1:
                            q = TL[r - e1]
                            if q > k:
                                k = q
                        if p2:
                            q = TL[r - e2]
                            if q > k:
                                k = q
                        if p3:
                            q = TL[r - e3]
                            if q > k:
                                k = q
                        if p4:
                            q = TL[r - e4]
                            if q > k:
                                k = q
                        if p5:
                            q = TL[r - e5]
                            if q > k:
                                k = q
                        S[r] = k
                        r += 1
    w[0] = work


@micropython.native
def spread_lucky0(SL, SH, m, w):
    """S (L0, keys of six dice, in SH) spread down to two dice (or m, the fewest a keep holds);
    returns `small`, the keeps of none and of one die (units 6^7) from the two-dice keys, by rank:
    [chance, risk] of none at 0, of one die showing f at 2 * (6 - f)."""
    yield from _spread(SL, SH, DICE, max(m, 2), True, w)
    small = [0] * (2 * DICE + 2)
    if m >= 2:
        return small
    for f in range(DICE):
        a = b = 0
        for s in range(DICE):
            k = SL[PAIR[6 * f + s]]
            x = (k + ROUND) >> 14
            a += x
            b += x * KEY - k
        small[2 * (DICE - f)] = a * 6
        small[2 * (DICE - f) + 1] = b * 6
        small[0] += a
        small[1] += b
    return small


@micropython.native
def sums5(PA, PB, NA, NB, w):
    """Five dice z: PA, PB += the entries of NA, NB (upper halves) for z with a Mutant and
    with a Science more."""
    j = 0  # r - FIVE
    d5 = C5[DICE + 4] - SIXES
    work = w[0]
    for b4 in range(4, DICE + 4):
        d4 = d5 + C4[b4]
        for b3 in range(3, b4):
            work += C3[b3] * _COST_SUMS5
            if work > SLICE:
                work = C3[b3] * _COST_SUMS5
                yield
            d3 = d4 + C3[b3]
            for b2 in range(2, b3):
                d2 = d3 + C2[b2] + FIVE
                for b1 in range(1, b2):
                    d1 = d2 + b1
                    for _b0 in range(b1):
                        i = j + d1
                        PA[j] += NA[i] + NA[i + 1]
                        PB[j] += NB[i] + NB[i + 1]
                        j += 1
    w[0] = work


@micropython.native
def add_to(PA, PB, GA, GB, first, w):
    """Five dice: PA, PB += GA, GB (=, the first time)."""
    step = SLICE // _COST_ADD // 2
    for start in range(0, FIVES, step):
        if _over(w, step * _COST_ADD):
            yield
        for i in range(start, min(start + step, FIVES)):
            if first:
                PA[i] = GA[FIVE + i]
                PB[i] = GB[FIVE + i]
            else:
                PA[i] += GA[FIVE + i]
                PB[i] += GB[FIVE + i]


@micropython.native
def lucky1(S, LB, NA, NB, PA, PB, small, w):  # noqa: C901 (a kernel: loops in one frame, no call per entry)
    """Six dice y, one re-roll and Lucky left (units 6^7): the best of the keeps (S, an upper half:
    keys after keep_best, over keeps of two dice or more; `small`: of one die or none), Lucky on
    a free die then one re-roll (NA, NB, lower halves, at y less that die) and Lucky on a locked
    Mutant or Science then one re-roll (PA, PB). S becomes the chances, LB the risks."""
    r = 0
    b5 = DICE + 5
    e5 = C5[b5 - 1] - SIXES
    work = w[0]
    empty_a, empty_b = small[0], small[1]
    for b4 in range(4, b5):
        e4 = e5 + C4[b4 - 1]
        c5 = b5 - b4 - 1
        for b3 in range(3, b4):
            e3 = e4 + C3[b3 - 1]
            c4 = b4 - b3 - 1
            for b2 in range(2, b3):
                work += C2[b2] * _COST_LUCKY1
                if work > SLICE:
                    work = C2[b2] * _COST_LUCKY1
                    yield
                e2 = e3 + C2[b2 - 1]
                c3 = b3 - b2 - 1
                for b1 in range(1, b2):
                    e1 = e2 + b1 - 1
                    c2 = b2 - b1 - 1
                    for b0 in range(b1):
                        k = S[r]
                        a = (k + ROUND) >> 14
                        b = (a * KEY - k) * 36
                        a *= 36
                        if b1 == 1:  # no Mutant, no Science: keeping none, or one free die
                            if empty_a > a or (empty_a == a and empty_b < b):
                                a, b = empty_a, empty_b
                            for f in range(2, DICE):
                                i = 2 * (DICE - f)
                                if (c2 if f == 2 else c3 if f == 3 else c4 if f == 4 else c5) and (
                                    small[i] > a or (small[i] == a and small[i + 1] < b)
                                ):
                                    a, b = small[i], small[i + 1]
                        elif b1 == 2:  # one Mutant or one Science: keeping it alone
                            i = 2 * (DICE - 1 + b0)  # b0 = 1: the Mutant, at rank 6
                            if small[i] > a or (small[i] == a and small[i + 1] < b):
                                a, b = small[i], small[i + 1]
                        if b0:
                            i = r - e1 - 1 - FIVE
                            x = PA[i]
                            if x > a or (x == a and PB[i] < b):
                                a, b = x, PB[i]
                        if b1 - b0 > 1:
                            i = r - e1 - FIVE
                            x = PA[i]
                            if x > a or (x == a and PB[i] < b):
                                a, b = x, PB[i]
                        if c2:
                            x = NA[r - e2]
                            if x > a or (x == a and NB[r - e2] < b):
                                a, b = x, NB[r - e2]
                        if c3:
                            x = NA[r - e3]
                            if x > a or (x == a and NB[r - e3] < b):
                                a, b = x, NB[r - e3]
                        if c4:
                            x = NA[r - e4]
                            if x > a or (x == a and NB[r - e4] < b):
                                a, b = x, NB[r - e4]
                        if c5:
                            x = NA[r - e5]
                            if x > a or (x == a and NB[r - e5] < b):
                                a, b = x, NB[r - e5]
                        S[r] = a
                        LB[r] = b
                        r += 1
    w[0] = work
