"""Where the dice get their randomness, and the checks that keep it honest.

Two protocols, written here once; tests/test_protocols.py checks that every implementation offers all of them.

An entropy source gives raw samples (hw/entropy.py's Urandom and RoscBits, hw/trng.py's
Rp2350Trng; core/replay.py's SeededSource, deterministic, for tests and replays):
    name         what the events and the screen call it
    binary       True if each sample is one bit, False if a whole byte
    min_entropy  the min-entropy it claims per sample, in bits: it sets the health tests' cutoffs
    fill(buf)    write raw samples into the bytearray `buf`; OSError if the hardware fails
A source that replays set bytes says so with `replay = True` (SeededSource): its bytes, health-tested,
become faces as they are, so that a seeded game gives the same faces everywhere.

Dice give faces (FairDice here, core/replay.py's ScriptedFaces; the simulator's TeachingFaces):
    name         where the faces come from, for the events and the screen
    failure      None while the dice can roll, else the sentence that says why they will not
    draw(die)    a face index of `die` (core/dice.py), or EntropyFailure with nothing changed
    recover()    try again after a failure; True if the dice can roll now
The device also calls `below(n)` (a uniform integer in [0, n)), `prime(now)` (work at idle: noise
gathered ahead, failed dice retried) and `stir(micros)` (a press's time, mixed into what comes next)
where the dice have them, as FairDice does.

`FairDice` turns a noise source into faces, in the shape of NIST SP 800-90C: an entropy source
(SP 800-90B) feeding a DRBG (SP 800-90A). docs/fairness.md ("From noise to a face") gives each step
and why; in short:
  1. Every raw sample passes SP 800-90B's health tests (core/health.py).
  2. A start-up test (4.3) over STARTUP_TEST_SAMPLES: the health tests, a period test and a linear
     complexity test (core/entropy_startup.py). Its first STARTUP_SAMPLES pass before the DRBG is
     seeded; the rest runs at idle, a buffer a pass, and a failure there pauses the dice.
  3. Conditioning: SHA-256 over raw samples carrying 512 bits of claimed entropy (twice the 256 bits
     its output is taken to hold).
  4. HMAC_DRBG with SHA-256 (core/drbg.py): instantiated from two conditioned blocks, reseeded before
     every RESEED_INTERVAL-th request of 32 bytes. Each press's time in microseconds is additional input
     to the next request, whose output replaces what was made before the press.
  5. Faces by rejection sampling from a uniform integer pool (core/pool.py): no face is favoured.
A failure (of the health tests, the rest of the start-up test, or a read) makes the dice refuse to
roll and say why, after the second source (if one was given) has been tried. `prime(now)` then
runs the whole start-up test again, 1 s after the failure, then 2 s, 4 s ... up to 64 s after each
failed try; the dice roll again once one passes. A replay source skips 2 to 4: STARTUP_SAMPLES, then
its bytes straight into the pool.

`ScriptedFaces` (core/replay.py) gives set faces instead, for tests, tutorials and a roll replayed after
an undo; it is never the default on a device.

Drawing a face allocates nothing: the pool keeps small ints, and the DRBG's state, its HMAC key blocks
and its output are preallocated bytearrays. Each SHA-256 is a new hash object (MicroPython's cannot be
copied, nor updated after its digest), made where a block of output is: at idle, by prime.
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


from dicetower.core.health import EntropyFailure, HealthTests
from dicetower.core.pool import Pool

# Modules only some dice need, imported when needed (on a Pico an .mpy's code lives on the heap): core/drbg.py
# for a noise source, not a replay; core/entropy_startup.py for a start-up test, forgotten once it passes.
_STARTUP_TEST = "dicetower.core.entropy_startup"

STARTUP_SAMPLES = 1024  # SP 800-90B's start-up minimum: tested as the dice start (made, or start() if made later)
STARTUP_TEST_SAMPLES = (1 << 16) + 128  # the whole start-up test: a cycle of up to 2**16 samples comes round in it
_SEED_BITS = const(512)  # claimed entropy conditioned into each 256-bit seed block
RESEED_INTERVAL = 4  # DRBG requests (32 bytes, about 100 d6 faces each) between reseeds
PERSONALIZATION = b"dicetower dice"
PAUSED = "Dice paused, retrying: restart if it persists. Noise failed its test."  # 3 lines of 25
# Paused dice (a failure): prime runs the whole start-up test again, a slice at each idle pass, RETRY_FIRST_MS
# after the failure, then twice as long after each failed try, up to 64 s (docs/fairness.md,
# "When the noise fails").
RETRY_FIRST_MS = 1000
_RETRY_LONGEST_MS = const(64000)
SLICE = 32  # raw samples an idle pass reads (a retry's, or prime's work): a few ms on a Pico

_BUF_SIZE = const(32)
_BLOCK = const(32)  # bytes of DRBG output per request
_READY = const(8)  # replay bytes made ahead at idle (prime): about four rolls of six dice
_PRESSES = const(16)  # presses' times kept for the next DRBG block; more before it are folded in (XOR)


def _startup_test(binary):
    """The start-up test and the scope that loaded it: closed once the test has passed, its code and
    buffers are garbage for the loop's next collection at idle (a pass of its own: here it would double
    this pass)."""
    from dicetower.core.scope import Scope

    scope = Scope("start-up test")
    return scope, scope.load(_STARTUP_TEST).StartupTest(binary)


def _samples_for(bits, min_entropy):
    """Raw samples carrying `bits` of claimed entropy, in whole buffers."""
    n = int(bits / min_entropy)
    if n * min_entropy < bits:
        n += 1
    return (n + _BUF_SIZE - 1) // _BUF_SIZE * _BUF_SIZE


class FairDice(Pool):
    """Unbiased faces from a health-tested entropy source, through a conditioner and a DRBG.

    `draw(die)` returns a face index of `die`, or raises EntropyFailure and
    leaves the caller's state alone. `failure` is None while the dice can
    roll, else the sentence that says why they will not.

    `fallback` is a second source, used from the moment the first one fails
    (at start-up or mid-game); `switched` then holds the first one's failure,
    so the UI can say which source the dice use and why.
    """

    _pressed = 0  # presses stirred in since the last DRBG block (see stir)
    retries = 0  # tries of the start-up test after a failure
    _retrying = False
    _retry_from = None  # when the wait began (ms), None before the first idle pass after a failure
    _backoff = RETRY_FIRST_MS

    _later = False  # made with `later`: the start waits for start() (or the first draw)

    def __init__(self, source, fallback=None, later=False):
        self._buf = bytearray(_BUF_SIZE)
        self._packed = bytearray(_BUF_SIZE // 8)  # a buffer of bits, eight to a byte, for SHA-256
        self._ready = bytearray(2 * _BLOCK)  # a queue of two blocks: prime makes one once one has room
        self._ready_at = 0
        self._ready_n = 0
        self._out = bytearray(_BLOCK)
        self._first_seed = bytearray(32)  # the DRBG's instantiation takes two seed blocks
        self._presses = bytearray(4 * _PRESSES)  # the players' press times (us) since the last block
        self._pressed = 0
        self._drbg = None
        self._sha256 = None
        self._test = None
        self._scope = None  # the start-up test's module's (`_startup_test`)
        self.bytes_used = 0  # bytes of DRBG output (of replayed bytes, for a replay) taken by faces
        self.samples_used = 0  # raw samples read from the sources, start-up tests included
        self.switched = None
        self._fallback = fallback
        self._use(source, later)
        if self.failure is not None:
            self._switch()

    def _use(self, source, later=False):
        self.source = source
        self.name = source.name
        self.binary = bool(source.binary)
        self.replay = bool(getattr(source, "replay", False))
        if not self.replay and self._drbg is None:
            try:
                from dicetower.core.drbg import HmacDrbg, sha256
            except ImportError:  # a build without SHA-256 (some CircuitPython boards): bytes feed the pool raw
                self.replay = True
            else:
                self._drbg = HmacDrbg()
                self._sha256 = sha256
        if self.replay and self.binary:
            raise ValueError("%s: single bits need the DRBG, and it needs hashlib's SHA-256" % source.name)
        self.health = HealthTests(self.binary, source.min_entropy)
        self._seed_samples = _samples_for(_SEED_BITS, source.min_entropy)
        if later:
            self._later = True
            self.failure = None
        else:
            self._begin()

    def start(self):
        """Dice made `later`: their start-up test's module, its first STARTUP_SAMPLES, then the DRBG seeded
        (else the fallback's). A device shows its start menu first, then starts them before its loop takes
        a press (about 100 ms of a Pico's boot); a draw or an idle pass before that starts them itself."""
        if self._later and not self._begin():
            self._switch()

    def _restart(self):
        """Ready a start-up test from its first sample; a failure already said stands until it passes."""
        self.health.reset()
        self._empty()
        self._ready_at = 0
        self._ready_n = 0
        self._pos = _BUF_SIZE
        self._seeded = self.replay
        self._seeds = 0  # seed blocks conditioned for the DRBG's instantiation
        self._gathering = None  # a seed block being conditioned, a slice a pass: its SHA-256
        self._testing = STARTUP_SAMPLES if self.replay else STARTUP_TEST_SAMPLES
        self._test = None  # (a test under way is garbage before the next one is made)
        if self._scope is not None:
            self._scope.close()  # and its module, loaded again below
            self._scope = None
        if not self.replay:
            self._scope, self._test = _startup_test(self.binary)

    def _begin(self, whole=False):
        """A start-up test: its first STARTUP_SAMPLES (or all of it) now, then the DRBG seeded; the rest
        at idle. True unless it failed."""
        self._later = False
        self._restart()
        self.failure = None
        try:
            self._startup(STARTUP_TEST_SAMPLES if whole else STARTUP_SAMPLES)
            self._seed()
        except EntropyFailure:
            return False
        return True

    def _startup(self, n):
        """Test up to `n` more samples of the start-up test."""
        while n > 0 and self._testing > 0:
            self._refill()  # (it counts the samples and runs the start-up test's checks)
            n -= _BUF_SIZE
        self._pos = _BUF_SIZE  # samples read only for the start-up test are tested, then discarded

    def _seed(self, n=STARTUP_TEST_SAMPLES):
        """Instantiate the DRBG from two conditioned seed blocks, their samples gathered up to `n` a
        call (prime's slice); True once it is seeded."""
        while not self._seeded:
            block = self._gather(n)
            if block is None:
                return False
            if self._seeds == 0:
                self._first_seed[:] = block
                self._seeds = 1
            else:
                self._drbg.instantiate(self._first_seed, block, PERSONALIZATION)
                self._seeded = True
            if n < STARTUP_TEST_SAMPLES:
                break
        return self._seeded

    def _switch(self):
        """Move to the fallback source; True if it passes its start-up test."""
        if self._fallback is None:
            return False
        fallback = self._fallback
        self._fallback = None
        self.switched = self.failure
        self._use(fallback)
        return self.failure is None

    def _refill(self):
        buf = self._buf
        try:
            self.source.fill(buf)
        except Exception as e:  # noqa: BLE001 (a driver error must not crash the game)
            self._fail("could not be read (%s)" % e)
        self.samples_used += _BUF_SIZE
        reason = self.health.check_all(buf)
        if reason is not None:
            self._fail("failed its health check: " + reason)
        if self._testing > 0:
            # Every sample read while the start-up test runs is one of its samples, those conditioned
            # for seeds among them: the test sees the source's stream unbroken.
            if self._test is not None:
                reason = self._test.check(buf)
                if reason is not None:
                    self._fail("failed its start-up test: " + reason)
            self._testing -= _BUF_SIZE
            if self._testing <= 0 and self._test is not None:
                self._test = None  # passed: its code and buffers go back to the game's heap
                self._scope.close()
                self._scope = None
        self._pos = 0

    def _fail(self, what):
        self.failure = "Dice paused: %s %s." % (self.name, what)
        self._pos = _BUF_SIZE
        self._gathering = None
        raise EntropyFailure(self.failure, PAUSED)

    def _gather(self, n):
        """Condition up to `n` more samples into the seed block under way (SHA-256 of samples carrying
        512 bits of claimed entropy); its 32 bytes once complete, else None."""
        if self._gathering is None:
            self._gathering = self._sha256()
            self._left = self._seed_samples
        digest = self._gathering
        buf = self._buf
        while n > 0 and self._left > 0:
            self._refill()
            if self.binary:
                packed = self._packed
                i = 0
                for j in range(_BUF_SIZE // 8):
                    packed[j] = (
                        (buf[i] << 7)
                        | (buf[i + 1] << 6)
                        | (buf[i + 2] << 5)
                        | (buf[i + 3] << 4)
                        | (buf[i + 4] << 3)
                        | (buf[i + 5] << 2)
                        | (buf[i + 6] << 1)
                        | buf[i + 7]
                    )
                    i += 8
                digest.update(packed)
            else:
                digest.update(buf)
            self._left -= _BUF_SIZE
            n -= _BUF_SIZE
        self._pos = _BUF_SIZE
        if self._left > 0:
            return None
        self._gathering = None
        return digest.digest()

    def _block(self, n=STARTUP_TEST_SAMPLES):
        """The DRBG's next 32 bytes into the queue, reseeding first when it is due; with `n` set
        (prime's slice), the reseed's samples are gathered `n` at a time and False said until done."""
        drbg = self._drbg
        if drbg.reseed_counter > RESEED_INTERVAL:
            seed = self._gather(n)
            if seed is None:
                return False
            drbg.reseed(seed)
            if n < STARTUP_TEST_SAMPLES:
                return True  # the block itself next pass
        out = self._out
        pressed = self._pressed
        if pressed:
            # The presses since the last block are its additional input; the bytes made before them, and
            # what the pool kept of those, are dropped: every face from here depends on them.
            presses = self._presses
            drbg.generate(out, memoryview(presses)[: 4 * min(pressed, _PRESSES)])
            for i in range(len(presses)):
                presses[i] = 0
            self._pressed = 0
            self._ready_n = 0
            self._empty()
        else:
            drbg.generate(out)
        for i in range(_BLOCK):
            self._push(out[i])
        return True

    def stir(self, micros):
        """A player's press, its time in microseconds: SP 800-90A additional input to the next DRBG block,
        made at the next idle pass (or by the next draw, if none came between). Human timing to the
        microsecond is noise nobody at the table knows, so faces depend on it as well as on the source's
        noise (docs/fairness.md says what that promises). A replay's faces do not change (no DRBG)."""
        if self._drbg is None or self.replay:
            return
        presses = self._presses
        at = 4 * (self._pressed % _PRESSES)
        for i in range(4):
            presses[at + i] ^= (micros >> (8 * i)) & 0xFF
        self._pressed += 1

    def _push(self, byte):
        ready = self._ready
        ready[(self._ready_at + self._ready_n) % len(ready)] = byte
        self._ready_n += 1

    def _raw(self):
        if self._pos >= _BUF_SIZE:
            self._refill()
        sample = self._buf[self._pos]
        self._pos += 1
        return sample

    def prime(self, now=None):
        """One piece of work at idle; True if there was one. The device's loop calls it with the time
        in ms: it keeps a block of DRBG output ready (so that a roll finds its bytes made), runs the
        rest of the start-up test a slice at a time, reseeds once due (not in a press's block), and,
        while the dice are paused, tries the start-up test again. Each piece reads at most SLICE samples."""
        if self._later:
            self.start()
            return True
        if self.failure is not None:
            return self._retry(now)
        try:
            if self.replay:
                if self._ready_n == _READY:
                    return False
                self._push(self._raw())
            elif self._ready_n <= _BLOCK or self._pressed or self._drbg.reseed_counter > RESEED_INTERVAL:
                self._block(SLICE)
            elif self._testing > 0:
                self._startup(SLICE)
            else:
                return False
        except EntropyFailure:
            self._switch()  # as a draw would: the fallback from now on, or the dice pause
        return True

    def _byte(self):
        if self._ready_n == 0:
            if self.replay:
                return self._raw()
            self._block()
        byte = self._ready[self._ready_at]
        self._ready_at = (self._ready_at + 1) % len(self._ready)
        self._ready_n -= 1
        return byte

    def below(self, n):
        """A uniform integer in [0, n), for 2 <= n <= 2**22."""
        if self._later:
            self.start()
        while True:
            if self.failure is not None:
                raise EntropyFailure(self.failure, PAUSED)
            try:
                if self._pressed and not self.replay:
                    self._block()  # a press since the last block and no idle pass between: made now
                return self._below(n)
            except EntropyFailure:
                # The pool may hold the failed source's bytes: start afresh.
                if not self._switch():
                    raise

    def draw(self, die):
        return self.below(die.sides)

    def secret(self, n):
        """`n` uniform bytes, a game's seed (core/sealed.py), from the DRBG's queue, not the faces' pool:
        one block at most for n <= 32 (the press's, as a face's). EntropyFailure as `below`'s."""
        out = bytearray(n)
        if self._later:
            self.start()
        while True:
            if self.failure is not None:
                raise EntropyFailure(self.failure, PAUSED)
            try:
                if self._pressed and not self.replay:
                    self._block()
                for i in range(n):
                    out[i] = self._byte()
                return bytes(out)
            except EntropyFailure:
                if not self._switch():
                    raise

    # -- paused dice: `recover()` and the back-off `_retry(now)` ----------------------------------

    def _calm(self):
        """The dice roll again: the next failure waits RETRY_FIRST_MS."""
        self._retrying = False
        self._retry_from = None
        self._backoff = RETRY_FIRST_MS

    def recover(self):
        """Run the whole start-up test again, now; True if the source is healthy."""
        if self._begin(whole=True):
            self._calm()
            return True
        return False

    def _retry(self, now):
        """The paused dice's back-off: wait, then the whole start-up test again, a slice a call."""
        if now is None:
            return False
        if not self._retrying:
            if self._retry_from is None:
                self._retry_from = now
                return False
            waited = now - self._retry_from
            if 0 <= waited < self._backoff:  # (a clock that wrapped round: try at once)
                return False
            self._retrying = True
            self.retries += 1
            self._restart()
            return True
        try:
            if self._testing > 0:
                self._startup(SLICE)
                return True
            if not self._seed(SLICE):
                return True
        except EntropyFailure:
            self._retrying = False
            self._retry_from = now
            self._backoff = min(2 * self._backoff, _RETRY_LONGEST_MS)
            return True
        self.failure = None
        self._calm()
        return True
