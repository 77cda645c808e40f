"""The re-roll advisor: which dice to keep so that a power card is paid, and the exact chance.

`advise(faces, locked, rerolls_left, lucky_left, goal)` returns the choice
that maximises the chance that the finalized dice satisfy `goal`
(`cards.Goal`: a card, or any of the hero's cards, at the hero's
location), playing the remaining re-rolls optimally, and that chance as an
exact fraction; and, under the same play, the chance that the roll ends in
the Crystal Prison or an Explosion. Ties go to the lower risk, then to
re-rolling fewer dice. Mutant and Science lock when they show: a re-roll
only ever takes dice that show Skill, Tech, Cosmic or Mystic.

Lucky: the search covers every order core/roll.py allows: Lucky's
single-die re-roll now (on any die, a locked one too, which stays locked),
between the re-rolls or after the last; the first move is a re-roll of a
set of dice, Lucky on one die (`Advice.lucky`), or finalizing
(`_lucky_plan`). It costs about 2.3 times the tables of a plan without
Lucky (README, "Lucky").

How: only the counts of each symbol matter, so a roll is a multiset, and
the multisets of at most n dice are ranked 0..C(n+6, 6)-1 (colex rank of
the stars-and-bars positions: b_j = c_0 + ... + c_j + j). A table over the
ranks holds, for dice fixed so far, the chance over the dice still to roll:
each entry is the mean of the six entries with one more die
(`_spread`). With one re-roll left the value of a full roll is the best
entry over its sub-multisets that keep the locked dice (`_keep_best`,
one pass, in place). Everything is integers (chances times 6^6, or 6^7
with Lucky), so the answer is exact and no float is made on the way; two
int arrays over at most 924 ranks are the whole memory.
"""

from array import array

from dicetower.core.cards import PAYS, RISK

DICE = 6
def _binom(b, j):
    if j < 0 or b < j:
        return 0
    out = 1
    for i in range(j):
        out = out * (b - i) // (i + 1)
    return out


# C[j][b] = binomial(b, j), for the ranks.
C = tuple(tuple(_binom(b, j) for b in range(DICE + 7)) for j in range(DICE + 1))
C1, C2, C3, C4, C5, C6 = C[1], C[2], C[3], C[4], C[5], C[6]
SIX6 = 6 ** 6


