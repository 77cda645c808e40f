"""The saved game on flash, written after every action so that unplugging loses nothing.

A save is written to a temporary file, then renamed over the old one
(hw/storage.writing), so a power cut leaves either the old save or the new
one. A file that will not load (damaged, or from a newer firmware) is
renamed aside, never deleted, and the caller is told why. If saving fails
(flash full, read-only), the caller keeps the game in memory.

The filesystem is injected (`fs`: open, rename, remove, exists) so tests can
cut the power at any byte; by default it is the device's own.
"""

from dicetower.core.store import SaveError, decode, encode
from dicetower.hw.storage import OsFiles, writing


class SaveStore:
    def __init__(self, path="/game.sav", fs=None):
        self.path = path
        self.temp = path + ".tmp"  # what hw/storage.writing writes first
        self.fs = fs or OsFiles()

    def save(self, game):
        """Write the game; returns the bytes written. Raises OSError if flash fails."""
        for written in self.saving(game):
            pass
        return written

    def saving(self, game):
        """`save` in three steps, for the device's loop to take one a pass (each a few ms on a Pico):
        the game's bytes, the temporary file, the rename over the old save. Yields None after each
        of the first two, then the bytes written."""
        data = encode(game)
        yield None
        for step in writing(self.fs, self.path, data):
            yield step
        yield len(data)

    def _read(self, path):
        f = self.fs.open(path, "rb")
        try:
            return f.read()
        finally:
            f.close()

    def load(self):
        """(game or None, message or None). A bad file is moved aside with a message."""
        if self.fs.exists(self.temp):
            if not self.fs.exists(self.path):
                # The power went between removing the old save and renaming the
                # new one (FAT): the complete new save is the game.
                try:
                    game = decode(self._read(self.temp))
                    self.fs.rename(self.temp, self.path)
                    return game, None
                except SaveError:
                    pass
            self.fs.remove(self.temp)  # a save the power cut short: the old one stands
        if not self.fs.exists(self.path):
            return None, None
        data = self._read(self.path)
        try:
            return decode(data), None
        except SaveError as e:
            aside = self._aside()
            self.fs.rename(self.path, aside)
            return None, "The saved game could not be loaded (%s); it is kept as %s." % (e, aside)

    def _aside(self):
        n = 1
        while self.fs.exists("%s.bad%d" % (self.path, n)):
            n += 1
        return "%s.bad%d" % (self.path, n)
