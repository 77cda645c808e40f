"""The re-roll advisor's work arrays (11 KB), made when the tower boots and kept.

Made later, after a game's presses and the advisor's own modules had cut the heap into pieces, a Pico
with .mpy files found no 1.8 KB block for one: MemoryError on the first roll of a resumed Battlerealm
game (tests/test_rp2040.py, the power cut test; 65 KB free, the largest piece 1.7 KB). Made as the first
of a Battlerealm game's modules instead (fetched ahead at set-up, or at the start), the emulated Pico's
probe (benchmarks/rp2040_pico.py) still met MemoryError at its first advice (a 1,636-byte block). So
`boot()` in main.py imports this module before anything else, for every game; core/ranks.py hands the
arrays out.
"""

try:
    from micropython import const
except ImportError:  # CPython: a constant is its value
    def const(x):  # type: ignore[misc]
        return x

HALF = const(462)  # the entries of a work array: a table's lower half, or its upper (ranks 462..923)
FIVES = const(252)  # how many ranks five dice have: the entries of PA and PB

# Five table halves, then PA and PB (the ranks of five dice); small ints, 4 bytes an entry on a Pico.
WORK = [[0] * HALF for _ in range(5)] + [[0] * FIVES for _ in range(2)]
