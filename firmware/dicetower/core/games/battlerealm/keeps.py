"""Choosing and weighing keeps over a table, for the re-roll advisor (core/games/battlerealm/advisor.py).

With a re-roll left, the value of a roll is the best entry over its sub-multisets that keep the
locked dice (`keep_best`, one pass, in place; `best_top` for the dice just rolled). A keep's
value is the mean over the dice it re-rolls, added up as (high, low) pairs so that no big
integer is made (`best_keep`, `add_scaled`).
"""

import micropython
from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

try:
    from micropython import ptr32  # the annotations of a Viper pass: CPython's stand-in
except ImportError:
    pass  # a board's Viper has it built in; bytecode never reads an annotation


from dicetower.core.games.battlerealm.ranks import (
    C1,
    C2,
    C3,
    C4,
    C5,
    C6,
    DICE,
    HT,
    KEY,
    LT,
    QT,
    ROUND,
    SIX6,
    SIXES,
    SLICE,
)

_COST_BEST = const(32)
_COST_TOP = const(55)


def keep_best(L, H, last, w, SL=None, SH=None, e=DICE):  # noqa: C901 (a kernel: loops in one frame, no call per entry)
    """In place, every key of the table up to `last` dice becomes the best over its sub-multisets
    with the same Mutant and Science (the keeps open to a re-roll: locked dice stay). A key of NONE
    is never chosen. With a source SL, SH and a face e (2-5), each entry's own key is read from
    the source at its dice and one more showing e (Lucky froze that die: the table is of the
    others): rank 0 is set by the caller."""
    r = 0
    work = w[0]
    T = L  # the half that holds layer b5 - 5
    for b5 in range(5, last + 6):
        e5 = C5[b5 - 1]
        if b5 == DICE + 5:
            T = H
            r = 0
            e5 -= SIXES
        U = T  # where an entry's own key is read, at r + o
        o5 = 0
        if e < DICE:
            U = SL
            o5 = C5[b5]
            if b5 == DICE + 4:
                U = SH
                o5 -= SIXES
        for b4 in range(4, b5):
            e4 = e5 + C4[b4 - 1]
            p5 = b5 - b4 > 1
            o4 = o5 + C4[b4] if e < 5 else o5
            for b3 in range(3, b4):
                work += C3[b3] * _COST_BEST
                if work > SLICE:
                    work = C3[b3] * _COST_BEST
                    yield
                r = _best_rows(
                    T, U, L, r, b3, e4 + C3[b3 - 1], e4, e5, o4 + C3[b3] if e < 4 else o4, b4 - b3 > 1, p5, e
                )
    w[0] = work


@micropython.viper
def _best_rows(  # noqa: C901 (a kernel: loops in one frame, no call per entry)
    T: ptr32, U: ptr32, L: ptr32, r: int, b3: int, e3: int, e4: int, e5: int, o3: int, p4: int, p5: int, e: int
) -> int:
    """keep_best's entries of one b3, from rank r; returns the rank after them. Viper: machine words,
    the keys below 2^30."""
    b2 = 2
    while b2 < b3:
        c = ((b2 - 1) * (b2 - 2)) >> 1  # C2[b2 - 1]: the first entries show a Skill (c2 > 0), the others none
        e2 = e3 + c
        p3 = 0
        if b3 - b2 > 1:
            p3 = 1
        o = o3
        if e < 3:
            o = o3 + ((b2 * (b2 - 1)) >> 1)  # + C2[b2]
        mid = r + c
        while r < mid:
            k = U[r + o]
            q = L[r - e2]
            if q > k:
                k = q
            if p3:
                q = L[r - e3]
                if q > k:
                    k = q
            if p4:
                q = L[r - e4]
                if q > k:
                    k = q
            if p5:
                q = L[r - e5]
                if q > k:
                    k = q
            T[r] = k
            r += 1
        hi = mid + b2 - 1
        if p3 or p4 or p5:
            while r < hi:
                k = U[r + o]
                if p3:
                    q = L[r - e3]
                    if q > k:
                        k = q
                if p4:
                    q = L[r - e4]
                    if q > k:
                        k = q
                if p5:
                    q = L[r - e5]
                    if q > k:
                        k = q
                T[r] = k
                r += 1
        elif e < 6:  # only Mutant and Science: nothing to choose
            while r < hi:
                T[r] = U[r + o]
                r += 1
        r = hi
        b2 += 1
    return r