class Advice:
    """What to do now, and the chances of the plan.

    reroll  die indices (0-5) to re-roll now; [] and lucky -1 mean finalize
    lucky   the die to give Lucky's re-roll now (then ask again), or -1
    A chance is kept as (high * 6^6 + low) / (scale * 6^6), so that no big integer
    is made on a Pico; `chance()` and `risk()` give exact fractions when asked.
    """

    def __init__(self, reroll, lucky, chance_hi, chance_lo, risk_hi, risk_lo, scale):
        self.reroll = reroll
        self.lucky = lucky
        self._chance = (chance_hi, chance_lo)
        self._risk = (risk_hi, risk_lo)
        self.scale = scale

    def chance(self):
        """The chance of paying, as an exact (numerator, denominator)."""
        return self._chance[0] * SIX6 + self._chance[1], self.scale * SIX6

    def risk(self):
        """The chance of the Crystal Prison or an Explosion, as an exact (numerator, denominator)."""
        return self._risk[0] * SIX6 + self._risk[1], self.scale * SIX6

    def percent(self, risk=False):
        """A chance as a whole percentage, rounded down (100 only when certain), in small integers."""
        hi, lo = self._risk if risk else self._chance
        return (100 * hi + 100 * lo // SIX6) // self.scale

    def __repr__(self):
        return "Advice(reroll=%r, lucky=%d, chance=%d/%d, risk=%d/%d)" % ((self.reroll, self.lucky) + self.chance()
                                                                         + self.risk())


def rank(counts):
    """The rank of a multiset given as counts in SYMBOLS order."""
    r = 0
    b = -1
    for j in range(DICE):
        b += counts[j] + 1
        r += C[j + 1][b]
    return r


def _base(A, B, n, goal, extra, scale):
    """Full rolls of n dice: A = scale if the goal is met, B = scale if Prison or Explosion."""
    counts = bytearray(extra)
    check = goal.check
    r = C6[n + 5]
    b5 = n + 5
    for b4 in range(4, b5):
        counts[5] = b5 - b4 - 1 + extra[5]
        for b3 in range(3, b4):
            counts[4] = b4 - b3 - 1 + extra[4]
            for b2 in range(2, b3):
                counts[3] = b3 - b2 - 1 + extra[3]
                for b1 in range(1, b2):
                    counts[2] = b2 - b1 - 1 + extra[2]
                    for b0 in range(b1):
                        counts[0] = b0 + extra[0]
                        counts[1] = b1 - b0 - 1 + extra[1]
                        bits = check(counts)
                        A[r] = scale if bits & PAYS else 0
                        B[r] = scale if bits & RISK else 0
                        r += 1


def _spread(A, n, scaled, floor):
    """Entries for fewer than n dice (down to `floor` dice): the sum, or mean if scaled, of one more die."""
    r = C6[n + 5] - 1
    for b5 in range(n + 4, floor + 4, -1):
        d5 = C5[b5]
        for b4 in range(b5 - 1, 3, -1):
            d4 = d5 + C4[b4]
            for b3 in range(b4 - 1, 2, -1):
                d3 = d4 + C3[b3]
                for b2 in range(b3 - 1, 1, -1):
                    d2 = d3 + C2[b2]
                    for b1 in range(b2 - 1, 0, -1):
                        d1 = d2 + b1
                        for _ in range(b1):
                            t = A[r + d1 + 1] + A[r + d1] + A[r + d2] + A[r + d3] + A[r + d4] + A[r + d5]
                            A[r] = t // 6 if scaled else t
                            r -= 1


def _better(a, b, best_a, best_b):
    return a > best_a or (a == best_a and b < best_b)


def _best_of(A, B, m, q):
    """Of entries m and q, the better one's index (an index, not a pair: nothing is allocated)."""
    return q if _better(A[q], B[q], A[m], B[m]) else m


def _above(a_hi, a_lo, b_hi, b_lo, c_hi, c_lo, r_hi, r_lo):
    """Whether chance a with risk b beats chance c with risk r, each a (high, low) pair."""
    if a_hi != c_hi:
        return a_hi > c_hi
    if a_lo != c_lo:
        return a_lo > c_lo
    if b_hi != r_hi:
        return b_hi < r_hi
    return b_lo < r_lo


def _keep_best(A, B, n):
    """In place, every entry becomes the best over its sub-multisets with the same Mutant and Science.

    Those are the keeps open to a re-roll: locked dice stay. Ties: lower risk,
    then more dice kept.
    """
    r = 0
    for b5 in range(5, n + 6):
        e5 = C5[b5 - 1]
        for b4 in range(4, b5):
            e4 = e5 + C4[b4 - 1]
            p5 = b5 - b4 > 1
            for b3 in range(3, b4):
                e3 = e4 + C3[b3 - 1]
                p4 = b4 - b3 > 1
                for b2 in range(2, b3):
                    e2 = e3 + C2[b2 - 1]
                    p3 = b3 - b2 > 1
                    for b1 in range(1, b2):
                        p2 = b2 - b1 > 1
                        for _ in range(b1):
                            m = r
                            if p2:
                                m = _best_of(A, B, m, r - e2)
                            if p3:
                                m = _best_of(A, B, m, r - e3)
                            if p4:
                                m = _best_of(A, B, m, r - e4)
                            if p5:
                                m = _best_of(A, B, m, r - e5)
                            A[r] = A[m]
                            B[r] = B[m]
                            r += 1


def _take(A, B, r, QA, QB, q):
    """Entry r of A, B becomes entry q of QA, QB if that is better (no tuple: nothing allocated)."""
    if _better(QA[q], QB[q], A[r], B[r]):
        A[r] = QA[q]
        B[r] = QB[q]


def _lucky_best(A, B, QA, QB, PA, PB, poff):
    """Full rolls of six dice: each entry becomes the best of itself and Lucky's re-roll of one die.

    The entry for the dice with one die fewer (showing f) gives the value of
    that re-roll: Q's if f is free, P's (at rank - poff) if f is a locked
    Mutant or Science. Finalizing after it: Q = P = the table itself.
    """
    r = C6[DICE + 5]
    b5 = DICE + 5
    e5 = C5[b5 - 1]
    for b4 in range(4, b5):
        e4 = e5 + C4[b4 - 1]
        for b3 in range(3, b4):
            e3 = e4 + C3[b3 - 1]
            for b2 in range(2, b3):
                e2 = e3 + C2[b2 - 1]
                for b1 in range(1, b2):
                    e1 = e2 + C1[b1 - 1]
                    for b0 in range(b1):
                        # One die fewer of each face shown: Mutant, Science (locked), then the free faces.
                        if b0 > 0:
                            _take(A, B, r, PA, PB, r - e1 - 1 - poff)
                        if b1 - b0 > 1:
                            _take(A, B, r, PA, PB, r - e1 - poff)
                        if b2 - b1 > 1:
                            _take(A, B, r, QA, QB, r - e2)
                        if b3 - b2 > 1:
                            _take(A, B, r, QA, QB, r - e3)
                        if b4 - b3 > 1:
                            _take(A, B, r, QA, QB, r - e4)
                        if b5 - b4 > 1:
                            _take(A, B, r, QA, QB, r - e5)
                        r += 1


def _sum_up(A, counts, size, floor, acc):
    """Add a layer's entry for `counts` to acc as (entry // 6^6, entry % 6^6), adding up from
    `floor` dice where the table stops: the sums for fewer dice outgrow a small integer."""
    if size >= floor:
        v = A[rank(counts)]
        acc[0] += v // SIX6
        acc[1] += v % SIX6
        return
    for s in range(DICE):
        counts[s] += 1
        _sum_up(A, counts, size + 1, floor, acc)
        counts[s] -= 1


def _entry(A, counts, size, floor, acc, n, rerolls):
    """The entry for the keep `counts` as a (high, low) pair in acc[2], acc[3]: high * 6^6 + low
    in the common unit (a returned tuple would cost heap for every keep)."""
    acc[0] = acc[1] = 0
    _sum_up(A, counts, size, floor, acc)
    if rerolls == 1:
        acc[2] = acc[0] * SIX6 + acc[1]
        acc[3] = 0
        return
    # The entry is a chance times scale * 6^(n - size) (the dice rolled last); times 6^(6 - n + size)
    # it is in the common unit, scale * 6^6.
    shift = 6 - n + size
    hi = acc[0] + acc[1] // SIX6
    lo = acc[1] % SIX6
    unit = 6 ** (6 - shift)
    acc[2] = hi * 6 ** shift + lo // unit
    acc[3] = lo % unit * 6 ** shift


def _finalize_option(goal, counts, lucky, scale):
    """Finalizing now, or after Lucky's re-roll of one die: (chance, risk, face to re-roll or -1)."""
    bits = goal.check(counts)
    best = (scale if bits & PAYS else 0, scale if bits & RISK else 0, -1)
    if not lucky:
        return best
    for f in range(DICE):
        if not counts[f]:
            continue
        a = b = 0
        counts[f] -= 1
        for s in range(DICE):
            counts[s] += 1
            bits = goal.check(counts)
            counts[s] -= 1
            a += scale // 6 if bits & PAYS else 0
            b += scale // 6 if bits & RISK else 0
        counts[f] += 1
        if _better(a, b, best[0], best[1]):
            best = (a, b, f)
    return best


def _keeps(A, B, keep, free, n, floor, rerolls, acc, best, skip_all):
    """Every keep of the free dice (keep[0], keep[1]: the locked Mutant and Science, kept) against
    best = [chance high, low, risk high, low], raised to any keep strictly above it; the entries of
    A, B are read as `_entry` does. Returns the best keep as k2 | k3 << 3 | k4 << 6 | k5 << 9, or -1.
    skip_all leaves out keeping every die (finalizing, weighed apart)."""
    found = -1
    all_free = free[2] + free[3] + free[4] + free[5]
    for k2 in range(free[2], -1, -1):
        for k3 in range(free[3], -1, -1):
            for k4 in range(free[4], -1, -1):
                for k5 in range(free[5], -1, -1):
                    if skip_all and k2 + k3 + k4 + k5 == all_free:
                        continue
                    keep[2] = k2
                    keep[3] = k3
                    keep[4] = k4
                    keep[5] = k5
                    size = k2 + k3 + k4 + k5 + keep[0] + keep[1]
                    _entry(A, keep, size, floor, acc, n, rerolls)
                    a_hi = acc[2]
                    a_lo = acc[3]
                    _entry(B, keep, size, floor, acc, n, rerolls)
                    if _above(a_hi, a_lo, acc[2], acc[3], best[0], best[1], best[2], best[3]):
                        best[0] = a_hi
                        best[1] = a_lo
                        best[2] = acc[2]
                        best[3] = acc[3]
                        found = k2 | k3 << 3 | k4 << 6 | k5 << 9
    return found


def _multisets(counts, most):
    """Every multiset of at most `most` dice, set in `counts`; yields its rank."""
    for c0 in range(most + 1):
        counts[0] = c0
        for c1 in range(most + 1 - c0):
            counts[1] = c1
            for c2 in range(most + 1 - c0 - c1):
                counts[2] = c2
                for c3 in range(most + 1 - c0 - c1 - c2):
                    counts[3] = c3
                    for c4 in range(most + 1 - c0 - c1 - c2 - c3):
                        counts[4] = c4
                        for c5 in range(most + 1 - c0 - c1 - c2 - c3 - c4):
                            counts[5] = c5
                            yield rank(counts)


def _n2(A, B, counts, n, acc, sums, at, keep, free, best):
    """Add the best of every keep of `counts` (entries of A, B as `_keeps` reads them, two re-rolls)
    to sums[at:at + 4]: the value of these dice with two re-rolls left. keep, free and best are
    the caller's scratch (called some thirty times: none is made here)."""
    keep[0] = counts[0]
    keep[1] = counts[1]
    for s in range(2, DICE):
        free[s] = counts[s]
    best[0] = -1
    best[1] = best[2] = best[3] = 0
    _keeps(A, B, keep, free, n, 2, 2, acc, best, False)
    for i in range(4):
        sums[at + i] += best[i]


def _zeros(size):
    out = array("i", range(size))
    for i in range(size):
        out[i] = 0
    return out


def _lucky_plan(counts, free, rerolls, goal, best):
    """Lucky left and 1 or 2 re-rolls: the best first move over every order of Lucky's re-roll and
    the re-rolls. Raises best (chance and risk as in `_keeps`, unit 6^7 * 6^6); returns
    (keep code or -1, the face Lucky re-rolls now or -1).

    Values at one re-roll left, over every roll of six dice (unit 6^7):
      N1   no Lucky: the best keep of F (finalized) spread over the dice re-rolled;
      N1e  no Lucky, one die frozen at e (Lucky took a locked Mutant or Science to e: it stays
           locked): the same over the keeps that hold it; G holds it for the five other dice;
      L0   Lucky, no re-roll: F, or Lucky on one die then F;
      L1   Lucky: the best keep of L0 spread, or Lucky on a die now then N1 / N1e.
    With two re-rolls left, the first move is a keep of L1 spread, or Lucky now then the best
    keep of N1 spread (N2), each over the current dice only.
    """
    unit = SIX6 * 6
    total = C6[DICE + 6]
    part = C6[DICE + 5]  # ranks of at most five dice
    five = C6[DICE + 4]  # the first rank of five dice
    XA = array("i", range(total))
    XB = array("i", range(total))
    # G needs the ranks of at most five dice only, and is done with before N1 is made from X:
    # it lives in the low ranks of Y, the table N1 is made in (one pair of tables fewer).
    YA = array("i", range(total))
    YB = array("i", range(total))
    GA = YA
    GB = YB
    PA = _zeros(part - five)  # Lucky on a locked die, for the five other dice
    PB = _zeros(part - five)
    acc = array("i", (0, 0, 0, 0))
    sums = _zeros(4 * DICE)  # per face Lucky takes now: the six outcomes' N2, added
    scratch = bytearray(DICE)
    keep = bytearray(DICE)
    keep2 = bytearray(DICE)  # _n2's scratch
    free2 = bytearray(DICE)
    best2 = array("i", (-1, 0, 0, 0))
    _base(XA, XB, DICE, goal, scratch, unit)
    _spread(XA, DICE, True, 0)
    _spread(XB, DICE, True, 0)
    for e in range(2, DICE):
        for r in _multisets(scratch, DICE - 1):
            scratch[e] += 1
            q = rank(scratch)
            scratch[e] -= 1
            GA[r] = XA[q]
            GB[r] = XB[q]
        _keep_best(GA, GB, DICE - 1)
        for i in range(part - five):
            PA[i] += GA[five + i]
            PB[i] += GB[five + i]
        if rerolls == 2:
            _spread(GA, DICE - 1, False, 2)
            _spread(GB, DICE - 1, False, 2)
            for f in range(2):
                if counts[f]:
                    counts[f] -= 1
                    _n2(GA, GB, counts, DICE - 1, acc, sums, 4 * f, keep2, free2, best2)
                    counts[f] += 1
    GA = GB = None
    for i in range(total):  # Y = X, in place: no new table
        YA[i] = XA[i]
        YB[i] = XB[i]
    _keep_best(YA, YB, DICE)  # N1 on rolls of six dice
    for r in _multisets(scratch, DICE - 1):
        if r >= five:
            for s in range(2):
                scratch[s] += 1
                q = rank(scratch)
                scratch[s] -= 1
                PA[r - five] += YA[q]
                PB[r - five] += YB[q]
            PA[r - five] //= 6  # six multiples of 6: exact
            PB[r - five] //= 6
    _spread(YA, DICE, True, DICE - 1)  # Q: Lucky on a free die, then N1
    _spread(YB, DICE, True, DICE - 1)
    _lucky_best(XA, XB, XA, XB, XA, XB, 0)  # L0
    _spread(XA, DICE, True, 0)
    _spread(XB, DICE, True, 0)
    keep[0] = counts[0]
    keep[1] = counts[1]
    if rerolls == 1:
        found = _keeps(XA, XB, keep, free, DICE, 0, 1, acc, best, True)
        face = -1
        for f in range(DICE):
            if counts[f]:
                counts[f] -= 1
                q = rank(counts)
                counts[f] += 1
                a = PA[q - five] if f < 2 else YA[q]
                b = PB[q - five] if f < 2 else YB[q]
                if _above(a, 0, b, 0, best[0], best[1], best[2], best[3]):
                    best[0], best[1], best[2], best[3] = a, 0, b, 0
                    face = f
        return (-1 if face >= 0 else found), face
    _keep_best(XA, XB, DICE)
    _lucky_best(XA, XB, YA, YB, PA, PB, five)  # L1
    PA = PB = None
    _spread(YA, DICE, False, 2)
    _spread(YB, DICE, False, 2)
    for f in range(DICE):
        if counts[f]:
            counts[f] -= 1
            for s in range(DICE):
                if f >= 2 or s < 2:  # a locked die come up free stays locked: done with G above
                    counts[s] += 1
                    _n2(YA, YB, counts, DICE, acc, sums, 4 * f, keep2, free2, best2)
                    counts[s] -= 1
            counts[f] += 1
    YA = YB = None
    _spread(XA, DICE, False, 2)
    _spread(XB, DICE, False, 2)
    found = _keeps(XA, XB, keep, free, DICE, 2, 2, acc, best, True)
    face = -1
    for f in range(DICE):
        if counts[f]:
            # The mean of the six outcomes: (high * 6^6 + low) / 6, exact.
            _sixth(sums, 4 * f)
            _sixth(sums, 4 * f + 2)
            if _above(sums[4 * f], sums[4 * f + 1], sums[4 * f + 2], sums[4 * f + 3],
                      best[0], best[1], best[2], best[3]):
                for i in range(4):
                    best[i] = sums[4 * f + i]
                face = f
    return (-1 if face >= 0 else found), face


def _sixth(pair, at):
    """pair[at] * 6^6 + pair[at + 1], divided by 6 (exactly), back as a (high, low < 6^6) pair."""
    hi = pair[at] // 6
    lo = ((pair[at] % 6) * SIX6 + pair[at + 1]) // 6
    pair[at] = hi + lo // SIX6
    pair[at + 1] = lo % SIX6


def advise(faces, locked, rerolls_left, lucky_left, goal):
    """The best first move for `goal` with the re-rolls and Lucky left; see the module's docstring.

    faces: six indices into SYMBOLS; locked: six flags (a Roll's own bytearrays).
    """
    if not 0 <= rerolls_left <= 2:
        raise ValueError("the advisor plans 0 to 2 re-rolls")
    free = bytearray(DICE)   # dice a re-roll may take
    held = bytearray(DICE)   # Mutant and Science, locked
    extra = bytearray(DICE)  # other faces on locked dice (Lucky re-rolled them): fixed for the turn
    counts = bytearray(DICE)
    for die in range(DICE):
        f = faces[die]
        counts[f] += 1
        if f < 2:
            held[f] += 1
        elif locked[die]:
            extra[f] += 1
        else:
            free[f] += 1
    lucky = bool(lucky_left) and not sum(extra)
    scale = SIX6 * 6 if lucky else SIX6
    chance, risk, face = _finalize_option(goal, counts, lucky and not rerolls_left, scale)
    # Chances are compared as (high, low) pairs, high * 6^6 + low, so that no big integer is made.
    best = array("i", (chance, 0, risk, 0))
    found = -1
    n = DICE - sum(extra)
    if lucky and rerolls_left:
        found, face = _lucky_plan(counts, free, rerolls_left, goal, best)
    elif rerolls_left and sum(free):
        total = C6[n + 6]
        A = array("i", range(total))
        B = array("i", range(total))
        _base(A, B, n, goal, extra, scale)
        _spread(A, n, True, 0)
        _spread(B, n, True, 0)
        floor = 0
        if rerolls_left == 2:
            _keep_best(A, B, n)
            floor = 2  # the sums for 0 or 1 fixed dice outgrow 32 bits: added up on demand
            _spread(A, n, False, floor)
            _spread(B, n, False, floor)
        keep = bytearray(DICE)
        keep[0] = held[0]
        keep[1] = held[1]
        found = _keeps(A, B, keep, free, n, floor, rerolls_left, array("i", (0, 0, 0, 0)), best, True)
        A = B = None
    reroll = []
    if found >= 0:
        face = -1
        keep = bytearray(DICE)
        for s in range(2, DICE):
            keep[s] = found >> (3 * (s - 2)) & 7
        for die in range(DICE):
            f = faces[die]
            if f >= 2 and not locked[die]:
                if keep[f]:
                    keep[f] -= 1
                else:
                    reroll.append(die)
    lucky_die = -1
    if face >= 0:
        for die in range(DICE):
            if faces[die] == face:
                lucky_die = die
                break
    return Advice(reroll, lucky_die, best[0], best[1], best[2], best[3], scale)
