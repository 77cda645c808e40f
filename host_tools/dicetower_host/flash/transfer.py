"""The copy onto the board, in an order that leaves a board cut at any byte running the old release,
the new one, or showing "reflash needed" on its OLED.

A manifest marked "checked" first loses the mark (boots under it hash nothing, so a new launch would
not find itself unlisted), dicetower/launch then main.py when the board has one (whole: to a temporary
name, then renamed; the new launch refuses the old files with the notice), the manifest marked
incomplete (with the hashes of the files being replaced), the profile and config.json's "board", then
the modules the notice draws with, each whole, main.py now if the board had none, the rest, the
removals, and the manifest completed last. A rerun completes it. A cut's message says which of these
the board boots (messages.after_cut).
"""

import errno
import json

from dicetower_host.flash.board import board_code
from dicetower_host.flash.connection import read_bytes
from dicetower_host.flash.messages import FlashError
from dicetower_host.flash.plan import MANIFEST, _parses, is_data


def _write(transport, plan, sent, progress, replace=None):
    """Copy the plan's files through `transport` (mpremote's, or one with the same fs_* calls), in the
    order that keeps the board able to run or to say "reflash needed" at every byte (the module's
    docstring). `sent["touched"]` says whether the board has changed yet (for the message of a cut)."""
    replace = replace or _replace_on_board
    total = plan.bytes_to_copy()

    def whole(path, data, callback=None, touch=True):
        """A file written beside itself and renamed into place: a cut leaves the old one or the new one."""
        transport.fs_writefile(path + ".tmp", data, progress_callback=callback)
        replace(transport, path + ".tmp", path)
        sent["touched"] = sent.get("touched") or touch

    def put(path):
        data = plan.files[path]
        done = sent["bytes"]
        callback = (lambda n, size: progress(path, done + n, total)) if progress else None
        if path in plan.whole:
            whole(path, data, callback)
        else:
            sent["touched"] = True
            transport.fs_writefile(path, data, progress_callback=callback)
        sent["files"] += 1
        sent["bytes"] += len(data)

    for folder in plan.dirs:  # empty folders change nothing the board runs
        try:
            transport.fs_mkdir(folder)
        except OSError as e:
            if e.errno != errno.EEXIST:  # a folder outside the package (boards/) may be there already
                raise
    if plan.unmark is not None:  # the same release still runs; its boots hash every file again
        whole(MANIFEST, json.dumps(plan.unmark).encode(), touch=False)
    copy = list(plan.copy)
    for _path in plan.first:
        put(copy.pop(0))
    manifest = plan.manifest(complete=False)
    whole(MANIFEST, json.dumps(manifest).encode())  # from here the board refuses to run a half-copied firmware
    sent["marked"] = True
    for path in [p for p in copy if is_data(p)]:
        put(path)
    if plan.config is not None:  # the board's name, for the notice's OLED pins too
        old = read_bytes(transport, "config.json")
        if old is not None and not _parses(old):
            transport.fs_writefile("config.json.bad", old)  # the player's bytes, as they were
        whole("config.json", plan.config.encode())
    for path in [p for p in copy if not is_data(p)]:
        put(path)
    for path in plan.remove:
        _remove(transport, path, "remove")
    for folder in plan.rmdirs:
        _remove(transport, folder, "rmdir")
    whole(MANIFEST, json.dumps(plan.manifest(complete=True)).encode())
    sent["complete"] = True
    if plan.entry == "main.py" and hasattr(transport, "exec"):
        # main.py's check of every file, once, on the board: its boots then skip the hashing (a third of
        # a second on a Pico). A board that reads back other bytes than were sent says so now.
        from mpremote.transport import TransportError

        try:
            said = transport.exec("import main\nprint(repr(main.check()))\n").decode().strip()
        except TransportError:
            return  # a main.py without the check (or a board short of heap for it): boots check, unmarked
        if said != "None":
            raise FlashError("the board's files do not match what was sent: %s. Run dicetower flash again" % said)
        whole(MANIFEST, json.dumps(plan.manifest(complete=True, checked=True)).encode())


def _remove(transport, path, how):
    """Remove a file or folder; on a REPL with the path as a literal (mpremote quotes it without escaping).
    One already gone is what the removal wanted (a rerun after a cut finds the board part done)."""
    if hasattr(transport, "exec"):
        transport.exec(
            "import os\ntry:\n    os.%s(%r)\nexcept OSError as e:\n    if e.args[0] != 2:\n        raise" % (how, path)
        )
    else:
        try:
            getattr(transport, "fs_rmfile" if how == "remove" else "fs_rmdir")(path)
        except OSError as e:
            if e.errno != errno.ENOENT:
                raise


def _replace_on_board(transport, old, new):
    transport.exec(board_code("replace", "replace", old, new))
