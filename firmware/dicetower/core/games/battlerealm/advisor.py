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

Memory: a plan works in core/games/battlerealm/ranks.py's work arrays (`_POOL`: four arrays of
462 32-bit entries, 1.8 KB each; with Lucky, lucky_tables.py's one more and two of 252: 11 KB in
all, made before the game's presses and kept), so that a plan allocates no large
block (the rest of its heap is small objects, under 3 KB live) and a
fragmented heap is not fragmented anew by each piece of advice. One plan at a time owns
them: the plan that last started (its first next()) takes them over, and
an older plan still running raises RuntimeError at its next step instead
of answering from overwritten arrays. The device runs one plan at a time
and drops the stale one before it starts the next; a dropped plan holds
nothing the next one needs.

Lucky: the search covers every order core/games/battlerealm/roll.py allows: Lucky's
single-die re-roll now (on any die, a locked one too, which stays locked),
between the re-rolls or after the last; the first move is a re-roll of a
set of dice, Lucky on one die (`Advice.lucky`), or finalizing (core/games/battlerealm/lucky.py).

How: only the counts of each symbol matter, so a roll is a multiset, and
the multisets of at most n dice are ranked 0..C(n+6, 6)-1 (colex rank of
the stars-and-bars positions: b_j = c_0 + ... + c_j + j). A table over the
ranks holds, for dice fixed so far, the chance over the dice still to roll:
each entry is the mean (or the sum) of the six entries with one more die
(`_spread`). A table is two arrays: the lower (ranks 0..461, at most five
dice) and the upper (six dice, rank - 462). With one re-roll left the value
of a full roll is the best entry over its sub-multisets that keep the locked
dice (`keep_best`, one pass, in place). A chance and a risk share one
integer, a key: chance * KEY - risk, so that `>` orders by the higher chance
then the lower risk and one pass spreads both; where sums outgrow a key, two
tables. Without Lucky, the Mutant and Science already locked are left out of
the tables (fewer dice to roll: smaller tables). Everything is integers
below 2^30 (chances times powers of 6; the answer's as (high, low) pairs), so
the answer is exact, no float or big integer is made, and a Pico allocates
nothing per entry. On a board the passes' entries are Viper machine code over
the work arrays' 32-bit words (docs/advisor.md, "Native code where the time goes").

Rooms: core/games/battlerealm/ranks.py (ranks, tables, slices, the finalized dice scored and
spread), core/games/battlerealm/keeps.py (the best keep over a table, keeps weighed), core/games/battlerealm/lucky.py
(the search with Lucky), and here the plan and the search without Lucky. They
are four modules so that each import is a short pass of the device's loop
(core/games/battlerealm/turn.py imports them one at a time, Lucky's only for a hero with Lucky):
one import of the whole took 51 ms from .mpy on a 125 MHz RP2040.
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


from dicetower.core.games.battlerealm.cards import PAYS, RISK
from dicetower.core.games.battlerealm.keeps import (
    add_scaled,
    best_top,
    keep_count,
    keep_best,
    best_keep,
    layer1,
    as_pairs,
)
from dicetower.core.games.battlerealm.ranks import (
    C,
    C2,
    C3,
    C4,
    C5,
    C6,
    COST_CHECK,
    COST_KEEP,
    COST_SPREAD,
    DICE,
    HT,
    LT,
    NONE,
    POW6,
    QT,
    SCIENCE,
    SIX6,
    SIXES,
    _base,
    _over,
    _science_ranks,
    _slot,
    _spread,
)

_COST_ROLL = const(45)  # one throw in _completions
_COST_SETUP = const(1500)  # a plan's first steps, before its first table
_OWNER = [None]  # the plan that may use the work arrays: the slice counter of the plan that last started
_FILLED = [False]  # SCIENCE is filled (by the first plan, in slices of its own)


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
        return "Advice(reroll=%r, lucky=%d, chance=%d/%d, risk=%d/%d)" % (
            (self.reroll, self.lucky) + self.chance() + self.risk()
        )


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
    for advice in plan(faces, locked, rerolls_left, lucky_left, goal):  # noqa: B007 (the last is the answer)
        pass
    return advice


def _guard(faces, locked, rerolls, lucky_left, goal):
    """The plan, owning the work arrays from its first step; it fails loudly once a newer plan has
    taken them (its tables would be another plan's)."""
    w = [COST_CHECK + _COST_SETUP]  # the work of this slice (microseconds at 125 MHz), shared by the passes
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


def _plan(faces, locked, rerolls, lucky_left, goal, w):  # noqa: C901 (a kernel: loops in one frame, no call per entry)
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
        from dicetower.core.games.battlerealm.lucky import (
            best_first_move,
        )  # a hero with Lucky's only: the built-in heroes have none

        yield from best_first_move(counts, free, rerolls, goal, best, out, w)
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
        if _over(w, DICE * COST_CHECK):
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


# -- Without Lucky -----------------------------------------------------------------------------------


def _plain(free, held, extra, rerolls, goal, best, w):  # noqa: C901 (a kernel: loops in one frame, no call per entry)
    """No Lucky: the best keep of the free dice with 1 or 2 re-rolls (pairs, units 6^12). The Mutant
    and Science shown are locked, so they are fixed like `extra`: the tables cover the n others
    (work arrays 0-1; 2-3 for the risks)."""
    fixed = bytearray(DICE)
    for s in range(DICE):
        fixed[s] = held[s] + extra[s]
    n = DICE - sum(fixed)
    TL = _slot(0)
    TH = _slot(1) if n == DICE else TL
    yield from _base(TH, n, fixed, goal, POW6[n - 1], w)
    yield from _spread(TL, TH, n, 1, True, w)
    empty = layer1(TL, 1)  # keeping none of the n dice: re-rolling them all, units 6^n
    if rerolls == 1:
        if _over(w, keep_count(free) * COST_KEEP):
            yield
        return best_keep(free, 0, 0, True, TL, None, 13 - n, as_pairs(empty, 12 - n), best)
    # Two re-rolls: T becomes the value of each roll of the n dice with one re-roll left (the best
    # keep, units 6^n), then its sums over the dice rolled before.
    TL[0] = NONE
    yield from keep_best(TL, TL, n - 1, w)
    BL = _slot(2)
    BH = _slot(3) if n == DICE else BL
    yield from best_top(TH, TL, BH, n, 6, empty[0], empty[1], w)
    yield from _spread(TL, TH, n, 1, False, w)  # sums of one die are below 6^11; of none they would not be
    # The risks: only those of the keeps most likely to pay count (the lowest wins, then the
    # first). One keep's sum over the throws of the other dice is cheaper than spreading B when
    # they are few and keep many dice.
    none = [0, 0, 0, 0]
    for r in range(1, DICE + 1):
        add_scaled(none, 0, TL[r], 12 - 2 * n)
    keeps = _keep_list(free)
    if _over(w, len(keeps) * COST_KEEP):
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
    lazy = lazy and cost < (C6[n + 5] - 1) * COST_SPREAD
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
                add_scaled(pair, 0, BL[i], 12 - 2 * n)
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
    no Mutant or Science in the table: code | rank << 12 | dice << 22 each, code as best_keep has it."""
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
