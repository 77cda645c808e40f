"""A saved game as bytes, and back: versioned, checksummed, migrated.

The file is one header line and a JSON body:

    DICETOWER <schema> <crc32, 8 hex digits> <body length>\\n{...}

From schema 4 the CRC-32 covers the whole file but its own 8 digits (the
header's schema and length too), so a flipped digit anywhere is refused;
schemas 1 to 3 covered the body only, and still load.

The body is `Game.to_dict()`: the game's kind, the state at the start of the
undo window, the actions since and the actions undone, so undo and redo
survive a power cut. `decode` checks everything before it trusts anything and
raises `SaveError` saying what is wrong, and nothing else: past the checksum,
whatever fails (a missing list, a value of the wrong type, nesting deeper
than any game's, a game that does not replay) means the save is damaged. The
state is checked against the game's own (`check`) before it is offered, so a
file that claims an impossible game is refused too.

Schema history: 1 (before the first release) had no redo list and wrote
everything in full; 2 adds "redo" and writes the state's keys and recurring
words in short codes ("~d" for "abilities", "=j" for "Tough"...), so that
the largest game the trackers allow, with 50 actions to undo, stays under
2 KB per save (tests/fw/test_store.py builds those games); 3 keeps where
each Battlerealm hero stands ("place", for paying power cards) and the
results bought at the Collector's Cosmic Warehouse this turn ("bought"):
a schema 2 game is loaded with every hero at place 0 and nothing bought;
4 has the same body as 3, its checksum over the header too.
"""

import binascii
import json

from dicetower.core import games
from dicetower.core.game import Refused

_crc32 = getattr(binascii, "crc32", None)  # a MicroPython build may leave it out

SCHEMA = 4
MAGIC = b"DICETOWER "
LARGEST = 8192  # bytes: the largest game the trackers allow saves under 2 KB; a bigger file is not read
DEPTH = 12  # lists and dicts within one another: a game's state goes 6 deep; a save deeper is damaged
# The tables every game's saves share. Never reorder: a key's code is its place here, and saves
# written before must load after. A game's own new keys and words go in its module's KEYS and WORDS
# (core/games/__init__.py), coded after these; a key not listed is written as it is.
KEYS = ("heroes", "name", "pvp", "abilities", "prison", "disorientated", "block", "negated_by", "out",
        "survivor", "last_hit_by", "turn", "round", "rolled", "attacks", "over", "first", "phase", "areas",
        "players", "scheme", "stages", "stage", "threat", "villain", "sides", "done", "interim", "hp", "max",
        "crisis", "accel", "hazard", "team", "ko", "teams", "threshold", "gladiator", "heroes_duel", "mist",
        "water", "starting", "thanostones", "deck", "wins_needed", "battles", "won", "lost", "faces",
        "hits_needed", "target", "symbol", "thanostone", "hits", "danger", "result", "own", "place", "bought",
        "allies", "minions")
# Words that recur as values (abilities, action names) are written as "=a"...
# the same way. Names a player gives can start with neither "~" nor "=".
WORDS = ("Careful", "Cunning", "Elusive", "Flight", "Gifted", "Honest", "Lucky", "Peaceful", "Survivor", "Tough",
         "roll", "attack", "effect", "land", "gain", "spend", "block", "negate", "disorientate", "escape",
         "end_turn", "threat", "incite", "thwart", "side", "side_threat", "hit", "villain_attack", "damage",
         "heal", "end_phase", "separate", "join", "villain", "ko", "remove_ko", "duel", "token", "battle",
         "player", "Energy", "Moon", "Star", "Blank", "gladiator", "hero", "mist", "water", "won", "lost",
         "move", "buy", "ally", "ally_damage", "minion", "hit_minion")
_CODES = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _code(i, mark):
    # One character for the first 62 names, two after ("~_a"...): a code is only ever looked up whole.
    return mark + _CODES[i] if i < len(_CODES) else mark + "_" + _CODES[i - len(_CODES)]


def _table(names, mark):
    return {names[i]: _code(i, mark) for i in range(len(names))}


def _untable(names, mark):
    return {_code(i, mark): names[i] for i in range(len(names))}


# Made once, at import: made per save they were most of a save's time on a Pico (12 ms of its 20), and
# kept they cost about 3 KB of heap.
_KEY_CODES = _table(KEYS, "~")
_WORD_CODES = _table(WORDS, "=")


def _names(module):
    """The key and word lists a game's saves use: the shared ones, then the game's own."""
    return KEYS + module.KEYS, WORDS + module.WORDS


def _codes(module):
    """(key codes, word codes) for a game's saves: the shared tables unless the game adds names."""
    if not module.KEYS and not module.WORDS:
        return _KEY_CODES, _WORD_CODES
    keys, words = _names(module)
    return _table(keys, "~"), _table(words, "=")


