"""A stand-in flash filesystem that can lose power at any byte (CPython and the VM)."""


class PowerCut(Exception):
    pass


class _Writer:
    def __init__(self, flash, path):
        self.flash = flash
        self.path = path

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        for byte in data:
            self.flash.spend()
            self.flash.files[self.path].append(byte)
        return len(data)

    def close(self):
        pass


class _Reader:
    def __init__(self, data):
        self.data = data

    def read(self, n=-1):
        return self.data if n < 0 else self.data[:n]

    def close(self):
        pass


class Flash:
    """Files in memory. `cut_after(n)`: the n+1-th byte written (or the rename
    after n bytes) loses the power, leaving what was written so far."""

    def __init__(self, files=None):
        self.files = {}
        for path, data in (files or {}).items():
            self.files[path] = bytearray(data)
        self.budget = None
        self.written = 0
        self.full_at = None
        self.renames_left = None

    def copy(self):
        return Flash(self.files)

    def cut_after(self, n):
        self.budget = n
        self.written = 0

    def spend(self):
        if self.budget is not None and self.written >= self.budget:
            raise PowerCut()
        if self.full_at is not None and self.written >= self.full_at:
            raise OSError(28)  # ENOSPC
        self.written += 1

    def open(self, path, mode):
        if "r" in mode:
            if path not in self.files:
                raise OSError(2)
            return _Reader(bytes(self.files[path]))
        if "a" not in mode or path not in self.files:
            self.files[path] = bytearray()
        return _Writer(self, path)

    def size(self, path):
        if path not in self.files:
            raise OSError(2)
        return len(self.files[path])

    def rename(self, old, new):
        if self.renames_left is not None:  # the power goes after that many renames
            if self.renames_left == 0:
                raise PowerCut()
            self.renames_left -= 1
        elif self.budget is not None and self.written >= self.budget:
            raise PowerCut()
        if old not in self.files:
            raise OSError(2)
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        del self.files[path]

    def exists(self, path):
        return path in self.files


class FatFlash(Flash):
    """Like FAT: a rename onto an existing file fails, so the store removes it first."""

    def copy(self):
        return FatFlash(self.files)

    def rename(self, old, new):
        if new in self.files:
            raise OSError(17)  # EEXIST
        Flash.rename(self, old, new)

    def remove(self, path):
        if self.budget is not None and self.written >= self.budget:
            raise PowerCut()
        Flash.remove(self, path)


class _Commit:
    """A file LittleFS writes: its bytes go where the old ones are not, and the file is them only once its
    close commits them (a cut before leaves the old file, or, for a new one, the empty file its open made)."""

    def __init__(self, flash, path):
        self.flash = flash
        self.path = path
        self.data = bytearray()
        self.erred = False  # a write failed (flash full): LittleFS's close then commits nothing

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        for byte in data:
            try:
                self.flash.spend()
            except OSError:
                self.erred = True
                raise
            self.data.append(byte)
        return len(data)

    def close(self):
        if self.erred:
            return
        self.flash.spend()  # the commit: one more write, which a cut can take
        self.flash.files[self.path] = self.data


class LfsFlash(Flash):
    """Like LittleFS (a Pico's): a file written keeps its old content until its close commits the new,
    whole (`atomic`); a file that was not there is made, empty, at its open."""

    atomic = True

    def copy(self):
        return LfsFlash(self.files)

    def open(self, path, mode):
        if "r" in mode or "a" in mode:
            return Flash.open(self, path, mode)
        if path not in self.files:
            self.files[path] = bytearray()
        return _Commit(self, path)
