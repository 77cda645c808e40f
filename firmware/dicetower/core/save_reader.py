"""A saved game's bytes back into a game: verified, migrated, checked (core/savefile.py writes them).

Needed at power-up (the saved game, the kept ones the start menu offers) and when a kept game is
brought back: saves.py loads it then and forgets it after, so a game's heap holds only the writer.
`decode` checks everything before it trusts anything and raises `SaveError` saying what is wrong, and
nothing else: past the checksum, whatever fails (a missing list, a value of the wrong type, nesting
deeper than any game's, a game that does not replay) means the save is damaged. The state is checked
against the game's own (`check`) before it is offered, so a file that claims an impossible game is
refused too. The schemas and what each migration does are in core/savefile.py's docstring.
"""

import json

from dicetower.core import games
from dicetower.core.game import LANDED_MOST, PLACES, Refused, landed_at, number
from dicetower.core.savefile import (
    DEPTH,
    LARGEST,
    MAGIC,
    MARKS,
    SCHEMA,
    NewerSave,
    SaveError,
    checksum,
    code,
    game_module,
    names_of,
    renamed,
    shared_codes,
    whole_checksum,
)


def _untable(names, mark):
    return {code(i, mark): names[i] for i in range(len(names))}


def _migrate_1(body):
    if "redo" in body:
        raise SaveError("a later save's body under schema 1")  # a damaged header the CRC did not cover
    body["redo"] = []
    if isinstance(body.get("base"), dict):  # schema 1 wrote keys and words in full
        keys, words = shared_codes()
        body["base"] = renamed(body["base"], keys, words, DEPTH, MARKS)
        body["actions"] = renamed(body.get("actions"), {}, words, DEPTH, MARKS)
    return body


def _same(body):
    return body  # schema 2 -> 3 changed a game's body only (its module's `migrate`); 3 -> 4 the checksum's reach


MIGRATIONS = {1: _migrate_1, 2: _same, 3: _same, 4: _same}  # schema N -> N + 1, the shared part; then each game's own


def decode(data):
    """A Game from saved bytes, or SaveError (and nothing else: whatever the bytes)."""
    schema, body = _verified(data)
    try:
        return _game_of(schema, body)
    except (SaveError, MemoryError):
        raise  # a heap too full to replay it says nothing of the save: the caller keeps it as it is
    except Exception as e:  # noqa: BLE001 (past the checksum, anything wrong means a damaged save, never a crash)
        raise SaveError("its game is damaged (%s)" % (type(e).__name__,))


def kind_of(data):
    """The kind of game saved bytes hold, checked whole (header and checksum) but not replayed: what the
    start menu names without importing that game's modules (a Pico's heap). SaveError otherwise."""
    schema, body = _verified(data)
    try:
        kind = json.loads(body).get("game")
    except Exception:  # noqa: BLE001 (past the checksum, anything wrong means a damaged save)
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
        parts = data[len(MAGIC) : end].decode().split()
        schema, crc, length = int(parts[0]), int(parts[1], 16), int(parts[2])
    except (ValueError, IndexError, UnicodeError):
        raise SaveError("the header is damaged")
    if len(parts) != 3 or parts[1] != "%08x" % crc or parts[2] != "%d" % length:
        raise SaveError("the header is damaged")  # written otherwise than encode writes it
    if schema < 1 or length < 0:
        raise SaveError("the header is damaged")
    body = data[end + 1 :]
    if len(body) < length:
        raise SaveError("the file is cut short (%d of %d bytes)" % (len(body), length))
    if len(body) > length:
        raise SaveError("the file is longer than its header says (%d bytes, not %d)" % (len(body), length))
    # The checksum before the schema: a flipped digit in the schema is damage, not a newer firmware.
    # Every schema from 4 on keeps this header and its whole-file checksum, so that a firmware can tell.
    if schema >= 4:
        digits = data.find(b" ", len(MAGIC)) + 1  # where the checksum's 8 digits start
        whole = whole_checksum(data[:digits], data[digits + 8 : end + 1], body)
    else:
        whole = checksum(body)
    if whole != crc:
        raise SaveError("the checksum does not match")
    if schema > SCHEMA:
        raise NewerSave("saved by a newer firmware (save format %d; this one reads 1 to %d)" % (schema, SCHEMA))
    return schema, body


