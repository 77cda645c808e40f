"""The one error type for a user's mistake: a wrong path, an unknown board, a bad file.

`dicetower` prints a UserError as one line, "dicetower: <reason>", and exits with status 2;
anything else that escapes a command is a bug and keeps its traceback.
"""


class UserError(ValueError):
    """A mistake the user can fix; its message says what and how, in one line."""
