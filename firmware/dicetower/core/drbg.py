"""HMAC_DRBG with SHA-256 (NIST SP 800-90A Rev. 1, 10.1.2), the dice's DRBG, and its hash.

A module of its own: FairDice imports it only for a noise source (a replay needs no DRBG), and on a
Pico code loaded from an .mpy lives on the heap. ImportError on a build without hashlib.
"""

from hashlib import sha256


class HmacDrbg:
    """HMAC_DRBG with SHA-256, as NIST SP 800-90A Rev. 1, 10.1.2 writes it.

    `instantiate(entropy, nonce, personalization)`, `reseed(entropy, additional)` and
    `generate(out, additional)` (fills the bytearray `out`); `reseed_counter` counts the requests
    since the last (re)seed, plus one, as the standard's does. The caller keeps the reseed interval.
    Key, V and the two HMAC key blocks are preallocated and changed in place.
    """

    def __init__(self):
        self.key = bytearray(32)
        self.value = bytearray(32)
        self._inner = bytearray(b"\x36" * 64)  # HMAC's key XOR ipad, the key padded to a block
        self._outer = bytearray(b"\x5c" * 64)  # and XOR opad
        self.reseed_counter = 0

    def _keyed(self):
        key = self.key
        inner = self._inner
        outer = self._outer
        for i in range(32):
            inner[i] = key[i] ^ 0x36
            outer[i] = key[i] ^ 0x5C

    def _hmac(self, out, a, b=None, c=None, d=None, e=None):
        """out = HMAC(Key, a || b || c || d || e), the parts that are given."""
        inner = sha256(self._inner)
        inner.update(a)
        for part in (b, c, d, e):
            if part:
                inner.update(part)
        outer = sha256(self._outer)
        outer.update(inner.digest())
        out[:] = outer.digest()

    def _update(self, a=None, b=None, c=None):
        """HMAC_DRBG_Update (10.1.2.2) with provided_data = a || b || c."""
        self._hmac(self.key, self.value, b"\x00", a, b, c)
        self._keyed()
        self._hmac(self.value, self.value)
        if not (a or b or c):
            return
        self._hmac(self.key, self.value, b"\x01", a, b, c)
        self._keyed()
        self._hmac(self.value, self.value)

    def instantiate(self, entropy, nonce, personalization=None):
        """10.1.2.3: Key = 0x00..., V = 0x01..., then Update(entropy || nonce || personalization)."""
        key = self.key
        value = self.value
        for i in range(32):
            key[i] = 0
            value[i] = 1
        self._keyed()
        self._update(entropy, nonce, personalization)
        self.reseed_counter = 1

    def reseed(self, entropy, additional=None):
        """10.1.2.4."""
        self._update(entropy, additional)
        self.reseed_counter = 1

    def generate(self, out, additional=None):
        """10.1.2.5: len(out) bytes into `out`."""
        if additional:
            self._update(additional)
        value = self.value
        n = len(out)
        at = 0
        while at < n:
            self._hmac(value, value)
            if n - at >= 32:
                out[at : at + 32] = value
                at += 32
            else:
                for i in range(n - at):
                    out[at + i] = value[i]
                at = n
        self._update(additional)
        self.reseed_counter += 1
