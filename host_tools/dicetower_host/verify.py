"""`dicetower verify`: check a game's dice from its revealed seed, with CPython's own hmac and hashlib.

Written from the published steps (docs/fairness.md, "Checking a game's dice"), not from the firmware's
code, so that it checks the firmware rather than repeating it:
  commitment = SHA-256(seed || b"dicetower <kind> <players> <counter>")
  HMAC_DRBG (SP 800-90A, SHA-256): Key = 0x00 * 32, V = 0x01 * 32, Update(seed || b"dicetower game");
    each request: V = HMAC(Key, V), its 32 bytes out, then Update() with no data
  faces: a pool (value, span) = (0, 1); below 2**22 it takes the next byte (value * 256 + byte,
    span * 256); with keep = span // n, a value under keep * n gives the face value % n and leaves
    (value // n, keep); else (value - keep * n, span - keep * n) and try again

It reads either the monitor's log (JSON lines, `dicetower monitor --save`: the "seal", "draws" and
"reveal" events) or the scoreboard's /history document (its "seals"). A log may hold many games and
seals: each is checked on its own. Bad input is one line and exit 2; a face, a draw or a commitment
that does not hold is exit 1, naming the first.
"""

import hashlib
import hmac
import json

from dicetower_host.errors import UserError

MAX_BYTES = 64 * 1024 * 1024  # a log larger than this is not a game's (a night of play is a few MB)
MAX_LINE = 64 * 1024
PERSONALIZATION = b"dicetower game"
POOL_FLOOR = 1 << 22
MAX_SIDES = 100


class Bad(UserError):
    """Input that is not a log or a history (exit 2)."""


def commitment(seed, kind, players, counter):
    return hashlib.sha256(seed + ("dicetower %s %d %d" % (kind, players, counter)).encode()).hexdigest()


def faces(seed):
    """A generator: send it a die's sides, get the face the seed gives for it (the first `next` primes it)."""
    key, value = b"\x00" * 32, b"\x01" * 32

    def update(key, value, data=b""):
        key = hmac.new(key, value + b"\x00" + data, hashlib.sha256).digest()
        value = hmac.new(key, value, hashlib.sha256).digest()
        if data:
            key = hmac.new(key, value + b"\x01" + data, hashlib.sha256).digest()
            value = hmac.new(key, value, hashlib.sha256).digest()
        return key, value

    key, value = update(key, value, seed + PERSONALIZATION)
    out = b""
    pool, span = 0, 1
    face = None
    while True:
        sides = yield face
        while True:
            while span < POOL_FLOOR:
                if not out:
                    value = hmac.new(key, value, hashlib.sha256).digest()
                    out = value
                    key, value = update(key, value)
                pool, span, out = pool * 256 + out[0], span * 256, out[1:]
            keep = span // sides
            if pool < keep * sides:
                face, pool, span = pool % sides, pool // sides, keep
                break
            pool, span = pool - keep * sides, span - keep * sides


def _digits(text):
    return bool(text) and len(text) <= 3 and all(c in "0123456789" for c in text)


def parse_record(record, first=1):
    """[(draw number, roll number, sides, face)] from a record's text; ValueError naming what is wrong."""
    draws = []
    roll = 0
    for token in record.split():
        if token == "~":  # an undo: what it undid stays drawn
            continue
        roll += 1
        for group in token.split("/"):
            sides, colon, text = group.partition(":")
            if not colon or not _digits(sides) or not 2 <= int(sides) <= MAX_SIDES or not text:
                raise ValueError("%r is not <sides>:<faces>" % group)
            n = int(sides)
            for face in text.split(".") if n > 10 else text:
                if not _digits(face) or int(face) >= n:
                    raise ValueError("%r is not a face of a %d-sided die" % (face, n))
                draws.append((first + len(draws), roll, n, int(face)))
    return draws


