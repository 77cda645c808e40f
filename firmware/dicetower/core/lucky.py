"""The re-roll advisor's search when the hero has Lucky left (core/advisor.py asks it).

Lucky's single-die re-roll may come now (on any die, a locked one too, which stays locked),
between the re-rolls or after the last; `best_first_move` weighs every order.
"""

try:
    from micropython import const
except ImportError:  # CPython: a constant is its value

    def const(x):  # type: ignore[misc]
        return x


from dicetower.core.keeps import (
    add_scaled,
    add_pair,
    best_top,
    keep_count,
    free_of,
    keep_best,
    best_keep,
    layer1,
    as_pairs,
)
from dicetower.core.ranks import (
    C1,
    C2,
    C3,
    C4,
    C5,
    C6,
    COST_KEEP,
    DICE,
    FIVE,
    KEY,
    NONE,
    PAIR,
    POW6,
    ROUND,
    SIXES,
    SLICE,
    _base,
    _over,
    _slot,
    _spread,
)
from dicetower.core.work_arrays import FIVES

_COST_ADD = const(20)
_COST_LUCKY0 = const(44)
_COST_LUCKY1 = const(90)
_COST_SUMS5 = const(32)
_COST_KEY = const(30)  # one keep in _best_key
_COST_PAIR = const(40)  # one add_scaled


