"""A game's sealed dice: every face of a game comes from one secret seed, in order, so that once the seed
is revealed anyone can recompute every face and see that none was changed, skipped or chosen
(docs/fairness.md, "Checking a game's dice", gives the same steps in plain Python).

- Seal: the seed is SEED_BYTES of the tower's own dice (FairDice: health-tested noise through its DRBG,
  with the presses' times). The commitment, shown and recorded before the first die, is
  SHA-256(seed || identity), the identity b"dicetower <kind> <players> <counter>" (`counter`: the games
  this tower has sealed, this one included).
- Faces: HMAC_DRBG with SHA-256 (core/drbg.py) instantiated with the seed as its entropy, no nonce and
  PERSONALIZATION, never reseeded and given no additional input, each request GENERATE bytes; its
  bytes become faces through the face pool (core/pool.py) as every die's do. A game draws a few
  thousand faces at most (RECORD_MOST bounds the record), about a hundred requests: SP 800-90A allows
  2**48 between reseeds.
- The record: every draw in order, as text. Rolls (the draws of one press) are separated by a space, a
  roll is groups "<sides>:<faces>" joined by "/", faces as digits for dice of up to 10 sides and as
  numbers joined by "." above; an undo writes "~" (what it undid stays drawn). "6:014253 6:35 ~ 2:1".
- A power cut: the save holds the seed and the record; `SealedDice(..., record=...)` draws the record
  again from the seed, checking each face, and goes on from the same draw. Whoever reads the flash
  mid-game can therefore predict the rest of that game's faces (docs/fairness.md says so).
"""

try:
    from micropython import const
except ImportError:  # CPython: a constant is its value

    def const(x):  # type: ignore[misc]
        return x


from binascii import hexlify, unhexlify

from dicetower.core.drbg import HmacDrbg, sha256
from dicetower.core.entropy import PAUSED
from dicetower.core.health import EntropyFailure
from dicetower.core.pool import Pool

SEED_BYTES = 32
GENERATE = 32  # bytes a DRBG request makes
PERSONALIZATION = b"dicetower game"
RECORD_MOST = 2000  # a record's raw bytes (a byte a face): past it, the seed is revealed and a new one sealed
GROW = 256  # bytes the record's buffer grows by
UNDO = "~"


def identity(kind, players, counter):
    """The game's identity, bound into its commitment."""
    return ("dicetower %s %d %d" % (kind, players, counter)).encode()


def commitment(seed, kind, players, counter):
    """SHA-256(seed || identity), in hex."""
    digest = sha256(bytes(seed))
    digest.update(identity(kind, players, counter))
    return hexlify(digest.digest()).decode()


class _NoTower:
    failure = None  # a seal made away from a device (tests, a resume's redraw): no noise to pause it


_ROLL = const(255)  # the record's raw form: a roll starts (then its sides), ...
_GROUP = const(254)  # ... another die in the same roll (then its sides), ...
_UNDO = const(253)  # ... an undo; every other byte is a face


