"""The re-roll advisor's search when the hero has Lucky left (core/games/battlerealm/advisor.py asks it).

Lucky's single-die re-roll may come now (on any die, a locked one too, which stays locked),
between the re-rolls or after the last; `best_first_move` weighs every order.
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


from dicetower.core.games.battlerealm.keeps import (
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
from dicetower.core.games.battlerealm.ranks import (
    C1,
    C2,
    C3,
    C4,
    C5,
    C6,
    COST_KEEP,
    DICE,
    KEY,
    NONE,
    PAIR,
    POW6,
    ROUND,
    SIXES,
    _base,
    _over,
    _slot,
    _spread,
)
from dicetower.core.games.battlerealm.lucky_tables import WORK, add_to, lucky0, lucky1, spread_lucky0, sums5

_COST_KEY = const(30)  # one keep in _best_key
_COST_PAIR = const(40)  # one add_scaled


def best_first_move(counts, free, rerolls, goal, best, out, w):  # noqa: C901 (a kernel: loops in one frame, no call per entry)
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
    and PA, PB at once: 11 KB). 0-3 are ranks.py's (`_slot`), 4-6 lucky_tables.py's (WORK).
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
        yield from lucky0(TL, TH, SH, w)
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
        small = yield from spread_lucky0(SL, SH, m, w)
        if _over(w, keep_count(counts) * COST_KEEP):
            yield
        found = best_keep(free, counts[0], counts[1], True, SL, None, 8, as_pairs(small, 6), best)
        out[0], out[1] = _lucky_faces(faces, sums, best, found)
        return
    G = _slot(2)  # the ranks of at most five dice
    GB = _slot(3)
    PA = WORK[1]
    PB = WORK[2]
    acc = [0, 0, 0, 0]
    for e in range(2, DICE):
        G[0] = TL[DICE - e]  # the frozen die alone
        yield from keep_best(G, G, DICE - 2, w, TL, TH, e)
        yield from best_top(G, G, GB, DICE - 1, 6, None, None, w, TL, TH, e)  # units 6^6
        yield from add_to(PA, PB, G, GB, e == 2, w)
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
    yield from lucky0(TL, TH, SH, w)
    SL = _slot(3)  # for now: the keeps of S's six dice need S's spread
    small = yield from spread_lucky0(SL, SH, m, w)
    for r in range(DICE + 1):
        SL[r] = NONE  # keeps of one die or none: `small`, in lucky1
    yield from keep_best(SL, SH, DICE, w)
    SL = None

    # N1 from T, in place; its risks NB.
    yield from keep_best(TL, TL, DICE - 1, w)
    NBH = _slot(3)
    NBL = WORK[0]
    yield from best_top(TH, TL, NBH, DICE, 6, empty[0], empty[1], w)
    yield from sums5(PA, PB, TH, NBH, w)
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
    yield from lucky1(SH, LBH, TL, NBL, PA, PB, small, w)
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
