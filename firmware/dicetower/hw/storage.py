"""Files on the device's flash, written so that a power cut keeps a whole one.

`writing(fs, path, data)` writes to a temporary file, then renames it over the
old one. On the Pico's LittleFS a rename is atomic, so a power cut leaves
either the old file or the new one, never half of one. The filesystem is
injected (`fs`: open, rename, remove, exists; `OsFiles` is the device's own)
so tests can cut the power at any byte.
"""


class OsFiles:
    """The real filesystem: MicroPython's (LittleFS on a Pico) or the host's."""

    def __init__(self):
        import os
        self._os = os

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


def writing(fs, path, data):
    """Write `data` (bytes, or text) to path + ".tmp", then rename it over `path`: two steps, yielding
    between them so a loop can take one a pass. Raises OSError if the flash fails."""
    temp = path + ".tmp"
    f = fs.open(temp, "w" if isinstance(data, str) else "wb")
    try:
        f.write(data)
    finally:
        f.close()
    yield
    try:
        fs.rename(temp, path)
    except OSError:
        # FAT cannot rename over a file; LittleFS (the Pico's) can.
        fs.remove(path)
        fs.rename(temp, path)


def replace(fs, path, data):
    """`writing`, all at once."""
    for _ in writing(fs, path, data):
        pass
