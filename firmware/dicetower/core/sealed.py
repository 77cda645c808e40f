"""A game's sealed dice, version 2: the tower commits to a secret seed, the players cut it, and every new
face comes from both, in order, so that once the seed is revealed anyone can recompute every face and see
that none was changed, skipped, chosen or thrown again (docs/fairness.md, "Checking a game's dice", gives
every step in prose and in plain Python; host_tools/dicetower_host/verify/ and the phones' page check it).

- Seal: the seed is SEED_BYTES of the tower's own dice. The commitment, said before the cut and the first
  die, is SHA-256(seed || identity), the identity b"dicetower 2 <kind> <players> <counter> <dice>": the
  counter counts the seals this tower ever made, and <dice> names each die the game throws with its
  faces, "Attack=Star,2,3,4,5,Blank;Danger Coin=Energy,Moon", so a die read as another cannot verify.
- Cut: the players' contributions, taken after the commitment is said and before the first die (each a
  phone's 32 hex digits, or "#" and a number entered with the buttons), in order, joined by spaces: the
  cut. The game's HMAC_DRBG (core/drbg.py, SHA-256) is instantiated with the seed as its entropy,
  SHA-256(cut) as its nonce and PERSONALIZATION; never reseeded, no additional input, each request
  GENERATE bytes. No face is drawn before the cut closes.
- Throws: every throw has a place, the game's position (core/game.py's `place`): a throw at a place that
  already has landed dice gives them back and draws nothing (the thrower asks core/game.py's `landed`);
  only a new throw draws, the stream's next faces through the face pool (core/pool.py).
- The record, as the players read it: a token a throw, "<place>:<die>:<faces>" for a new throw,
  "<place>=<die>:<faces>" for dice given back, with "@<dice>" after the faces of a re-roll (the dice it
  re-rolled, from 1); <die> is the die's index in the identity, faces are digits for dice of up to 10
  sides and numbers joined by "." above. "0.0:0:014253 0.0:0:52@14 1:1:1 1=1:1".
- A power cut: the save holds the seal whole. A game read from flash reveals its seal (whoever can read
  the flash knows the seed) and is sealed afresh, with a new cut (ui/resealing.py).

What only sealing, cutting and revealing need (a contribution checked, a seal read from flash) is
ui/resealing.py's: a game in play holds this module alone of them.
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


from binascii import hexlify

from dicetower.core.drbg import HmacDrbg, sha256
from dicetower.core.entropy import PAUSED
from dicetower.core.game import NO_HERO, place_text
from dicetower.core.health import EntropyFailure
from dicetower.core.pool import Pool

VERSION = 2
SEED_BYTES = 32
GENERATE = 32  # bytes a DRBG request makes
PERSONALIZATION = b"dicetower game"
RECORD_MOST = 2000  # a record's raw bytes: past it, the seed is revealed and a new one sealed
GROW = 256  # bytes the record's buffer grows by

# The record's raw form: a throw's header, then its faces a byte each (a face is below _MARK). The header is
# its marker, _MARK + ((3 * die + kind) << 2) + (2 if it names a hero) + (1 if its position takes two
# bytes), kind _NEW, _AGAIN or _REROLL; then its position (a byte below 256, else two); its hero, where the
# game keys throws by hero; and for a re-roll the dice it throws again, as bits. A throw of the game's
# next place costs 2 to 4 bytes besides its faces.
_MARK = const(200)
_NEW = const(0)
_AGAIN = const(1)
_REROLL = const(2)
DICE_MOST = 4  # dice a sealed game may throw: the marker has room for no more


def identity(kind, players, counter, dice):
    """The seal's identity (`dice`: "Name=face,face,...;Name=..."), bound into its commitment."""
    return ("dicetower %d %s %d %d %s" % (VERSION, kind, players, counter, dice)).encode()


def commitment(seed, kind, players, counter, dice):
    """SHA-256(seed || identity), in hex."""
    digest = sha256(bytes(seed))
    digest.update(identity(kind, players, counter, dice))
    return hexlify(digest.digest()).decode()


def nonce(cut):
    """SHA-256 of the cut's contributions joined by spaces: the game DRBG's nonce."""
    return sha256(" ".join(cut).encode()).digest()


class _NoTower:
    failure = None  # a seal made away from a device (tests): no noise to pause it


