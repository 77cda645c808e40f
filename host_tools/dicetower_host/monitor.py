"""`dicetower monitor`: follow the JSON event lines a device writes to its USB console.

Each line is one event (see docs/playing.md, "Files on the device"). The monitor prints a row
per roll, action and game end, keeps the lines in `--save FILE` as JSON
lines (the format `dicetower stats` reads), shows a malformed line as such
and goes on, and when the board is unplugged waits for it and reconnects.
It reads through pyserial's `serial_for_url`, so a port can be a device
(/dev/ttyACM0) or a URL (socket://127.0.0.1:PORT for a virtual Pico).

Whatever the cable brings, the monitor stays bounded: a line longer than
MAX_LINE bytes is dropped (and said so), a line split by a pause is joined,
control bytes are shown escaped, never sent to the terminal, and `seconds`
is kept however the bytes arrive.
"""

import json
import sys
import time

RECONNECT_S = 1.0
MAX_LINE = 8192  # bytes; the firmware's longest event (an error with its reason) is well under 1 KB
CHUNK = 4096  # bytes read at a time
IDLE_S = 0.02  # the pause after a socket:// port had nothing
SHOWN = 120  # characters of a malformed line shown


class MalformedLine(ValueError):
    """A console line that looks like an event but is not one; `str(e)` says why, `line` is the line."""

    def __init__(self, why, line):
        ValueError.__init__(self, "%s: %s" % (why, printable(line, SHOWN)))
        self.why = why
        self.line = line


def printable(text, limit=None):
    """`text` safe for a terminal: control characters shown as escapes, cut to `limit` characters."""
    if limit is not None and len(text) > limit:
        text = text[:limit] + "..."
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _words(value):
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


# The fields a row shows, by event, with the type each must have: a device that sends another type
# is sending a malformed event, said in one line.
FIELDS = {
    "roll": {"hero": str, "faces": "words"},
    "reroll": {"dice": "dice", "faces": "words"},
    "action": {"action": str, "line": str},
    "undo": {"line": str},
    "redo": {"line": str},
    "over": {"result": str},
}


def check(event):
    """None if the event's fields have the types its row needs, else why not (one phrase)."""
    kind = event.get("event")
    if not isinstance(kind, str):
        return "no event name"
    if "t" in event and not _is_number(event["t"]):
        return "t is not a number"
    for field, kind_of in FIELDS.get(kind, {}).items():
        if field not in event:
            continue
        value = event[field]
        if kind_of == "words":
            ok = _words(value)
        elif kind_of == "dice":
            ok = isinstance(value, list) and all(isinstance(d, int) and not isinstance(d, bool) for d in value)
        else:
            ok = isinstance(value, kind_of)
        if not ok:
            return "%s %s has the wrong type" % (kind, field)
    return None


def _json(value):
    """`value` as JSON to show, or "?" for what JSON cannot show (nested too deep, not JSON's types)."""
    try:
        return json.dumps(value)
    except (RecursionError, TypeError, ValueError):
        return "?"


def _text(value):
    return printable(value if isinstance(value, str) else _json(value), SHOWN)


def describe(event):
    """One table row for an event, or None for events a player need not see. Never raises on a dict:
    a field of the wrong type (see check()) is shown as its JSON."""
    kind = event.get("event")
    t = event.get("t", "")
    t = t if _is_number(t) else ""

    def field(name, default=""):
        return _text(event.get(name, default))

    def words(name):
        value = event.get(name, [])
        return printable(" ".join(value), SHOWN) if _words(value) else _text(value)

    if kind == "roll":
        return "%8s  roll      %-12s %s" % (t, field("hero"), words("faces"))
    if kind == "reroll":
        dice = event.get("dice", [])
        dice = (
            ",".join(str(d) for d in dice)
            if isinstance(dice, list) and all(_is_number(d) for d in dice)
            else _text(dice)
        )
        return "%8s  re-roll   dice %-7s %s" % (t, printable(dice, SHOWN), words("faces"))
    if kind == "action":
        return "%8s  %-9s %s" % (t, field("action"), field("line"))
    if kind in ("undo", "redo"):
        return "%8s  %-9s %s" % (t, kind, field("line"))
    if kind == "over":
        return "%8s  GAME OVER %s" % (t, field("result"))
    if kind in ("ready", "game", "error", "entropy"):
        rest = {k: v for k, v in event.items() if k not in ("event", "t")}
        return "%8s  %-9s %s" % (t, kind, printable(_json(rest), 4 * SHOWN))
    return None


def event_of(raw):
    """A console line as the firmware's event (a dict), None for REPL chatter and banners,
    or MalformedLine (a ValueError) when it looks like an event but is not one: not UTF-8, not
    JSON, nested too deep, not an object, or a field of the wrong type."""
    if isinstance(raw, bytes):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            text = raw.decode("utf-8", "replace").strip()
            if text.startswith("{"):
                raise MalformedLine("not UTF-8", text)
            return None
    else:
        line = raw.strip()
    if not line.startswith("{"):
        return None
    try:
        event = json.loads(line)
    except RecursionError:
        raise MalformedLine("nested too deep", line)
    except ValueError:
        raise MalformedLine("not JSON", line)
    if not isinstance(event, dict):
        raise MalformedLine("not a JSON object", line)
    why = check(event)
    if why:
        raise MalformedLine(why, line)
    return event


