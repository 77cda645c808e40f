"""Where the dice get their randomness, and the checks that keep it honest.

Two protocols, written here once; tests/test_protocols.py checks that every
implementation offers all of its members.

An entropy source gives raw samples (hw/entropy.py: Urandom, RoscBits,
Rp2350Trng; SeededSource here, deterministic, for tests and replays):
    name         what the events and the screen call it
    binary       True if each sample is one bit, False if a whole byte
    min_entropy  the min-entropy it claims per sample, in bits: it sets the health tests' cutoffs
    fill(buf)    write raw samples into the bytearray `buf`; OSError if the hardware fails

Dice give faces (FairDice and ScriptedFaces here; the simulator's TeachingFaces):
    name         where the faces come from, for the events and the screen
    failure      None while the dice can roll, else the sentence that says why they will not
    draw(die)    a face index of `die` (core/dice.py), or EntropyFailure with nothing changed
    recover()    try again after a failure; True if the dice can roll now
The device also calls `below(n)` (a uniform integer in [0, n)) and `prime()`
(gather noise at idle) where the dice have them, as FairDice does.

`FairDice` turns a source into faces:
  1. every raw sample passes NIST SP 800-90B's two health tests (4.4.1
     repetition count, 4.4.2 adaptive proportion), at start-up over 1024
     samples and on every sample after; a failure puts the dice into a failed
     state that refuses to roll and says why, until `recover()` passes the
     start-up test again;
  2. binary samples are debiased pairwise (von Neumann) and packed to bytes;
  3. faces are drawn by rejection sampling from a uniform integer pool that
     keeps the unused part of every byte, so a d6 costs about log2(6)/8 =
     0.32 bytes, and no face is ever favoured (no bare modulo).

`ScriptedFaces` gives set faces instead, for tests and tutorials; it is never
the default on a device.

Everything here is allocation-free per face: the pool stays below 2**30 so
MicroPython keeps it in small ints.
"""

# NIST SP 800-90B health tests with a false-alarm rate alpha = 2**-30 per
# sample (the standard allows 2**-20 to 2**-40; at 2**-20 a healthy source
# would stop the dice about once per million bytes, which a benchmark reaches).
# Repetition count cutoff: 1 + ceil(30 / H). Adaptive proportion cutoff:
# 1 + CRITBINOM(W, 2**-H, 1 - 2**-30), with the window W = 1024 for binary
# samples and 512 for others. A Pico cannot compute a binomial quantile in
# single-precision floats, so the cutoffs for the claims our sources make are
# tabulated here; tests/test_references.py recomputes every entry with scipy.
ALPHA_BITS = 30
APT_CUTOFFS = {
    (1024, 0.5): 810,
    (1024, 0.8): 683,
    (1024, 1.0): 609,
    (512, 7): 22,
    (512, 8): 16,
}
STARTUP_SAMPLES = 1024

_POOL_FLOOR = 1 << 22  # refill below this; pool * 256 stays under 2**30
_BUF_SIZE = 32
_MAX_EQUAL_PAIRS = 256  # a fair bit source does this once in 2**256 tries
_STARTUP_BYTES = 64  # debiased bytes checked at start-up (binary sources)
_READY = 8  # tested bytes made ahead at idle (prime): about four rolls of six dice


class EntropyFailure(Exception):
    """The entropy source failed a health test or could not be read.

    `str(e)` is a sentence the UI can show as it is.
    """


def rct_cutoff(min_entropy):
    """Repetition count test cutoff C = 1 + ceil(30 / H) (SP 800-90B 4.4.1)."""
    q = ALPHA_BITS / min_entropy
    c = int(q)
    if c < q:
        c += 1
    return 1 + c


