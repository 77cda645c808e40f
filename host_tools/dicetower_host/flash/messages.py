"""What `dicetower flash` says when it stops short: its error, and what a board cut mid-copy boots."""

from dicetower_host.errors import UserError


class FlashError(UserError):
    """A flash that cannot go on; `str(e)` says why and what to do, in one line."""


INTERRUPTED = {
    "before": "interrupted (Ctrl-C) before anything was written: the board on %s is as it was",
    "copying": 'interrupted (Ctrl-C) during the copy: the board on %s shows "reflash needed" until dicetower '
    "flash runs again; saved games and settings are untouched",
    "copied": "interrupted (Ctrl-C) after the copy: the new firmware is whole on the board on %s, and starts "
    "as it is reset",
    "restarting": "interrupted (Ctrl-C) while the board restarted: the new firmware is on it; dicetower monitor "
    "--port %s shows it start",
}


def interrupted(error):
    return "the copy was interrupted (%s)" % ("Ctrl-C" if isinstance(error, KeyboardInterrupt) else error)


def cut_short(what, sent, plan):
    """The FlashError of a copy that stopped midway, saying what the board does now."""
    return FlashError(
        "%s after %d of %d files. %s; saved games and settings are untouched"
        % (what, sent["files"], len(plan.copy), after_cut(plan, sent))
    )


REFLASH_NEEDED = 'The board shows "reflash needed" until dicetower flash runs again'


def after_cut(plan, sent):
    """What the board boots after a copy cut with `sent` done, in the order _write keeps (transfer.py's
    docstring): the same words docs/flashing.md gives, tested against what the virtual Pico boots."""
    if not sent.get("touched"):
        return "Nothing the board runs has changed"  # at most the manifest lost its mark: boots hash again
    if sent.get("complete"):  # cut while the board checked the files: its boots check them instead
        return "The new release is on the board whole, and runs"
    if plan.remote.get(plan.entry) is None and sent["files"] <= plan.copy.index(plan.entry):
        return "The board has no firmware to run yet (its %s comes later)" % plan.entry
    if not sent.get("marked"):  # only the launch or main.py replaced; the old manifest still rules
        if not plan.had_manifest:
            return (
                "The board had no manifest (its files were copied by hand), so nothing checks them: it runs "
                "what it has, old and new together, until dicetower flash runs again"
            )
        replaced = plan.copy[: sent["files"]]
        if plan.old_complete and not plan.old_thin and plan.entry not in replaced:
            return "The board runs its old release (its %s holds its own check and ignores the new launch)" % (
                plan.entry
            )
    return REFLASH_NEEDED
