"""A saved game as bytes, and back: versioned, checksummed, migrated.

The file is one header line and a JSON body:

    DICETOWER <schema> <crc32, 8 hex digits> <body length>\\n{...}

From schema 4 the CRC-32 covers the whole file but its own 8 digits (the
header's schema and length too), so a flipped digit anywhere is refused;
schemas 1 to 3 covered the body only, and still load.

The body is `Game.to_dict()`: the game's kind, the state at the start of the
undo window, the actions since and the actions undone, so undo and redo
survive a power cut. This module writes it (`encode`, after every action);
core/save_reader.py reads it back (`decode`: verified, migrated, checked),
a load unit of its own that a game's heap does not hold.

Schema history: 1 (before the first release) had no redo list and wrote
everything in full; 2 adds "redo" and writes the state's keys and recurring
words in short codes ("~d" for "abilities", "=j" for "Tough"...), so that
the largest game the trackers allow, with 50 actions to undo, stays under
2 KB per save (tests/fw/test_store.py builds those games); 3 keeps where
each Battlerealm hero stands ("place", for paying power cards) and the
results bought at the Collector's Cosmic Warehouse this turn ("bought"):
a schema 2 game is loaded with every hero at place 0 and nothing bought;
4 has the same body as 3, its checksum over the header too; 5 keeps the
Skill and Tech a Battlerealm roll left for damage ("dice"): a schema 4
game is loaded with none left at its base (its roll's replay counts them).
"""

import binascii
import json

from dicetower.core import games

_crc32 = getattr(binascii, "crc32", None)  # a MicroPython build may leave it out

SCHEMA = 5
MAGIC = b"DICETOWER "
LARGEST = 8192  # bytes: the largest game the trackers allow saves under 2 KB; a bigger file is not read
DEPTH = 12  # lists and dicts within one another: a game's state goes 6 deep; a save deeper is damaged
DEEPER = "it is nested deeper than any game"
# The tables every game's saves share. Never reorder: a key's code is its place here, and saves
# written before must load after. A game's own new keys and words go in its module's KEYS and WORDS
# (core/games/__init__.py), coded after these; a key not listed is written as it is. While no game has
# names of its own, a new one may be added at the end here ("dice"), which keeps the one cached table.
KEYS = (
    "heroes",
    "name",
    "pvp",
    "abilities",
    "prison",
    "disorientated",
    "block",
    "negated_by",
    "out",
    "survivor",
    "last_hit_by",
    "turn",
    "round",
    "rolled",
    "attacks",
    "over",
    "first",
    "phase",
    "areas",
    "players",
    "scheme",
    "stages",
    "stage",
    "threat",
    "villain",
    "sides",
    "done",
    "interim",
    "hp",
    "max",
    "crisis",
    "accel",
    "hazard",
    "team",
    "ko",
    "teams",
    "threshold",
    "gladiator",
    "heroes_duel",
    "mist",
    "water",
    "starting",
    "thanostones",
    "deck",
    "wins_needed",
    "battles",
    "won",
    "lost",
    "faces",
    "hits_needed",
    "target",
    "symbol",
    "thanostone",
    "hits",
    "danger",
    "result",
    "own",
    "place",
    "bought",
    "allies",
    "minions",
    "dice",
)
# Words that recur as values (abilities, action names) are written as "=a"...
# the same way. Names a player gives can start with neither "~" nor "=".
WORDS = (
    "Careful",
    "Cunning",
    "Elusive",
    "Flight",
    "Gifted",
    "Honest",
    "Lucky",
    "Peaceful",
    "Survivor",
    "Tough",
    "roll",
    "attack",
    "effect",
    "land",
    "gain",
    "spend",
    "block",
    "negate",
    "disorientate",
    "escape",
    "end_turn",
    "threat",
    "incite",
    "thwart",
    "side",
    "side_threat",
    "hit",
    "villain_attack",
    "damage",
    "heal",
    "end_phase",
    "separate",
    "join",
    "villain",
    "ko",
    "remove_ko",
    "duel",
    "token",
    "battle",
    "player",
    "Energy",
    "Moon",
    "Star",
    "Blank",
    "gladiator",
    "hero",
    "mist",
    "water",
    "won",
    "lost",
    "move",
    "buy",
    "ally",
    "ally_damage",
    "minion",
    "hit_minion",
)
_CODES = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def code(i, mark):
    # One character for the first 62 names, two after ("~_a"...): a code is only ever looked up whole.
    return mark + _CODES[i] if i < len(_CODES) else mark + "_" + _CODES[i - len(_CODES)]


MARKS = ("~", "=")  # a key's code starts with the first, a word's with the second


def _table(names):
    """Each name's number in `names`, which `code` makes its code: small ints, no string held a name."""
    return {names[i]: i for i in range(len(names))}


_SHARED = []  # (key numbers, word numbers) of the shared tables, once `shared_codes` made them


