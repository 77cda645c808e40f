"""The advisor's answer, found the slow way: every re-roll of every subset of dice, every outcome.

Independent of core/games/battlerealm/advisor.py: states are the dice themselves (sorted
tuples), a re-roll takes any subset of the unlocked dice by position, and
the outcomes of k dice are all 6^k ordered throws (counted once into
multisets, to keep the recursion small). Chances are exact integers in units
of 1/6^13 (six dice, two re-rolls of six, one Lucky die at most).
The best chance, ties to the lower risk. Lucky's single-die re-roll is
tried at every point core/games/battlerealm/roll.py allows it: before the first re-roll,
between re-rolls, after the last, on any die, locked or not; a die it takes
that was locked stays locked, whatever it shows.
"""

import functools
import itertools

UNIT = 6**13
MUTANT, SCIENCE = 0, 1


@functools.lru_cache(None)
def throws(k):
    """Every ordered throw of k dice, as (sorted faces, how many throws give them)."""
    counted = {}
    for throw in itertools.product(range(6), repeat=k):
        key = tuple(sorted(throw))
        counted[key] = counted.get(key, 0) + 1
    return tuple(counted.items())


def better(a, b):
    return a[0] > b[0] or (a[0] == b[0] and a[1] < b[1])


class Brute:
    def __init__(self, goal):
        self.goal = goal
        self.value = functools.lru_cache(None)(self._value)

    def final(self, faces):
        counts = bytearray(6)
        for f in faces:
            counts[f] += 1
        bits = self.goal.check(counts)
        return (UNIT if bits & 1 else 0, UNIT if bits & 2 else 0)

    def lucky(self, free, locked, rerolls, die):
        """The value of Lucky's re-roll of die `die` now: free dice first, then locked, by position."""
        a = b = 0
        for s in range(6):
            if die < len(free):
                rest = free[:die] + free[die + 1 :]
                new_free = tuple(sorted(rest + ((s,) if s > SCIENCE else ())))
                new_locked = tuple(sorted(locked + ((s,) if s <= SCIENCE else ())))
            else:
                i = die - len(free)
                new_free = free
                new_locked = tuple(sorted(locked[:i] + (s,) + locked[i + 1 :]))
            got = self.value(new_free, new_locked, rerolls, 0)
            a += got[0]
            b += got[1]
        return (a // 6, b // 6)

    def reroll(self, free, locked, rerolls, lucky, mask):
        """The value of re-rolling the free dice whose positions are in `mask`."""
        kept = tuple(free[i] for i in range(len(free)) if not mask & (1 << i))
        k = len(free) - len(kept)
        a = b = 0
        for throw, ways in throws(k):
            new_free = tuple(sorted(kept + tuple(f for f in throw if f > SCIENCE)))
            new_locked = tuple(sorted(locked + tuple(f for f in throw if f <= SCIENCE)))
            got = self.value(new_free, new_locked, rerolls - 1, lucky)
            a += ways * got[0]
            b += ways * got[1]
        return (a // 6**k, b // 6**k)

    def _value(self, free, locked, rerolls, lucky):
        """(chance, risk) in UNITs; free: unlocked faces, locked: locked faces (sorted tuples)."""
        best = self.final(free + locked)
        if lucky:
            for die in range(len(free) + len(locked)):
                got = self.lucky(free, locked, rerolls, die)
                if better(got, best):
                    best = got
        if rerolls:
            for mask in range(1, 1 << len(free)):
                got = self.reroll(free, locked, rerolls, lucky, mask)
                if better(got, best):
                    best = got
        return best
