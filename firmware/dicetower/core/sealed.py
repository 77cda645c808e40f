"""A game's sealed dice, version 2: the tower commits to a secret seed, the players cut it, and every new
face comes from both, in order, so that once the seed is revealed anyone can recompute every face and see
that none was changed, skipped, chosen or thrown again (docs/fairness.md, "Checking a game's dice", gives
every step in prose and in plain Python; host_tools/dicetower_host/verify.py and the phones' page check it).

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
  the flash knows the seed) and is sealed afresh, with a new cut (ui/sealing.py).
"""

try:
    from micropython import const
except ImportError:  # CPython: a constant is its value

    def const(x):  # type: ignore[misc]
        return x


from binascii import hexlify

from dicetower.core.drbg import HmacDrbg, sha256
from dicetower.core.entropy import PAUSED
from dicetower.core.game import place_text
from dicetower.core.health import EntropyFailure
from dicetower.core.pool import Pool

VERSION = 2
SEED_BYTES = 32
GENERATE = 32  # bytes a DRBG request makes
PERSONALIZATION = b"dicetower game"
RECORD_MOST = 2000  # a record's raw bytes: past it, the seed is revealed and a new one sealed
GROW = 256  # bytes the record's buffer grows by
CUT_MOST = 9  # contributions a cut takes: eight phones and a number from the buttons
PHONE_DIGITS = 32  # a phone's contribution: 128 bits, as hex digits
NUMBER_DIGITS = 6  # a number entered with the buttons: 0 to 999,999
HEX = "0123456789abcdef"
_NEW = const(255)  # the record's raw form: a new throw (then its header), ...
_AGAIN = const(254)  # ... dice given back (then the same header), then the throw's faces, a byte each
_HEAD = const(6)  # the header: the marker, the position (two bytes), the hero, the die, the dice re-rolled


def dice_text(dice):
    """The dice a game throws, as its identity names them: "Attack=Star,2,3,4,5,Blank;Danger Coin=Energy,Moon"."""
    return ";".join(["%s=%s" % (die.name, ",".join(die.faces)) for die in dice])


def identity(kind, players, counter, dice):
    """The seal's identity (`dice`: dice_text's), bound into its commitment."""
    return ("dicetower %d %s %d %d %s" % (VERSION, kind, players, counter, dice)).encode()


def commitment(seed, kind, players, counter, dice):
    """SHA-256(seed || identity), in hex."""
    digest = sha256(bytes(seed))
    digest.update(identity(kind, players, counter, dice))
    return hexlify(digest.digest()).decode()