class SealedDice(Pool):
    """Faces from a game's seed and cut (see the module's docstring). `throw(at, hero, die, dice)` opens a
    throw, then `draw(die)` as FairDice's; `again(...)` records dice given back. While the cut is open,
    the seed is revealed or the tower's noise fails its tests, no face is drawn (EntropyFailure, as
    paused dice). `prime`, `stir` and `recover` go to the tower's dice, whose noise seals the next game.
    `failure` is the tower's as of the last throw, idle pass or recovery: a copy, not a property, because
    on MicroPython a property makes every store to an instance look through its class first, which
    doubled a face's time on a Pico (the pool stores on every draw)."""

    name = "sealed"
    failure = None
    # The face pool's step in this class's own table: MicroPython looks a method up the classes in turn
    # on every call, and a face calls it once (-37 us on a press's six faces, on the emulated RP2040).
    _below = Pool._below  # noqa: SLF001 (its own step, inherited: copied here, not reached into)

    def __init__(self, tower, seed, kind, players, counter, dice):
        if len(seed) != SEED_BYTES:
            raise ValueError("a seed is %d bytes" % SEED_BYTES)
        self.tower = tower if tower is not None else _NoTower
        self.seed = bytes(seed)
        self.kind = kind
        self.players = players
        self.counter = counter
        self.dice = dice  # the identity's dice, in order (a record names them by index)
        self._wide = [len(part.split(",")) > 10 for part in dice.split(";")]  # faces as numbers joined by "."
        if len(self._wide) > DICE_MOST:
            raise ValueError("a sealed game throws %d dice at most" % DICE_MOST)
        self.commitment = commitment(seed, kind, players, counter, dice)
        self.cut = []  # the contributions, in the order taken (ui/resealing.py takes them)
        self.cutting = True  # the cut is open: no face before it closes
        self._drbg = None
        self._out = bytearray(GENERATE)
        self._next = bytearray(GENERATE)  # the request after, made at idle (prime) so a throw waits for none
        self._made = False
        self._at = GENERATE
        # The record, raw (see _MARK: `text` writes it out), `size` bytes of it, grown GROW at a time: a
        # face costs a store, not a string.
        self._buf = bytearray(GROW)
        self._room = GROW - 16  # below this, a header and the faces of dice given back fit
        self.size = 0
        self._heads = 0  # header bytes: draws() counts the rest, less the faces given back
        self._given = 0
        self.throws = 0  # new throws
        self._open = -1  # where the open throw's faces start, or -1: no throw is open
        self._start = 0  # where its header starts
        self._said = ""  # the record's text up to byte _said_to, a throw's start (`text`)
        self._said_to = 0
        self.opened = False
        self._mirror()

    def close(self):
        """The cut closes: the game's DRBG is instantiated with SHA-256(cut) as its nonce."""
        if self.cutting:
            self.cutting = False
            self._drbg = HmacDrbg()
            self._drbg.instantiate(self.seed, nonce(self.cut), PERSONALIZATION)

    def nonce_hex(self):
        return hexlify(nonce(self.cut)).decode()

    # -- throws ---------------------------------------------------------------------------------------

    def throw(self, at, hero, die, dice=0):
        """A new throw opens at place (at, hero: core/game.py's NO_HERO if the game has none) of the
        identity's die `die`; `dice`: the dice a re-roll throws again, as bits (0: a throw of its own).
        Refused as paused dice while no face may be drawn."""
        if self.opened or self.cutting or self.tower.failure is not None:
            if self.opened:  # its faces are anyone's now: the game needs a new seal first (ui/sealing.py)
                raise EntropyFailure("the seed is revealed: a new seal comes with the next press", PAUSED)
            if self.cutting:
                raise EntropyFailure("the seal waits for its cut", PAUSED)
            self._mirror()
            raise EntropyFailure(self.failure, PAUSED)
        self._mark(_MARK + ((3 * die + (_REROLL if dice else _NEW)) << 2), at, hero, dice)
        self.throws += 1

    def again(self, at, hero, die, faces):
        """Dice given back at a place where they landed before: recorded, nothing drawn."""
        self._mark(_MARK + ((3 * die + _AGAIN) << 2), at, hero, 0)
        for face in faces:
            self._buf[self.size] = face
            self.size += 1
        self._given += len(faces)
        self._open = -1

    def _mark(self, marker, at, hero, dice):
        """A throw's header, at the record's end (a throw before it that drew nothing is not kept)."""
        size = self.size
        if self._open == size:
            size = self._unmark()
        if size >= self._room:
            self._grow()
        buf = self._buf
        self._start = size
        if at > 255:
            marker += 1
            buf[size + 1] = at >> 8
            size += 1
        buf[size + 1] = at & 0xFF
        size += 2
        if hero != NO_HERO:
            marker += 2
            buf[size] = hero
            size += 1
        buf[self._start] = marker
        if dice:
            buf[size] = dice
            size += 1
        self._heads += size - self._start
        self.size = self._open = size

    def _unmark(self):
        """The open throw drew nothing: its header goes."""
        self._heads -= self.size - self._start
        self.size = self._start
        self.throws -= 1
        return self.size

    def draw(self, die):
        if self._open < 0:  # a face outside a throw: refused, never drawn unrecorded
            raise EntropyFailure("a sealed face is drawn only in a throw", PAUSED)
        face = self._below(die.sides)
        at = self.size
        if at >= self._room:
            self._grow()
        self._buf[at] = face
        self.size = at + 1
        return face

    def _grow(self):
        bigger = bytearray(len(self._buf) + GROW)
        bigger[: self.size] = memoryview(self._buf)[: self.size]
        self._buf = bigger
        self._room = len(bigger) - 16

    def ends(self):
        """The press is done: the next face needs a throw of its own (one that drew none is not kept)."""
        if self._open == self.size:
            self._unmark()
        self._open = -1

    def draws(self):
        """The new faces drawn so far (the n-th numbered n - 1)."""
        return self.size - self._heads - self._given

    def text(self, start=0):
        """The record from raw byte `start` (where a throw's header begins) on, as the players read it.

        The whole record's throws before the last are written out once and kept (`_said`): every save
        writes the record, and written afresh it took 0.7 ms a throw on a Pico (each new string is
        looked for among the names the firmware has loaded), 144 ms at 200 throws, in the pass that codes
        the save a throw's faces wait for."""
        if start:
            return self._spell(start, self.size)
        final = self.size if self._open < 0 else self._start  # what never changes again: all but an open throw
        if self._said_to < final:
            more = self._spell(self._said_to, final)
            self._said = " ".join((self._said, more)) if self._said else more  # one string made, not two
            self._said_to = final
        if final == self.size:
            return self._said  # a save's: its press has ended its throw
        last = self._spell(final, self.size)
        return " ".join((self._said, last)) if self._said and last else self._said or last

    def _spell(self, start, end):
        """The throws of raw bytes start..end (a throw's header to a throw's end), as the players read them."""
        out = []
        buf = self._buf
        i = start
        while i < end:
            marker = buf[i] - _MARK
            die, kind = (marker >> 2) // 3, (marker >> 2) % 3
            i += 1
            at = buf[i]
            if marker & 1:
                i += 1
                at = at << 8 | buf[i]
            i += 1
            hero = NO_HERO
            if marker & 2:
                hero = buf[i]
                i += 1
            dice = 0
            if kind == _REROLL:
                dice = buf[i]
                i += 1
            faces = []
            while i < end and buf[i] < _MARK:
                faces.append(buf[i])
                i += 1
            wide = die < len(self._wide) and self._wide[die]
            tail = ".".join(["%d" % f for f in faces]) if wide else "".join([chr(48 + f) for f in faces])
            if dice:
                tail += "@" + "".join(["%d" % (d + 1) for d in range(8) if dice >> d & 1])
            out.append("%s%s%d:%s" % (place_text(at, hero), "=" if kind == _AGAIN else ":", die, tail))
        return " ".join(out)

    def full(self):
        """True once the record is too long to save whole: time to reveal and seal afresh."""
        return self.size >= RECORD_MOST

    def saved(self):
        """What the save keeps, and the phones' /history (with the seed once it is revealed)."""
        return {
            "version": VERSION,
            "kind": self.kind,
            "players": self.players,
            "counter": self.counter,
            "dice": self.dice,
            "commitment": self.commitment,
            "cut": list(self.cut),
            "record": self.text(),
            "draws": self.draws(),
            "throws": self.throws,
            "seed": hexlify(self.seed).decode(),
            "open": 1 if self.opened else 0,
        }

    # -- the tower's dice, through the game's ----------------------------------------------------------

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

    def prime(self, now=None):
        """Work at idle: the game's next request made ahead (the stream's order is the same whenever it
        is made), else the tower's own dice's."""
        if not self._made and self._drbg is not None:
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
