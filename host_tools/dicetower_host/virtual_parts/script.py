"""Button scripts for the simulator: parse them, play them on a Tower.

One command a line; `#` starts a comment:
    seed 5            the dice's seed (before anything else; --seed overrides)
    board pico        the board profile (before anything else; --board overrides)
    press c           a short press of C; `press a long`, `press b double`
    keys caac C       several presses: lower case short, upper case long
    wait 500          let 500 ms pass
    mark roll         a marked step: `--png` writes a picture here
Runs on CPython and on the MicroPython VM alike.
"""

KINDS = ("short", "long", "double")
SETTINGS = ("seed", "board")


class ScriptError(Exception):
    """A line the simulator cannot play; `str(e)` names the line and the reason."""


def parse(text):
    """[(line number, command, args)] or ScriptError."""
    steps = []
    started = False
    settled = {}  # each setting's line
    for n, raw in enumerate(text.split("\n")):
        n += 1
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        command, args = words[0].lower(), words[1:]
        if command in SETTINGS:
            if started:
                raise ScriptError("line %d: %s must come before any press" % (n, command))
            if len(args) != 1:
                raise ScriptError("line %d: %s takes one value" % (n, command))
            if command in settled:
                raise ScriptError("line %d: %s is set already, on line %d" % (n, command, settled[command]))
            settled[command] = n
            if command == "seed":
                args = [_number(n, args[0], "a seed")]
            elif not is_name(args[0]):
                raise ScriptError(
                    "line %d: board takes a profile's name (letters, digits, - and _), e.g. board pico" % n
                )
        elif command == "press":
            if not 1 <= len(args) <= 2 or (len(args) == 2 and args[1] not in KINDS):
                raise ScriptError(
                    "line %d: press takes a button and maybe short, long or double: %s" % (n, quoted(line))
                )
            args = [args[0].lower(), args[1] if len(args) == 2 else "short"]
            started = True
        elif command == "keys":
            if not args:
                raise ScriptError("line %d: keys needs some keys, e.g. keys caac" % n)
            for key in "".join(args):
                if key.lower() not in "abc":
                    raise ScriptError("line %d: %s is not a key (a b c, upper case for long)" % (n, quoted(key)))
            args = ["".join(args)]
            started = True
        elif command == "wait":
            if len(args) != 1:
                raise ScriptError("line %d: wait takes milliseconds" % n)
            ms = _number(n, args[0], "milliseconds")
            if not 0 <= ms <= 3600000:
                raise ScriptError("line %d: wait 0 to 3600000 ms, not %d" % (n, ms))
            args = [ms]
            started = True
        elif command == "mark":
            if len(args) != 1 or not is_name(args[0]):
                raise ScriptError("line %d: mark takes one name of letters, digits, - and _ (at most 64)" % n)
        else:
            raise ScriptError(
                "line %d: unknown command %s (seed, board, press, keys, wait, mark)" % (n, quoted(command))
            )
        steps.append((n, command, args))
    return steps


def is_name(word):
    """A name that is safe in a file's name: ASCII letters, digits, - and _ (a mark's, a board's)."""
    return 0 < len(word) <= 64 and all(c in NAME_CHARS for c in word)


NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"


def _number(n, word, what):
    try:
        return int(word)
    except ValueError:
        raise ScriptError("line %d: %s is not %s" % (n, quoted(word), what))


def quoted(text, most=40):
    """`text` as a message shows it: quoted, and cut with its length said when long (a script's line
    may be megabytes)."""
    if len(text) <= most:
        return repr(text)
    return "%r... (%d characters)" % (text[:most], len(text))


def setting(steps, name, default=None):
    for _n, command, args in steps:
        if command == name:
            return args[0]
    return default


def keystrokes(keys):
    """A string of presses as (button, kind): 'a', 'b', 'c' short; 'A', 'B', 'C' long; spaces ignored."""
    return [(key.lower(), "long" if key.isupper() else "short") for key in keys if key != " "]


def presses(steps):
    """Every press of the steps as (button, kind), in order (waits and marks left out)."""
    out = []
    for _n, command, args in steps:
        if command == "press":
            out.append((args[0], args[1]))
        elif command == "keys":
            out += keystrokes(args[0])
    return out


def play(tower, steps, on_step=None, refused=ValueError):
    """Play the steps; `on_step(line, command, args)` after each. ScriptError, naming the line, for a
    step the board refuses (`refused`: a button the tower lacks; for a board over its control line, what
    its answer raises)."""
    for n, command, args in steps:
        try:
            if command == "press":
                tower.press(args[0], args[1])
            elif command == "keys":
                tower.presses(args[0])
            elif command == "wait":
                tower.wait(args[0])
        except refused as e:
            raise ScriptError("line %d: %s" % (n, e)) from e
        if on_step is not None:
            on_step(n, command, args)


def digests(tower, steps):
    """[(line, sha256 of the OLED memory and the LED bytes)] after every step: the parity check's record."""
    import binascii
    import hashlib

    out = []

    def record(n, command, args):
        h = hashlib.sha256(tower.oled())
        h.update(tower.leds())
        out.append((n, binascii.hexlify(h.digest()).decode()))

    record(0, "boot", [])
    play(tower, steps, record)
    return out
