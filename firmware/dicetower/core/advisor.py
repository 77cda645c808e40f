"""The re-roll advisor: which dice to keep so that a power card is paid, and the exact chance.

`advise(faces, locked, rerolls_left, lucky_left, goal)` returns the choice
that maximises the chance that the finalized dice satisfy `goal`
(`cards.Goal`: a card, or any of the hero's cards, at the hero's
location), playing the remaining re-rolls optimally, and that chance as an
exact fraction; and, under the same play, the chance that the roll ends in
the Crystal Prison or an Explosion. Ties go to the lower risk, then to
re-rolling fewer dice. Mutant and Science lock when they show: a re-roll
only ever takes dice that show Skill, Tech, Cosmic or Mystic.

`plan(...)` is the same search in slices, for a loop that must keep serving
buttons: each `next()` does a bounded piece of work (about SLICE
microseconds on a 125 MHz Pico) and yields None; the last yields the
`Advice`. It copies the dice when called; a caller whose dice change drops
it and starts another. `advise` runs a plan to its end.

Memory: a plan works in the module's work arrays (`_POOL`: five lists of
462 entries, 1.8 KB each on a Pico, and two of 252; 11 KB in all, made by
the first plans that need them and kept), so that a plan allocates no large
block (the rest of its heap is small objects, under 3 KB live) and a
fragmented heap is not fragmented anew by each piece of advice. One plan at a time owns
them: the plan that last started (its first next()) takes them over, and
an older plan still running raises RuntimeError at its next step instead
of answering from overwritten arrays. The device runs one plan at a time
and drops the stale one before it starts the next; a dropped plan holds
nothing the next one needs.

Lucky: the search covers every order core/roll.py allows: Lucky's
single-die re-roll now (on any die, a locked one too, which stays locked),
between the re-rolls or after the last; the first move is a re-roll of a
set of dice, Lucky on one die (`Advice.lucky`), or finalizing (`_lucky`).

How: only the counts of each symbol matter, so a roll is a multiset, and
the multisets of at most n dice are ranked 0..C(n+6, 6)-1 (colex rank of
the stars-and-bars positions: b_j = c_0 + ... + c_j + j). A table over the
ranks holds, for dice fixed so far, the chance over the dice still to roll:
each entry is the mean (or the sum) of the six entries with one more die
(`_spread`). A table is two arrays: the lower (ranks 0..461, at most five
dice) and the upper (six dice, rank - 462). With one re-roll left the value
of a full roll is the best entry over its sub-multisets that keep the locked
dice (`_keep_best`, one pass, in place). A chance and a risk share one
integer, a key: chance * KEY - risk, so that `>` orders by the higher chance
then the lower risk and one pass spreads both; where sums outgrow a key, two
tables. Without Lucky, the Mutant and Science already locked are left out of
the tables (fewer dice to roll: smaller tables). Everything is integers
below 2^30 (chances times powers of 6; the answer's as (high, low) pairs), so
the answer is exact, no float or big integer is made, and a Pico allocates
nothing per entry.
"""

try:
    from micropython import const
except ImportError:  # CPython: a constant is its value
    def const(x):  # type: ignore[misc]
        return x

from array import array

from dicetower.core.cards import ELSEWHERE, GHOST_ORCHID, PAYS, RISK, WAREHOUSE

DICE = const(6)


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
SIX6 = const(46656)
POW6 = tuple(6 ** i for i in range(14))
FIVE = const(210)  # the first rank of five dice: C6[10]
SIXES = const(462)  # the first rank of six dice (C6[11]); how many ranks at most five dice have
ALL = const(924)  # how many ranks six dice have: C6[12]
HALF = const(462)  # the entries of a work array: a table's lower half, or its upper (SIXES..ALL-1)
# v * 6^t as a pair (high, low < 6^6): high = v // QT[t] * HT[t], low = v % QT[t] * LT[t].
QT = tuple(6 ** (6 - t) if t < 6 else 1 for t in range(20))
HT = tuple(6 ** (t - 6) if t >= 6 else 1 for t in range(20))
LT = tuple(6 ** t if t < 6 else 0 for t in range(20))
# A key: chance * KEY - risk, both in units of at most 6^5 (< KEY), so that six keys add up
# below 2^30 (a small int on a Pico: no heap) and the sum of two still decodes.
KEY = const(16384)  # 1 << 14
_ROUND = const(16383)
_NONE = const(-536870912)  # -(1 << 29): below every key, a keep that is not open
_RISK_BIT = const(268435456)  # 1 << 28: _compile's risk flag, above the shortfall fields
_FIVES = const(252)  # how many ranks five dice have: the entries of PA and PB

