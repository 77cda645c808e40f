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

stream.py holds the commitment and the faces, game.py a seal's record and the game checked, read.py
the two inputs read; `verify()` here tells which input a file is.
"""

import json

from dicetower_host.verify.game import Bad, Game, Seal, Wrong, cut_words, line_shows
from dicetower_host.verify.read import MAX_LINE, check_history, check_log
from dicetower_host.verify.stream import Stream, commitment

MAX_BYTES = (
    64 * 1024 * 1024
)  # a log larger than this is not a game's (a night of play is a few MB); fairness.md says it
MAX_HISTORY = 4 * 1024 * 1024  # a /history document: a tower serves a few KB


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


__all__ = [
    "MAX_BYTES",
    "Bad",
    "Game",
    "Seal",
    "Stream",
    "Wrong",
    "check_history",
    "check_log",
    "commitment",
    "cut_words",
    "line_shows",
    "verify",
]