class SaveError(Exception):
    """The saved bytes are not a game this firmware can load; `str(e)` says why."""


class NewerSave(SaveError):
    """A save from a newer firmware: not damaged, kept to load again after an update."""


def _rename(value, names, words=None, depth=DEPTH):
    """A copy of a JSON value with dict keys (and, given `words`, strings) swapped by the tables."""
    if depth < 0:
        raise SaveError("it is nested deeper than any game")
    if isinstance(value, dict):
        return {names.get(k, k): _rename(v, names, words, depth - 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, names, words, depth - 1) for v in value]
    if words is not None and isinstance(value, str):
        return words.get(value, value)
    return value


def checksum(data, crc=0):
    """CRC-32 (the zlib one) of bytes, as an unsigned int; `crc` carries on from earlier bytes."""
    if _crc32 is not None:
        return _crc32(data, crc) & 0xFFFFFFFF
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def _game(kind):
    """The module of a saved game's kind (core/games/), imported only when needed (saves heap)."""
    try:
        return games.game(kind)
    except KeyError:
        raise SaveError("unknown game %r" % (kind,))


def encode(game):
    content = game.to_dict()
    keys, words = _codes(_game(game.KIND))
    content["base"] = _rename(content["base"], keys, words)
    content["actions"] = _rename(content["actions"], {}, words)
    content["redo"] = _rename(content["redo"], {}, words)
    body = json.dumps(content, separators=(",", ":")).encode()
    head, tail = ("DICETOWER %d " % SCHEMA).encode(), (" %d\n" % len(body)).encode()
    return head + ("%08x" % _whole(head, tail, body)).encode() + tail + body


def _whole(head, tail, body):
    """The CRC-32 of a schema 4 save: the header around the checksum's digits, then the body."""
    return checksum(body, checksum(tail, checksum(head)))


def _migrate_1(body):
    if "redo" in body:
        raise SaveError("a later save's body under schema 1")  # a damaged header the CRC did not cover
    body["redo"] = []
    if isinstance(body.get("base"), dict):  # schema 1 wrote keys and words in full
        words = _WORD_CODES
        body["base"] = _rename(body["base"], _KEY_CODES, words)
        body["actions"] = _rename(body.get("actions"), {}, words)
    return body


def _migrate_2(body):
    if body.get("game") == "battlerealm":  # keys are in their schema 2 codes here
        codes = _KEY_CODES
        base = body["base"]
        if codes["bought"] in base:
            raise SaveError("a later save's body under schema 2")
        base[codes["bought"]] = 0
        for hero in base[codes["heroes"]]:
            hero[codes["place"]] = 0
    return body


def _migrate_3(body):
    return body  # the same body; only the checksum's reach grew


MIGRATIONS = {1: _migrate_1, 2: _migrate_2, 3: _migrate_3}  # schema N -> N + 1


def decode(data):
    """A Game from saved bytes, or SaveError (and nothing else: whatever the bytes)."""
    schema, body = _verified(data)
    try:
        return _game_of(schema, body)
    except (SaveError, MemoryError):
        raise  # a heap too full to replay it says nothing of the save: the caller keeps it as it is
    except Exception as e:  # noqa: past the checksum, anything wrong means a damaged save, never a crash
        raise SaveError("its game is damaged (%s)" % (type(e).__name__,))


def kind_of(data):
    """The kind of game saved bytes hold, checked whole (header and checksum) but not replayed: what the
    start menu names without importing that game's modules (a Pico's heap). SaveError otherwise."""
    schema, body = _verified(data)
    try:
        kind = json.loads(body).get("game")
    except Exception:  # noqa: past the checksum, anything wrong means a damaged save
        raise SaveError("the body is not a saved game")
    if not games.known(kind):
        raise SaveError("unknown game %r" % (kind,))
    return kind


def _verified(data):
    """(schema, body) of saved bytes whose header and checksum hold, or SaveError."""
    if len(data) > LARGEST:
        raise SaveError("it is %d bytes; a save is at most %d" % (len(data), LARGEST))
    if not data.startswith(MAGIC):
        raise SaveError("not a dicetower save")
    end = data.find(b"\n")
    if end < 0:
        raise SaveError("the header is cut short")
    try:
        parts = data[len(MAGIC):end].decode().split()
        schema, crc, length = int(parts[0]), int(parts[1], 16), int(parts[2])
    except (ValueError, IndexError, UnicodeError):
        raise SaveError("the header is damaged")
    if len(parts) != 3 or parts[1] != "%08x" % crc or parts[2] != "%d" % length:
        raise SaveError("the header is damaged")  # written otherwise than encode writes it
    if schema < 1 or length < 0:
        raise SaveError("the header is damaged")
    body = data[end + 1:]
    if len(body) < length:
        raise SaveError("the file is cut short (%d of %d bytes)" % (len(body), length))
    if len(body) > length:
        raise SaveError("the file is longer than its header says (%d bytes, not %d)" % (len(body), length))
    # The checksum before the schema: a flipped digit in the schema is damage, not a newer firmware.
    # Every schema from 4 on keeps this header and its whole-file checksum, so that a firmware can tell.
    if schema >= 4:
        digits = data.find(b" ", len(MAGIC)) + 1  # where the checksum's 8 digits start
        whole = _whole(data[:digits], data[digits + 8:end + 1], body)
    else:
        whole = checksum(body)
    if whole != crc:
        raise SaveError("the checksum does not match")
    if schema > SCHEMA:
        raise NewerSave("saved by a newer firmware (save format %d; this one reads 1 to %d)" % (schema, SCHEMA))
    return schema, body