# Slices: a plan yields before a block of work that would take its slice past SLICE microseconds
# (at 125 MHz, MicroPython 1.27's rp2 port). The costs per table entry (or per call) were measured
# on the emulated RP2040; a block is never split, and the largest take about 4 ms.
SLICE = const(4000)
_COST_CHECK = const(500)  # one goal.check, in the Prison (the dearest)
_COST_BASE = const(36)
_COST_SPREAD = const(40)
_COST_BEST = const(32)
_COST_ADD = const(20)
_COST_TOP = const(55)
_COST_LUCKY0 = const(44)
_COST_LUCKY1 = const(90)
_COST_SUMS5 = const(32)
_COST_KEEP = const(90)  # one keep weighed by _keeps
_COST_KEY = const(30)  # one keep in _best_key
_COST_PAIR = const(40)  # one _add
_COST_ROLL = const(45)  # one throw in _completions
_COST_ALLOC = const(600)  # a work array made (the first plans only)
_COST_COMPILE = const(1500)
_COST_SETUP = const(1500)  # a plan's first steps, before its first table

_POOL = []  # the work arrays, HALF entries each: made by the first plan that needs them, then kept
_OWNER = [None]  # the plan that may use them: the slice counter of the plan that last started


def _slot(i):
    """Work array i of the pool, as the last plan left it (every pass writes before it reads): a
    table's half (i < 5), or PA, PB (5, 6: the ranks of five dice)."""
    while len(_POOL) <= i:
        _POOL.append([0] * (HALF if len(_POOL) < 5 else _FIVES))
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
                        for b0 in range(b1):
                            out[r] = r + d1 + b1
                            r += 1
            yield


# The rank of the dice of rank r (five at most) and one more showing Science: SCIENCE[r] (a
# Mutant more: SCIENCE[r] + 1); for five dice, less SIXES (an index into the upper half). It lets
# _spread's innermost loop run over all the Mutant and Science counts at once (924 bytes). Filled
# by the first plan, in slices of its own (_guard): the import stays short.
SCIENCE = array("H", range(SIXES))
_FILLED = [False]
del _binom, _pair_rank


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


def plan(faces, locked, rerolls_left, lucky_left, goal):
    """The search of `advise` in slices: a generator whose next() yields None until the last, which
    yields the Advice. The dice are copied now; drop the generator to abandon the search. Its first
    next() takes the work arrays over: an older plan still running then raises RuntimeError."""
    if not 0 <= rerolls_left <= 2:
        raise ValueError("the advisor plans 0 to 2 re-rolls")
    return _guard(bytes(faces), bytes(locked), rerolls_left, lucky_left, goal)


def advise(faces, locked, rerolls_left, lucky_left, goal):
    """The best first move for `goal` with the re-rolls and Lucky left; see the module's docstring.

    faces: six indices into SYMBOLS; locked: six flags (a Roll's own bytearrays).
    """
    for advice in plan(faces, locked, rerolls_left, lucky_left, goal):
        pass
    return advice


def _guard(faces, locked, rerolls, lucky_left, goal):
    """The plan, owning the work arrays from its first step; it fails loudly once a newer plan has
    taken them (its tables would be another plan's)."""
    w = [_COST_CHECK + _COST_SETUP]  # the work of this slice (microseconds at 125 MHz), shared by the passes
    _OWNER[0] = w
    if not _FILLED[0]:
        for _ in _science_ranks(SCIENCE):
            yield None
            if _OWNER[0] is not w:
                raise RuntimeError("advisor: a newer plan took the work arrays")
        _FILLED[0] = True
    for step in _plan(faces, locked, rerolls, lucky_left, goal, w):
        yield step
        if step is None and _OWNER[0] is not w:
            raise RuntimeError("advisor: a newer plan took the work arrays")