def best_top(T, L, B, n, times, empty_a, empty_b, w, SL=None, SH=None, e=DICE):  # noqa: C901 (a kernel: loops in one frame, no call per entry)
    """keep_best's last layer, n dice (the ones below done, in L), decoded: the best key's chance *
    times in T, its risk * times in B (T, B: the halves that hold layer n). Where no Mutant or
    Science is in the table's dice, keeping none of them (empty_a, empty_b, in the new unit; None:
    not open) is weighed too (a re-roll of all). SL, SH, e: as keep_best has them."""
    b5 = n + 5
    base = SIXES if n == DICE else 0
    r = C6[b5] - base
    e5 = C5[b5 - 1] - base
    work = w[0]
    U = T  # where an entry's own key is read, at r + o
    o5 = 0
    if e < DICE:
        U = SL
        o5 = C5[b5]
        if b5 == DICE + 4:
            U = SH
            o5 -= SIXES
    for b4 in range(4, b5):
        e4 = e5 + C4[b4 - 1]
        p5 = b5 - b4 > 1
        o4 = o5 + C4[b4] if e < 5 else o5
        for b3 in range(3, b4):
            work += C3[b3] * _COST_TOP
            if work > SLICE:
                work = C3[b3] * _COST_TOP
                yield
            r = _top_rows(
                T,
                B,
                U,
                L,
                r,
                b3,
                e4 + C3[b3 - 1],
                e4,
                e5,
                o4 + C3[b3] if e < 4 else o4,
                b4 - b3 > 1,
                p5,
                e,
                times,
                empty_a is not None,
                empty_a or 0,
                empty_b or 0,
            )
    w[0] = work


@micropython.viper
def _top_rows(  # noqa: C901 (a kernel: loops in one frame, no call per entry)
    T: ptr32,
    B: ptr32,
    U: ptr32,
    L: ptr32,
    r: int,
    b3: int,
    e3: int,
    e4: int,
    e5: int,
    o3: int,
    p4: int,
    p5: int,
    e: int,
    times: int,
    empty: int,
    empty_a: int,
    empty_b: int,
) -> int:
    """best_top's entries of one b3, from rank r; returns the rank after them. Viper: machine words
    (keys below 2^30; a chance below 2^16 and a risk below 2^14 times `times`). KEY and ROUND are
    written out: Viper reads another module's const() as an object."""
    b2 = 2
    while b2 < b3:
        c = ((b2 - 1) * (b2 - 2)) >> 1  # C2[b2 - 1]: the entries before mid show a Skill
        e2 = e3 + c
        p3 = 0
        if b3 - b2 > 1:
            p3 = 1
        o = o3
        if e < 3:
            o = o3 + ((b2 * (b2 - 1)) >> 1)  # + C2[b2]
        first = r  # no Mutant, no Science: keeping none of the dice is open
        mid = r + c
        end = mid + b2 - 1
        while r < end:
            k = U[r + o]
            if r < mid:
                q = L[r - e2]
                if q > k:
                    k = q
            if p3:
                q = L[r - e3]
                if q > k:
                    k = q
            if p4:
                q = L[r - e4]
                if q > k:
                    k = q
            if p5:
                q = L[r - e5]
                if q > k:
                    k = q
            a = (k + 16383) >> 14  # ROUND, KEY's shift
            T[r] = a * times
            B[r] = ((a << 14) - k) * times
            r += 1
        if empty:
            if empty_a > T[first] or (empty_a == T[first] and empty_b < B[first]):
                T[first] = empty_a
                B[first] = empty_b
        b2 += 1
    return r


def layer1(T, times):
    """The sum of the six one-die keys of T (the mean of a re-roll of every die), decoded, times `times`."""
    a = b = 0
    for r in range(1, DICE + 1):
        k = T[r]
        x = (k + ROUND) >> 14
        a += x
        b += x * KEY - k
    return a * times, b * times


