"""Files on the device's flash, written so that a power cut keeps a whole one, read only when small.

`writing(fs, path, data)` writes to a temporary file, then renames it over the
old one: a rename is atomic, so a power cut leaves either the old file or the
new one, never half of one. On LittleFS (a Pico's) a file that is there is
written over in place instead: LittleFS keeps its old content until the new is
committed, whole, at its close, and a save is then one commit instead of three
(2 KB written: 2.0 ms against 8.6, the median of 30 on the emulated chip). The
filesystem is injected (`fs`: open, rename, remove, exists, size, atomic;
`OsFiles` is the device's own) so tests can cut the power at any byte.

Every file the tower reads is measured before it is read (`read_at_most`): a
file of a few hundred KB would not fit the Pico's heap. A file the tower
refuses is renamed aside (`keep_aside`), never deleted and never written over.
"""


class TooBig(ValueError):
    """A file over the size the tower reads; `str(e)` says both sizes."""


class OsFiles:
    """The real filesystem: MicroPython's (LittleFS on a Pico) or the host's. `atomic`: a file written over
    keeps its old content until its close commits the new, whole (LittleFS's promise: lfs2.h)."""

    def __init__(self):
        import os

        self._os = os
        self.atomic = _littlefs_root()

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, old, new):
        self._os.rename(old, new)

    def remove(self, path):
        self._os.remove(path)

    def exists(self, path):
        try:
            self._os.stat(path)
            return True
        except OSError:
            return False

    def size(self, path):
        """The file's size in bytes; OSError if there is none."""
        return self._os.stat(path)[6]


def _littlefs_root(vfs=None):
    """True when MicroPython's `vfs` (or the one given) says "/" is a VfsLfs2. Else, or when it cannot be
    told, files are written through a rename: CPython and CircuitPython have no `vfs`, a MicroPython
    before 1.23 neither, and before 1.25 its `mount()` needs arguments."""
    try:
        if vfs is None:
            import vfs
        return [type(fs) for fs, at in vfs.mount() if at == "/"] == [getattr(vfs, "VfsLfs2", 0)]
    except (ImportError, TypeError, OSError):
        return False


def read_at_most(fs, path, limit):
    """A file's bytes, measured first: TooBig if it is over `limit` bytes, OSError if it is missing."""
    size = fs.size(path)
    if size > limit:
        raise TooBig("%s is %d bytes; the tower reads at most %d" % (path.rsplit("/", 1)[-1], size, limit))
    f = fs.open(path, "rb")
    try:
        # The measured size, not the limit: MicroPython's read(n) takes n bytes in one piece before it
        # reads, and a heap cut up by a game may have no piece of the limit's size.
        return f.read(size)
    finally:
        f.close()


def read_text(path, limit):
    """A file's text, or None if there is none; ValueError saying why if it is over `limit` bytes or
    not UTF-8 (its size is known before a byte is read)."""
    try:
        data = read_at_most(OsFiles(), path, limit)
    except OSError:
        return None
    try:
        return data.decode()
    except UnicodeError:
        raise ValueError("%s is not valid JSON (not UTF-8 text)" % path.rsplit("/", 1)[-1])


def aside_name(path, tag, n):
    return "%s.%s%d" % (path, tag, n)


def keep_aside(fs, path, tag, most=None, source=None):
    """Rename `path` (or `source`) to the first free `<path>.<tag>N` (N from 1) and return that name: a
    damaged save, a save from a newer firmware, a game a new one replaced, a damaged config.json. With
    `most`, only that many are kept: the oldest (N = 1) goes and the rest move down one, so the newest
    has the highest N."""
    n = 1
    while fs.exists(aside_name(path, tag, n)):
        n += 1
    if most is not None and n > most:
        fs.remove(aside_name(path, tag, 1))
        for k in range(2, n):
            fs.rename(aside_name(path, tag, k), aside_name(path, tag, k - 1))
        n -= 1
    name = aside_name(path, tag, n)
    fs.rename(source or path, name)
    return name


def take_out(fs, name, path, tag, into):
    """Move the kept file `name` (one of `<path>.<tag>N`) aside under the tag `into`, and close the gap
    it leaves, so that `kept` still finds the rest (it counts up from 1). Returns its new name."""
    moved = keep_aside(fs, path, into, source=name)
    n = int(name[len(path) + len(tag) + 1 :])
    while fs.exists(aside_name(path, tag, n + 1)):
        fs.rename(aside_name(path, tag, n + 1), aside_name(path, tag, n))
        n += 1
    return moved


def kept(fs, path, tag, most=20):
    """The names `keep_aside` gave under `tag`, newest first (at most `most` looked for). One gap is
    looked past: a power cut while take_out renumbered them leaves one, and the rest stay found."""
    found = []
    n = 1
    while n <= most:
        if fs.exists(aside_name(path, tag, n)):
            found.append(aside_name(path, tag, n))
        elif not fs.exists(aside_name(path, tag, n + 1)):
            break
        n += 1
    return found[::-1]


def append_bounded(fs, path, text, limit):
    """Add `text` at the end of a log without reading it: past `limit` bytes the log starts again,
    the full one kept as <path>.1 (so at most twice `limit` on flash). Raises OSError if flash fails."""
    try:
        size = fs.size(path)
    except OSError:
        size = 0
    if size and size + len(text) > limit:
        _rename_over(fs, path, path + ".1")
    f = fs.open(path, "a")
    try:
        f.write(text[-limit:])
    finally:
        f.close()


def _rename_over(fs, old, new):
    try:
        fs.rename(old, new)
    except OSError:
        # FAT cannot rename over a file; LittleFS (the Pico's) can.
        fs.remove(new)
        fs.rename(old, new)


def writing(fs, path, data):
    """Write `data` (bytes, or text) to path + ".tmp", then rename it over `path`: two steps, yielding
    between them so a loop can take one a pass. On a filesystem that commits a file at its close
    (`fs.atomic`), over a file that is there: one step, in place. Raises OSError if the flash fails."""
    if getattr(fs, "atomic", False) and fs.exists(path):
        # Not a file's first write: LittleFS commits a file it creates at its open, empty, and boot
        # would find that; a temporary file is swept instead (startup.sweep).
        _write(fs, path, data)
        return
    temp = path + ".tmp"
    _write(fs, temp, data)
    yield
    _rename_over(fs, temp, path)


def _write(fs, path, data):
    f = fs.open(path, "w" if isinstance(data, str) else "wb")
    try:
        f.write(data)
    finally:
        f.close()


def replace(fs, path, data):
    """`writing`, all at once."""
    for _ in writing(fs, path, data):
        pass
