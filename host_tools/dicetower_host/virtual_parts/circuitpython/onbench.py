"""A CircuitPython board on the bench: the firmware's own CircuitPython parts over these virtual modules."""

import devices

from dicetower.hw.circuitpy import Parts
from dicetower.hw.storage import OsFiles

READ_ONLY = 30  # EROFS, what CircuitPython raises when code writes a drive it was not given


class DriveFiles(OsFiles):
    """The CIRCUITPY drive as code sees it: read-only until boot.py remounts it (storage.remount)."""

    def _writable(self):
        if not devices.BENCH.drive_writable:
            raise OSError(READ_ONLY, "Read-only filesystem")

    def open(self, path, mode):
        if "w" in mode or "a" in mode or "+" in mode:
            self._writable()
        return OsFiles.open(self, path, mode)

    def rename(self, old, new):
        self._writable()
        OsFiles.rename(self, old, new)

    def remove(self, path):
        self._writable()
        OsFiles.remove(self, path)


class Platform(devices.OnBench, Parts):
    def __init__(self, bench, root, dice=None):
        devices.OnBench.__init__(self, bench, root, dice)
        Parts.__init__(self, bench.machine_name)
        self.files = DriveFiles()
