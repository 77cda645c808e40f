"""The saved game on flash: write to a temporary file, then rename over the old one.

On the Pico's LittleFS a rename is atomic, so a power cut leaves either the
old save or the new one, never half of one. A file that will not load
(damaged, or from a newer firmware) is renamed aside, never deleted, and
the caller is told why. If saving fails (flash full, read-only), the game
goes on in memory and `Autosave.error` says that saves are off.

The filesystem is injected (`fs`: open, rename, remove, stat) so tests can
cut the power at any byte; by default it is the device's own.
"""

from dicetower.core.store import SaveError, decode, encode


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


class SaveStore:
    def __init__(self, path="/game.sav", fs=None):
        self.path = path
        self.temp = path + ".tmp"
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
        f = self.fs.open(self.temp, "wb")
        try:
            f.write(data)
        finally:
            f.close()
        yield None
        try:
            self.fs.rename(self.temp, self.path)
        except OSError:
            # FAT cannot rename over a file; LittleFS (the Pico's) can.
            self.fs.remove(self.path)
            self.fs.rename(self.temp, self.path)
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


class Autosave:
    """A game that saves itself after every committed action, undo and redo."""

    def __init__(self, game, store):
        self.game = game
        self.store = store
        self.error = None
        self.written = 0

    def _save(self):
        try:
            self.written += self.store.save(self.game)
            self.error = None
        except OSError as e:
            self.error = "Saves are off (%s); the game goes on in memory." % e

    def do(self, name, *args):
        line = self.game.do(name, *args)
        self._save()
        return line

    def undo(self):
        line = self.game.undo()
        self._save()
        return line

    def redo(self):
        line = self.game.redo()
        self._save()
        return line