def best_first_move(counts, free, rerolls, goal, best, out, w):
    """Lucky left and 1 or 2 re-rolls: the best first move over every order of Lucky's re-roll and
    the re-rolls. Raises best (pairs, units 6^13); out = [keep code or -1, the face Lucky re-rolls
    now or -1].

    Tables over every roll of at most six dice:
      T   keys of the chance of finalizing, by the dice kept (units 6^5), spread from six dice;
      G   N1 (below) with one die frozen at e (Lucky took a locked Mutant or Science to e: it
          stays locked), for the five other dice, from T; P adds up the six faces Lucky can
          give that die (PA, and the risks PB);
      S   L0: finalize, or Lucky on one die then finalize (six dice, from T); then its spread:
          the keeps with Lucky;
      N   N1: no Lucky, one re-roll: the best keep of T (units 6^6), made from T in place once G
          and S are done with T; its sums over the dice rolled give Q (Lucky on a free die, then
          N1), P's other part and the keeps of N2 (two re-rolls);
      L1  Lucky and one re-roll: the best of S's keeps, Lucky on a free die (Q), on a locked one (P).
    With one re-roll left the first move is a keep of S, or Lucky now then N1 (from T, at the
    few dice Lucky can leave); with two, a keep of L1 spread, or Lucky now then N2.
    Work arrays: T 0-1; G 2, its risks 3; PA, PB 5-6; S's upper half 2, its lower 3 for a while;
    N's risks 3 (upper) and 4; L1's risks 3 (upper) and 0, S's lower half 1 (at most five halves
    and PA, PB at once: 11 KB).
    """
    TL = _slot(0)
    TH = _slot(1)
    yield from _base(TH, DICE, bytes(DICE), goal, POW6[5], w)
    yield from _spread(TL, TH, DICE, 1, True, w)
    empty = layer1(TL, 1)  # N1's keep of no die, units 6^6
    TL[0] = NONE
    m = counts[0] + counts[1]  # the Mutant and Science locked: every keep now holds them
    c = bytearray(counts)
    spare = bytearray(DICE)
    sums = [0] * (4 * DICE)  # per face Lucky takes now: the mean of its six outcomes (pairs)
    faces = [f for f in range(DICE) if counts[f]]
    if rerolls == 1:
        SH = _slot(2)
        yield from _lucky0(TL, TH, SH, w)
        for f in faces:
            c[f] -= 1
            a = b = 0
            for s in range(DICE):
                if _over(w, keep_count(c) * _COST_KEY):
                    yield
                if f < 2 and s >= 2:
                    x, y = _best_key(TL, TH, c, s, None)  # a locked die come up s stays locked
                else:
                    c[s] += 1
                    x, y = _best_key(TL, TH, c, -1, empty)
                    c[s] -= 1
                a += x
                b += y
            c[f] += 1
            add_scaled(sums, 4 * f, a, 6)
            add_scaled(sums, 4 * f + 2, b, 6)
        SL = TL  # T is done with
        small = yield from _spread_lucky0(SL, SH, m, w)
        if _over(w, keep_count(counts) * COST_KEEP):
            yield
        found = best_keep(free, counts[0], counts[1], True, SL, None, 8, as_pairs(small, 6), best)
        out[0], out[1] = _lucky_faces(faces, sums, best, found)
        return
    G = _slot(2)  # the ranks of at most five dice
    GB = _slot(3)
    PA = _slot(5)
    PB = _slot(6)
    acc = [0, 0, 0, 0]
    for e in range(2, DICE):
        G[0] = TL[DICE - e]  # the frozen die alone
        yield from keep_best(G, G, DICE - 2, w, TL, TH, e)
        yield from best_top(G, G, GB, DICE - 1, 6, None, None, w, TL, TH, e)  # units 6^6
        yield from _add_to(PA, PB, G, GB, e == 2, w)
        if not m:
            continue
        # Lucky now on a locked Mutant or Science that comes up e: N2 with that die frozen, from
        # G's sums over the dice rolled (units 6^(11 - dice kept)).
        yield from _spread(G, G, DICE - 1, m - 1, False, w)
        yield from _spread(GB, GB, DICE - 1, m - 1, False, w)
        for f in range(2):
            if counts[f]:
                c[f] -= 1
                if _over(w, keep_count(c) * COST_KEEP):
                    yield
                acc[0] = -1
                best_keep(free_of(c, spare), c[0], c[1], False, G, GB, 1, None, acc)
                c[f] += 1
                add_pair(sums, 4 * f, acc, 0)
                add_pair(sums, 4 * f + 2, acc, 2)
    G = GB = None
    SH = _slot(2)
    yield from _lucky0(TL, TH, SH, w)
    SL = _slot(3)  # for now: the keeps of S's six dice need S's spread
    small = yield from _spread_lucky0(SL, SH, m, w)
    for r in range(DICE + 1):
        SL[r] = NONE  # keeps of one die or none: `small`, in _lucky1
    yield from keep_best(SL, SH, DICE, w)
    SL = None

    # N1 from T, in place; its risks NB.
    yield from keep_best(TL, TL, DICE - 1, w)
    NBH = _slot(3)
    NBL = _slot(4)
    yield from best_top(TH, TL, NBH, DICE, 6, empty[0], empty[1], w)
    yield from _sums5(PA, PB, TH, NBH, w)
    low = min(max(m, 1), DICE - 1)  # Q needs five dice; N2's keeps hold m at least; sums of none overflow
    yield from _spread(TL, TH, DICE, low, False, w)
    yield from _spread(NBL, NBH, DICE, low, False, w)

    # Lucky now: N2 (units 6^12) at each outcome, added up (their mean in units of 6^13).
    none = [0, 0, 0, 0]
    if not m:
        for r in range(1, DICE + 1):
            add_scaled(none, 0, TL[r], 0)
            add_scaled(none, 2, NBL[r], 0)
    if _over(w, keep_count(counts) * COST_KEEP):
        yield
    here = [-1, 0, 0, 0]  # the outcome where Lucky shows the same face: the dice as they are
    best_keep(free, counts[0], counts[1], False, TL, NBL, 0, none, here, TH, NBH)
    for f in faces:
        c[f] -= 1
        for s in range(DICE):
            if f < 2 and s >= 2:
                continue  # frozen: added above
            if s == f:
                acc[:] = here
            else:
                c[s] += 1
                if _over(w, keep_count(c) * COST_KEEP):
                    yield
                acc[0] = -1
                best_keep(free_of(c, spare), c[0], c[1], False, TL, NBL, 0, none, acc, TH, NBH)
                c[s] -= 1
            add_pair(sums, 4 * f, acc, 0)
            add_pair(sums, 4 * f + 2, acc, 2)
        c[f] += 1

    LBH = _slot(3)  # N's upper halves are done with
    yield from _lucky1(SH, LBH, TL, NBL, PA, PB, small, w)
    PA = PB = None
    SL = _slot(1)
    LBL = _slot(0)  # N is done with
    low = max(m, 2)  # sums of two dice are below 6^11; fewer are added up as pairs below
    yield from _spread(SL, SH, DICE, low, False, w)
    yield from _spread(LBL, LBH, DICE, low, False, w)

    # The keeps of L1 spread (units 6^13); one die and none are added up from two dice.
    one = [0] * (4 * DICE + 4)  # none at 0, one die showing f at 4 * (6 - f): by rank
    if m < 2:
        for f in range(DICE):
            if _over(w, 4 * DICE * _COST_PAIR):
                yield
            for s in range(DICE):
                i = PAIR[6 * f + s]
                add_scaled(one, 4 * (DICE - f), SL[i], 1)
                add_scaled(one, 4 * (DICE - f) + 2, LBL[i], 1)
                add_scaled(one, 0, SL[i], 0)
                add_scaled(one, 2, LBL[i], 0)
    if _over(w, keep_count(counts) * COST_KEEP):
        yield
    found = best_keep(free, counts[0], counts[1], True, SL, LBL, 0, one, best)
    out[0], out[1] = _lucky_faces(faces, sums, best, found)