def _game_of(schema, body):
    content = _saved_body(schema, body)
    kind = content["game"]
    module = game_module(kind)
    own = getattr(module, "migrate", None)  # a game's own change of its body (core/games/__init__.py)
    while schema < SCHEMA:
        content = MIGRATIONS[schema](content)
        if own is not None:
            content = own(schema, content)
        schema += 1
    cls = module.TRACKER
    keys, words = names_of(module)
    words = _untable(words, "=")
    base = renamed(content["base"], _untable(keys, "~"), words)
    actions = renamed(content["actions"], {}, words)
    redo = renamed(content["redo"], {}, words)
    for key in cls.STATE_KEYS:
        if key not in base:
            raise SaveError("the saved %s game has no %r" % (cls.KIND, key))
    template = module.new_game(games.players(kind)[2], {}).state
    check(module, base, template)
    try:
        game = cls(base, actions, redo)
    except Exception as e:  # noqa: BLE001 (a save that cannot be replayed is damaged)
        raise SaveError("the saved game does not replay (%s)" % (e,))
    check(module, game.state, template)
    seal = content.get("seal")  # the game's sealed dice (core/sealed.py), revealed when the game resumes
    if isinstance(seal, dict):
        game.seal = seal
    seals = content.get("seals")  # the seals revealed so far in this game, for its history
    if isinstance(seals, list):
        game.seals = [s for s in seals if isinstance(s, dict)][-SEALS_MOST:]
    landed = content.get("landed", {})
    if _landed(landed):
        game.landed = landed
    else:
        game.note = "The saved game's landed dice were damaged and are dropped: a throw undone lands anew."
    try:
        cls(game.state, list(reversed(redo)))  # the actions undone must still be possible
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 (the game stands; only what it could redo goes, and the players are told)
        game.redo_actions = []
        game.note = "The saved game's redo list did not replay (%s): it was dropped, the game is kept." % (e,)
    return game


def _saved_body(schema, body):
    """A save's body parsed, with what every game's body has: a base, its lists, the name of its game."""
    try:
        content = json.loads(body)
    except ValueError:
        raise SaveError("the body is not JSON")
    if not isinstance(content, dict) or not isinstance(content.get("base"), dict):
        raise SaveError("the body is not a saved game")
    for key in ("actions", "redo") if schema > 1 else ("actions",):
        if not isinstance(content.get(key), list):
            raise SaveError("the body has no %r list" % key)
    if not isinstance(content.get("game"), str):
        raise SaveError("the body names no game")
    return content


SEALS_MOST = 16  # revealed seals a save may hold: a game keeps four, more while an undo can reach their throws


def _landed(landed):
    """True if a save's landed notes (core/game.py) are what a game writes: bounded, places as keys."""
    if not isinstance(landed, dict) or len(landed) > LANDED_MOST:
        return False
    for key, value in landed.items():
        if not isinstance(key, str) or not 2 < len(key) <= 40 or landed_at(key) < 0:
            return False
        if isinstance(value, bool) or not isinstance(value, (int, str)) or (isinstance(value, str) and len(value) > 40):
            return False
    return True


def check(module, state, template):
    """SaveError unless `state` is a game its module can show and play: the same shape as `template`,
    a new game's state (every key, each value of the same type, no count below what a game can
    reach), then the game's own `check` (indexes in range: whose turn, a place...), then its status
    line and LED gauge drawn."""
    _same_shape(state, template, "the state")
    try:
        number(state.get("thrown", 0), 0, PLACES, "Throws")  # core/game.py's count of the throws so far
    except Refused as e:
        raise SaveError("an impossible game: %s" % (e,))
    own = getattr(module, "check", None)
    if own is not None:
        try:
            own(state)
        except (Refused, ValueError) as e:
            raise SaveError("an impossible game: %s" % (e,))
    try:
        module.status(state, 8)
        module.gauge(state, [0, 0, 0, 0])
    except Exception as e:  # noqa: BLE001 (a state its own screen cannot show is damaged)
        raise SaveError("an impossible game (%s)" % (type(e).__name__,))


def _same_shape(value, like, where, depth=DEPTH):
    """SaveError unless `value` has `like`'s shape: a new game's dicts' keys, its values' types, lists
    of what the new game's lists hold, whole numbers no lower than the new game's (0, or -1 for "none")."""
    if depth < 0:
        raise SaveError("%s is nested deeper than any game" % where)
    # The dicts and lists recurse here, not in helpers, so a nesting costs one frame of stack, not two.
    if isinstance(like, dict):
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
            renamed(value, {}, None, depth)  # what no new game holds yet is checked by the game's own rules
    else:
        _same_value(value, like, where)


def _same_value(value, like, where):
    """SaveError unless a single value (text, true or false, a whole number, or None) is of `like`'s kind."""
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
