"""`dicetower flash --runtime circuitpython`: the firmware onto a board's CIRCUITPY drive.

What it does, in order, and why:
1. Finds the drive: a mounted volume named CIRCUITPY, or `--drive PATH`. It
   must hold boot_out.txt, which CircuitPython writes at every start; its
   first line names the version and the board ("Adafruit CircuitPython 9.2.1
   on 2024-11-20; Raspberry Pi Pico with rp2040").
2. Gathers the files: code.py (the firmware's main.py: CircuitPython boots
   code.py), boot.py (who may write the drive, see firmware/boot.py), the
   dicetower package, the board profile, and Adafruit's neopixel and
   adafruit_pixelbuf in lib/, all as source. CircuitPython loads only .mpy
   files from its own mpy-cross, whose format is not MicroPython's; that
   mpy-cross is not on PyPI (circuitpython-build-tools downloads it from
   Adafruit's servers or builds it from a git clone, and circup downloads
   the library bundle from GitHub), so the flash copies the pinned libraries
   that tasks.py installed from PyPI, as .py: reproducible offline, at the
   cost of more room on the drive and of compiling at import on the board.
3. Plans with flash.Plan: copy what differs (SHA-256 of the files on the
   drive), remove firmware files no longer shipped, keep everything else
   (game.sav, config.json's other settings, heroes.json, other libraries).
   A code.py or boot.py that is not dicetower's is kept as NAME.bak.
4. Checks that the drive takes writes (CircuitPython gives it to either the
   computer or the code: a read-only drive is one the tower's boot.py gave to
   the game) and has room, before writing anything.
5. Marks the manifest incomplete, copies code.py first, then the rest, and
   writes the manifest last. CircuitPython restarts code.py when its files
   change; until the manifest is complete that start says "reflash needed".
"""

import errno
import hashlib
import os
import shutil
import sys

from dicetower_host import paths
from dicetower_host.flash.board import choose_profile, profiles
from dicetower_host.flash.build import sources
from dicetower_host.flash.connection import read_text
from dicetower_host.flash.messages import FlashError, cut_short, interrupted
from dicetower_host.flash.plan import MANIFEST, PACKAGE, Plan, as_object, listed
from dicetower_host.flash.transfer import _write

LABEL = "CIRCUITPY"
BOOT_OUT = "boot_out.txt"
ENTRY = "code.py"
SECTOR = 512  # CIRCUITPY is FAT with 512-byte clusters on a 2 MB Pico; room is counted in those
MIN_VERSION = (8, 0)
FIRMWARE = paths.FIRMWARE
READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)
HOLD_HINT = (
    "Unplug the tower, hold C while plugging it back in (the drive then stays the computer's), "
    "and run dicetower flash --runtime circuitpython again"
)


# -- finding the drive ---------------------------------------------------------


def mount_points():
    """Mounted volumes: (path) for each, from /proc/mounts, /Volumes or Windows' drive letters."""
    found = []
    try:
        with open("/proc/mounts") as f:
            for line in f:
                parts = line.split()
                if len(parts) > 1:
                    found.append(parts[1].replace("\\040", " "))
    except OSError:
        pass
    if os.path.isdir("/Volumes"):
        found += [os.path.join("/Volumes", n) for n in sorted(os.listdir("/Volumes"))]
    if os.name == "nt":
        found += _windows_volumes()
    return found


def _windows_volumes():
    """Drive letters whose volume label is CIRCUITPY, as paths named after the label."""
    import ctypes
    import string

    out = []
    for letter in string.ascii_uppercase:
        root = "%s:\\" % letter
        label = ctypes.create_unicode_buffer(64)
        if ctypes.windll.kernel32.GetVolumeInformationW(root, label, 64, None, None, None, None, 0):
            if label.value.upper().startswith(LABEL):
                out.append(root)
    return out


def find_drive(mounts=None):
    """The one CIRCUITPY drive's path; FlashError when there is none or several."""
    mounts = mount_points() if mounts is None else mounts
    drives = [
        m
        for m in mounts
        if os.path.basename(m.rstrip("/\\")).upper().startswith(LABEL) or (os.name == "nt" and len(m) <= 3)
    ]
    if len(drives) == 1:
        return drives[0]
    if not drives:
        raise FlashError(
            "no CIRCUITPY drive found. Plug the board in with a data USB cable; if CircuitPython is "
            "not on it yet, hold BOOTSEL and copy the .uf2 from circuitpython.org first; if the drive "
            "is mounted under another name, give --drive PATH"
        )
    raise FlashError("several CIRCUITPY drives are mounted (%s); choose one with --drive" % ", ".join(drives))