class Lines:
    """Whole lines out of the bytes as they come: a line split by a pause is joined; one longer than
    MAX_LINE is dropped (its length kept, to be said) and memory never holds more than MAX_LINE."""

    def __init__(self, limit=MAX_LINE):
        self.limit = limit
        self.pending = bytearray()
        self.dropping = 0  # bytes of a too-long line dropped so far

    def feed(self, data):
        """[(line or None, bytes dropped)]: each finished line, or None with the length of a dropped one."""
        done = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            if self.dropping:
                self.dropping += len(piece)
            elif len(self.pending) + len(piece) > self.limit:
                self.dropping = len(self.pending) + len(piece)
                self.pending = bytearray()
            else:
                self.pending += piece
            if end < 0:
                break
            if self.dropping:
                done.append((None, self.dropping))
                self.dropping = 0
            else:
                done.append((bytes(self.pending), 0))
                self.pending = bytearray()
            start = end + 1
        return done

    def reset(self):
        self.pending = bytearray()
        self.dropping = 0


def _read(port, sleep):
    """What the port has now (at least one byte, or b"" after a pause). A socket:// port is opened
    without a timeout (open_serial): each read is one recv of whatever has come, up to a CHUNK, since
    its in_waiting says 1 whatever it holds (a byte a call read a 1 MB line in 6.7 s), and a read that
    waited for more would lose what it had when the other end closes (pyserial raises instead)."""
    if getattr(port, "timeout", None) == 0:
        data = port.read(CHUNK)
        if not data:
            sleep(IDLE_S)
        return data
    waiting = getattr(port, "in_waiting", 0) or 0
    return port.read(min(CHUNK, max(1, waiting)))


def follow(open_port, out=sys.stdout, save=None, count=None, seconds=None, sleep=time.sleep, clock=time.monotonic):
    """Read events until `count` events or `seconds` pass; reconnect when the port goes away.

    `open_port()` returns an object with read(n) (pyserial: up to n bytes, b"" after its timeout)
    or raises OSError (serial.SerialException is one) when no board answers. Returns the events read.
    """
    events = 0
    began = clock()
    port = None
    announced = False
    lines = Lines()

    def time_left():
        return seconds is None or clock() - began < seconds

    while (count is None or events < count) and time_left():
        if port is None:
            try:
                port = open_port()
                out.write("-- connected\n")
                announced = False
            except OSError as e:
                if not announced:
                    out.write("-- no board (%s); waiting for it\n" % printable(str(e)))
                    announced = True
                sleep(RECONNECT_S if seconds is None else max(0, min(RECONNECT_S, seconds - (clock() - began))))
                continue
        try:
            data = _read(port, sleep)
        except OSError as e:
            out.write("-- the board went away (%s); waiting for it\n" % printable(str(e)))
            port = None
            announced = True
            lines.reset()  # half a line from before the cable came out is not joined to the next
            continue
        for raw, dropped in lines.feed(data):
            if count is not None and events >= count:
                break
            if raw is None:
                out.write("-- a line of %d bytes dropped: longer than %d bytes\n" % (dropped, MAX_LINE))
                continue
            try:
                event = event_of(raw)
            except MalformedLine as e:
                out.write("-- malformed line skipped (%s)\n" % e)
                continue
            if event is None:
                continue  # REPL chatter, banners: not events
            events += 1
            if save is not None:
                save.write(raw.decode("utf-8").strip() + "\n")  # as the device sent it: checked JSON, one line
                save.flush()
            row = describe(event)
            if row:
                out.write(row + "\n")
        out.flush()
    return events


def open_serial(port, baud=115200):
    import serial

    def opener():
        try:
            # A short timeout: the monitor looks at the clock between reads, so --seconds holds. A
            # socket:// port none: each read takes what has come (_read).
            return serial.serial_for_url(port, baudrate=baud, timeout=0 if "://" in port else 0.1)
        except serial.SerialException as e:
            raise OSError(str(e))

    return opener


def watch(port, save_path=None, count=None, seconds=None, out=None):
    """`dicetower monitor`: the events from `port` shown until `count` of them, `seconds` or Ctrl-C, and
    appended to `save_path` as JSON lines. The exit status."""
    from dicetower_host.errors import UserError

    try:
        save = open(save_path, "a") if save_path else None
    except OSError as e:
        raise UserError("cannot write --save %s: %s" % (save_path, e.strerror or e))
    try:
        follow(open_serial(port), out or sys.stdout, save, count, seconds)
    except KeyboardInterrupt:
        pass
    finally:
        if save is not None:
            save.close()
    return 0
