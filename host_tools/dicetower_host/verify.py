"""`dicetower verify`: check a game's dice from its revealed seeds, with CPython's own hmac and hashlib.

Written from the published steps (docs/fairness.md, "Checking a game's dice"), not from the firmware's
code, so that it checks the firmware rather than repeating it; the phones' page (firmware/dicetower/web/
page.html) does the same in the browser, and both give the same verdict on tests/vectors/seals.json:
  identity   = "dicetower 2 <kind> <players> <counter> <dice>", <dice> "Name=face,face,...;Name=..."
  commitment = SHA-256(seed || identity);  nonce = SHA-256(the cut's contributions joined by spaces)
  HMAC_DRBG (SP 800-90A, SHA-256): Key = 0x00 * 32, V = 0x01 * 32, Update(seed || nonce || b"dicetower game");
    each request: V = HMAC(Key, V), its 32 bytes out, then Update() with no data
  faces: a pool (value, span) = (0, 1); below 2**22 it takes the next byte (value * 256 + byte,
    span * 256); with keep = span // n, a value under keep * n gives the face value % n and leaves
    (value // n, keep); else (value - keep * n, span - keep * n) and try again
  record: a token a throw, "<place>:<die>:<faces>[@<dice>]" drawn, "<place>=<die>:<faces>" given back

Beyond each seal's own faces it checks the game: a throw at a place where dice stand already must give
them back (a new throw there is a re-throw, refused); every face a history line or an action shows is
the record's at that place; the die is the one the action throws, its faces the ones the seal names
(a die not the games' own is named); each seal the tower announced is the one revealed.

It reads the monitor's log (JSON lines, `dicetower monitor --save`) in two passes, a line at a time, so
that its memory does not grow with the log (the seeds first, then every record checked as it comes):
what it keeps is each seal's counts and the dice standing in the game being read (a game's places are
let go when the next game starts), at most STANDING_MOST places and STANDING_FACES faces
(benchmarks/verify_memory.py: a 64 MB log of honest games takes as much memory as a 4 MB one). Or the
scoreboard's /history document (its "seals", "lines" and "at"). Bad input is one line and exit 2;
a face, a draw, a re-throw or a commitment that does not hold is exit 1, naming the first.
"""

import hashlib
import hmac
import json
import re

from dicetower_host.errors import UserError