class CircuitPythonBoard:
    """What boot_out.txt says about the board."""

    def __init__(self, drive):
        try:
            with open(os.path.join(drive, BOOT_OUT), errors="replace") as f:
                first = f.readline().strip()
        except OSError:
            raise FlashError(
                "%s has no %s, so it is not a CIRCUITPY drive (CircuitPython writes that file at "
                "every start); give the drive's path with --drive" % (drive, BOOT_OUT)
            )
        # "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040"
        head, _, machine = first.partition("; ")
        words = head.split()
        if "CircuitPython" not in words or words.index("CircuitPython") + 1 >= len(words):
            raise FlashError("%s's %s does not name CircuitPython: %r" % (drive, BOOT_OUT, first))
        self.version_text = words[words.index("CircuitPython") + 1]
        self.version = tuple(int(n) for n in _leading_numbers(self.version_text))
        from dicetower.hw.circuitpy import machine_name

        self.machine = machine_name(machine)

    def describe(self):
        return "CircuitPython %s on %s" % (self.version_text, self.machine or "an unnamed board")


def _leading_numbers(text):
    for part in text.split("-")[0].split(".")[:3]:
        if not part.isdigit():
            break
        yield part


# -- what goes onto it ---------------------------------------------------------


def library_files(folder=None):
    """{lib/NAME.py: bytes} for every pinned Adafruit library (pyproject.toml's [tool.dicetower])."""
    import tomllib

    folder = folder or paths.CIRCUITPY_LIB
    with open(paths.PYPROJECT, "rb") as f:
        wanted = tomllib.load(f)["tool"]["dicetower"]["circuitpython-libraries"]
    files = {}
    for requirement in wanted:
        name, version = requirement.split("==")
        info = os.path.join(folder, "%s-%s.dist-info" % (name.replace("-", "_"), version))
        try:
            with open(os.path.join(info, "RECORD")) as f:
                modules = [
                    line.split(",")[0]
                    for line in f
                    if line.split(",")[0].endswith(".py") and "/" not in line.split(",")[0]
                ]
        except OSError:
            raise FlashError(
                "the CircuitPython library %s is not installed on this computer (looked in %s); "
                "run python3 tasks.py test once, or: pip install --no-deps --target %s %s"
                % (requirement, folder, folder, requirement)
            )
        for module in modules:
            with open(os.path.join(folder, module), "rb") as f:
                files["lib/" + module] = f.read()
    return files


def firmware_files(profile, source=None):
    """{drive path: bytes}: code.py, boot.py, the package as source, the profile, the libraries."""
    files = sources(source or FIRMWARE, "circuitpython", profiles()[profile])
    files = dict([(ENTRY, files.pop("main.py"))] + list(files.items()))  # code.py first, as before
    with open(paths.board_profile(profile), "rb") as f:
        files["boards/%s.json" % profile] = f.read()
    files.update(library_files())
    return files


# -- the drive, with the calls flash._write makes on a board ---------------------


