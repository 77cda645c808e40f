"""A seal's commitment and its faces, from the published steps alone (the package's docstring), with
CPython's own hmac and hashlib: HMAC_DRBG over SHA-256, and the pool that draws a face."""

import hashlib
import hmac

PERSONALIZATION = b"dicetower game"
POOL_FLOOR = 1 << 22


def commitment(seed, kind, players, counter, dice):
    identity = "dicetower 2 %s %d %d %s" % (kind, players, counter, dice)
    return hashlib.sha256(seed + identity.encode()).hexdigest()


def _h(key, data):
    return hmac.new(key, data, hashlib.sha256).digest()


class Stream:
    """A seal's faces: `face(n)` gives the next face of an n-sided die."""

    def __init__(self, seed, nonce):
        self.key, self.value = b"\x00" * 32, b"\x01" * 32
        self._update(seed + nonce + PERSONALIZATION)
        self.out = b""
        self.at = 0
        self.pool, self.span = 0, 1

    def _update(self, data=b""):
        self.key = _h(self.key, self.value + b"\x00" + data)
        self.value = _h(self.key, self.value)
        if data:
            self.key = _h(self.key, self.value + b"\x01" + data)
            self.value = _h(self.key, self.value)

    def _byte(self):
        if self.at >= len(self.out):
            self.value = _h(self.key, self.value)
            self.out, self.at = self.value, 0
            self._update()
        self.at += 1
        return self.out[self.at - 1]

    def face(self, n):
        while True:
            while self.span < POOL_FLOOR:
                self.pool, self.span = self.pool * 256 + self._byte(), self.span * 256
            keep = self.span // n
            if self.pool < keep * n:
                face = self.pool % n
                self.pool, self.span = self.pool // n, keep
                return face
            self.pool, self.span = self.pool - keep * n, self.span - keep * n
