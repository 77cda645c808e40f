"""`dicetower monitor`: follow the JSON event lines a device writes to its USB console.

Each line is one event (see docs/playing.md, "Files on the device"). The monitor prints a row
per roll, action and game end, keeps the lines in `--save FILE` as JSON
lines (the format `dicetower stats` reads), shows a malformed line as such
and goes on, and when the board is unplugged waits for it and reconnects.
It reads through pyserial's `serial_for_url`, so a port can be a device
(/dev/ttyACM0) or a URL (socket://127.0.0.1:PORT for a virtual Pico).
"""

import json
import sys
import time

RECONNECT_S = 1.0


def describe(event):
    """One table row for an event, or None for events a player need not see."""
    kind = event.get("event")
    t = event.get("t", "")
    if kind == "roll":
        return "%8s  roll      %-12s %s" % (t, event.get("hero", ""), " ".join(event.get("faces", [])))
    if kind == "reroll":
        return "%8s  re-roll   dice %-7s %s" % (t, ",".join(str(d) for d in event.get("dice", [])),
                                               " ".join(event.get("faces", [])))
    if kind == "action":
        return "%8s  %-9s %s" % (t, event.get("action", ""), event.get("line", ""))
    if kind in ("undo", "redo"):
        return "%8s  %-9s %s" % (t, kind, event.get("line", ""))
    if kind == "over":
        return "%8s  GAME OVER %s" % (t, event.get("result", ""))
    if kind in ("ready", "game", "error", "entropy"):
        return "%8s  %-9s %s" % (t, kind, json.dumps({k: v for k, v in event.items() if k not in ("event", "t")}))
    return None


def event_of(raw):
    """A console line as the firmware's event (a dict), None for REPL chatter and banners,
    or ValueError (carrying the line) when it looks like an event but is not one."""
    line = raw.decode("utf-8", "replace").strip() if isinstance(raw, bytes) else raw.strip()
    if not line.startswith("{"):
        return None
    try:
        event = json.loads(line)
    except ValueError:
        raise ValueError(line)
    if not isinstance(event, dict):
        raise ValueError(line)
    return event


def follow(open_port, out=sys.stdout, save=None, count=None, seconds=None, sleep=time.sleep, clock=time.monotonic):
    """Read lines until `count` events or `seconds` pass; reconnect when the port goes away.

    `open_port()` returns an object with readline() (pyserial) or raises OSError
    (serial.SerialException is one) when no board answers. Returns the events read.
    """
    events = 0
    began = clock()
    port = None
    announced = False
    while (count is None or events < count) and (seconds is None or clock() - began < seconds):
        if port is None:
            try:
                port = open_port()
                out.write("-- connected\n")
                announced = False
            except OSError as e:
                if not announced:
                    out.write("-- no board (%s); waiting for it\n" % e)
                    announced = True
                sleep(RECONNECT_S)
                continue
        try:
            raw = port.readline()
        except OSError as e:
            out.write("-- the board went away (%s); waiting for it\n" % e)
            port = None
            announced = True
            continue
        if not raw:
            continue
        try:
            event = event_of(raw)
        except ValueError as e:
            out.write("-- malformed line skipped: %s\n" % str(e)[:80])
            continue
        if event is None:
            continue  # REPL chatter, banners: not events
        events += 1
        if save is not None:
            save.write(json.dumps(event) + "\n")
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
            return serial.serial_for_url(port, baudrate=baud, timeout=0.5)
        except serial.SerialException as e:
            raise OSError(str(e))

    return opener