class Drive:
    """A CIRCUITPY drive as a folder, answering flash._write's fs_* calls."""

    def __init__(self, path):
        self.path = path

    def _at(self, rel):
        return os.path.join(self.path, *rel.split("/"))

    def free(self):
        return shutil.disk_usage(self.path).free

    def fs_readfile(self, rel):
        with open(self._at(rel), "rb") as f:
            return f.read()

    def fs_writefile(self, rel, data, progress_callback=None):
        with open(self._at(rel), "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())  # on the board before the next file: a pulled cable loses at most this one
        if progress_callback:
            progress_callback(len(data), len(data))

    def fs_mkdir(self, rel):
        os.mkdir(self._at(rel))

    def fs_rmfile(self, rel):
        os.remove(self._at(rel))

    def fs_rmdir(self, rel):
        os.rmdir(self._at(rel))

    def replace(self, old, new):
        os.replace(self._at(old), self._at(new))

    def digest(self, rel):
        try:
            return hashlib.sha256(self.fs_readfile(rel)).hexdigest()
        except OSError:
            return None

    def tree(self, folder):
        """Paths under `folder`, folders ending in "/", as board_side/hashes.py lists them on a board."""
        out = []
        top = self._at(folder)
        for here, dirs, names in os.walk(top):
            dirs.sort()
            rel = os.path.relpath(here, self.path).replace(os.sep, "/")
            out += [rel + "/" + d + "/" for d in dirs]
            out += [rel + "/" + n for n in sorted(names)]
        return out


def _read_only(error):
    return isinstance(error, OSError) and getattr(error, "errno", None) in READ_ONLY


def flash(drive_path=None, board=None, dry_run=False, out=sys.stdout, progress=None, drive=None, mounts=None):
    """Flash the firmware onto a CIRCUITPY drive; returns what was sent. FlashError says what went wrong."""
    drive = drive or Drive(drive_path or find_drive(mounts))
    if not os.path.isdir(drive.path):
        raise FlashError("%s is not a folder; give the CIRCUITPY drive's path with --drive" % drive.path)
    found = CircuitPythonBoard(drive.path)
    if found.version < MIN_VERSION:
        raise FlashError(
            "%s is too old: dicetower needs CircuitPython %s or newer. Update it from circuitpython.org"
            % (found.describe(), ".".join(map(str, MIN_VERSION)))
        )
    config_text = read_text(drive, "config.json")
    name = choose_profile(board, as_object(config_text), found.machine, profiles())
    files = firmware_files(name)
    old = as_object(read_text(drive, MANIFEST))
    old_files = listed(old)
    remote = {p: drive.digest(p) for p in sorted(set(files) | set(old_files))}
    plan = Plan(files, remote, drive.tree(PACKAGE), old, config_text, name, entry=ENTRY, block=SECTOR)
    # A code.py or boot.py the player wrote is not dicetower's: it is kept beside ours.
    keep = [p for p in (ENTRY, "boot.py") if p in plan.copy and remote.get(p) is not None and p not in old_files]
    out.write("%s on %s; the firmware as source (see docs/circuitpython.md)\n" % (found.describe(), drive.path))
    if dry_run:
        lines = [plan.describe()] + ["keep   %s as %s.bak (not dicetower's)" % (p, p) for p in keep]
        out.write("\n".join(lines) + "\n(dry run: nothing written)\n")
        return {"plan": plan, "files": 0, "bytes": 0}
    _check_writable(drive)
    needed = plan.space_needed() + sum(len(drive.fs_readfile(p)) for p in keep)
    free = drive.free()
    if needed > free:
        raise FlashError(
            "the CIRCUITPY drive is full: %d KB free, this flash needs %d KB. Nothing was changed. "
            "Remove files you do not need from the drive and run dicetower flash again"
            % (free // 1024, (needed + 1023) // 1024)
        )
    sent = {"files": 0, "bytes": 0}
    try:
        for p in keep:
            drive.fs_writefile(p + ".bak", drive.fs_readfile(p))
        if plan.changes() or not plan.vouched:
            _write(drive, plan, sent, progress, replace=lambda d, old_path, new_path: d.replace(old_path, new_path))
    except (OSError, KeyboardInterrupt) as e:
        if _read_only(e):
            what = "the drive became read-only (%s). %s" % (e, HOLD_HINT)
        elif getattr(e, "errno", None) == errno.ENOSPC:
            what = "the CIRCUITPY drive filled up"
        else:
            what = interrupted(e)
        raise cut_short(what, sent, plan)
    out.write(plan.summary(sent) + "".join("; your %s is kept as %s.bak" % (p, p) for p in keep) + "\n")
    if "boot.py" in plan.copy:
        out.write(
            "boot.py changed: unplug the tower and plug it in again for saves to work "
            "(CircuitPython runs boot.py only at power-up)\n"
        )
    sent.update(plan=plan)
    return sent


def _check_writable(drive):
    """Write and remove a small file: a drive the code holds refuses it, and nothing else is touched."""
    probe = ".dicetower-probe"
    try:
        drive.fs_writefile(probe, b"")
        drive.fs_rmfile(probe)
    except OSError as e:
        if _read_only(e):
            raise FlashError(
                "the CIRCUITPY drive is read-only to this computer (%s): the tower's boot.py gave it "
                "to the game so that it can save. Nothing was changed. %s" % (e, HOLD_HINT)
            )
        raise FlashError("cannot write to %s (%s); nothing was changed" % (drive.path, e))
