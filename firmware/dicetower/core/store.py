"""A saved game as bytes, and back: versioned, checksummed, migrated.

The file is one header line and a JSON body:

    DICETOWER <schema> <crc32 of body, 8 hex digits> <body length>\\n{...}

The body is `Game.to_dict()`: the game's kind, the state at the start of the
undo window, the actions since and the actions undone, so undo and redo
survive a power cut. `decode` checks everything before it trusts anything and
raises `SaveError` saying what is wrong; then it replays the actions, so a
file that claims an impossible game is refused too.

Schema history: 1 (before the first release) had no redo list and wrote
everything in full; 2 adds "redo" and writes the state's keys and recurring
words in short codes ("~d" for "abilities", "=j" for "Tough"...), so that
the largest game the trackers allow, with 50 actions to undo, stays under
2 KB per save (tests/fw/test_store.py builds those games); 3 keeps where
each Battlerealm hero stands ("place", for paying power cards) and the
results bought at the Collector's Cosmic Warehouse this turn ("bought"):
a schema 2 game is loaded with every hero at place 0 and nothing bought.
"""

import binascii
import json

from dicetower.core import games

_crc32 = getattr(binascii, "crc32", None)  # a MicroPython build may leave it out

SCHEMA = 3
MAGIC = b"DICETOWER "
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


def _rename(value, names, words=None):
    """A copy of a JSON value with dict keys (and, given `words`, strings) swapped by the tables."""
    if isinstance(value, dict):
        return {names.get(k, k): _rename(v, names, words) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, names, words) for v in value]
    if words is not None and isinstance(value, str):
        return words.get(value, value)
    return value


class SaveError(Exception):
    """The saved bytes are not a game this firmware can load; `str(e)` says why."""


def checksum(data):
    """CRC-32 (the zlib one) of bytes, as an unsigned int."""
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    crc = 0xFFFFFFFF
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
    header = "DICETOWER %d %08x %d\n" % (SCHEMA, checksum(body), len(body))
    return header.encode() + body


def _migrate_1(body):
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
        base[codes["bought"]] = 0
        for hero in base[codes["heroes"]]:
            hero[codes["place"]] = 0
    return body


MIGRATIONS = {1: _migrate_1, 2: _migrate_2}  # schema N -> N + 1


def decode(data):
    """A Game from saved bytes, or SaveError."""
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
    if schema > SCHEMA or schema < 1:
        raise SaveError("saved by a firmware with save format %d; this one reads 1 to %d" % (schema, SCHEMA))
    body = data[end + 1:]
    if len(body) != length:
        raise SaveError("the file is cut short (%d of %d bytes)" % (len(body), length))
    if checksum(body) != crc:
        raise SaveError("the checksum does not match")
    try:
        content = json.loads(body)
    except ValueError:
        raise SaveError("the body is not JSON")
    if not isinstance(content, dict) or not isinstance(content.get("base"), dict):
        raise SaveError("the body is not a saved game")
    try:
        while schema < SCHEMA:
            content = MIGRATIONS[schema](content)
            schema += 1
    except Exception as e:  # noqa: a file the migration cannot read is damaged
        raise SaveError("the save cannot be brought up to date (%s)" % (e,))
    module = _game(content.get("game"))
    cls = module.TRACKER
    keys, words = _names(module)
    words = _untable(words, "=")
    base = _rename(content["base"], _untable(keys, "~"), words)
    content["actions"] = _rename(content["actions"], {}, words)
    content["redo"] = _rename(content["redo"], {}, words)
    for key in cls.STATE_KEYS:
        if key not in base:
            raise SaveError("the saved %s game has no %r" % (cls.KIND, key))
    try:
        game = cls(base, content["actions"], content["redo"])
        # The actions undone must still be possible, or redo would lose them.
        cls(game.state, list(reversed(content["redo"])))
    except Exception as e:  # noqa: a save that cannot be replayed is damaged
        raise SaveError("the saved game does not replay (%s)" % (e,))
    return game
