"""Stand-in entropy sources for the firmware tests (CPython and the MicroPython VM)."""

from dicetower.core.entropy import SeededSource


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


class Lcg:
    """A small deterministic generator, independent of sfc16, for shaping test sources."""

    def __init__(self, seed):
        self.state = seed & 0xFFFF

    def bit(self, ones_in_4):
        self.state = (self.state * 25173 + 13849) & 0xFFFF
        return 1 if (self.state >> 8) % 4 < ones_in_4 else 0


class BiasedBits:
    """Raw binary samples with P(1) = 3/4 (a badly biased ring oscillator)."""

    binary = True
    name = "biased bits"

    def __init__(self, min_entropy, seed=1):
        self.min_entropy = min_entropy
        self.lcg = Lcg(seed)

    def fill(self, buf):
        for i in range(len(buf)):
            buf[i] = self.lcg.bit(3)


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
