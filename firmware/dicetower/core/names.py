"""Names shortened for a line of the OLED, told apart within a game: the status lines, the pickers'
labels, the marking screen. Loaded with a game (its tracker imports it), not at the start menu."""


def short_name(name, width):
    """A name in at most `width` characters that still names the hero: whole if it fits, else its last
    words that fit ("Black Panther" in 8: "Panther"), else cut."""
    if len(name) <= width:
        return name
    words = name.split()
    for first in range(1, len(words)):
        tail = " ".join(words[first:])
        if len(tail) <= width:
            return tail
    return name[:width]


_named = [None, 0, None]  # short_names' last (names, width, answer): a redraw asks again for the same


def short_names(names, width):
    """Each of `names` in at most `width` characters, told apart within the game: `short_name`'s where
    that is unique; else the first letter of each word but the last, then the last word's start
    (Captain Marvel and Captain America in 3: "CMa", "CAm"); else the seat's number and the name's
    start ("1Sp", "2Sp")."""
    if _named[0] == names and _named[1] == width:
        return _named[2]
    out = [short_name(name, width) for name in names]
    for tell in (_initials, _seat):
        clash = [i for i in range(len(out)) if out.count(out[i]) > 1]
        for i in clash:
            out[i] = tell(names[i], i, width)
    _named[0], _named[1], _named[2] = list(names), width, out
    return out


def _initials(name, seat, width):
    words = name.split()
    head = "".join(word[0] for word in words[:-1])[: width - 1]
    return (head + words[-1])[:width] if words else name[:width]


def _seat(name, seat, width):
    return ("%d%s" % (seat + 1, name))[:width]
