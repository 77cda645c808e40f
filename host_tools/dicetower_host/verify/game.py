"""A seal's record checked as it comes, and the game around it: what stands at each place, throws
given back, re-rolls, the faces a history line or an action shows; each seal's verdict."""

import hashlib
import json
import re

from dicetower_host.errors import UserError
from dicetower_host.verify.stream import Stream, commitment

STANDING_MOST = 100000  # places whose dice are remembered; older ones are forgotten (and said)
STANDING_FACES = 1000000  # and their faces, all told: a hostile log's throws of thousands of dice stay bounded
# The games' own dice: another die (a dice.json's Attack Die) is named in the verdict.
STANDARD = {
    "Battlerealm": "Mutant,Science,Skill,Tech,Cosmic,Mystic",
    "Attack": "Star,2,3,4,5,Blank",
    "Danger Coin": "Energy,Moon",
}
TOKEN = re.compile(r"^([0-9]{1,5}(?:\.[0-9]{1,3})?)([:=])([0-9]{1,2}):([0-9]+(?:\.[0-9]+)*)(?:@([1-8]{1,8}))?$")


# How the games' history lines and actions show the faces a throw landed (docs/fairness.md).
LINES = (
    ("battleworld", re.compile(r"^(\S+) \+ [0-9]+ vs "), "Attack"),
    ("battleworld", re.compile(r"^Danger Coin: (\S+?)\."), "Danger Coin"),
    ("battlerealm", re.compile(r"^.* rolls (\S+ \S+ \S+ \S+ \S+ \S+)\."), "Battlerealm"),
)


class Bad(UserError):
    """Input that is not a log or a history (exit 2)."""


class Wrong(Exception):
    """Something in the record or the game that does not hold (exit 1): `str(e)` says what, first."""


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
