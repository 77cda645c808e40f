"""The RP2350's true random number generator, driven through its registers (hw/entropy.py says why and
picks it): a module of its own, so that an RP2040 never loads it. Addresses from pico-sdk's trng.h."""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


_BASE = const(0x400F0000)
_RNG_ISR = const(_BASE + 0x104)
_RNG_ICR = const(_BASE + 0x108)
_EHR_DATA0 = const(_BASE + 0x114)
_RND_SOURCE_ENABLE = const(_BASE + 0x12C)
_SAMPLE_CNT1 = const(_BASE + 0x130)
_EHR_VALID = const(1)
_ERRORS = const(0x0E)  # autocorrelation, CRNGT and von Neumann errors
_SAMPLE_CLOCKS = const(25)  # the header asks for at least 17
_WAIT_LIMIT = const(100000)
_BAD_COLLECTIONS = const(8)  # flagged collections in a row before we give up


class Rp2350Trng:
    """The RP2350 true random number generator, 192 bits per collection."""

    binary = False
    min_entropy = 7
    name = "RP2350 TRNG"

    def __init__(self, mem32=None):
        if mem32 is None:
            import machine

            mem32 = machine.mem32
        self._mem32 = mem32
        mem32[_SAMPLE_CNT1] = _SAMPLE_CLOCKS
        mem32[_RND_SOURCE_ENABLE] = 1

    def _collect(self):
        """Wait for 192 good bits; discard collections the TRNG flags."""
        mem32 = self._mem32
        bad = 0
        for _ in range(_WAIT_LIMIT):
            isr = mem32[_RNG_ISR]
            if isr & _ERRORS:
                # Its own continuous tests (CRNGT, autocorrelation, von
                # Neumann) rejected this collection: clear it, collect again.
                mem32[_RNG_ICR] = 0xFFFFFFFF
                bad += 1
                if bad == _BAD_COLLECTIONS:
                    raise OSError("the TRNG flagged %d collections in a row (ISR 0x%x)" % (bad, isr))
            elif isr & _EHR_VALID:
                return
        raise OSError("the TRNG gave no data")

    def fill(self, buf):
        mem32 = self._mem32
        i = 0
        n = len(buf)
        while i < n:
            self._collect()
            for word in range(6):
                value = mem32[_EHR_DATA0 + 4 * word]
                for _ in range(4):
                    if i < n:
                        buf[i] = value & 0xFF
                    value >>= 8
                    i += 1
            mem32[_RNG_ICR] = 0xFFFFFFFF
