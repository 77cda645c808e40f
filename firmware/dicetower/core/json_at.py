"""Where a JSON text goes wrong: the line and column of the first character a JSON parser cannot take.

MicroPython's json says only that a text is not JSON; a user editing champions.json or heroes.json by
hand needs the place. Loaded only when a file is refused (core/game.py's `parsed`, through `once`).
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

_DEEPEST = const(32)  # nesting a hand-written file never reaches; deeper is said where it goes deeper
_SPACE = " \t\n\r"
_ESCAPES = '"\\/bfnrtu'
_HEX = "0123456789abcdefABCDEF"


class _At(Exception):
    """The index of the first character that is wrong."""


def where(text):
    """(line, column), both from 1, of the first error in `text`; None if it is JSON."""
    try:
        i = _skip(text, _value(text, _skip(text, 0), 0))
        if i < len(text):
            raise _At(i)  # something after the value
        return None
    except _At as e:
        i = e.args[0]
        return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def _skip(t, i):
    while i < len(t) and t[i] in _SPACE:
        i += 1
    return i


def _value(t, i, depth):
    if depth > _DEEPEST or i >= len(t):
        raise _At(i)
    c = t[i]
    if c == "{" or c == "[":
        return _items(t, i, depth, c == "{")
    if c == '"':
        return _string(t, i)
    for word in ("true", "false", "null"):
        if t.startswith(word, i):
            return i + len(word)
    return _number(t, i)


def _items(t, i, depth, named):
    """An object's members (`named`) or an array's values, from its opening bracket at `i`."""
    close = "}" if named else "]"
    i = _skip(t, i + 1)
    if i < len(t) and t[i] == close:
        return i + 1
    while True:
        if named:
            i = _name(t, i)
        i = _skip(t, _value(t, i, depth + 1))
        if i < len(t) and t[i] == close:
            return i + 1
        if i >= len(t) or t[i] != ",":
            raise _At(i)  # a comma missing, or the end
        comma = i
        i = _skip(t, i + 1)
        if i < len(t) and t[i] == close:
            raise _At(comma)  # a comma before the end: JSON has none


def _name(t, i):
    """A member's name in double quotes and its colon: where its value starts."""
    if i >= len(t) or t[i] != '"':
        raise _At(i)
    i = _skip(t, _string(t, i))
    if i >= len(t) or t[i] != ":":
        raise _At(i)
    return _skip(t, i + 1)


def _string(t, i):
    i += 1
    while i < len(t):
        c = t[i]
        if c == '"':
            return i + 1
        if c == "\\":
            if i + 1 >= len(t) or t[i + 1] not in _ESCAPES:
                raise _At(i)
            if t[i + 1] == "u":
                for j in range(i + 2, i + 6):
                    if j >= len(t) or t[j] not in _HEX:
                        raise _At(i)
                i += 6
            else:
                i += 2
        elif ord(c) < 32:
            raise _At(i)  # a line break inside a string: its closing quote is missing
        else:
            i += 1
    raise _At(i)


def _digits(t, i):
    start = i
    while i < len(t) and "0" <= t[i] <= "9":
        i += 1
    if i == start:
        raise _At(i)
    return i


def _number(t, i):
    if i < len(t) and t[i] == "-":
        i += 1
    first = i
    i = _digits(t, i)
    if t[first] == "0" and i - first > 1:
        raise _At(first)
    if i < len(t) and t[i] == ".":
        i = _digits(t, i + 1)
    if i < len(t) and t[i] in "eE":
        i += 1
        if i < len(t) and t[i] in "+-":
            i += 1
        i = _digits(t, i)
    return i