class HealthTests:
    """The repetition count and adaptive proportion tests on raw samples."""

    def __init__(self, binary, min_entropy):
        self.window = 1024 if binary else 512
        key = (self.window, min_entropy)
        if key not in APT_CUTOFFS:
            raise ValueError("no health test cutoff for %s samples of min-entropy %s"
                             % ("binary" if binary else "byte", min_entropy))
        self.apt_cutoff = APT_CUTOFFS[key]
        self.rct_cutoff = rct_cutoff(min_entropy)
        self.reset()

    def reset(self):
        self._last = -1
        self._run = 0
        self._ref = -1
        self._seen = 0
        self._count = 0

    def check(self, sample):
        """Take one raw sample; return None, or the reason the source failed."""
        if sample == self._last:
            self._run += 1
            if self._run >= self.rct_cutoff:
                return "repetition count test: %d identical samples in a row" % self._run
        else:
            self._last = sample
            self._run = 1
        if self._seen == 0:
            self._ref = sample
            self._count = 1
        elif sample == self._ref:
            self._count += 1
            if self._count >= self.apt_cutoff:
                return ("adaptive proportion test: one value %d times in %d samples"
                        % (self._count, self.window))
        self._seen += 1
        if self._seen == self.window:
            self._seen = 0
        return None


