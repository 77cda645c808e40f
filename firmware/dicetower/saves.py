"""The saved game on flash, written after every action so that unplugging loses nothing.

A save is written to a temporary file, then renamed over the old one, or on
LittleFS written over it in place, which LittleFS commits only at its close
(hw/storage.writing): a power cut leaves either the old save or the new one.
A file is measured before it is read (a save is at most store.LARGEST bytes).
A file that will not load is renamed aside, never
deleted (hw/storage.keep_aside), and the caller is told why and under which
name: a damaged one as game.sav.bad1..., one from a newer firmware as
game.sav.newer1... (the start menu offers it again once the firmware can read
it). A new game keeps the game it replaces as game.sav.old1... (the last
three), and the start menu can bring it back. If saving fails (flash full,
read-only), the caller keeps the game in memory.

The App talks to a SaveStore as its `saves`: `save(game)` after each action marks the game, and the
device's loop writes it in steps (`step`, one a pass, once the press has been answered on the OLED).
What goes wrong is said in words: a save that fails turns saves off for the game (step returns what
to tell the players), and what the store did on its own (a damaged save kept aside, a kept game that
could not come back) goes to `log`, the device's console and errors.log.

The filesystem is injected (`fs`: open, rename, remove, exists, size, atomic) so
tests can cut the power at any byte; by default it is the device's own.
"""

from dicetower.core.scope import Scope
from dicetower.core.savefile import LARGEST, NewerSave, SaveError, encoding
from dicetower.hw.storage import OsFiles, TooBig, keep_aside, kept, read_at_most, take_out, writing

READER = "dicetower.core.save_reader"  # loaded to read a save, forgotten once read: not a game's heap
DAMAGED = "bad"
NEWER = "newer"
REPLACED = "old"
BACKUPS = 3  # replaced games kept


READ_ONLY = 30  # EROFS: CircuitPython's drive while the computer has it (see firmware/boot.py)


def why(error):
    """An OSError in a player's words where it is a common one."""
    if error.args and error.args[0] == READ_ONLY:
        return "the drive is read-only"
    return str(error)


