"""The flash itself, step by step: the board asked what it is and checked, the firmware compiled for
it, the plan made against the hashes of what the board has, the room checked, the copy (transfer.py),
and the wait for the firmware's ready line. `command()` is `dicetower flash` with its options: the
board found, a progress bar on a terminal, or CircuitPython's drive (circuitpy.py)."""

import errno
import sys
import time

from dicetower_host import flash as flash_package  # the names a test or a benchmark replaces: read there
from dicetower_host import paths
from dicetower_host.flash.board import Board, _run, board_code, check_runtime, choose_profile, profiles, to_install
from dicetower_host.flash.build import libraries
from dicetower_host.flash.connection import READY_SECONDS, Session, read_text
from dicetower_host.flash.messages import INTERRUPTED, FlashError, cut_short, interrupted
from dicetower_host.flash.plan import MANIFEST, PACKAGE, Plan, as_object, listed
from dicetower_host.flash.transfer import _write


def flash(port, board=None, dry_run=False, out=sys.stdout, progress=None, wait_ready=True, ready_seconds=READY_SECONDS):
    """Flash the firmware; returns a dict of what was sent. FlashError says what went wrong."""
    started = time.monotonic()
    stage = ["before"]  # where a Ctrl-C came: before the copy, during it, or while the board restarts
    try:
        with Session(port) as on_board:
            result = _flash(
                on_board.transport, board, dry_run, out, progress, wait_ready, started, ready_seconds, stage
            )
            on_board.restarted = "ready" in result
            return result
    except KeyboardInterrupt:
        raise FlashError(INTERRUPTED[stage[0]] % port) from None


def _flash(transport, asked, dry_run, out, progress, wait_ready, started, ready_seconds=READY_SECONDS, stage=None):
    from mpremote.transport import TransportError

    stage = stage or [None]

    board = Board(_run(transport, board_code("probe", "probe")))
    known = profiles()
    check_runtime(board, flash_package.emitted_version(), to_install(asked, board.machine, known))
    config_text = read_text(transport, "config.json")
    name = choose_profile(asked, as_object(config_text), board.machine, known)
    files = flash_package.compile_firmware(
        board.arch,
        flash_package.FIRMWARE,
        extra={"lib/" + rel: data for rel, data in libraries(known[name]).items()},
        profile=known[name],
    )
    with open(paths.board_profile(name), "rb") as f:
        files["boards/%s.json" % name] = f.read()
    old = as_object(read_text(transport, MANIFEST))
    remote, tree, sizes = _run(
        transport, board_code("hashes", "hashes", PACKAGE, sorted(set(files) | set(listed(old))))
    )
    tree = [t.lstrip("/") for t in tree]
    plan = Plan(files, remote, tree, old, config_text, name, sizes=sizes)
    out.write("%s; -march=%s\n" % (board.describe(), board.arch or "none (bytecode only)"))
    if dry_run:
        out.write(plan.describe() + "\n(dry run: nothing written)\n")
        return {"plan": plan, "files": 0, "bytes": 0}
    if board.free < 0:
        raise FlashError(
            "the board reports no filesystem (os.statvfs('/') failed); nothing was written. "
            "Reinstall MicroPython (hold BOOTSEL, copy the .uf2) and run dicetower flash again"
        )
    if plan.space_needed() > board.free:
        raise FlashError(
            "the board's flash is full: %d KB free, this flash needs %d KB. Nothing was changed. "
            "Remove files you do not need (mpremote fs ls, fs rm) and run dicetower flash again"
            % (board.free // 1024, plan.space_needed() // 1024)
        )
    sent = {"files": 0, "bytes": 0}
    if plan.changes() or not plan.vouched:
        try:
            stage[0] = "copying"
            _write(transport, plan, sent, progress, flash_package._replace_on_board)
        except (TransportError, OSError, KeyboardInterrupt) as e:
            full = isinstance(e, OSError) and getattr(e, "errno", None) == errno.ENOSPC
            raise cut_short("the board's flash filled up" if full else interrupted(e), sent, plan)
        stage[0] = "copied"
    out.write(plan.summary(sent) + "\n")
    sent.update(plan=plan, seconds=time.monotonic() - started)
    if wait_ready:
        stage[0] = "restarting"
        sent["ready"] = flash_package.restart(transport, out, ready_seconds)
    return sent


def command(port=None, board=None, dry_run=False, runtime="micropython", drive=None, ready_seconds=None, out=None):
    """`dicetower flash`: the board on `port` (found by itself without one), or with `runtime` "circuitpython"
    its CIRCUITPY `drive`, flashed with a progress bar on a terminal. 0, or a FlashError saying why not."""
    from dicetower_host.flash.progress import Progress

    out = out or sys.stdout
    try:
        if runtime == "circuitpython":
            from dicetower_host.flash import circuitpy as flash_circuitpy

            with Progress(out) as progress:
                flash_circuitpy.flash(drive, board, dry_run, progress or out, progress)
            return 0
        port = port or flash_package.find_port()
        with Progress(out) as progress:  # the status lines go through it: above the bar, never on its line
            flash_package.flash(
                port,
                board,
                dry_run,
                progress or out,
                progress,
                ready_seconds=ready_seconds or READY_SECONDS,
            )
    except KeyboardInterrupt:  # before the board was reached (flash() says where a later one came)
        raise FlashError("interrupted (Ctrl-C) before the board was reached; nothing was written") from None
    return 0
