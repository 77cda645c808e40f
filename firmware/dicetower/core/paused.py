"""What paused dice do (FairDice, core/entropy.py): wait, then run the whole start-up test again, a slice
at each idle pass, RETRY_FIRST_MS after the failure, then twice as long after each failed try, up to
RETRY_LONGEST_MS; the dice roll again once one passes (docs/fairness.md, "When the noise fails")."""

from dicetower.core.health import EntropyFailure

RETRY_FIRST_MS = 1000
RETRY_LONGEST_MS = 64000
SLICE = 32  # raw samples an idle pass reads (a try here, or FairDice.prime): a few ms on a Pico


class Paused:
    """`recover()` and the back-off `_retry(now)`, mixed into FairDice (whose start-up test they run)."""

    retries = 0  # tries of the start-up test after a failure
    _retrying = False
    _retry_from = None  # when the wait began (ms), None before the first idle pass after a failure
    _backoff = RETRY_FIRST_MS

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
            self._backoff = min(2 * self._backoff, RETRY_LONGEST_MS)
            return True
        self.failure = None
        self._calm()
        return True