class SealedDice(Pool):
    """Faces from a game's seed (see the module's docstring). `draw(die)` as FairDice's; `prime`, `stir`
    and `recover` go to the tower's dice, whose noise seals the next game. While the tower's noise fails
    its tests the game's dice pause too, as they would unsealed; the faces they give when it is back
    are the seed's next, as if it had never failed. `failure` is the tower's, as of the last draw, idle
    pass or recovery: a copy, not a property, because on MicroPython a class with a property makes
    every store to its instances look through the class first, which doubled a face's time on a Pico
    (the pool stores on every draw)."""

    name = "sealed"
    failure = None

    def __init__(self, tower, seed, kind, players, counter, record=""):
        if len(seed) != SEED_BYTES:
            raise ValueError("a seed is %d bytes" % SEED_BYTES)
        self.tower = _NoTower
        self.seed = bytes(seed)
        self.kind = kind
        self.players = players
        self.counter = counter
        self.commitment = commitment(seed, kind, players, counter)
        self._drbg = HmacDrbg()
        self._drbg.instantiate(self.seed, b"", PERSONALIZATION)
        self._out = bytearray(GENERATE)
        self._next = bytearray(GENERATE)  # the request after, made at idle (prime) so a roll waits for none
        self._made = False
        self._at = GENERATE
        # The record, raw (a byte a face, the sides where they change: `text` writes it out), `size` bytes
        # of it, grown GROW at a time: a face costs a store, not a string.
        self._buf = bytearray(GROW)
        self._room = GROW - 3  # a face may write 3 bytes (a marker, its sides, the face) below this
        self.size = 0
        self._marks = 0  # the record's bytes that are not faces: draws() counts the rest
        self.rolls = 0
        self._sides = 0  # the sides of the group being written; 0: a new roll starts at the next draw
        self.opened = False
        if record:
            self._redraw(record)  # (before the tower is known: a resume needs no noise, paused or not)
        self.tower = tower if tower is not None else _NoTower
        self._mirror()

    def _byte(self):
        if self._at >= GENERATE:
            if self._made:
                self._out, self._next = self._next, self._out
                self._made = False
            else:
                self._drbg.generate(self._out)
            self._at = 0
        byte = self._out[self._at]
        self._at += 1
        return byte

    def draw(self, die):
        return self.below(die.sides)

    def below(self, n):
        if self.opened or self.tower.failure is not None:
            if self.opened:  # its faces are anyone's now: the game needs a new seal first (ui/sealing.py)
                raise EntropyFailure("the seed is revealed: a new seal comes with the next press", PAUSED)
            self._mirror()
            raise EntropyFailure(self.failure, PAUSED)
        face = self._below(n)
        at = self.size
        if at >= self._room:
            self._grow()
        buf = self._buf
        if self._sides != n:
            if self._sides == 0:
                buf[at] = _ROLL
                self.rolls += 1
            else:
                buf[at] = _GROUP
            buf[at + 1] = n
            at += 2
            self._marks += 2
            self._sides = n
        buf[at] = face
        self.size = at + 1
        return face

    def _grow(self):
        bigger = bytearray(len(self._buf) + GROW)
        bigger[: self.size] = memoryview(self._buf)[: self.size]
        self._buf = bigger
        self._room = len(bigger) - 3

    def draws(self):
        """The faces drawn so far (the n-th numbered n - 1): counted from the record, so that a face
        costs no count of its own."""
        return self.size - self._marks

    def text(self, start=0):
        """The record from raw byte `start` (where a roll or an undo begins) on, as the players read it."""
        out = []
        buf = self._buf
        sides = 0
        before = None  # what comes before the sides the next byte gives (" " a roll, "/" a group), else None
        first = False  # the next face is its group's first
        for i in range(start, self.size):
            b = buf[i]
            if before is not None:
                out.append("%s%d:" % (before, b))
                sides = b
                before = None
                first = True
            elif b == _UNDO:
                out.append(" ~")
            elif b == _ROLL or b == _GROUP:
                before = " " if b == _ROLL else "/"
            elif sides > 10:
                out.append("%d" % b if first else ".%d" % b)
                first = False
            else:
                out.append(chr(48 + b))
        return "".join(out).strip()

    def roll_ends(self):
        """The press that drew is done: the next draw starts a new roll in the record."""
        self._sides = 0

    def undone(self):
        """An undo: marked in the record; what it undid stays drawn, and the stream goes on."""
        self._sides = 0
        if self.size:
            if self.size >= self._room:
                self._grow()
            self._buf[self.size] = _UNDO
            self.size += 1
            self._marks += 1

    def full(self):
        """True once the record is too long to save whole: time to reveal and seal afresh."""
        return self.size >= RECORD_MOST

    def _redraw(self, record):
        """Draw the saved record again from the seed (a power cut), refusing a face that differs."""
        for roll in record.split():
            if roll == UNDO:
                self.undone()
                continue
            for group in roll.split("/"):
                sides, _, faces = group.partition(":")
                n = int(sides)
                if not 2 <= n <= 100 or not faces:
                    raise ValueError("a damaged record: %r" % group)
                for face in faces.split(".") if n > 10 else faces:
                    if self.below(n) != int(face):
                        raise ValueError("the record does not follow from its seed at draw %d" % self.draws())
            self.roll_ends()

    def saved(self):
        """What the save keeps: enough to go on from the same draw after a power cut."""
        return {
            "seed": hexlify(self.seed).decode(),
            "players": self.players,
            "counter": self.counter,
            "record": self.text(),
            "open": 1 if self.opened else 0,
            "commitment": self.commitment,
        }

    def revealed(self):
        """The record the players check: the identity, the commitment, the draws and the seed."""
        sealed = self.saved()
        sealed["kind"] = self.kind
        sealed["draws"] = self.draws()
        sealed["rolls"] = self.rolls
        return sealed

    def prime(self, now=None):
        """Work at idle: the game's next request made ahead (the stream's order is the same whenever it
        is made), else the tower's own dice's."""
        if not self._made:
            self._drbg.generate(self._next)
            self._made = worked = True
        else:
            prime = getattr(self.tower, "prime", None)
            worked = prime(now) if prime is not None else False
        self._mirror()
        return worked

    def stir(self, micros):
        stir = getattr(self.tower, "stir", None)
        if stir is not None:
            stir(micros)

    def recover(self):
        recover = getattr(self.tower, "recover", None)
        back = recover() if recover is not None else True
        self._mirror()
        return back

    def _mirror(self):
        self.failure = getattr(self.tower, "failure", None)


def from_saved(tower, kind, saved):
    """SealedDice from a save's `seal` (see `saved`); ValueError if it is damaged."""
    if not isinstance(saved, dict):
        raise ValueError("the seal is not a record")
    seed = saved.get("seed")
    record = saved.get("record", "")
    players, counter = saved.get("players"), saved.get("counter")
    if not isinstance(seed, str) or len(seed) != 2 * SEED_BYTES or not isinstance(record, str):
        raise ValueError("the seal's seed or record is damaged")
    for n in (players, counter):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError("the seal's identity is damaged")
    try:
        seed = unhexlify(seed)
    except Exception:  # noqa: BLE001 (binascii.Error on CPython, ValueError on MicroPython)
        raise ValueError("the seal's seed is damaged")
    dice = SealedDice(tower, seed, kind, players, counter, record)
    if saved.get("commitment", dice.commitment) != dice.commitment:
        raise ValueError("the seal's commitment is not its seed's")
    dice.opened = bool(saved.get("open"))
    return dice
