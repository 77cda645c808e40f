"""The dice's start-up test's own two checks (SP 800-90B 4.3), beyond the health tests: period and
linear complexity. A module of its own: FairDice loads it for a start-up test and forgets it once
the test has passed (on a Pico, code loaded from an .mpy lives on the heap the game needs).
"""

from array import array

import micropython
from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

try:
    from micropython import ptr8, ptr32  # the annotations of a Viper pass: CPython's stand-in
except ImportError:
    pass  # a board's Viper has them built in; bytecode never reads an annotation


# The period test: a window of this many first samples (76 bits of claimed entropy for the ROSC's
# bits, 112 for bytes) found again later means the source is repeating itself.
_PERIOD_WINDOW_BITS = const(96)
_PERIOD_WINDOW_BYTES = const(16)
_HASH_BASE = const(257)
_HASH_PRIME = const(4177969)  # the largest prime with prime * 257 + 255 < 2**30: small ints on MicroPython
# The linear complexity test: Berlekamp-Massey over the first _LC_BITS bits. A random sequence's
# linear complexity is within a few bits of half its length (below n/2 - k with probability about
# 2**-2k), so one under _LC_FLOOR is an LFSR of that length (a false alarm once in 2**96).
_LC_BITS = const(512)
_LC_FLOOR = const(208)
# Bits of Berlekamp-Massey a check() call works through: a pass of the loop under 20 ms on a Pico as
# bytecode (a board without a native emitter; as Viper a step is some microseconds), and the first 512
# bits still judged within the first 1024 samples (32 calls of 32 samples).
_LC_STEP = const(16)
# Its polynomials in words of 30 bits: small ints as bytecode, no big int made at each step.
_W = const(30)
_WORDS = const((_LC_BITS + _W) // _W)  # degree up to _LC_BITS
_MASK29 = const((1 << (_W - 1)) - 1)
_C = const(_WORDS)  # where c starts in the words, after s; b and t at 2 and 3 _WORDS, in either order
_B = const(2 * _WORDS)
_BT = const(5 * _WORDS)  # b's offset + t's


class StartupTest:
    """The start-up test's own two checks, on every sample of it: period and linear complexity."""

    def __init__(self, binary):
        self.binary = binary
        window = _PERIOD_WINDOW_BITS if binary else _PERIOD_WINDOW_BYTES
        self.window = window
        self._first = bytearray(window)  # the first samples, which must not come round again
        self._last = bytearray(window)  # the latest samples, a ring
        # A rolling hash of the latest window finds the candidates; the samples themselves decide.
        power = 1
        for _ in range(window - 1):
            power = power * _HASH_BASE % _HASH_PRIME
        self._drop = array("i", [v * power % _HASH_PRIME for v in range(256 if not binary else 2)])
        # The latest window's hash, the first window's, the samples seen, where the oldest latest one is.
        self._period = array("i", bytes(16))
        # Berlekamp-Massey over GF(2), in words: the latest bits s, the connection polynomial c, the previous
        # one b and a spare t, _WORDS words each in one array (b and t trade places: _state's offsets).
        self._v = array("i", bytes(4 * 4 * _WORDS))
        self._v[_C] = 1
        self._v[_B] = 1
        self._state = array("i", (0, 0, 1, _B))  # bits judged, the LFSR's length l, m, where b is
        self._bits = 0
        self._queued = bytearray(_LC_BITS // 8)  # the first bits, waiting for Berlekamp-Massey
        self._in = 0

    def check(self, buf):
        """Take a buffer of raw samples (as the health tests saw them); None, or the reason the source
        failed. It runs for each of 2**16 samples: its loops are Viper passes on a board."""
        window = self.window
        period = self._period
        at = 0
        while True:
            at = _rolling(buf, at, len(buf), self._first, self._last, self._drop, window, period)
            if at < 0:
                break
            # The latest window's hash is the first's: the samples themselves decide.
            if self._came_round(period[3]):
                return "period test: the first %d samples came round again after %d" % (window, period[2] - window)
        if self._bits < _LC_BITS:
            return self._linear(buf)
        return None

    def _linear(self, buf):
        """Queue the buffer's share of the first _LC_BITS bits; run Berlekamp-Massey over _LC_STEP of them."""
        queued = self._queued
        at = self._in
        if at < _LC_BITS:
            if self.binary:
                for sample in buf:
                    if at == _LC_BITS:
                        break
                    queued[at >> 3] |= (sample & 1) << (7 - (at & 7))
                    at += 1
            else:
                for sample in buf:
                    if at == _LC_BITS:
                        break
                    queued[at >> 3] = sample
                    at += 8
            self._in = at
        state = self._state
        n = _massey(queued, min(at, self._bits + _LC_STEP), self._v, state)
        self._bits = n
        if n == _LC_BITS:  # judged: its buffers back to the heap
            self._queued = self._v = None
            if state[1] < _LC_FLOOR:
                return "linear complexity test: the first %d bits follow an LFSR of %d bits" % (_LC_BITS, state[1])
        return None

    def _came_round(self, oldest):
        """Whether the latest samples, the oldest at `oldest` (mod the window), are the first ones."""
        first = self._first
        last = self._last
        window = self.window
        for i in range(window):
            if last[(oldest + i) % window] != first[i]:
                return False
        return True

    def linear_complexity(self):
        """The shortest LFSR that gives the bits judged so far. A method, not a property: on MicroPython a
        class with a property makes every store to its instances look through the class first."""
        return self._state[1]


@micropython.viper
def _massey(queued: ptr8, end: int, v: ptr32, state: ptr32) -> int:  # noqa: C901 (a kernel: one frame)
    """Berlekamp-Massey over GF(2) from bit state[0] of `queued` (the first bit its first byte's top) up
    to `end`: s, c, b and t in `v` (StartupTest's layout), the length l, m and b's offset in `state`.
    The bits judged after it. Viper on a board (the start-up test's first 1024 samples are a Pico's boot:
    about 0.45 ms a bit as bytecode); the same source as bytecode elsewhere."""
    n = state[0]
    span = state[1]
    m = state[2]
    b = state[3]
    while n < end:
        carry = (queued[n >> 3] >> (7 - (n & 7))) & 1
        k = 0
        top = n // _W + 1  # the words s holds bits in, after this one
        while k < top:  # s = s << 1 | the bit
            w = v[k]
            v[k] = ((w & _MASK29) << 1) | carry  # masked first: < 2**30
            carry = w >> 29
            k += 1
        x = 0
        k = 0
        top = span // _W + 1
        while k < top:
            x = x ^ (v[_C + k] & v[k])
            k += 1
        x = x ^ (x >> 16)
        x = x ^ (x >> 8)
        x = x ^ (x >> 4)
        if (0x6996 >> (x & 15)) & 1:  # the discrepancy: c does not predict this bit
            t = _BT - b
            grows = 2 * span <= n
            if grows:
                k = 0
                while k < _WORDS:  # t = c
                    v[t + k] = v[_C + k]
                    k += 1
            # c ^= b << m, in words
            q = m // _W
            r = m % _W
            top = (n + 1) // _W + 2
            if top > _WORDS:
                top = _WORDS
            if r == 0:
                k = q
                while k < top:
                    v[_C + k] = v[_C + k] ^ v[b + k - q]
                    k += 1
            else:
                low = (1 << (_W - r)) - 1  # the bits of a word that stay in it, shifted by r
                back = _W - r
                k = top - 1
                while k >= q:
                    w = (v[b + k - q] & low) << r
                    if k > q:
                        w = w | (v[b + k - q - 1] >> back)
                    v[_C + k] = v[_C + k] ^ w
                    k -= 1
            if grows:
                span = n + 1 - span
                b = t  # b takes c as it was
                m = 1
            else:
                m += 1
        else:
            m += 1
        n += 1
    state[0] = n
    state[1] = span
    state[2] = m
    state[3] = b
    return n


@micropython.viper
def _rolling(buf: ptr8, i: int, end: int, first: ptr8, last: ptr8, drop: ptr32, window: int, period: ptr32) -> int:
    """The period test's rolling hash over buf[i:end]: the first `window` samples kept in `first`, the
    latest in the ring `last`; its state in `period` (StartupTest's layout). Stops after a sample whose
    window hashes as the first one does and says where to go on from, else -1 at the end."""
    h = period[0]
    target = period[1]
    n = period[2]
    at = period[3]  # n % window: where the oldest of the latest samples is
    found = -1
    while i < end:
        sample = buf[i]
        i += 1
        if n < window:
            first[n] = sample
            last[n] = sample
            target = (target * _HASH_BASE + sample) % _HASH_PRIME
            h = target
        else:
            h = h - drop[last[at]]
            if h < 0:
                h = h + _HASH_PRIME
            last[at] = sample
            h = (h * _HASH_BASE + sample) % _HASH_PRIME
        n += 1
        at += 1
        if at == window:
            at = 0
        if n > window and h == target:
            found = i
            break
    period[0] = h
    period[1] = target
    period[2] = n
    period[3] = at
    return found