def _plan(faces, locked, rerolls, lucky_left, goal, w):
    free = bytearray(DICE)  # dice a re-roll may take
    held = bytearray(DICE)  # Mutant and Science, locked
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
    out = [0, 0, -1]
    yield from _finalize(goal, counts, lucky and not rerolls, scale, out, w)
    # Chances are compared as (high, low) pairs, high * 6^6 + low in units of scale * 6^6, so
    # that no big integer is made.
    best = [out[0], 0, out[1], 0]
    found = -1
    face = out[2]
    if best[0] == scale and not best[2]:
        pass  # paid now, no risk: no move does better (ties keep finalizing)
    elif lucky and rerolls:
        yield from _lucky(counts, free, rerolls, goal, best, out, w)
        found, face = out[0], out[1]
    elif rerolls and sum(free):
        found = yield from _plain(free, held, extra, rerolls, goal, best, w)
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
    yield Advice(reroll, lucky_die, best[0], best[1], best[2], best[3], scale)


def _over(w, cost):
    """Count `cost` of work about to be done outside a pass: True if the slice must end first (the
    caller yields; the cost counts in the next slice). A function, not a generator: no heap."""
    if w[0] + cost > SLICE:
        w[0] = cost
        return True
    w[0] += cost
    return False


# -- Scoring the finalized dice ------------------------------------------------------------------


def _finalize(goal, counts, lucky, scale, out, w):
    """Finalizing now, or after Lucky's re-roll of one die: out = [chance, risk, face to re-roll or -1]."""
    bits = goal.check(counts)
    out[0] = scale if bits & PAYS else 0
    out[1] = scale if bits & RISK else 0
    out[2] = -1
    if not lucky:
        return
    for f in range(DICE):
        if not counts[f]:
            continue
        if _over(w, DICE * _COST_CHECK):
            yield
        a = b = 0
        counts[f] -= 1
        for s in range(DICE):
            counts[s] += 1
            bits = goal.check(counts)
            counts[s] -= 1
            a += scale // 6 if bits & PAYS else 0
            b += scale // 6 if bits & RISK else 0
        counts[f] += 1
        if a > out[0] or (a == out[0] and b < out[1]):
            out[0], out[1], out[2] = a, b, f


def _compile(goal, fixed):
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


def _base(T, n, fixed, goal, unit, w):
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
                        work += b1 * _COST_CHECK
                        if work > SLICE:
                            work = b1 * _COST_CHECK
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
    up = SCIENCE
    for b5 in range(top + 4, floor + 4, -1):
        U = L  # the half that holds the layer above
        d5 = C5[b5]
        if b5 == DICE + 4:
            U = H
            d5 -= SIXES
        for b4 in range(b5 - 1, 3, -1):
            d4 = d5 + C4[b4]
            for b3 in range(b4 - 1, 2, -1):
                work += C3[b3] * _COST_SPREAD
                if work > SLICE:
                    work = C3[b3] * _COST_SPREAD
                    yield
                d3 = d4 + C3[b3]
                for b2 in range(b3 - 1, 1, -1):
                    d2 = d3 + C2[b2]
                    lo = r - C2[b2]
                    # The offsets of Skill to Mystic hold while only Mutant and Science change.
                    if scaled:
                        for r in range(r, lo, -1):
                            i = up[r]
                            L[r] = (U[i + 1] + U[i] + U[r + d2] + U[r + d3] + U[r + d4] + U[r + d5]) // 6
                    else:
                        for r in range(r, lo, -1):
                            i = up[r]
                            L[r] = U[i + 1] + U[i] + U[r + d2] + U[r + d3] + U[r + d4] + U[r + d5]
                    r = lo
    w[0] = work


def _keep_best(L, H, last, w, SL=None, SH=None, e=DICE):
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
                e3 = e4 + C3[b3 - 1]
                p4 = b4 - b3 > 1
                o3 = o4 + C3[b3] if e < 4 else o4
                for b2 in range(2, b3):
                    e2 = e3 + C2[b2 - 1]
                    p3 = b3 - b2 > 1
                    o = o3 + C2[b2] if e < 3 else o3
                    # The first C2[b2 - 1] entries show a Skill (c2 > 0), the others none.
                    mid = r + C2[b2 - 1]
                    for r in range(r, mid):
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
                    r = mid
                    hi = mid + b2 - 1
                    if p3 or p4 or p5:
                        for r in range(mid, hi):
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
                    elif e < DICE:  # only Mutant and Science: nothing to choose
                        for r in range(mid, hi):
                            T[r] = U[r + o]
                    r = hi
    w[0] = work