class Seal:
    """One sealed stream as the log or the history tells it."""

    def __init__(self, kind, players, counter, commitment):
        self.kind, self.players, self.counter, self.commitment = kind, players, counter, commitment
        self.told = []  # (first draw, its draws, its rolls, where, after a restart), as the input tells them
        self.restarted = False  # the tower restarted (a "ready" event) since this seal's last draws
        self.again = 0  # draws drawn again after a power cut
        self.draws = []  # (number, roll, sides, face), once collected
        self.rolls = 0
        self.seed = None
        self.problem = None  # the first thing wrong in how the log tells it (a gap, an order)
        self.branches = []  # the draws as they stood before each power cut that lost some
        self.starts = 1  # the first draw the input tells (a log begun mid-game starts later)
        self.counted = None  # (draws, who counted them): the tower's own count, if the input gives it

    def add(self, first, record, where):
        """A piece of record told as starting at draw `first`; ValueError if it is not a record."""
        draws = parse_record(record)
        self.told.append((first, draws, len([t for t in record.split() if t != "~"]), where, self.restarted))
        self.restarted = False

    def _collect(self):
        """The draws in order, the told pieces joined; the first gap or disorder becomes `problem`. Draws
        the tower made and then lost with the power (told again after a restart, from an earlier number)
        are kept apart as a branch: each branch is checked against the seed on its own."""
        expected = self.starts
        for i, (first, draws, rolls, where, restarted) in enumerate(self.told):
            if restarted and self.starts <= first < expected and self.problem is None:
                # The tower came back from a save made before these draws: the stream goes on from `first`
                # again (a cut buys no other face: what was lost is checked as drawn, below).
                self.branches.append(list(self.draws))
                kept = [d for d in self.draws if d[0] < first]
                self.rolls = kept[-1][1] if kept else 0
                self.draws = kept
                self.again += expected - first
                expected = first
            if first != expected and self.problem is None:
                later = [w for f, _, _, w, _ in self.told[i + 1 :] if f == expected]
                if later:
                    self.problem = "draws out of order: %s (from draw %d) comes before %s (from draw %d)" % (
                        where,
                        first,
                        later[0],
                        expected,
                    )
                elif first > expected:
                    self.problem = "draw %d is missing: %s starts at draw %d" % (expected, where, first)
                else:
                    self.problem = "draws out of order: %s starts at draw %d, after draw %d" % (
                        where,
                        first,
                        expected - 1,
                    )
            if self.problem is not None:
                return
            for number, roll, sides, face in draws:
                self.draws.append((number + first - 1, self.rolls + roll, sides, face))
            self.rolls += rolls
            expected += len(draws)

    def _against_seed(self, draws, lost=False):
        """None if every draw is the seed's, else the first that is not, in words."""
        stream = faces(self.seed)
        next(stream)
        for number, roll, sides, face in draws:
            given = stream.send(sides)
            if given != face:
                return "draw %d (roll %d, a %d-sided die%s): the seed gives face %d, the log says %d%s" % (
                    number,
                    roll,
                    sides,
                    ", lost in a power cut" if lost else "",
                    given,
                    face,
                    " (faces count from 0)",
                )
        return None

    def check(self):
        """(True, the verdict) or (False, the first thing that does not hold)."""
        name = "seal %s" % self.commitment[:8]
        self._collect()
        if self.seed is None and not self.draws and self.problem is None:
            return True, "%s: sealed; no die drawn from it yet" % name
        if self.seed is None:
            return False, (
                '%s: the seed is not revealed yet: choose "Reveal the seed" in the game\'s menu on the tower, '
                "or finish the game, then check the log again" % name
            )
        made = commitment(self.seed, self.kind, self.players, self.counter)
        if made != self.commitment:
            return False, '%s: the commitment does not match: the seed and "dicetower %s %d %d" give %s' % (
                name,
                self.kind,
                self.players,
                self.counter,
                made[:8],
            )
        if self.problem is None and self.counted is None:
            self.problem = "the reveal does not say how many draws the tower made"
        if self.problem is None and self.starts > 1:
            self.problem = (
                "the log starts mid-game, at draw %d: the draws before it are in the scoreboard's /history"
                % (self.starts)
            )
        if self.problem is None and self.counted is not None and self.counted[0] > len(self.draws):
            self.problem = "draw %d is missing: %s counts %d" % (len(self.draws) + 1, self.counted[1], self.counted[0])
        elif self.problem is None and self.counted is not None and self.counted[0] < len(self.draws):
            self.problem = "draw %d was never drawn: %s counts %d" % (self.counted[0] + 1, *self.counted[::-1])
        if self.problem is not None:
            return False, "%s: %s" % (name, self.problem)
        for branch in self.branches:
            wrong = self._against_seed(branch, lost=True)
            if wrong is not None:
                return False, "%s: %s" % (name, wrong)
        wrong = self._against_seed(self.draws)
        if wrong is not None:
            return False, "%s: %s" % (name, wrong)
        return True, "%s: %s in %s%s: every face matches, commitment matches" % (
            name,
            _count(len(self.draws), "draw"),
            _count(self.rolls, "roll"),
            " (%s again after a power cut, the same faces)" % _count(self.again, "draw") if self.again else "",
        )


