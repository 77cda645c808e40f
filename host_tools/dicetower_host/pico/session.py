"""`dicetower pico` from start to stop: the board started, its ports said, then its screen on this
terminal, a script played, or the board run headless; Ctrl-C, q or a signal stops it and its board
together, in one line, its flash kept for the next run."""

import os
import signal
import sys
import threading

from dicetower_host.errors import typed
from dicetower_host.pico.board import BoardGone
from dicetower_host.pico.launch import flash_of, start
from dicetower_host.pico.script_runner import play_on, steps_of


class Stopped(Exception):
    """A signal (SIGTERM, SIGHUP) asked `dicetower pico` to stop."""

    def __init__(self, signum):
        Exception.__init__(self, signal.Signals(signum).name)
        self.signum = signum


class _Signals:
    """SIGTERM and SIGHUP stop the command as Ctrl-C does: its `with` blocks close, so the board's
    node process ends with it (were this process killed outright, the board's lifeline ends it).
    While the screen runs, any of the three asks it to exit instead of breaking into its drawing."""

    def __init__(self):
        self.app = None  # the screen, while it runs: told to exit rather than interrupted mid-draw
        self.before = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():  # signal handlers live there only
            for name in ("SIGINT", "SIGTERM", "SIGHUP"):
                if hasattr(signal, name):
                    number = getattr(signal, name)
                    self.before[number] = signal.signal(number, self._handle)
        return self

    def _handle(self, signum, frame):
        app = self.app
        if app is not None and app.loop is not None:
            app.stopped_by = signum
            app.loop.call_soon_threadsafe(app.exit)
            return
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Stopped(signum)

    def __exit__(self, *exc):
        for number, handler in self.before.items():
            signal.signal(number, handler)


def run(emulator="vm", files=None, image=None, firmware=None, board="pico", headless=False, script=None, out=None):
    """`dicetower pico`'s run, its exit status: the board's flash is a folder (`files`) or, with
    `emulator` "rp2040", an image booting the `firmware` file; on a terminal its screen, else headless,
    `script` played once its firmware runs."""
    out = out or sys.stdout
    steps = steps_of(script) if script else None
    face = steps is None and not headless and out is sys.stdout and out.isatty() and sys.stdin.isatty()
    signals = _Signals()
    flash_is = flash_of(emulator, files, image)
    try:
        with signals:
            pico, what = start(emulator, files, image, board, firmware)
            with pico:
                about = ["%s on %s (its flash: %s)" % (what, pico.url, flash_is)]
                if hasattr(os, "openpty"):
                    about.append("its serial port: %s (the same REPL, as over USB)" % pico.open_pty())
                about.append("try: %s flash --port %s --board %s" % (typed(), pico.url, board))
                if face:
                    return _show(pico, about, signals, out, flash_is)
                out.write("\n".join(about) + "\nCtrl-C stops it\n")
                out.flush()
                if steps is not None:
                    play_on(pico, steps, out, script)
                pico.process.wait()
                _say(
                    out,
                    "dicetower pico: the board stopped: %s" % (pico.reason() or "exit %d" % pico.process.returncode),
                )
                return 1
    except KeyboardInterrupt:
        return _stopped(out, signal.SIGINT, flash_is)
    except Stopped as e:
        return _stopped(out, e.signum, flash_is)
    except BoardGone as e:  # it stopped, or stopped answering, under a script: one line, the board closed
        _say(sys.stderr, "dicetower pico: %s; its flash is kept in %s" % (e, flash_is))
        return 1


def _show(pico, about, signals, out, flash_is):
    """The board's OLED, ring and buttons on this terminal until q, Ctrl-C or a signal."""
    from dicetower_host.pico.view import BoardFace

    app = BoardFace(pico, about)
    signals.app = app
    try:
        app.run()
    finally:
        signals.app = None
    if app.stopped_by is not None:
        return _stopped(out, app.stopped_by, flash_is)
    if app.stopped is not None:
        _say(out, "dicetower pico: the board stopped: %s" % app.stopped)
        return 1
    _say(out, "dicetower pico: stopped; its flash is kept in %s" % flash_is)
    return 0


def _stopped(out, signum, flash_is):
    """The one line a stop by Ctrl-C (status 0: the way to stop it) or a signal (128 + its number) gets."""
    if signum == signal.SIGINT:
        _say(out, "dicetower pico: stopped (Ctrl-C); its flash is kept in %s" % flash_is)
        return 0
    _say(out, "dicetower pico: stopped by %s; its flash is kept in %s" % (signal.Signals(signum).name, flash_is))
    return 128 + signum


def _say(out, line):
    try:
        out.write(line + "\n")
        out.flush()
    except (OSError, ValueError):  # the terminal is gone (SIGHUP): nobody is left to read it
        pass