def _best_top(T, L, B, n, times, empty_a, empty_b, w, SL=None, SH=None, e=DICE):
    """_keep_best's last layer, n dice (the ones below done, in L), decoded: the best key's chance *
    times in T, its risk * times in B (T, B: the halves that hold layer n). Where no Mutant or
    Science is in the table's dice, keeping none of them (empty_a, empty_b, in the new unit; None:
    not open) is weighed too (a re-roll of all). SL, SH, e: as _keep_best has them."""
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
            e3 = e4 + C3[b3 - 1]
            p4 = b4 - b3 > 1
            o3 = o4 + C3[b3] if e < 4 else o4
            for b2 in range(2, b3):
                e2 = e3 + C2[b2 - 1]
                p3 = b3 - b2 > 1
                o = o3 + C2[b2] if e < 3 else o3
                first = r  # no Mutant, no Science: keeping none of the dice is open
                mid = r + C2[b2 - 1]  # the entries before mid show a Skill
                for r in range(r, mid + b2 - 1):
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
                    a = (k + _ROUND) >> 14
                    T[r] = a * times
                    B[r] = (a * KEY - k) * times
                if empty_a is not None and (empty_a > T[first] or (empty_a == T[first] and empty_b < B[first])):
                    T[first] = empty_a
                    B[first] = empty_b
                r += 1
    w[0] = work


def _layer1(T, times):
    """The sum of the six one-die keys of T (the mean of a re-roll of every die), decoded, times `times`."""
    a = b = 0
    for r in range(1, DICE + 1):
        k = T[r]
        x = (k + _ROUND) >> 14
        a += x
        b += x * KEY - k
    return a * times, b * times


# -- Weighing keeps: values as (high, low) pairs, high * 6^6 + low in the answer's unit -------------


def _add(acc, i, v, t):
    """acc[i], acc[i + 1] += v * 6^t (a pair)."""
    lo = acc[i + 1] + v % QT[t] * LT[t]
    acc[i] += v // QT[t] * HT[t] + lo // SIX6
    acc[i + 1] = lo % SIX6


def _add_pair(acc, i, src, j):
    """acc[i], acc[i + 1] += the pair src[j], src[j + 1]."""
    lo = acc[i + 1] + src[j + 1]
    acc[i] += src[j] + lo // SIX6
    acc[i + 1] = lo % SIX6


def _keeps(free, h0, h1, skip_all, A, B, t0, low, best, AH=None, BH=None):
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
                            a = (k + _ROUND) >> 14
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


def _count(counts):
    """How many keeps the free dice of `counts` have."""
    return (counts[2] + 1) * (counts[3] + 1) * (counts[4] + 1) * (counts[5] + 1)


def _free_of(counts, free):
    free[0] = free[1] = 0
    for s in range(2, DICE):
        free[s] = counts[s]
    return free


def _pairs(values, t):
    """[a, b, ...] (non-negative) as pairs: [a * 6^t high, low, b * 6^t high, low, ...]."""
    out = [0] * (2 * len(values))
    for i in range(len(values)):
        _add(out, 2 * i, values[i], t)
    return out


# -- Without Lucky -----------------------------------------------------------------------------------


