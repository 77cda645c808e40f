"""Uniform integers from a stream of bytes, for every die: FairDice's (core/entropy.py) and a game's sealed
dice (core/sealed.py) draw their faces here, so both map bytes to faces the one way.

Rejection sampling from a uniform integer pool that keeps the unused part of every byte: a d6 costs
about log2(6)/8 = 0.32 bytes, and no face is ever favoured (no bare modulo). The pool stays below 2**30
so that MicroPython keeps it in small ints: drawing a face allocates nothing. docs/fairness.md gives
the same steps in plain Python, for a player to check a game's faces.
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


_POOL_FLOOR = const(1 << 22)  # refill below this; pool * 256 stays under 2**30


class Pool:
    """The pool's state and `_below(n)`: a uniform integer in [0, n), for 2 <= n <= 2**22, from the bytes
    `_byte()` gives (each subclass's own). `bytes_used` counts them."""

    _value = 0  # uniform on [0, _range)
    _range = 1
    bytes_used = 0

    def _empty(self):
        """Forget what the pool holds: the bytes that come next start it afresh."""
        self._value = 0
        self._range = 1

    def _below(self, n):
        while True:
            while self._range < _POOL_FLOOR:
                self._value = (self._value << 8) | self._byte()
                self._range <<= 8
                self.bytes_used += 1
            keep = self._range // n
            limit = keep * n
            if self._value < limit:
                face = self._value % n
                self._value //= n
                self._range = keep
                return face
            # Rejected: what is left over is still uniform, on a smaller range.
            self._value -= limit
            self._range -= limit