MAX_BYTES = (
    64 * 1024 * 1024
)  # a log larger than this is not a game's (a night of play is a few MB); fairness.md says it
MAX_HISTORY = 4 * 1024 * 1024  # a /history document: a tower serves a few KB
MAX_LINE = 64 * 1024
PERSONALIZATION = b"dicetower game"
POOL_FLOOR = 1 << 22
STANDING_MOST = 100000  # places whose dice are remembered; older ones are forgotten (and said)
STANDING_FACES = 1000000  # and their faces, all told: a hostile log's throws of thousands of dice stay bounded
# The games' own dice: another die (a dice.json's Attack Die) is named in the verdict.
STANDARD = {
    "Battlerealm": "Mutant,Science,Skill,Tech,Cosmic,Mystic",
    "Attack": "Star,2,3,4,5,Blank",
    "Danger Coin": "Energy,Moon",
}
TOKEN = re.compile(r"^([0-9]{1,5}(?:\.[0-9]{1,3})?)([:=])([0-9]{1,2}):([0-9]+(?:\.[0-9]+)*)(?:@([1-8]{1,8}))?$")
IDENTITY_DICE = re.compile(r"^[^=;,]+=[^=;,]+(?:,[^=;,]+)+(?:;[^=;,]+=[^=;,]+(?:,[^=;,]+)+)*$")
PHONE = re.compile(r"^[0-9a-f]{32}$")
NUMBER = re.compile(r"^#(?:0|[1-9][0-9]{0,5})$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
# How the games' history lines and actions show the faces a throw landed (docs/fairness.md).
LINES = (
    ("battleworld", re.compile(r"^(\S+) \+ [0-9]+ vs "), "Attack"),
    ("battleworld", re.compile(r"^Danger Coin: (\S+?)\."), "Danger Coin"),
    ("battlerealm", re.compile(r"^.* rolls (\S+ \S+ \S+ \S+ \S+ \S+)\."), "Battlerealm"),
)
ACTIONS = {("battleworld", "attack"): ("Attack", 1), ("battleworld", "danger"): ("Danger Coin", 0)}
LETTERS = {
    "Mutant": "M",
    "Science": "S",
    "Skill": "K",
    "Tech": "T",
    "Cosmic": "C",
    "Mystic": "Y",
}  # a roll's saved form


class Bad(UserError):
    """Input that is not a log or a history (exit 2)."""


class Wrong(Exception):
    """Something in the record or the game that does not hold (exit 1): `str(e)` says what, first."""


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


def _count(n):
    """A count as JSON gives it (12 or 12.0: the page's JSON cannot tell them apart)."""
    if isinstance(n, float) and n.is_integer():
        n = int(n)
    return isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 1 << 32


def _q(text):
    """A text quoted as the page quotes it (JSON.stringify): the verdicts of both are the same."""
    return json.dumps(text, ensure_ascii=False)


def _plural(n, word, one="", many=""):
    """A count and its word ("1 draw", "2 draws"), and a verb after it that agrees ("1 line shows")."""
    return "%d %s%s%s" % (n, word, "" if n == 1 else "s", (" " + (one if n == 1 else many)) if one else "")


def cut_words(cut):
    """Who cut a seal, in words (as the tower's OLED says it)."""
    phones = len([c for c in cut if not c.startswith("#")])
    parts = [_plural(phones, "phone")] if phones else []
    if len(cut) > phones:
        parts.append("a number")
    return " and ".join(parts) if parts else "nobody (an empty cut: the tower alone chose this seed)"


_PARSED = {}  # a dice text -> its dice: a night's seals of the same game share one list


def _dies(dice):
    """[(name, [faces])] of an identity's dice, parsed once for every seal that names the same."""
    dies = _PARSED.get(dice)
    if dies is None:
        if len(_PARSED) >= 64:
            _PARSED.clear()
        dies = _PARSED[dice] = [
            (name, faces.split(",")) for name, _, faces in (p.partition("=") for p in dice.split(";"))
        ]
    return dies


class Seal:
    """One seal: its identity, cut and seed as the input tells them, and its record checked as it comes."""

    def __init__(self, kind, players, counter, dice, sealed):
        self.kind, self.players, self.counter, self.dice, self.commitment = kind, players, counter, dice, sealed
        self.name = "seal %s" % sealed[:16]
        self.dies = _dies(dice)
        self.cut = None  # the contributions, once told
        self.seed = None
        self.stream = None
        self.drawn = 0  # new faces checked (or counted, before the seed is known)
        self.throws = 0
        self.given = 0
        self.counted = None  # the tower's own count of its draws, and who said it
        self.starts = 0  # draws before the input's first (a log begun mid-seal)
        self.lost = 0  # draws the log told that a power cut lost from the save

    def die(self, index, where):
        if index >= len(self.dies):
            raise Wrong("%s: %s names die %d; the seal has %d" % (self.name, where, index, len(self.dies)))
        return self.dies[index]

    def start(self):
        if self.seed is not None and self.cut is not None and self.stream is None:
            made = commitment(self.seed, self.kind, self.players, self.counter, self.dice)
            if made != self.commitment:
                raise Wrong(
                    '%s: the commitment does not match: the seed and "dicetower 2 %s %d %d %s" give %s'
                    % (self.name, self.kind, self.players, self.counter, self.dice, made[:16])
                )
            nonce = hashlib.sha256(" ".join(self.cut).encode()).digest()
            self.stream = Stream(self.seed, nonce)

    def verdict(self):
        if self.seed is None:
            if self.drawn == 0:
                return True, "%s: sealed; no die drawn from it yet" % self.name
            return False, (
                '%s: the seed is not revealed yet: choose "Reveal the seed" in the game\'s menu on the tower, '
                "or finish the game, then check again" % self.name
            )
        if self.counted is not None:
            told = self.starts + self.drawn
            if self.counted[0] > told:
                return False, "%s: draw %d is missing: %s counts %d" % (
                    self.name,
                    told + 1,
                    self.counted[1],
                    self.counted[0],
                )
            if self.counted[0] < told - self.lost:
                return False, "%s: draw %d was never drawn: %s counts %d" % (
                    self.name,
                    self.counted[0] + 1,
                    self.counted[1],
                    self.counted[0],
                )
        else:
            return False, "%s: the tower does not say how many draws it made" % self.name
        if self.cut is None:
            return False, "%s: its cut is not told" % self.name
        line = "%s: %s in %s, cut by %s: every face matches, commitment matches" % (
            self.name,
            _plural(self.drawn, "draw"),
            _plural(self.throws, "throw"),
            cut_words(self.cut),
        )
        if self.given:
            line += "; %s given back as they landed" % _plural(self.given, "throw")
        if self.lost:
            line += "; %s told before a power cut and not saved (the seed's, checked)" % _plural(self.lost, "draw")
        for name, faces in self.dies:
            if STANDARD.get(name) != ",".join(faces):
                line += "; the %s die is not the game's own: %s" % (name, ",".join(faces))
        return True, line


class Game:
    """A game's seals, and what stands at each place (the dice as they last landed there)."""

    def __init__(self, strict=True):
        # Strict: the input holds the whole game as far as undo reaches (a /history; a log from the game's
        # start), so a throw given back, re-rolled or shown where no dice landed is wrong, not unknown.
        self.strict = strict
        self.standing = {}  # (place, die name) -> [faces]
        self.held = 0  # faces in `standing`
        self.undos = self.redos = 0
        self.lines = 0  # lines (or actions) whose faces were checked against the record
        self.unchecked = 0  # given back, or shown, where this input never saw the dice land
        self.forgotten = False

    def record(self, seal, record, where, lost=False):
        """A piece of a seal's record, checked against its stream and what stands."""
        for token in _tokens(record):
            match = TOKEN.fullmatch(token)
            if match is None:
                raise Wrong("%s: %s: %s is not a throw of the record" % (seal.name, where, _q(token)))
            place, mark, die, text, dice = match.groups()
            name, faces = seal.die(int(die), where)
            if len(faces) <= 10 and "." in text:  # one digit a face up to 10 faces; numbers joined by "." above
                raise Wrong("%s: %s: %s writes its faces as another die's" % (seal.name, where, _q(token)))
            shown = [int(f) for f in text.split(".")] if len(faces) > 10 else [int(f) for f in text]
            for face in shown:
                if face >= len(faces):
                    raise Wrong(
                        "%s: %s: face %d is not one of the %s die's %d" % (seal.name, where, face, name, len(faces))
                    )
            key = (place, name)
            stands = self.standing.get(key)
            if mark == "=":
                seal.given += 1
                if dice:
                    raise Wrong("%s: %s: dice given back re-roll nothing (%s)" % (seal.name, where, _q(token)))
                if stands is None:
                    self._unknown(
                        "%s: %s: dice given back at place %s, where none had landed" % (seal.name, where, place)
                    )
                elif stands != shown:
                    raise Wrong(
                        "%s: %s: the dice given back at place %s show %s; they had landed as %s"
                        % (seal.name, where, place, _labels(faces, shown), _labels(faces, stands))
                    )
                continue
            if dice:
                chosen = [int(d) - 1 for d in dice]
                if chosen != sorted(set(chosen)) or len(chosen) != len(shown):
                    raise Wrong("%s: %s: a re-roll's dice and faces do not agree (%s)" % (seal.name, where, _q(token)))
                if stands is None:
                    self._unknown("%s: %s: a re-roll at place %s, where no dice had landed" % (seal.name, where, place))
                elif max(chosen) >= len(stands):
                    raise Wrong(
                        "%s: %s: a re-roll of dice place %s never had (%s)" % (seal.name, where, place, _q(token))
                    )
            elif stands is not None:
                raise Wrong(
                    "%s: %s: a re-throw at place %s drew new faces (%s); its dice had landed as %s"
                    % (seal.name, where, place, _labels(faces, shown), _labels(faces, stands))
                )
            seal.throws += 1
            for face in shown:
                seal.drawn += 1
                if seal.stream is not None:
                    given = seal.stream.face(len(faces))
                    if given != face:
                        raise Wrong(
                            "%s: draw %d (the throw at place %s, the %s die%s): the seed gives %s, the record says %s"
                            % (
                                seal.name,
                                seal.starts + seal.drawn,
                                place,
                                name,
                                ", lost in a power cut" if lost else "",
                                faces[given],
                                faces[face],
                            )
                        )
            if dice:
                if stands is not None:
                    for i, d in enumerate(chosen):
                        stands[d] = shown[i]
            else:
                self._stand(key, shown)

    def _stand(self, key, faces):
        while self.standing and (
            len(self.standing) >= STANDING_MOST or self.held + len(faces) > STANDING_FACES
        ):  # the oldest first (a dict keeps its order)
            self.held -= len(self.standing.pop(next(iter(self.standing))))
            self.forgotten = True
        self.standing[key] = faces
        self.held += len(faces)

    def shows(self, kind, dies, place, labels, die, where):
        """A line or an action shows `labels` of `die` at `place`: they must be what stands there. `dies`:
        each die's faces, by name, as the latest seal naming it has them."""
        faces = dies.get(die)
        if faces is None:
            raise Wrong("%s shows the %s die, which no seal names" % (where, die))
        stands = self.standing.get((place, die))
        if stands is None:
            return self._unknown(
                "%s shows %s at place %s, where the record throws no %s die" % (where, " ".join(labels), place, die)
            )
        if _labels(faces, stands) != " ".join(labels):
            raise Wrong(
                "%s shows %s at place %s; the record has %s there"
                % (where, " ".join(labels), place, _labels(faces, stands))
            )
        self.lines += 1

    def _unknown(self, wrong):
        """Dice this input never saw land: wrong in a whole game, else not checked (a log begun mid-game)."""
        if self.strict:
            raise Wrong(wrong)
        self.unchecked += 1

    def summary(self):
        parts = []
        if self.undos or self.redos:
            parts.append(
                "%s and %s: every undone throw came back with its faces"
                % (_plural(self.undos, "undo"), _plural(self.redos, "redo"))
            )
        if self.lines:
            parts.append("%s the record's faces" % _plural(self.lines, "line", "shows", "show"))
        if self.unchecked:
            parts.append("%s thrown before this input began: not checked" % _plural(self.unchecked, "face"))
        if self.forgotten:
            parts.append(
                "the oldest places were forgotten (over %d places or %d faces)" % (STANDING_MOST, STANDING_FACES)
            )
        return "game: " + ("; ".join(parts) if parts else "no throw")


def _tokens(record):
    """The record's tokens as record.split(" ") gives them, one at a time (a /history's record is megabytes)."""
    start = 0
    while record and start <= len(record):
        end = record.find(" ", start)
        end = len(record) if end < 0 else end
        yield record[start:end]
        start = end + 1


def _known_dies(seals):
    """{die name: faces}, the latest of `seals` naming a die giving its faces."""
    dies = {}
    for seal in seals:
        dies.update(seal.dies)
    return dies


def _labels(faces, shown):
    return " ".join(faces[f] for f in shown)


def line_shows(kind, text):
    """(die name, the faces' labels) a history line shows, or None."""
    for game, pattern, die in LINES:
        if game == kind:
            match = pattern.match(text)
            if match is not None:
                return die, match.group(1).split(" ")
    return None


def _identity(event, where):
    kind, players, counter, dice, sealed = (event.get(k) for k in ("kind", "players", "counter", "dice", "commitment"))
    kind = kind if kind is not None else event.get("game")
    version = event.get("version", 1)  # the first sealed dice said none
    if version != 2:
        raise Bad("%s: a seal of version %s: this verifier reads version 2" % (where, _q(version)))
    if not isinstance(kind, str) or not isinstance(sealed, str) or not HEX64.fullmatch(sealed):
        raise Bad("%s: a seal without its game or its 64-digit commitment" % where)
    if not isinstance(dice, str) or not IDENTITY_DICE.fullmatch(dice):
        raise Bad("%s: a seal without its dice" % where)
    if not _count(players) or not _count(counter):
        raise Bad("%s: a seal without its players and counter" % where)
    return Seal(kind, players, counter, dice, sealed)


def _cut(value, where):
    if isinstance(value, str):
        value = value.split(" ") if value else []
    if not isinstance(value, list) or len(value) > 9:
        raise Bad("%s: a cut that is not a list of contributions" % where)
    for c in value:
        if not isinstance(c, str) or not (PHONE.fullmatch(c) or NUMBER.fullmatch(c)):
            raise Bad("%s: %s is not a contribution to a cut (32 hex digits, or # and a number)" % (where, _q(c)))
    return value


def _seed(text, where):
    if not isinstance(text, str) or not HEX64.fullmatch(text):
        raise Bad("%s: the seed is not 64 hex digits" % where)
    return bytes.fromhex(text)


def check_history(doc, announced=()):
    """(status, lines) for a /history document; `announced`: commitments (or their first 16 digits) the
    players saw the tower announce, each of which must be one of its seals."""
    listed = doc.get("seals")
    if not isinstance(listed, list):
        raise Bad('the history has no "seals": a scoreboard from before sealed dice')
    lines, at = doc.get("lines", []), doc.get("at", [])
    if not isinstance(lines, list) or not isinstance(at, list) or len(at) != len(lines):
        raise Bad('the history\'s "lines" and "at" do not pair up')
    seals = []
    for i, item in enumerate(listed):
        where = "seal %d of the history" % (i + 1)
        if not isinstance(item, dict) or not isinstance(item.get("record", ""), str):
            raise Bad("%s is damaged" % where)
        seal = _identity(item, where)
        seal.cut = _cut(item.get("cut"), where)
        if item.get("seed") is not None:
            seal.seed = _seed(item["seed"], where)
        if _count(item.get("draws")):
            seal.counted = (item["draws"], "the tower")
        seals.append((seal, item.get("record", "")))
    if not seals:
        raise Bad("the history holds no seal")
    game = Game()
    out = []
    status = 0
    try:
        for told in announced:
            if not any(seal.commitment.startswith(told) for seal, _ in seals):
                raise Wrong("seal %s: the tower announced it, and this history does not hold it" % told[:16])
        for seal, record in seals:
            seal.start()
            game.record(seal, record, "its record")
        kind = seals[0][0].kind
        dies = _known_dies(seal for seal, _ in seals)
        for n, (text, place) in enumerate(zip(lines, at), 1):
            if place is None:
                continue
            if not isinstance(text, str) or not isinstance(place, str):
                raise Bad("line %d of the history is damaged" % n)
            shown = line_shows(kind, text)
            if shown is None:
                raise Wrong("line %d (%s) throws at place %s and shows no faces" % (n, _q(text), place))
            game.shows(kind, dies, place, shown[1], shown[0], "line %d" % n)
    except Wrong as e:
        return 1, [str(e)]
    for seal, _ in seals:
        ok, line = seal.verdict()
        out.append(line)
        status = status or (0 if ok else 1)
    out.append(game.summary())
    return status, out


def _events(path):
    """The log's events, a line at a time: (line number, event)."""
    try:
        f = open(path, "rb")
    except OSError as e:
        raise Bad("cannot read %s: %s" % (path, e.strerror or e)) from None
    with f:
        for number, raw in enumerate(f, 1):
            if len(raw) > MAX_LINE:
                raise Bad("line %d is over %d KB: not an event" % (number, MAX_LINE // 1024))
            try:
                text = raw.decode("utf-8")
            except UnicodeError:
                raise Bad("line %d is not text: not a log" % number) from None
            if not text.strip():
                continue
            try:
                event = json.loads(text)
            except (ValueError, RecursionError):
                raise Bad(
                    "line %d is not a JSON event%s" % (number, "" if text.endswith("\n") else ": the log is cut short")
                )
            if not isinstance(event, dict):
                raise Bad("line %d is not an event" % number)
            yield number, event


def check_log(path):
    """(status, lines) for a monitor log: the seeds first (one pass), then the records in order."""
    seeds = {}
    for number, event in _events(path):
        if event.get("event") == "reveal" and isinstance(event.get("commitment"), str):
            seeds[event["commitment"]] = (_seed(event.get("seed"), "line %d" % number), event.get("draws"))
    seals = {}
    order = []
    dies = {}  # each die's faces by name, as the latest seal has them
    current = None
    game = Game(strict=False)  # strict from a new game's start: what came before it is not in the log
    summaries = []  # the games before `game`: their lines only (their places are let go)
    restarted = False
    kind = None
    try:
        for number, event in _events(path):
            where = "line %d" % number
            name = event.get("event")
            if name == "ready":
                restarted = True
            elif name == "game":
                if event.get("new"):
                    if game.standing or game.undos or game.redos or game.unchecked:
                        summaries.append(game.summary())
                        game = Game()  # another game: its places count from 0 again
                    game.strict = True
            elif name == "seal":
                told = _identity(event, where)
                if not _count(event.get("drawn", 0)):
                    raise Bad("%s: a seal whose draws so far are not a count" % where)
                current = seals.get(told.commitment)
                if current is None:
                    current = told
                    current.starts = event.get("drawn", 0)
                    seals[told.commitment] = current
                    order.append(current)
                    dies.update(current.dies)
                    if told.commitment in seeds:
                        current.seed, counted = seeds[told.commitment]
                        if _count(counted):
                            current.counted = (counted, "the reveal")
                kind = current.kind
            elif name == "cut":
                seal = seals.get(event.get("commitment"))
                if seal is None:
                    raise Bad("%s: a cut of a seal the log has not announced" % where)
                seal.cut = _cut(event.get("cut"), where)
                told = hashlib.sha256(" ".join(seal.cut).encode()).hexdigest()
                if event.get("nonce", told) != told:
                    raise Wrong("%s: %s: the cut's nonce is not SHA-256 of its contributions" % (seal.name, where))
                seal.start()
            elif name == "draws":
                if current is None:
                    raise Bad("%s: draws before any seal: the log starts mid-game" % where)
                first, record = event.get("first"), event.get("record")
                if not _count(first) or first < 1 or not isinstance(record, str):
                    raise Bad("%s: a draws event without its first draw and record" % where)
                if current.cut is None:
                    raise Wrong("%s: %s: a die drawn before the seal was cut" % (current.name, where))
                if first != current.starts + current.drawn + 1:
                    raise Wrong(
                        "%s: %s starts at draw %d, after draw %d"
                        % (current.name, where, first, current.starts + current.drawn)
                    )
                game.record(current, record, where)
                restarted = False
            elif name == "reveal":
                seal = seals.get(event.get("commitment"))
                if seal is None:
                    raise Wrong(
                        "%s: the reveal names commitment %s, which the log never announced"
                        % (where, str(event.get("commitment"))[:16])
                    )
                if restarted and seal.counted is not None and seal.counted[0] < seal.starts + seal.drawn:
                    seal.lost = seal.starts + seal.drawn - seal.counted[0]  # told, then lost with the power
            elif name in ("undo", "redo"):
                if name == "undo":
                    game.undos += 1
                else:
                    game.redos += 1
            elif name in ("action", "roll", "reroll") and isinstance(event.get("at"), str) and kind is not None:
                _event_shows(game, kind, dies, event, where)
    except Wrong as e:
        return 1, [str(e)]
    if not order:
        raise Bad('%s holds no sealed game (no "seal" event)' % path)
    out = []
    status = 0
    for seal in order:
        ok, line = seal.verdict()
        out.append(line)
        status = status or (0 if ok else 1)
    summaries.append(game.summary())
    for n, each in enumerate(summaries, 1):
        out.append(each if len(summaries) == 1 else each.replace("game:", "game %d:" % n, 1))
    return status, out


def _event_shows(game, kind, dies, event, where):
    """An action, roll or re-roll event's faces, against what stands at its place."""
    name = event.get("event")
    if name in ("roll", "reroll"):
        faces = event.get("faces")
        if not isinstance(faces, list) or not all(isinstance(f, str) for f in faces):
            raise Bad("%s: a %s event without its faces" % (where, name))
        game.shows(kind, dies, event["at"], faces, "Battlerealm", where)
        return
    shown = line_shows(kind, event.get("line") if isinstance(event.get("line"), str) else "")
    if shown is None:
        raise Wrong("%s: an action that throws at place %s shows no faces" % (where, event["at"]))
    game.shows(kind, dies, event["at"], shown[1], shown[0], where)
    args = event.get("args")
    if not isinstance(args, list) or not args:
        raise Wrong("%s: an action that throws has no values" % where)
    if kind == "battlerealm":
        given = "".join(LETTERS.get(label, "?") for label in shown[1])
        if args[0] != given:
            raise Wrong("%s: the roll's faces %r are not what its line shows (%s)" % (where, args[0], given))
        return
    rule = ACTIONS.get((kind, event.get("action")))
    if rule is None or len(args) <= rule[1] or [args[rule[1]]] != shown[1] or rule[0] != shown[0]:
        raise Wrong("%s: the action's face %r is not what its line shows" % (where, args))


def _size(n):
    return "%d MiB" % (n >> 20) if n >= 1 << 20 and not n & 0xFFFFF else "%s bytes" % format(n, ",")


def _json(data):
    """The JSON value of `data`, or None."""
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError, UnicodeError):
        return None


def _is_event(line):
    """Whether a line is a log's JSON event (a history's first line is not)."""
    if not line.lstrip().startswith(b"{"):
        return False
    event = _json(line)
    return isinstance(event, dict) and "event" in event


def verify(path, announced=()):
    """(exit status, lines to print): 0 when every seal and the game check, 1 when one does not or a seed
    is not revealed yet; Bad (exit 2) for a file that is neither a log nor a history."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, 2)
            if size > MAX_BYTES:  # refused before a byte is read
                raise Bad(
                    "%s is %s bytes, over the %s a log may be: not a game's log (a night of play is a few MB)"
                    % (path, format(size, ","), _size(MAX_BYTES))
                )
            f.seek(0)
            first = f.readline(MAX_LINE + 1)
            # A log is read a line at a time; a history (one JSON object, its first line not an event) whole.
            doc = None if _is_event(first) or size > MAX_HISTORY else _json(first + f.read(MAX_HISTORY))
    except OSError as e:
        raise Bad("cannot read %s: %s" % (path, e.strerror or e)) from None
    if isinstance(doc, dict) and "event" not in doc:
        return check_history(doc, announced)
    if announced:
        raise Bad("--seal is for a /history document; a log's seal events are the tower's announcements")
    return check_log(path)