def _plain(free, held, extra, rerolls, goal, best, w):
    """No Lucky: the best keep of the free dice with 1 or 2 re-rolls (pairs, units 6^12). The Mutant
    and Science shown are locked, so they are fixed like `extra`: the tables cover the n others
    (work arrays 0-1; 2-3 for the risks)."""
    fixed = bytearray(DICE)
    for s in range(DICE):
        fixed[s] = held[s] + extra[s]
    n = DICE - sum(fixed)
    if len(_POOL) < 2 and _over(w, _COST_ALLOC):
        yield
    TL = _slot(0)
    TH = _slot(1) if n == DICE else TL
    yield from _base(TH, n, fixed, goal, POW6[n - 1], w)
    yield from _spread(TL, TH, n, 1, True, w)
    empty = _layer1(TL, 1)  # keeping none of the n dice: re-rolling them all, units 6^n
    if rerolls == 1:
        if _over(w, _count(free) * _COST_KEEP):
            yield
        return _keeps(free, 0, 0, True, TL, None, 13 - n, _pairs(empty, 12 - n), best)
    # Two re-rolls: T becomes the value of each roll of the n dice with one re-roll left (the best
    # keep, units 6^n), then its sums over the dice rolled before.
    TL[0] = _NONE
    yield from _keep_best(TL, TL, n - 1, w)
    if len(_POOL) < 4 and _over(w, _COST_ALLOC):
        yield
    BL = _slot(2)
    BH = _slot(3) if n == DICE else BL
    yield from _best_top(TH, TL, BH, n, 6, empty[0], empty[1], w)
    yield from _spread(TL, TH, n, 1, False, w)  # sums of one die are below 6^11; of none they would not be
    # The risks: only those of the keeps most likely to pay count (the lowest wins, then the
    # first). One keep's sum over the throws of the other dice is cheaper than spreading B when
    # they are few and keep many dice.
    none = [0, 0, 0, 0]
    for r in range(1, DICE + 1):
        _add(none, 0, TL[r], 12 - 2 * n)
    keeps = _keep_list(free)
    if _over(w, len(keeps) * _COST_KEEP):
        yield
    top = best[:2]
    tied = []  # the keeps as likely to pay as the best, as _keep_list has them
    for keep in keeps:
        size = keep >> 22
        if size:
            t = 12 - 2 * n + size
            v = TL[keep >> 12 & 1023]  # fewer than n dice: the lower half
            ah = v // QT[t] * HT[t]
            al = v % QT[t] * LT[t]
        else:
            ah, al = none[0], none[1]
        if ah > top[0] or (ah == top[0] and al > top[1]):
            top[0], top[1] = ah, al
            del tied[:]
            tied.append(keep)
        elif ah == top[0] and al == top[1]:
            tied.append(keep)
    if not tied:
        return -1  # finalizing is as likely as any keep, or more
    lazy = True
    cost = 0
    for keep in tied:
        if not keep >> 22:
            lazy = False  # keeping none: its sum outgrows a small int
        cost += C5[n - (keep >> 22) + 5] * _COST_ROLL + 300
    lazy = lazy and cost < (C6[n + 5] - 1) * _COST_SPREAD
    if not lazy:
        yield from _spread(BL, BH, n, 1, False, w)
    if top[0] != best[0] or top[1] != best[1]:
        best[2] = -1  # finalizing is less likely to pay: out
    best[0], best[1] = top
    found = -1
    counts = bytearray(DICE)
    pair = [0, 0]
    for keep in tied:
        code, r, size = keep & 4095, keep >> 12 & 1023, keep >> 22
        if lazy:
            for s in range(2, DICE):
                counts[s] = code >> (3 * (s - 2)) & 7
            v = yield from _completions(BH, n, counts, w)
        elif size:
            v = BL[r]
        else:
            pair[0] = pair[1] = 0
            for i in range(1, DICE + 1):
                _add(pair, 0, BL[i], 12 - 2 * n)
        if size:
            t = 12 - 2 * n + size
            pair[0] = v // QT[t] * HT[t]
            pair[1] = v % QT[t] * LT[t]
        if best[2] < 0 or pair[0] < best[2] or (pair[0] == best[2] and pair[1] < best[3]):
            best[2], best[3] = pair
            found = code
    return found


def _keep_list(free):
    """Every keep of the free dice short of all of them, most dice first (the order ties go by),
    no Mutant or Science in the table: code | rank << 12 | dice << 22 each, code as _keeps has it."""
    out = []
    all_free = free[2] + free[3] + free[4] + free[5]
    for k2 in range(free[2], -1, -1):
        r2 = C3[k2 + 2]
        for k3 in range(free[3], -1, -1):
            b3 = k2 + k3 + 3
            r3 = r2 + C4[b3]
            for k4 in range(free[4], -1, -1):
                b4 = b3 + k4 + 1
                r4 = r3 + C5[b4]
                for k5 in range(free[5], -1, -1):
                    if k2 + k3 + k4 + k5 < all_free:
                        code = k2 | k3 << 3 | k4 << 6 | k5 << 9
                        out.append(code | (r4 + C6[b4 + k5 + 1]) << 12 | (b4 + k5 - 4) << 22)
    return out


