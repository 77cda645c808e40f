"""The plan of a flash, worked out before anything is written: what to copy, in which order, what to
keep and remove, the room it takes; and the manifest the board checks at boot."""

import ast
import hashlib
import json
import os

from dicetower_host import paths

MANIFEST = "dicetower.manifest"
PACKAGE = "dicetower"
LAUNCH = "dicetower/launch"  # what main.py calls: the check at boot, the notice, the device's boot


BLOCK = 4096  # LittleFS on rp2 allocates whole 4 KB blocks


def digest(data):
    return hashlib.sha256(data).hexdigest()


class Plan:
    """What a flash will change on the board, worked out before anything is written."""

    def __init__(
        self, files, remote, tree, old_manifest, config_text, profile, entry="main.py", block=BLOCK, sizes=None
    ):
        """`entry`: the file the runtime boots, copied first; `block`: the filesystem's allocation unit;
        `sizes`: the board's own files' sizes (else the new files' sizes stand in for them)."""
        old_files = listed(old_manifest)
        self.files = files
        self.profile = profile
        # A profile changed on the board since the last flash is the maker's: kept, and said so.
        self.kept = sorted(
            p
            for p in files
            if is_data(p)
            and remote.get(p) not in (None, digest(files[p]))
            and p in old_files
            and remote.get(p) != old_files[p]
        )
        self.entry = entry
        boot = boot_needs()
        has_entry = remote.get(entry) is not None

        def rank(p):
            """The order of the copy (see transfer.py's docstring): on a board that has a main.py, the launch
            main.py calls, then main.py (an older main.py would run half-new code, or could not draw the
            notice; a new one imports the launch), the profile (it names the OLED's pins), the notice's
            modules, main.py on an empty board (before it, the board boots to its prompt as before), the
            rest."""
            if p == entry:
                return 1 if has_entry else 4
            if p.rsplit(".", 1)[0] == LAUNCH:
                return 0 if has_entry else 3
            return 2 if is_data(p) else 3 if p.rsplit(".", 1)[0] in boot else 5

        self.copy = sorted(
            (p for p in files if remote.get(p) != digest(files[p]) and p not in self.kept), key=lambda p: (rank(p), p)
        )
        # Written whole, to a temporary name and renamed: what the board needs to say "reflash needed".
        self.whole = {p for p in self.copy if rank(p) < 5}
        self.first = [p for p in self.copy if rank(p) < 2]  # written before the manifest is marked incomplete
        # Boots under a checked manifest hash nothing: a new launch (or main.py) under it would not be found
        # unlisted, and the old release would run with it. The mark goes first, when these are to change.
        self.unmark = None
        if self.first and old_manifest.get("checked") is True:
            self.unmark = {k: v for k, v in old_manifest.items() if k != "checked"}
        self.old_complete = old_manifest.get("complete") is True
        self.had_manifest = bool(old_manifest)
        # An old release whose manifest lists the launch has a main.py that calls it; an older one's main.py
        # holds the check itself and never loads a launch it does not list.
        self.old_thin = any(p.rsplit(".", 1)[0] == LAUNCH for p in old_files)
        # The files a cut may leave as they were, whole because the last manifest vouched for them: the
        # board's check accepts them mid-flash (in place of the new ones) for drawing the notice.
        vouched = set()
        for key in ("files", "was"):
            if isinstance(old_manifest.get(key), dict):
                vouched.update((p, d) for p, d in old_manifest[key].items() if isinstance(d, str))
        self.was = {
            p: remote[p]
            for p in sorted(files)
            if not is_data(p)
            and remote.get(p) is not None
            and remote[p] != digest(files[p])
            and (p, remote[p]) in vouched
        }
        self.same = [p for p in sorted(files) if p not in self.copy and p not in self.kept]
        shipped = set(files)
        # What an earlier flash put there and nobody changed since; a changed file is someone's.
        stale = {p for p in old_files if p not in shipped and remote.get(p) == old_files[p]}
        # Inside the package folder every file is the firmware's: an old .py would shadow its .mpy.
        stale.update(p for p in tree if not p.endswith("/") and p.startswith(PACKAGE + "/") and p not in shipped)
        # A cut mid-write leaves X.tmp beside X: a file this flash writes whole takes it over (written
        # again, then renamed into place), so it is not there to remove afterwards.
        self.remove = sorted(stale - {p + ".tmp" for p in self.whole})
        needed = {p.rsplit("/", 1)[0] for p in files if "/" in p}
        self.dirs = sorted({d for p in needed for d in _parents(p)} - {t[:-1] for t in tree})
        self.rmdirs = sorted(
            (
                t[:-1]
                for t in tree
                if t.endswith("/") and t[:-1] not in needed and not any(n.startswith(t) for n in needed)
            ),
            key=len,
            reverse=True,
        )
        self.config = _merged_config(config_text, profile)
        self.remote = remote
        self.sizes = sizes
        self.block = block
        # The manifest on the board already vouches for exactly these files.
        self.vouched = old_manifest.get("complete") is True and old_files == {p: digest(d) for p, d in files.items()}

    def manifest(self, complete, checked=False):
        """What the board checks at boot ("files": code) and what else the flash put there ("data");
        "checked" once the board has hashed every file against it (its boots then skip that)."""
        code = {p: digest(d) for p, d in sorted(self.files.items()) if not is_data(p)}
        data = {p: digest(d) for p, d in sorted(self.files.items()) if is_data(p)}
        out = {"version": _version(), "board": self.profile, "complete": complete, "files": code, "data": data}
        if checked:
            out["checked"] = True
        if not complete:
            out["was"] = self.was  # what main.py's check accepts mid-flash (see Plan.was)
        return out

    def bytes_to_copy(self):
        return sum(len(self.files[p]) for p in self.copy)

    def space_needed(self):
        """Bytes of flash the copy takes beyond what it frees, in whole blocks."""
        grow = sum(_blocks(len(self.files[p]), self.block) for p in self.copy)
        old = self.sizes if self.sizes is not None else {p: len(self.files[p]) for p in self.copy}
        freed = sum(_blocks(old.get(p) or 0, self.block) for p in self.copy if self.remote.get(p) is not None)
        manifest = len(json.dumps(self.manifest(complete=False)))
        # A file being rewritten holds its old blocks and its new ones at once (copy on write).
        largest = max([_blocks(len(self.files[p]), self.block) for p in self.copy] or [0])
        return (grow - freed + largest) * self.block + 2 * _blocks(manifest + 200, self.block) * self.block

    def summary(self, sent):
        """What a flash did, in one line."""
        return "%d copied (%d B), %d removed, %d up to date" % (
            sent["files"],
            sent["bytes"],
            len(self.remove),
            len(self.same),
        )

    def changes(self):
        return bool(self.copy or self.remove or self.rmdirs or self.config is not None)

    def describe(self):
        lines = ["board profile: %s" % self.profile]
        lines += ["copy   %-36s %6d B" % (p, len(self.files[p])) for p in self.copy]
        lines += ["remove %s" % p for p in self.remove + [d + "/" for d in self.rmdirs]]
        lines += [
            "keep   %s (changed on the board since the last flash; delete it there to get ours)" % p for p in self.kept
        ]
        if self.config is not None:
            lines.append('set    config.json "board": %r (other settings kept)' % self.profile)
        lines.append(
            "%d to copy (%d B), %d to remove, %d up to date; saved games and settings kept"
            % (len(self.copy), self.bytes_to_copy(), len(self.remove), len(self.same))
        )
        return "\n".join(lines)


