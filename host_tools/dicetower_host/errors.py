"""The one error type for a user's mistake: a wrong path, an unknown board, a bad file.

`dicetower` prints a UserError as one line, "dicetower: <reason>", and exits with status 2;
anything else that escapes a command is a bug and keeps its traceback. `typed()` is how a hint names
the command.
"""


class UserError(ValueError):
    """A mistake the user can fix; its message says what and how, in one line."""


def typed():
    """How this shell reaches the `dicetower` command, for a hint to run as typed: `dicetower` where it
    is on PATH, else the path it was run by (`.venv/bin/dicetower` in a fresh clone)."""
    import os
    import shutil
    import sys

    found = shutil.which("dicetower")
    ran = sys.argv[0] if os.path.basename(sys.argv[0]) == "dicetower" else None
    if ran is None or (found and os.path.realpath(found) == os.path.realpath(ran)):
        return "dicetower"
    return ran if os.path.isabs(ran) or ran.startswith(".") or os.sep in ran else os.path.join(".", ran)