def _completions(B, n, keep, w):
    """The sum over every throw of the n - |keep| other dice of B at keep and the throw (layer n, in
    B, the half that holds it): what _spread's sums hold at `keep`, for that keep alone."""
    d = n - sum(keep)
    total = 0
    b5 = n + 5
    r5 = C6[b5] - (SIXES if n == DICE else 0)
    for d5 in range(d + 1):
        if _over(w, C4[d - d5 + 4] * _COST_ROLL):  # the throws with d5 Mystic
            yield
        w5 = C[d5][d]
        b4 = b5 - keep[5] - d5 - 1
        r4 = r5 + C5[b4]
        left4 = d - d5
        for d4 in range(left4 + 1):
            w4 = w5 * C[d4][left4]
            b3 = b4 - keep[4] - d4 - 1
            r3 = r4 + C4[b3]
            left3 = left4 - d4
            for d3 in range(left3 + 1):
                w3 = w4 * C[d3][left3]
                b2 = b3 - keep[3] - d3 - 1
                r2 = r3 + C3[b2]
                left2 = left3 - d3
                for d2 in range(left2 + 1):
                    w2 = w3 * C[d2][left2]
                    b1 = b2 - keep[2] - d2 - 1
                    r1 = r2 + C2[b1] + b1 - 1  # + C1[b0], b0 = b1 - d1 - 1
                    left1 = left2 - d2
                    for d1 in range(left1 + 1):
                        total += w2 * C[d1][left1] * B[r1 - d1]
    return total


# -- With Lucky ------------------------------------------------------------------------------------


def _lucky(counts, free, rerolls, goal, best, out, w):
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
    if len(_POOL) < 3 and _over(w, _COST_ALLOC):
        yield
    TL = _slot(0)
    TH = _slot(1)
    yield from _base(TH, DICE, bytes(DICE), goal, POW6[5], w)
    yield from _spread(TL, TH, DICE, 1, True, w)
    empty = _layer1(TL, 1)  # N1's keep of no die, units 6^6
    TL[0] = _NONE
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
                if _over(w, _count(c) * _COST_KEY):
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
            _add(sums, 4 * f, a, 6)
            _add(sums, 4 * f + 2, b, 6)
        SL = TL  # T is done with
        small = yield from _spread_lucky0(SL, SH, m, w)
        if _over(w, _count(counts) * _COST_KEEP):
            yield
        found = _keeps(free, counts[0], counts[1], True, SL, None, 8, _pairs(small, 6), best)
        out[0], out[1] = _lucky_faces(faces, sums, best, found)
        return
    if len(_POOL) < 7 and _over(w, 4 * _COST_ALLOC):
        yield
    G = _slot(2)  # the ranks of at most five dice
    GB = _slot(3)
    PA = _slot(5)
    PB = _slot(6)
    acc = [0, 0, 0, 0]
    for e in range(2, DICE):
        G[0] = TL[DICE - e]  # the frozen die alone
        yield from _keep_best(G, G, DICE - 2, w, TL, TH, e)
        yield from _best_top(G, G, GB, DICE - 1, 6, None, None, w, TL, TH, e)  # units 6^6
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
                if _over(w, _count(c) * _COST_KEEP):
                    yield
                acc[0] = -1
                _keeps(_free_of(c, spare), c[0], c[1], False, G, GB, 1, None, acc)
                c[f] += 1
                _add_pair(sums, 4 * f, acc, 0)
                _add_pair(sums, 4 * f + 2, acc, 2)
    G = GB = None
    SH = _slot(2)
    yield from _lucky0(TL, TH, SH, w)
    SL = _slot(3)  # for now: the keeps of S's six dice need S's spread
    small = yield from _spread_lucky0(SL, SH, m, w)
    for r in range(DICE + 1):
        SL[r] = _NONE  # keeps of one die or none: `small`, in _lucky1
    yield from _keep_best(SL, SH, DICE, w)
    SL = None

    # N1 from T, in place; its risks NB.
    yield from _keep_best(TL, TL, DICE - 1, w)
    NBH = _slot(3)
    NBL = _slot(4)
    yield from _best_top(TH, TL, NBH, DICE, 6, empty[0], empty[1], w)
    yield from _sums5(PA, PB, TH, NBH, w)
    low = min(max(m, 1), DICE - 1)  # Q needs five dice; N2's keeps hold m at least; sums of none overflow
    yield from _spread(TL, TH, DICE, low, False, w)
    yield from _spread(NBL, NBH, DICE, low, False, w)

    # Lucky now: N2 (units 6^12) at each outcome, added up (their mean in units of 6^13).
    none = [0, 0, 0, 0]
    if not m:
        for r in range(1, DICE + 1):
            _add(none, 0, TL[r], 0)
            _add(none, 2, NBL[r], 0)
    if _over(w, _count(counts) * _COST_KEEP):
        yield
    here = [-1, 0, 0, 0]  # the outcome where Lucky shows the same face: the dice as they are
    _keeps(free, counts[0], counts[1], False, TL, NBL, 0, none, here, TH, NBH)
    for f in faces:
        c[f] -= 1
        for s in range(DICE):
            if f < 2 and s >= 2:
                continue  # frozen: added above
            if s == f:
                acc[:] = here
            else:
                c[s] += 1
                if _over(w, _count(c) * _COST_KEEP):
                    yield
                acc[0] = -1
                _keeps(_free_of(c, spare), c[0], c[1], False, TL, NBL, 0, none, acc, TH, NBH)
                c[s] -= 1
            _add_pair(sums, 4 * f, acc, 0)
            _add_pair(sums, 4 * f + 2, acc, 2)
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
                _add(one, 4 * (DICE - f), SL[i], 1)
                _add(one, 4 * (DICE - f) + 2, LBL[i], 1)
                _add(one, 0, SL[i], 0)
                _add(one, 2, LBL[i], 0)
    if _over(w, _count(counts) * _COST_KEEP):
        yield
    found = _keeps(free, counts[0], counts[1], True, SL, LBL, 0, one, best)
    out[0], out[1] = _lucky_faces(faces, sums, best, found)


