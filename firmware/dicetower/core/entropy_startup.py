"""The dice's start-up test's own two checks (SP 800-90B 4.3), beyond the health tests: period and
linear complexity. A module of its own: FairDice loads it for a start-up test and forgets it once
the test has passed (on a Pico, code loaded from an .mpy lives on the heap the game needs).
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


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
# Bits of Berlekamp-Massey a check() call works through: a pass of the loop under 20 ms on a Pico
# (benchmarks/vm_entropy.py --rp2040 times it), and the first 512 bits still judged within the first
# 1024 samples (32 calls of 32 samples).
_LC_STEP = const(16)
# Its polynomials in words of 30 bits, lists of small ints: no big int made at each step.
_W = const(30)
_WORDS = const((_LC_BITS + _W) // _W)  # degree up to _LC_BITS
_MASK29 = const((1 << (_W - 1)) - 1)


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
        self._drop = [v * power % _HASH_PRIME for v in range(256 if not binary else 2)]
        self._first_hash = 0
        self._hash = 0
        self.seen = 0
        self._at = 0
        # Berlekamp-Massey over GF(2): connection polynomial c, the previous one b (t: a spare), in words.
        self._bits = 0
        self._s = [0] * _WORDS  # the latest bits, the newest at bit 0
        self._c = [0] * _WORDS
        self._b = [0] * _WORDS
        self._t = [0] * _WORDS
        self._c[0] = 1
        self._b[0] = 1
        self._l = 0
        self._m = 1
        self._queued = bytearray(_LC_BITS // 8)  # the first bits, waiting for Berlekamp-Massey
        self._in = 0

    def check(self, buf):
        """Take a buffer of raw samples (as the health tests saw them); None, or the reason the source
        failed. Its loop keeps what it needs in locals: it runs for each of 2**16 samples."""
        window = self.window
        first = self._first
        last = self._last
        drop = self._drop
        h = self._hash
        target = self._first_hash
        n = self.seen
        at = self._at  # n % window: where the oldest of the latest samples is
        for sample in buf:
            if n < window:
                first[n] = sample
                last[n] = sample
                target = (target * _HASH_BASE + sample) % _HASH_PRIME
                h = target
            else:
                h -= drop[last[at]]
                if h < 0:
                    h += _HASH_PRIME
                last[at] = sample
                h = (h * _HASH_BASE + sample) % _HASH_PRIME
                if h == target and self._came_round(at + 1):
                    self.seen = n + 1
                    return "period test: the first %d samples came round again after %d" % (window, n + 1 - window)
            n += 1
            at += 1
            if at == window:
                at = 0
        self._hash = h
        self._first_hash = target
        self.seen = n
        self._at = at
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
        end = min(at, self._bits + _LC_STEP)
        while self._bits < end:
            n = self._bits
            reason = self._complexity((queued[n >> 3] >> (7 - (n & 7))) & 1)
            if reason is not None:
                return reason
        if self._bits == _LC_BITS:  # judged: its buffers back to the heap
            self._queued = self._s = self._c = self._b = self._t = None
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

    def _complexity(self, bit):
        n = self._bits
        if n == _LC_BITS:
            return None
        s = self._s
        c = self._c
        top = n // _W + 1  # the words s holds bits in, after this one
        carry = bit
        for k in range(top):
            w = s[k]
            s[k] = ((w & _MASK29) << 1) | carry  # masked first: < 2**30
            carry = w >> 29
        x = 0
        for k in range(self._l // _W + 1):
            x ^= c[k] & s[k]
        x ^= x >> 16
        x ^= x >> 8
        x ^= x >> 4
        if (0x6996 >> (x & 15)) & 1:  # the discrepancy: c does not predict this bit
            span = self._l
            if 2 * span <= n:
                t = self._t
                for k in range(_WORDS):
                    t[k] = c[k]
            self._shifted_in()
            if 2 * span <= n:
                self._l = n + 1 - span
                self._b, self._t = self._t, self._b  # b takes c as it was
                self._m = 1
            else:
                self._m += 1
        else:
            self._m += 1
        self._bits = n + 1
        if self._bits == _LC_BITS and self._l < _LC_FLOOR:
            return "linear complexity test: the first %d bits follow an LFSR of %d bits" % (_LC_BITS, self._l)
        return None

    def _shifted_in(self):
        """c ^= b << m, in words."""
        c = self._c
        b = self._b
        q = self._m // _W
        r = self._m % _W
        end = min(_WORDS, (self._bits + 1) // _W + 2)
        if r == 0:
            for k in range(q, end):
                c[k] ^= b[k - q]
            return
        low = (1 << (_W - r)) - 1  # the bits of a word that stay in it, shifted by r
        back = _W - r
        k = end - 1
        while k >= q:
            w = (b[k - q] & low) << r
            if k - q > 0:
                w |= b[k - q - 1] >> back
            c[k] ^= w
            k -= 1

    def linear_complexity(self):
        """The shortest LFSR that gives the bits judged so far. A method, not a property: on MicroPython a
        class with a property makes every store to its instances look through the class first."""
        return self._l
