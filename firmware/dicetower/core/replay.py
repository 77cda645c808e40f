"""Faces and bytes given, not drawn: set faces (`ScriptedFaces`) for tests, tutorials and a roll replayed
after an undo (core/games/battlerealm/turn.py), and a seeded byte source (`SeededSource`) for tests and the simulator's
seeded games. Apart from core/entropy.py so that a device's dice do not carry them on the heap: it imports
this only to replay a roll. The protocols they keep are core/entropy.py's.
"""

from dicetower.core.entropy import EntropyFailure


class ScriptedFaces:
    """Set faces, in order, for tests and tutorials: never a device default.

    `faces` holds face names (or indices); when they run out, draws go to
    `then` (an undone roll's faces come back, its re-rolls are new dice), or
    without it are refused with EntropyFailure so a script error cannot pass
    as a roll.
    """

    name = "scripted faces"

    def __init__(self, faces, then=None):
        self.faces = list(faces)
        self.position = 0
        self.failure = None
        self.then = then

    def draw(self, die):
        if self.position >= len(self.faces):
            if self.then is not None:
                return self.then.draw(die)
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
    replay = True  # its bytes become faces as they are (no DRBG): the same game everywhere

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
