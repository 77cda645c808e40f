"""What a request must be before microdot reads it (web/server.py's docstring says why): read a PIECE
at a time, cut at the first bound it passes, and refused unless microdot can parse it without an
exception. Refused's args are the status and a line of why; the server answers it itself."""

MAX_LINE = 512  # bytes in the request line, or in one header line
MAX_HEADERS = 24  # header lines in a request
MAX_HEAD = 2048  # bytes of the request line and headers together
MAX_BODY = 256  # bytes of a body (a press is about 50)
PIECE = 128  # bytes read at a time from a client
METHODS = (b"GET", b"HEAD", b"POST")


class Refused(Exception):
    """A request the server answers itself: args are its status and a line of why."""


def checked(lines):
    """The body's length the head announces; Refused unless the head is one microdot reads without an
    exception: a request line of three words, header lines with a colon, a length in digits."""
    words = lines[0].split()
    if len(words) != 3 or not words[2].startswith(b"HTTP/1."):
        raise Refused(400, "the request line is not METHOD PATH HTTP/1.x")
    if words[0] not in METHODS:
        raise Refused(405, "the method is not one of GET, HEAD, POST")
    # Printable ASCII only: microdot splits the decoded line on Unicode's spaces too (\x1c, U+00A0).
    if any(c < 0x21 or c > 0x7E for c in lines[0].replace(b" ", b"!")) or not decodes(words[1]):
        raise Refused(400, "the path is not %-encoded UTF-8")
    length = 0
    for line in lines[1:]:
        name, colon, value = line.partition(b":")
        if not colon or not name.strip():
            raise Refused(400, "a header line has no name and colon")
        name = name.strip().lower()
        value = value.strip()
        if name == b"content-length":
            if not value or any(c not in b"0123456789" for c in value) or len(value) > 6:
                raise Refused(400, "Content-Length is not a number")
            length = int(value)
        elif name == b"transfer-encoding":
            raise Refused(411, "a body needs its Content-Length")
    if length > MAX_BODY:
        raise Refused(413, "a body is at most %d bytes" % MAX_BODY)
    try:
        bytes(b"\n".join(lines)).decode()
    except UnicodeError:
        raise Refused(400, "the request is not UTF-8")
    return length


def decodes(target):
    """Whether microdot's urldecode takes the request's path and query: each % followed by two hex
    digits, and UTF-8 once decoded (else it raises, and microdot prints the traceback)."""
    out = bytearray()
    i = 0
    while i < len(target):
        if target[i] == 37:  # %
            code = target[i + 1 : i + 3]
            if len(code) != 2 or any(c not in b"0123456789abcdefABCDEF" for c in code):
                return False
            out.append(int(code, 16))
            i += 3
        else:
            out.append(target[i])
            i += 1
    try:
        bytes(out).decode()
    except UnicodeError:
        return False
    return True


def _take_line(buf, start, end, lines):
    """The line buf[start:end] without its CR, Refused if too long; a line not blank is added to `lines`
    (Refused past MAX_HEADERS). Not async: it reads nothing, and a plain call allocates no coroutine."""
    line = bytes(memoryview(buf)[start:end]).rstrip(b"\r")
    if len(line) > MAX_LINE:
        raise Refused(414 if not lines else 431, "a line is longer than %d bytes" % MAX_LINE)
    if line:
        lines.append(line)
        if len(lines) > MAX_HEADERS + 1:
            raise Refused(431, "more than %d header lines" % MAX_HEADERS)
    return line


async def read_request(reader):
    """The request's bytes, head and body, read a PIECE at a time and cut at the first bound passed
    (each line copied once, as it ends); None when the client closed first."""
    buf = bytearray()
    lines = []
    start = 0  # where the line being read starts
    first = 0  # where the request line starts (after blank lines, which are passed over)
    head = 0  # the head's length, once its blank line has come
    while not head:
        piece = await reader.read(PIECE)
        if not piece:
            return None
        buf.extend(piece)
        while not head:
            end = buf.find(b"\n", start)
            if end < 0:
                if len(buf) - start > MAX_LINE:
                    raise Refused(414 if not lines else 431, "a line is longer than %d bytes" % MAX_LINE)
                break
            if not _take_line(buf, start, end, lines):  # a blank line
                if lines:
                    head = end + 1
                else:
                    first = end + 1  # a blank line before the request line: passed over, as HTTP/1.1 asks
            start = end + 1
        if len(buf) > MAX_HEAD and (not head or head > MAX_HEAD):
            raise Refused(431, "the request's head is longer than %d bytes" % MAX_HEAD)
    total = head + checked(lines)
    while len(buf) < total:
        piece = await reader.read(min(PIECE, total - len(buf)))
        if not piece:
            return None
        buf.extend(piece)
    return bytes(memoryview(buf)[first:total])