def _lucky_faces(faces, sums, best, found):
    """Lucky now on each face shown, against best: (keep code or -1, face or -1)."""
    face = -1
    for f in faces:
        x = sums[4 * f:4 * f + 4]
        if x[0] > best[0] or (x[0] == best[0] and (x[1] > best[1] or (x[1] == best[1] and (
                x[2] < best[2] or (x[2] == best[2] and x[3] < best[3]))))):
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
    best = _NONE
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
    a = (best + _ROUND) >> 14
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
            x = (k + _ROUND) >> 14
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
                    for b0 in range(b1):
                        i = j + d1
                        PA[j] += NA[i] + NA[i + 1]
                        PB[j] += NB[i] + NB[i + 1]
                        j += 1
    w[0] = work


def _add_to(PA, PB, GA, GB, first, w):
    """Five dice: PA, PB += GA, GB (=, the first time)."""
    step = SLICE // _COST_ADD // 2
    for start in range(0, _FIVES, step):
        if _over(w, step * _COST_ADD):
            yield
        for i in range(start, min(start + step, _FIVES)):
            if first:
                PA[i] = GA[FIVE + i]
                PB[i] = GB[FIVE + i]
            else:
                PA[i] += GA[FIVE + i]
                PB[i] += GB[FIVE + i]


def _lucky1(S, LB, NA, NB, PA, PB, small, w):
    """Six dice y, one re-roll and Lucky left (units 6^7): the best of the keeps (S, an upper half:
    keys after _keep_best, over keeps of two dice or more; `small`: of one die or none), Lucky on
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
                        a = (k + _ROUND) >> 14
                        b = (a * KEY - k) * 36
                        a *= 36
                        if b1 == 1:  # no Mutant, no Science: keeping none, or one free die
                            if empty_a > a or (empty_a == a and empty_b < b):
                                a, b = empty_a, empty_b
                            for f in range(2, DICE):
                                i = 2 * (DICE - f)
                                if (c2 if f == 2 else c3 if f == 3 else c4 if f == 4 else c5) and (
                                        small[i] > a or (small[i] == a and small[i + 1] < b)):
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