def contribution(text):
    """A contribution to a cut in its recorded form, or ValueError saying what is wrong: a phone's 32 hex
    digits (in lower case), or a number from the buttons, "#" and its digits (no leading zeros)."""
    if not isinstance(text, str):
        raise ValueError("a cut is %d hex digits" % PHONE_DIGITS)
    if text[:1] == "#":
        digits = text[1:]
        if not 1 <= len(digits) <= NUMBER_DIGITS or any(c not in HEX[:10] for c in digits):
            raise ValueError("a number cut is 1 to %d digits" % NUMBER_DIGITS)
        return "#%d" % int(digits)
    low = text.lower()
    if len(low) != PHONE_DIGITS or any(c not in HEX for c in low):
        raise ValueError("a cut is %d hex digits, not %d characters" % (PHONE_DIGITS, len(text)))
    return low


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

    def __init__(self, tower, seed, kind, players, counter, dice):
        if len(seed) != SEED_BYTES:
            raise ValueError("a seed is %d bytes" % SEED_BYTES)
        self.tower = tower if tower is not None else _NoTower
        self.seed = bytes(seed)
        self.kind = kind
        self.players = players
        self.counter = counter
        self.dice = dice  # dice_text's: the identity's dice, in order (a record names them by index)
        self._sides = [len(part.split(",")) for part in dice.split(";")] if dice else []
        self.commitment = commitment(seed, kind, players, counter, dice)
        self.cut = []  # the contributions, in the order taken
        self.cutting = True  # the cut is open: no face before it closes
        self._drbg = None
        self._out = bytearray(GENERATE)
        self._next = bytearray(GENERATE)  # the request after, made at idle (prime) so a throw waits for none
        self._made = False
        self._at = GENERATE
        # The record, raw (a header a throw, a byte a face: `text` writes it out), `size` bytes of it,
        # grown GROW at a time: a face costs a store, not a string.
        self._buf = bytearray(GROW)
        self.size = 0
        self._heads = 0  # header bytes: draws() counts the rest of the new throws' bytes
        self._given = 0  # faces given back
        self.throws = 0  # new throws
        self._head = None  # the open throw's header, written with its first face
        self.opened = False
        self._mirror()

    # -- the cut ----------------------------------------------------------------------------------------

    def take(self, text):
        """A contribution to the open cut (see `contribution`); its recorded form, or ValueError why not."""
        if not self.cutting:
            raise ValueError("seal %s is cut already" % self.commitment[:16])
        token = contribution(text)
        if token in self.cut:
            raise ValueError("the same as a contribution taken already")
        if len(self.cut) >= CUT_MOST:
            raise ValueError("the cut holds %d contributions already" % CUT_MOST)
        self.cut.append(token)
        return token

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
        """A new throw opens at place (at, hero: core/game.py's NO_HERO if the game has none) of the identity's die `die`;
        `dice`: the dice a re-roll throws again, as bits (0: a throw of its own). Refused as paused dice
        while no face may be drawn."""
        if self.opened or self.cutting or self.tower.failure is not None:
            if self.opened:  # its faces are anyone's now: the game needs a new seal first (ui/sealing.py)
                raise EntropyFailure("the seed is revealed: a new seal comes with the next press", PAUSED)
            if self.cutting:
                raise EntropyFailure("the seal waits for its cut", PAUSED)
            self._mirror()
            raise EntropyFailure(self.failure, PAUSED)
        self._head = (_NEW, at >> 8, at & 0xFF, hero, die, dice)

    def again(self, at, hero, die, faces):
        """Dice given back at a place where they landed before: recorded, nothing drawn."""
        self._head = (_AGAIN, at >> 8, at & 0xFF, hero, die, 0)
        for face in faces:
            self._put(face)
        self._given += len(faces)
        self._head = None

    def draw(self, die):
        return self.below(die.sides)

    def below(self, n):
        if self._head is None:  # a face outside a throw: refused, never drawn unrecorded
            raise EntropyFailure("a sealed face is drawn only in a throw", PAUSED)
        face = self._below(n)
        self._put(face)
        return face

    def _put(self, value):
        at = self.size
        if at + _HEAD + 1 > len(self._buf):
            bigger = bytearray(len(self._buf) + GROW)
            bigger[:at] = memoryview(self._buf)[:at]
            self._buf = bigger
        buf = self._buf
        head = self._head
        if head is not None and (at == 0 or head is not self._written):
            for i in range(_HEAD):
                buf[at + i] = head[i]
            at += _HEAD
            self._heads += _HEAD
            self._written = head
            if head[0] == _NEW:
                self.throws += 1
        buf[at] = value
        self.size = at + 1

    _written = None  # the header last written: a throw's next face follows it

    def ends(self):
        """The press is done: the next face needs a throw of its own."""
        self._head = None

    def draws(self):
        """The new faces drawn so far (the n-th numbered n - 1)."""
        return self.size - self._heads - self._given

    def text(self, start=0):
        """The record from raw byte `start` (where a throw's header begins) on, as the players read it."""
        out = []
        buf = self._buf
        i = start
        while i < self.size:
            mark, at, hero, die, dice = buf[i], buf[i + 1] << 8 | buf[i + 2], buf[i + 3], buf[i + 4], buf[i + 5]
            i += _HEAD
            faces = []
            while i < self.size and buf[i] < _AGAIN:
                faces.append(buf[i])
                i += 1
            wide = die < len(self._sides) and self._sides[die] > 10
            tail = ".".join(["%d" % f for f in faces]) if wide else "".join([chr(48 + f) for f in faces])
            if dice:
                tail += "@" + "".join(["%d" % (d + 1) for d in range(8) if dice >> d & 1])
            out.append("%s%s%d:%s" % (place_text(at, hero), ":" if mark == _NEW else "=", die, tail))
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
            "cutting": 1 if self.cutting else 0,
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


def checked(saved):
    """A seal as a save or a history holds it (SealedDice.saved), checked for what the tower shows and
    serves of it: (the seal, None), or (what could be read of it, why the rest could not). A seal's seed
    and record are never trusted here, only shown: the players' verifier recomputes them."""
    if not isinstance(saved, dict):
        return None, "the seal is not a record"
    kept = {}
    problem = None
    for key, kind in (
        ("commitment", str),
        ("seed", str),
        ("record", str),
        ("dice", str),
        ("kind", str),
        ("counter", int),
        ("players", int),
        ("draws", int),
        ("throws", int),
        ("version", int),
        ("cut", list),
        ("open", int),
    ):
        value = saved.get(key)
        if isinstance(value, kind) and not isinstance(value, bool) and (kind is not str or len(value) <= 3 * RECORD_MOST):
            kept[key] = value
        elif problem is None:
            problem = "its %s is damaged" % key
    seed = kept.get("seed", "")
    if len(seed) != 2 * SEED_BYTES or any(c not in HEX for c in seed):
        kept.pop("seed", None)
        problem = problem or "its seed is damaged"
    cut = kept.get("cut", [])
    if len(cut) > CUT_MOST or any(not isinstance(c, str) or len(c) > PHONE_DIGITS for c in cut):
        kept.pop("cut", None)
        problem = problem or "its cut is damaged"
    return kept, problem