def _count(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _hex_seed(text, where):
    if not isinstance(text, str) or len(text) != 64:
        raise Bad("%s: the seed is not 64 hex digits" % where)
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise Bad("%s: the seed is not 64 hex digits" % where) from None


def _identity(event, where):
    kind, players, counter, sealed = (event.get(k) for k in ("kind", "players", "counter", "commitment"))
    kind = kind if kind is not None else event.get("game")
    if not isinstance(kind, str) or not isinstance(sealed, str) or len(sealed) != 64:
        raise Bad("%s: a seal without its game or its 64-digit commitment" % where)
    for n in (players, counter):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise Bad("%s: a seal without its players and counter" % where)
    return Seal(kind, players, counter, sealed)


def from_history(doc):
    """The seals of a /history document."""
    seals = []
    listed = doc.get("seals")
    if not isinstance(listed, list):
        raise Bad('the history has no "seals": a scoreboard from before sealed dice')
    for i, item in enumerate(listed):
        where = "seal %d of the history" % (i + 1)
        if not isinstance(item, dict) or not isinstance(item.get("record", ""), str):
            raise Bad("%s is damaged" % where)
        seal = _identity(item, where)
        try:
            seal.add(1, item.get("record", ""), where)
        except ValueError as e:
            raise Bad("%s: %s" % (where, e)) from None
        if item.get("seed") is not None:
            seal.seed = _hex_seed(item["seed"], where)
        if _count_of(item.get("draws")):
            seal.counted = (item["draws"], "the tower")
        seals.append(seal)
    return seals


def from_log(lines):
    """The seals of a monitor log, in the order they were sealed."""
    seals = []
    by_commitment = {}
    current = None
    for number, line in enumerate(lines, 1):
        where = "line %d" % number
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            raise Bad("%s is not a JSON event%s" % (where, "" if line.endswith("\n") else ": the log is cut short"))
        if not isinstance(event, dict):
            raise Bad("%s is not an event" % where)
        kind = event.get("event")
        if kind == "ready":
            for seal in seals:
                seal.restarted = True  # power came back: a seal's lost draws may come again
        elif kind == "seal":
            told = _identity(event, where)
            drawn = event.get("drawn", 0)
            if not _count_of(drawn):
                raise Bad("%s: a seal whose draws so far are not a count" % where)
            current = by_commitment.get(told.commitment)
            if current is None:  # a new seal; or one carried on that this log has not seen begin
                current = told
                current.starts = drawn + 1
                seals.append(current)
                by_commitment[current.commitment] = current
        elif kind == "draws":
            if current is None:
                raise Bad("%s: draws before any seal: the log starts mid-game" % where)
            first, record = event.get("first"), event.get("record")
            if not _count_of(first) or first < 1 or not isinstance(record, str):
                raise Bad("%s: a draws event without its first draw and record" % where)
            try:
                current.add(first, record, where)
            except ValueError as e:
                raise Bad("%s: %s" % (where, e)) from None
        elif kind == "reveal":
            named = event.get("commitment")
            seal = by_commitment.get(named) if isinstance(named, str) else None
            if seal is None:
                seal = current
                if seal is None:
                    raise Bad("%s: a reveal before any seal" % where)
                if seal.problem is None:
                    seal.problem = "the reveal names commitment %s, sealed as %s" % (
                        str(event.get("commitment"))[:8],
                        seal.commitment[:8],
                    )
            seal.seed = _hex_seed(event.get("seed"), where)
            if _count_of(event.get("draws")):
                seal.counted = (event["draws"], "the reveal")
    return seals


def _count_of(n):
    return isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 1 << 32


def read(path):
    """The seals in the file at `path` (- for stdin is the caller's), a log or a history."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise Bad("cannot read %s: %s" % (path, e.strerror or e)) from None
    if len(data) > MAX_BYTES:
        raise Bad("%s is over %d MB: not a game's log" % (path, MAX_BYTES // (1024 * 1024)))
    try:
        text = data.decode("utf-8")
    except UnicodeError:
        raise Bad("%s is not text: not a log" % path) from None
    if text.lstrip().startswith("{"):  # a history is one JSON object (however it is laid out); a log, lines
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):
            doc = None
        if isinstance(doc, dict) and "event" not in doc:
            seals = from_history(doc)
            if not seals:
                raise Bad("%s is a history of no sealed game" % path)
            return seals
    lines = text.splitlines(True)
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            raise Bad("line %d is over %d KB: not an event" % (number, MAX_LINE // 1024))
    seals = from_log(lines)
    if not seals:
        raise Bad('%s holds no sealed game (no "seal" event, no "seals")' % path)
    return seals


def verify(path):
    """(exit status, lines to print): 0 when every seal checks, 1 when one does not or is not revealed."""
    out = []
    status = 0
    for seal in read(path):
        ok, line = seal.check()
        out.append(line)
        if not ok:
            status = 1
    return status, out
