"""Stand-in entropy sources for the firmware tests (CPython and the MicroPython VM)."""

from dicetower.core.replay import SeededSource


class Pattern:
    """A byte source that repeats a pattern (a stuck or broken generator)."""

    binary = False
    min_entropy = 7

    def __init__(self, pattern, name="pattern"):
        self.pattern = pattern
        self.name = name
        self.at = 0
        self.reads = 0

    def fill(self, buf):
        self.reads += 1
        for i in range(len(buf)):
            buf[i] = self.pattern[self.at % len(self.pattern)]
            self.at += 1


class BiasedBits:
    """Raw binary samples with P(1) = 3/4 (a badly biased ring oscillator), from sfc16's bytes.

    (A 16-bit LCG's low bits made these once: they repeat every 1024 samples, which the start-up
    test's period test rightly caught.)"""

    binary = True
    name = "biased bits"

    def __init__(self, min_entropy, seed=1):
        self.min_entropy = min_entropy
        self.source = SeededSource(seed)
        self.byte = bytearray(1)

    def fill(self, buf):
        for i in range(len(buf)):
            self.source.fill(self.byte)
            buf[i] = 1 if self.byte[0] & 3 else 0


class FairBits:
    binary = True
    min_entropy = 0.5
    name = "fair bits"

    def __init__(self, seed=3):
        self.source = SeededSource(seed)
        self.byte = bytearray(1)
        self.left = 0

    def fill(self, buf):
        for i in range(len(buf)):
            if self.left == 0:
                self.source.fill(self.byte)
                self.left = 8
            self.left -= 1
            buf[i] = (self.byte[0] >> self.left) & 1


class Noise:
    """Byte noise that passes every test (sfc16's bytes, but not a replay: the DRBG path), broken on
    cue: `broken`, once set to a pattern, is what it gives from then on."""

    binary = False
    min_entropy = 7

    def __init__(self, seed=1, name="noise"):
        self.source = SeededSource(seed)
        self.name = name
        self.broken = None
        self.at = 0

    def fill(self, buf):
        if self.broken is None:
            self.source.fill(buf)
            return
        for i in range(len(buf)):
            buf[i] = self.broken[self.at % len(self.broken)]
            self.at += 1


class Cycle:
    """The same `period` bytes over and over (sfc16's first ones): a long byte cycle."""

    binary = False
    min_entropy = 7
    name = "byte cycle"

    def __init__(self, period, seed=5):
        self.period = period
        self.seed = seed
        self.source = SeededSource(seed)
        self.left = period
        self.chunk = bytearray(32)
        self.used = 32

    def fill(self, buf):
        for i in range(len(buf)):
            if self.left == 0:
                self.source = SeededSource(self.seed)
                self.left = self.period
                self.used = 32
            if self.used == 32:
                self.source.fill(self.chunk)
                self.used = 0
            buf[i] = self.chunk[self.used]
            self.used += 1
            self.left -= 1


class Counter:
    """A counter where the noise should be: bytes 0, 1, 2 ... (`width` 16: a 16-bit counter, low byte
    first), or on a bit path (`binary`) a byte counter's bits, the highest first."""

    name = "counter"

    def __init__(self, binary=False, width=8):
        self.binary = binary
        self.min_entropy = 0.8 if binary else 7
        self.width = width
        self.count = 0
        self.bit = 0

    def fill(self, buf):
        for i in range(len(buf)):
            if self.binary:
                buf[i] = (self.count >> (7 - self.bit)) & 1
                self.bit += 1
                if self.bit == 8:
                    self.bit = 0
                    self.count = (self.count + 1) & 0xFF
            elif self.width == 16:
                buf[i] = (self.count >> (8 * self.bit)) & 0xFF
                self.bit ^= 1
                if self.bit == 0:
                    self.count = (self.count + 1) & 0xFFFF
            else:
                buf[i] = self.count
                self.count = (self.count + 1) & 0xFF


class LfsrBits:
    """The ROSC's random bit register as a `length`-bit LFSR would give it (s[n + length] = s[n + 1]
    XOR s[n]: x^15 + x + 1 and x^127 + x + 1 are primitive, so 2**length - 1 bits before it repeats).
    Called as machine.mem32[address], as RoscBits reads it."""

    def __init__(self, length, seed=7):
        self.length = length
        start = bytearray((length + 7) // 8)
        SeededSource(seed).fill(start)  # a start state with no long runs in it
        state = 0
        for byte in start:
            state = (state << 8) | byte
        self.state = state & ((1 << length) - 1) or 1

    def __call__(self, address):
        state = self.state
        out = state & 1
        state = (state >> 1) | (((state ^ (state >> 1)) & 1) << (self.length - 1))
        self.state = state
        return out
