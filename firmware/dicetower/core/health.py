"""NIST SP 800-90B's health tests on an entropy source's raw samples (FairDice, core/entropy.py, runs
them on every sample it reads): the repetition count test (4.4.1) and the adaptive proportion test
(4.4.2), their cutoffs set by the min-entropy the source claims."""

from array import array

import micropython

try:
    from micropython import ptr8, ptr32  # the annotations of a Viper pass: CPython's stand-in
except ImportError:
    pass  # a board's Viper has them built in; bytecode never reads an annotation


class EntropyFailure(Exception):
    """The entropy source failed a health test or could not be read.

    `str(e)` is the whole reason, for the console; `e.screen` what the OLED says (PAUSED for FairDice,
    whose dice retry by themselves).
    """

    def __init__(self, reason, screen=None):
        super().__init__(reason)
        self.screen = screen or reason


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
            raise ValueError(
                "no health test cutoff for %s samples of min-entropy %s" % ("binary" if binary else "byte", min_entropy)
            )
        self.apt_cutoff = APT_CUTOFFS[key]
        self.rct_cutoff = rct_cutoff(min_entropy)
        # The tests' state: the last sample, its run, the window's first sample, the samples of the window
        # seen, how often its first came in it.
        self._state = array("i", bytes(20))
        self.reset()

    def reset(self):
        state = self._state
        state[0] = -1
        state[1] = 0
        state[2] = -1
        state[3] = 0
        state[4] = 0

    def check_all(self, buf):
        """Take a buffer of raw samples; None, or the reason the source failed."""
        state = self._state
        failed = _tests(buf, len(buf), state, self.rct_cutoff, self.apt_cutoff, self.window)
        if failed == 0:
            return None
        if failed == 1:
            return "repetition count test: %d identical samples in a row" % state[1]
        return "adaptive proportion test: one value %d times in %d samples" % (state[4], self.window)


@micropython.viper
def _tests(buf: ptr8, end: int, state: ptr32, rct: int, apt: int, window: int) -> int:
    """Both tests over buf[:end], their state in `state` (HealthTests' layout): 0, or 1 when the
    repetition count test fails, 2 when the adaptive proportion test does (the state as at that sample).
    They run on every raw sample the dice read: a Viper pass on a board, the same source as bytecode
    elsewhere."""
    last = state[0]
    run = state[1]
    ref = state[2]
    seen = state[3]
    count = state[4]
    failed = 0
    i = 0
    while i < end:
        sample = buf[i]
        i += 1
        if sample == last:
            run += 1
            if run >= rct:
                failed = 1
                break
        else:
            last = sample
            run = 1
        if seen == 0:
            ref = sample
            count = 1
        elif sample == ref:
            count += 1
            if count >= apt:
                failed = 2
                break
        seen += 1
        if seen == window:
            seen = 0
    state[0] = last
    state[1] = run
    state[2] = ref
    state[3] = seen
    state[4] = count
    return failed