class SaveStore:
    def __init__(self, path="/game.sav", fs=None, log=None):
        self.path = path
        self.temp = path + ".tmp"  # what hw/storage.writing writes first
        self.swap = path + ".swap"  # a kept game on its way back (bring_back)
        self.fs = fs or OsFiles()
        self.log = log  # log(text, lasting): the console, and errors.log too if lasting
        self.say = None  # say(text): the players told on the screen (the App's say, once it is made)
        self.kept = None  # (file name, game kind) the start menu can bring back: see find_kept
        self._unsaved = None  # a game an action changed, to write in the loop's passes (see save)
        self._saving = None  # a save under way: `saving`'s steps
        self._reading = None  # while a save is read: the scope (core/scope.py) its reader and game load into

    # -- the App's: after each action, and at the start menu ---------------------

    def save(self, game):
        """The App's call after each action: the game is written in the loop's passes (step), once the
        press has been answered on the OLED, so the write delays neither the screen nor a poll."""
        self._unsaved = game

    def pending(self):
        """True while a game waits to be written or is being written."""
        return self._saving is not None or self._unsaved is not None

    def step(self):
        """One step of writing the game the last action left (the newest, if several came). If saving
        fails, saves are off for this game, which goes on, and the players are told (`say`), whichever
        call was writing: the loop's step, or a flush before the files change names."""
        if self._saving is None:
            self._saving = self.saving(self._unsaved)
            self._unsaved = None
        try:
            if next(self._saving) is not None:
                self._saving = None
        except OSError as e:
            self._saving = None  # said on screen, not tried again every pass
            if self.say is not None:
                self.say("Saves are off (%s); the game goes on." % why(e))
        except BaseException:
            self._saving = None
            raise

    def flush(self):
        """Write the save under way now (the files are about to change names, or the heap ran out)."""
        while self.pending():
            self.step()

    def drop(self, begun=True):
        """Forget the save waiting and (`begun`) the one under way: the last one on flash stands. Not
        `begun`: a save whose bytes are made goes on (the game it writes was shown whole)."""
        self._unsaved = None
        if begun:
            self._saving = None

    def resume(self, scope=None):
        """(game or None, message or None) for the App at power-up: `load`, a drive that cannot be read
        said in words (a read-only drive cannot tidy a save cut short: play on without it)."""
        try:
            game, message = self.load(scope)
        except OSError as e:
            game, message = None, "The saved game could not be read (%s); a new one starts." % why(e)
        if message:
            self._log(message, True)
        return game, message

    def kept_kind(self):
        """The kind of game the start menu can bring back (find_kept), or None."""
        return self.kept[1] if self.kept else None

    def _log(self, text, lasting=False):
        if self.log is not None:
            self.log(text, lasting)

    # -- the file's steps ----------------------------------------------------------

    def write(self, game):
        """Write the game now; returns the bytes written. Raises OSError if flash fails."""
        for written in self.saving(game):  # noqa: B007 (the last is the answer)
            pass
        return written

    def saving(self, game):
        """`save` in steps, for the device's loop to take one a pass (each a few ms on a Pico): the
        game's bytes in three pieces (savefile.encoding), the temporary file, the rename over the old
        save (on LittleFS, over a save there: the file written in place, one step). Yields None after
        each, then the bytes written."""
        pieces = encoding(game)
        data = None
        while data is None:
            data = next(pieces)
            yield None
        for step in writing(self.fs, self.path, data):
            yield step
        yield len(data)

    def _decode(self, path):
        """The game in a file, or SaveError: measured before it is read, then decoded."""
        try:
            return self._reading.run(self._reader().decode, read_at_most(self.fs, path, LARGEST))
        except TooBig as e:
            raise SaveError(str(e))

    def _name(self, path):
        return path.rsplit("/", 1)[-1]  # as a file manager or `mpremote ls` shows it

    def load(self, scope=None):
        """(game or None, message or None). A file that will not load is kept aside, with a message
        that gives the reason and the name it is kept under. `scope` (core/scope.py) holds what reading
        the game loaded (its tracker): the App's game scope takes it."""
        return self._read(scope, self._load)

    def _read(self, scope, method, *args):
        """method(*args) with the save's reader loaded, and forgotten after: a game's heap never holds it."""
        if self._reading is not None:
            return method(*args)  # within a read already: its scope holds what this one loads
        self._reading = scope if scope is not None else Scope("save")
        try:
            return method(*args)
        finally:
            self._reading.drop(READER)
            self._reading = None

    def _reader(self):
        return self._reading.load(READER)

    def _load(self):
        if self.fs.exists(self.temp):
            if not self.fs.exists(self.path):
                # The power went between removing the old save and renaming the
                # new one (FAT): the complete new save is the game.
                try:
                    game = self._decode(self.temp)
                    self.fs.rename(self.temp, self.path)
                    self._find_kept()
                    return game, game.note
                except SaveError as e:
                    if self.fs.size(self.temp):  # the only save there is, damaged: kept, and said
                        from dicetower.startup import cut_short  # boot's, as this is

                        said = cut_short(self.fs, self.temp) or "The last save could not be loaded: %s" % e
                        aside = keep_aside(self.fs, self.path, DAMAGED, source=self.temp)
                        self._find_kept()
                        return None, "%s. It is kept as %s." % (said, self._name(aside))
            self.fs.remove(self.temp)  # a save the power cut short (the old one stands), or an empty one
        if self.fs.exists(self.swap):
            if self.fs.exists(self.path):  # the power went before the saved game took the kept one's name
                keep_aside(self.fs, self.path, REPLACED, source=self.swap)
            else:  # ... or after: the kept game was on its way back
                self.fs.rename(self.swap, self.path)
        game, message = None, None
        notes = []
        if self.fs.exists(self.path):
            try:
                game = self._decode(self.path)
                message = game.note
            except NewerSave as e:
                aside = keep_aside(self.fs, self.path, NEWER)
                message = "The saved game was %s. It is kept as %s; a firmware that reads it offers it again." % (
                    e,
                    self._name(aside),
                )
            except SaveError as e:
                aside = keep_aside(self.fs, self.path, DAMAGED)
                message = "The saved game could not be loaded: %s. It is kept as %s." % (e, self._name(aside))
            except MemoryError:  # the save may be sound: left where it is, for a boot with more room
                message = "The saved game could not be loaded: not enough memory. It is kept as it is."
        self._find_kept(notes)
        if notes:
            message = " ".join(([message] if message else []) + notes)
        return game, message

    def find_kept(self, notes=None):
        """`_find_kept`, the reader forgotten after."""
        return self._read(None, self._find_kept, notes)

    def _find_kept(self, notes=None):
        """The game the start menu can bring back: the newest kept from a newer firmware that this one
        now reads, else the newest one a new game replaced. Sets and returns `kept`, (its file, its
        kind), or None; the game itself is not kept in memory (the Pico's heap) but read again, and
        replayed only when it is brought back. With `notes` (a list: at power-up) each candidate is
        replayed and checked first, as a game to resume is, and one that fails is set aside as damaged
        with its reason added to `notes`: only a game that can be brought back is offered."""
        self.kept = None
        for tag in (NEWER, REPLACED):
            for name in kept(self.fs, self.path, tag):
                try:
                    data = read_at_most(self.fs, name, LARGEST)
                    kind = self._reader().kind_of(data)  # its kind only, unless checked: replaying
                    # imports its game's modules
                    if notes is not None:
                        self._check(data)
                    self.kept = (name, kind)
                    return self.kept
                except (NewerSave, MemoryError):
                    continue  # one for a firmware that reads it, or no room to check it now: left as it is
                except SaveError as e:
                    if notes is not None:
                        aside = take_out(self.fs, name, self.path, tag, DAMAGED)
                        notes.append(
                            "The kept game %s could not be brought back: %s. It is kept as %s."
                            % (self._name(name), e, self._name(aside))
                        )
                        return self._find_kept(notes)  # the names moved down: look again
                except (TooBig, OSError):
                    continue
        return None

    def _check(self, data):
        """Replay a kept game, as a game to resume is checked (SaveError if it fails), then forget what
        that imported: the kept game may be of another kind than the one played, whose heap it is."""
        checking = Scope("kept game")
        try:
            checking.run(self._reader().decode, data)
        finally:
            checking.close()

    def keep_replaced(self):
        """Before a new game's first save: the saved game is kept aside (the last BACKUPS of them), for
        the start menu to bring back. A flash that refuses is logged: the new game goes on."""
        self.flush()
        try:
            if self.fs.exists(self.path):
                keep_aside(self.fs, self.path, REPLACED, BACKUPS)
                self.find_kept()
        except OSError as e:
            self._log("the replaced game could not be kept (%s)" % why(e))

    def bring_back(self, scope=None):
        """The kept game, back as the saved one; the game saved until now takes its name (so the
        start menu offers it in turn). Three renames, each whole: see `load` for a power cut between.
        None if it cannot come back (changed or removed over USB since the start menu offered it).
        `scope` holds what reading it loaded (the App gives the scope of the kept game's kind)."""
        self.flush()
        try:
            return self._read(scope, self._bring_back)
        except (SaveError, OSError) as e:
            self._log("the kept game could not be brought back (%s)" % e)
            self.find_kept()
            return None

    def _bring_back(self):
        name = self.kept[0]
        game = self._decode(name)
        if not self.fs.exists(self.path):
            self.fs.rename(name, self.path)
        elif name.startswith(self.path + "." + REPLACED):
            self.fs.rename(name, self.swap)
            self.fs.rename(self.path, name)
            self.fs.rename(self.swap, self.path)
        else:  # one from a newer firmware: the game saved until now joins the replaced ones
            keep_aside(self.fs, self.path, REPLACED, BACKUPS)
            self.fs.rename(name, self.path)
        self._find_kept()
        return game