def _lucky_faces(faces, sums, best, found):
    """Lucky now on each face shown, against best: (keep code or -1, face or -1)."""
    face = -1
    for f in faces:
        x = sums[4 * f : 4 * f + 4]
        if x[0] > best[0] or (
            x[0] == best[0]
            and (x[1] > best[1] or (x[1] == best[1] and (x[2] < best[2] or (x[2] == best[2] and x[3] < best[3]))))
        ):
            best[:] = x
            face = f
    return (-1 if face >= 0 else found), face


def _best_key(TL, TH, counts, extra, empty):
    """The best keep of the dice `counts` (Mutant and Science kept) in the key table TL, TH, with
    one more die showing `extra` (2-5) frozen in every keep, or -1: (chance, risk) in units of 6^6.
    `empty` is keeping nothing (units 6^6), open where no Mutant or Science shows."""
    x2, x3, x4, x5 = extra == 2, extra == 3, extra == 4, extra == 5
    b1 = counts[0] + counts[1] + 1
    r1 = C1[counts[0]] + C2[b1]
    best = NONE
    for k2 in range(counts[2] + 1):
        b2 = b1 + k2 + x2 + 1
        r2 = r1 + C3[b2]
        for k3 in range(counts[3] + 1):
            b3 = b2 + k3 + x3 + 1
            r3 = r2 + C4[b3]
            for k4 in range(counts[4] + 1):
                b4 = b3 + k4 + x4 + 1
                r4 = r3 + C5[b4]
                for k5 in range(counts[5] + 1):
                    r = r4 + C6[b4 + k5 + x5 + 1]
                    k = TL[r] if r < SIXES else TH[r - SIXES]
                    if k > best:
                        best = k
    a = (best + ROUND) >> 14
    a, b = a * 6, (a * KEY - best) * 6
    if empty is not None and extra < 0 and not counts[0] and not counts[1]:
        if empty[0] > a or (empty[0] == a and empty[1] < b):
            return empty
    return a, b


def _lucky0(TL, TH, S, w):
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


def _spread_lucky0(SL, SH, m, w):
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


def _sums5(PA, PB, NA, NB, w):
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


def _add_to(PA, PB, GA, GB, first, w):
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


def _lucky1(S, LB, NA, NB, PA, PB, small, w):
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