# -- Weighing keeps: values as (high, low) pairs, high * 6^6 + low in the answer's unit -------------


def add_scaled(acc, i, v, t):
    """acc[i], acc[i + 1] += v * 6^t (a pair)."""
    lo = acc[i + 1] + v % QT[t] * LT[t]
    acc[i] += v // QT[t] * HT[t] + lo // SIX6
    acc[i + 1] = lo % SIX6


def add_pair(acc, i, src, j):
    """acc[i], acc[i + 1] += the pair src[j], src[j + 1]."""
    lo = acc[i + 1] + src[j + 1]
    acc[i] += src[j] + lo // SIX6
    acc[i + 1] = lo % SIX6


def best_keep(free, h0, h1, skip_all, A, B, t0, low, best, AH=None, BH=None):
    """Every keep of the free dice (free[2..5]; h0 Mutant and h1 Science always kept), most dice
    first, against best = [chance high, low, risk high, low], raised to any keep strictly above it.
    Returns the best keep as k2 | k3 << 3 | k4 << 6 | k5 << 9, or -1.

    A keep of rank r: with B None, A[r] is a key worth (chance, risk) * 6^t0; else A[r], B[r] are
    worth * 6^(t0 + its dice). Ranks below len(low) // 4 (none, one die) are pairs in low. A, B
    are the lower halves, AH, BH the upper (a keep of six dice). skip_all leaves out keeping
    every die (finalizing, weighed apart)."""
    found = -1
    nlow = len(low) // 4 if low else 0
    all_free = free[2] + free[3] + free[4] + free[5]
    x0 = best[0]  # one by one: four targets at once would build a tuple
    x1 = best[1]
    x2 = best[2]
    x3 = best[3]
    q = QT[t0]
    h = HT[t0]
    m = LT[t0]
    b1 = h0 + h1 + 1
    r1 = C1[h0] + C2[b1]
    for k2 in range(free[2], -1, -1):
        b2 = b1 + k2 + 1
        r2 = r1 + C3[b2]
        for k3 in range(free[3], -1, -1):
            b3 = b2 + k3 + 1
            r3 = r2 + C4[b3]
            for k4 in range(free[4], -1, -1):
                b4 = b3 + k4 + 1
                r4 = r3 + C5[b4]
                for k5 in range(free[5], -1, -1):
                    if skip_all and k2 + k3 + k4 + k5 == all_free:
                        continue
                    b5 = b4 + k5 + 1
                    r = r4 + C6[b5]
                    if r < nlow:
                        ah = low[4 * r]
                        al = low[4 * r + 1]
                        bh = low[4 * r + 2]
                        bl = low[4 * r + 3]
                    else:
                        X = A
                        Y = B
                        if r >= SIXES:
                            X = AH
                            Y = BH
                            r -= SIXES
                        if B is None:
                            k = X[r]
                            a = (k + ROUND) >> 14
                            b = a * KEY - k
                        else:
                            a = X[r]
                            b = Y[r]
                            t = t0 + b5 - 5
                            q = QT[t]
                            h = HT[t]
                            m = LT[t]
                        ah = a // q * h
                        al = a % q * m
                        bh = b // q * h
                        bl = b % q * m
                    if ah > x0 or (ah == x0 and (al > x1 or (al == x1 and (bh < x2 or (bh == x2 and bl < x3))))):
                        x0 = ah
                        x1 = al
                        x2 = bh
                        x3 = bl
                        found = k2 | k3 << 3 | k4 << 6 | k5 << 9
    best[0] = x0
    best[1] = x1
    best[2] = x2
    best[3] = x3
    return found


def keep_count(counts):
    """How many keeps the free dice of `counts` have."""
    return (counts[2] + 1) * (counts[3] + 1) * (counts[4] + 1) * (counts[5] + 1)


def free_of(counts, free):
    free[0] = free[1] = 0
    for s in range(2, DICE):
        free[s] = counts[s]
    return free


def as_pairs(values, t):
    """[a, b, ...] (non-negative) as pairs: [a * 6^t high, low, b * 6^t high, low, ...]."""
    out = [0] * (2 * len(values))
    for i in range(len(values)):
        add_scaled(out, 2 * i, values[i], t)
    return out