def shared_codes():
    """(key numbers, word numbers): the shared tables as dicts, made at the first save and kept (renamed
    with MARKS codes them). Made per save they were most of a save's time on a Pico (12 ms of its 20);
    kept, 1.1 KB of a Pico's heap, which the start menu does without (with every code as a string, as
    they were, 5.0 KB)."""
    if not _SHARED:
        _SHARED.append((_table(KEYS), _table(WORDS)))
    return _SHARED[0]


# The codes a save has written, made once each, by number, for keys and for words: a new string is looked
# up among the qstrs as it is made (about 0.2 ms on a Pico, as many as a game's names, which a save's
# coding would pay at every save); a game writes a few dozen of the 118.
_MADE = ({}, {})


def _made(number, which):
    made = code(number, MARKS[which])
    _MADE[which][number] = made
    return made


def key_code(name):
    """A shared key's code as saves write it ("~a"): a game's migration names keys so."""
    return code(shared_codes()[0][name], MARKS[0])


def names_of(module):
    """The key and word lists a game's saves use: the shared ones, then the game's own."""
    return KEYS + module.KEYS, WORDS + module.WORDS


def _codes(module):
    """(key numbers, word numbers) for a game's saves: the shared tables unless the game adds names."""
    if not module.KEYS and not module.WORDS:
        return shared_codes()
    keys, words = names_of(module)
    return _table(keys), _table(words)


class SaveError(Exception):
    """The saved bytes are not a game this firmware can load; `str(e)` says why."""


class NewerSave(SaveError):
    """A save from a newer firmware: not damaged, kept to load again after an update."""


def renamed(value, names, words=None, depth=DEPTH, marks=None, _is=isinstance, _dict=dict, _list=list):
    """A copy of a JSON value with dict keys (and, given `words`, strings) swapped by the tables; a
    SaveError if it is nested past `depth`. With `marks` (MARKS) the tables give numbers, coded with
    them here, each code made once (_MADE): the encoder's. Its hot names are locals (the defaults after
    `marks`): on a Pico a builtin's name costs 12 us a lookup in this module, a local's 1 us, and with a
    call a list or dict, its plain items swapped in its loop, a Battlerealm base's coding went 5.0 ->
    3.0 ms."""
    if depth < 0:
        raise SaveError(DEEPER)
    keyed = _is(value, _dict)
    if keyed:
        out, pairs = {}, value.items()
    elif _is(value, _list):
        out, pairs = [None] * len(value), enumerate(value)
    else:
        found = words.get(value) if words is not None and _is(value, str) else None
        return value if found is None else found if not marks else _MADE[1].get(found) or _made(found, 1)
    if depth == 0 and value:
        raise SaveError(DEEPER)  # its items are past the depth, plain ones too
    made = _MADE if marks else None
    for k, v in pairs:
        if _is(v, _dict) or _is(v, _list):
            v = renamed(v, names, words, depth - 1, marks)
        elif words is not None and _is(v, str):
            found = words.get(v)
            if found is not None:
                v = found if made is None else made[1].get(found) or _made(found, 1)
        if keyed:
            found = names.get(k)
            if found is not None:
                k = found if made is None else made[0].get(found) or _made(found, 0)
        out[k] = v
    return out


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


def game_module(kind):
    """The module of a saved game's kind (core/games/), imported only when needed (saves heap)."""
    try:
        return games.game(kind)
    except KeyError:
        raise SaveError("unknown game %r" % (kind,))


def encode(game):
    """The game's saved bytes (`encoding` at once)."""
    pieces = encoding(game)
    data = None
    while data is None:
        data = next(pieces)
    return data


def encoding(game):
    """The game's saved bytes in three pieces (four at the first save), for the device's loop to take one
    a pass (on a Pico the whole is 25-50 ms, most of it coding the actions: saves.py): yields None after
    each but the last, then the bytes. The first copies what the game holds (its base coded; its lists and dicts, whose items
    are never changed once recorded), so an action done between the pieces is not half in the file."""
    fresh = not _SHARED
    keys, words = _codes(game_module(game.KIND))
    if fresh:
        yield None  # the shared tables, made at the first save (28 ms on a Pico): a pass of their own
    content = game.to_dict()
    for key in content:
        value = content[key]
        if key == "base":
            content[key] = renamed(value, keys, words, DEPTH, MARKS)
        elif isinstance(value, list):
            content[key] = list(value)
        elif isinstance(value, dict):
            content[key] = dict(value)
    yield None
    content["actions"] = renamed(content["actions"], {}, words, DEPTH, MARKS)
    content["redo"] = renamed(content["redo"], {}, words, DEPTH, MARKS)
    yield None
    body = json.dumps(content, separators=(",", ":")).encode()
    head, tail = ("DICETOWER %d " % SCHEMA).encode(), (" %d\n" % len(body)).encode()
    yield head + ("%08x" % whole_checksum(head, tail, body)).encode() + tail + body


def whole_checksum(head, tail, body):
    """The CRC-32 of a schema 4 save: the header around the checksum's digits, then the body."""
    return checksum(body, checksum(tail, checksum(head)))