class FairDice:
    """Unbiased faces from a health-tested entropy source.

    `draw(die)` returns a face index of `die`, or raises EntropyFailure and
    leaves the caller's state alone. `failure` is None while the dice can
    roll, else the sentence that says why they will not.

    `fallback` is a second source, used from the moment the first one fails
    (at start-up or mid-game); `switched` then holds the first one's failure,
    so the UI can say which source the dice use and why.
    """

    def __init__(self, source, fallback=None):
        self._buf = bytearray(_BUF_SIZE)
        self._ready = bytearray(_READY)  # a queue: the bytes come out in the order they were made
        self._ready_at = 0
        self._ready_n = 0
        # Debiased bits must come out as full-entropy bytes: a periodic bit
        # source (0101...) passes the raw tests but would give stuck bytes.
        self.output_health = HealthTests(False, 7)
        self.bytes_used = 0
        self.switched = None
        self._fallback = fallback
        self._use(source)
        if self.failure is not None:
            self._switch()

    def _use(self, source):
        self.source = source
        self.name = source.name
        self.binary = bool(source.binary)
        self.health = HealthTests(self.binary, source.min_entropy)
        self.recover()

    def _switch(self):
        """Move to the fallback source; True if it passes its start-up test."""
        if self._fallback is None:
            return False
        fallback = self._fallback
        self._fallback = None
        self.switched = self.failure
        self._use(fallback)
        return self.failure is None

    def recover(self):
        """Run the start-up test again; True if the source is healthy now."""
        self.health.reset()
        self.output_health.reset()
        self.failure = None
        self._value = 0
        self._range = 1
        self._ready_n = 0
        try:
            for _ in range(STARTUP_SAMPLES // _BUF_SIZE):
                self._refill()
            if self.binary:
                # Debias and check a first run of bytes too, so a periodic
                # source is caught before any face comes from it.
                self._pos = _BUF_SIZE
                for _ in range(_STARTUP_BYTES):
                    self._fresh()
        except EntropyFailure:
            return False
        self._pos = _BUF_SIZE  # start-up samples are tested, then discarded
        return True

    def _refill(self):
        buf = self._buf
        try:
            self.source.fill(buf)
        except Exception as e:  # a driver error must not crash the game
            self._fail("could not be read (%s)" % e)
        check = self.health.check
        for i in range(_BUF_SIZE):
            reason = check(buf[i])
            if reason is not None:
                self._fail("failed its health check: " + reason)
        self._pos = 0

    def _fail(self, what):
        self.failure = "Dice off: %s %s." % (self.name, what)
        self._pos = _BUF_SIZE
        raise EntropyFailure(self.failure)

    def _raw(self):
        if self._pos >= _BUF_SIZE:
            self._refill()
        sample = self._buf[self._pos]
        self._pos += 1
        return sample

    def prime(self):
        """Make one byte for the rolls to come. The device's loop calls this at idle, so that a roll
        finds its noise gathered and tested (on a Pico, gathering a roll's worth takes about 20 ms).
        True if there was work; False once _READY bytes wait or the dice are off."""
        if self._ready_n == _READY or self.failure is not None:
            return False
        try:
            byte = self._fresh()
        except EntropyFailure:
            self._switch()  # as a draw would: the fallback from now on, or the dice stay off
            return True
        self._ready[(self._ready_at + self._ready_n) % _READY] = byte
        self._ready_n += 1
        return True

    def _byte(self):
        if self._ready_n:
            byte = self._ready[self._ready_at]
            self._ready_at = (self._ready_at + 1) % _READY
            self._ready_n -= 1
            return byte
        return self._fresh()

    def _fresh(self):
        if not self.binary:
            return self._raw()
        # von Neumann: of each pair of raw bits keep the first when they differ.
        byte = 0
        bits = 0
        equal_pairs = 0
        while bits < 8:
            a = self._raw() & 1
            if a != self._raw() & 1:
                byte = (byte << 1) | a
                bits += 1
                equal_pairs = 0
            else:
                equal_pairs += 1
                if equal_pairs == _MAX_EQUAL_PAIRS:  # 0011 0011...: never an output bit
                    self._fail("failed its health check: %d bit pairs in a row gave no output" % equal_pairs)
        reason = self.output_health.check(byte)
        if reason is not None:
            self._fail("failed its health check after debiasing: " + reason)
        return byte

    def below(self, n):
        """A uniform integer in [0, n), for 2 <= n <= 2**22."""
        while True:
            if self.failure is not None:
                raise EntropyFailure(self.failure)
            try:
                return self._below(n)
            except EntropyFailure:
                # The pool may hold the failed source's bytes: start afresh.
                if not self._switch():
                    raise

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

    def draw(self, die):
        return self.below(die.sides)


class ScriptedFaces:
    """Set faces, in order, for tests and tutorials: never a device default.

    `faces` holds face names (or indices); when they run out, draws are
    refused with EntropyFailure so a script error cannot pass as a roll.
    """

    name = "scripted faces"

    def __init__(self, faces):
        self.faces = list(faces)
        self.position = 0
        self.failure = None

    def draw(self, die):
        if self.position >= len(self.faces):
            raise EntropyFailure("Dice off: the scripted faces ran out after %d." % self.position)
        face = die.index(self.faces[self.position])
        self.position += 1
        return face

    def recover(self):
        return self.position < len(self.faces)


class SeededSource:
    """A deterministic byte source for tests and replays: sfc16.

    sfc16 is PractRand's Small Fast Counting generator on 16-bit words; all
    its arithmetic stays in MicroPython's small ints, so it allocates nothing
    and gives the same bytes on a Pico, the VM and CPython.
    """

    name = "seeded"
    binary = False
    min_entropy = 7

    def __init__(self, seed):
        # PractRand's seeding: the 64-bit seed fills a, b, c and the counter,
        # then ten rounds are thrown away.
        seed = int(seed)
        self.seed = seed
        self._a = seed & 0xFFFF
        self._b = (seed >> 16) & 0xFFFF
        self._c = (seed >> 32) & 0xFFFF
        self._counter = (seed >> 48) & 0xFFFF
        for _ in range(10):
            self._next()

    def _next(self):
        a = self._a
        b = self._b
        c = self._c
        out = (a + b + self._counter) & 0xFFFF
        self._counter = (self._counter + 1) & 0xFFFF
        self._a = b ^ (b >> 5)
        self._b = (c + (c << 3)) & 0xFFFF
        self._c = ((((c << 6) | (c >> 10)) & 0xFFFF) + out) & 0xFFFF
        return out

    def fill(self, buf):
        n = len(buf)
        i = 0
        while i < n:
            word = self._next()
            buf[i] = word & 0xFF
            if i + 1 < n:
                buf[i + 1] = word >> 8
            i += 2