def _game_of(schema, body):
    try:
        content = json.loads(body)
    except ValueError:
        raise SaveError("the body is not JSON")
    if not isinstance(content, dict) or not isinstance(content.get("base"), dict):
        raise SaveError("the body is not a saved game")
    for key in ("actions", "redo") if schema > 1 else ("actions",):
        if not isinstance(content.get(key), list):
            raise SaveError("the body has no %r list" % key)
    while schema < SCHEMA:
        content = MIGRATIONS[schema](content)
        schema += 1
    kind = content.get("game")
    if not isinstance(kind, str):
        raise SaveError("the body names no game")
    module = _game(kind)
    cls = module.TRACKER
    keys, words = _names(module)
    words = _untable(words, "=")
    base = _rename(content["base"], _untable(keys, "~"), words)
    actions = _rename(content["actions"], {}, words)
    redo = _rename(content["redo"], {}, words)
    for key in cls.STATE_KEYS:
        if key not in base:
            raise SaveError("the saved %s game has no %r" % (cls.KIND, key))
    template = module.new_game(module.PLAYERS[2], {}).state
    check(module, base, template)
    try:
        game = cls(base, actions, redo)
    except Exception as e:  # noqa: a save that cannot be replayed is damaged
        raise SaveError("the saved game does not replay (%s)" % (e,))
    check(module, game.state, template)
    try:
        cls(game.state, list(reversed(redo)))  # the actions undone must still be possible
    except MemoryError:
        raise
    except Exception as e:  # noqa: the game stands; only what it could redo goes, and the players are told
        game.redo_actions = []
        game.note = "The saved game's redo list did not replay (%s): it was dropped, the game is kept." % (e,)
    return game


def check(module, state, template):
    """SaveError unless `state` is a game its module can show and play: the same shape as `template`,
    a new game's state (every key, each value of the same type, no count below what a game can
    reach), then the game's own `check` (indexes in range: whose turn, a place...), then its status
    line and LED gauge drawn."""
    _same_shape(state, template, "the state")
    own = getattr(module, "check", None)
    if own is not None:
        try:
            own(state)
        except (Refused, ValueError) as e:
            raise SaveError("an impossible game: %s" % (e,))
    try:
        module.status(state, 8)
        module.gauge(state, [0, 0, 0, 0])
    except Exception as e:  # noqa: a state its own screen cannot show is damaged
        raise SaveError("an impossible game (%s)" % (type(e).__name__,))


def _same_shape(value, like, where, depth=DEPTH):
    """SaveError unless `value` has `like`'s shape: a new game's dicts' keys, its values' types, lists
    of what the new game's lists hold, whole numbers no lower than the new game's (0, or -1 for "none")."""
    if depth < 0:
        raise SaveError("%s is nested deeper than any game" % where)
    if like is None:  # "over": None, or the line that ended the game
        if value is not None and not isinstance(value, str):
            raise SaveError("%s must be text" % where)
    elif isinstance(like, bool) or isinstance(like, str):
        if type(value) is not type(like):
            raise SaveError("%s must be %s" % (where, "text" if isinstance(like, str) else "true or false"))
    elif isinstance(like, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise SaveError("%s must be a whole number" % where)
        if value < min(0, like):
            raise SaveError("%s is %d, below any game's" % (where, value))
    elif isinstance(like, dict):
        if not isinstance(value, dict):
            raise SaveError("%s must be named fields" % where)
        for key in like:
            if key not in value:
                raise SaveError("%s has no %r" % (where, key))
            _same_shape(value[key], like[key], key, depth - 1)
    elif isinstance(like, list):
        if not isinstance(value, list):
            raise SaveError("%s must be a list" % where)
        if like:
            for item in value:
                _same_shape(item, like[0], where, depth - 1)
        else:
            _rename(value, {}, None, depth)  # what no new game holds yet is checked by the game's own rules
