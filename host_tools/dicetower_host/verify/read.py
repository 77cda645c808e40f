"""The two inputs, read: a monitor log in two passes a line at a time (the seeds first, then every
record checked as it comes), or the scoreboard's /history document whole; each is a seal's identity,
cut and seed checked for their form (Bad) before the game is checked (Wrong)."""

import hashlib
import json
import re

from dicetower_host.verify.game import Bad, Game, Seal, Wrong, _count, _known_dies, _q, line_shows

MAX_LINE = 64 * 1024


IDENTITY_DICE = re.compile(r"^[^=;,]+=[^=;,]+(?:,[^=;,]+)+(?:;[^=;,]+=[^=;,]+(?:,[^=;,]+)+)*$")
PHONE = re.compile(r"^[0-9a-f]{32}$")
NUMBER = re.compile(r"^#(?:0|[1-9][0-9]{0,5})$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")


ACTIONS = {("battleworld", "attack"): ("Attack", 1), ("battleworld", "danger"): ("Danger Coin", 0)}
LETTERS = {
    "Mutant": "M",
    "Science": "S",
    "Skill": "K",
    "Tech": "T",
    "Cosmic": "C",
    "Mystic": "Y",
}  # a roll's saved form


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