def boot_needs(source=None):
    """The modules the "reflash needed" notice loads (dicetower/launch.py's BOOT_NEEDS, as paths without the
    extension), read from the launch's source: one list, on the board and here."""
    with open(os.path.join(source or paths.FIRMWARE, LAUNCH + ".py"), "rb") as f:
        entry = f.read()
    for node in ast.parse(entry).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["BOOT_NEEDS"]:
            return frozenset(ast.literal_eval(node.value))
    return frozenset()


def is_data(path):
    """A board profile: data a maker may edit on the board, so not checked at boot like code."""
    return path.startswith("boards/")


def listed(manifest):
    """Every file an earlier flash put on the board, code and data."""
    out = {}
    for key in ("files", "data"):
        if isinstance(manifest.get(key), dict):
            out.update(manifest[key])
    return out


def _parents(folder):
    parts = folder.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _blocks(size, block=BLOCK):
    return (size + block - 1) // block


def _merged_config(text, profile):
    """config.json's new text with "board" set, or None if it already says so."""
    config = {}
    if text:
        try:
            config = json.loads(text)
        except ValueError:
            config = None
    if not isinstance(config, dict):
        config = {}  # unreadable: the firmware ignores it too; the old text is kept as config.json.bad
    elif config.get("board") == profile:
        return None
    config["board"] = profile
    return json.dumps(config)


def as_object(text):
    """A file's JSON object (config.json, the manifest), or {} when it is missing, garbled or not an object."""
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _parses(data):
    try:
        return isinstance(json.loads(data), dict)
    except (ValueError, UnicodeError):
        return False


def _version():
    from dicetower import VERSION

    return VERSION
