"""Run a virtual Pico to flash, monitor and play without a board: the MicroPython VM behind a
serial port (socket://, and a pty where there are pseudo-terminals), its flash a folder, or
(--emulator rp2040) MicroPython's real rp2 firmware on an emulated RP2040. Its buttons, OLED
and ring are the parts the board profile names.

On a terminal it shows the board's OLED and ring and takes its buttons from the keyboard, as
the simulator does (a, b, c tap; A, B, C hold; q quits); --headless only prints its ports.
Flash it from another terminal, follow it with `dicetower monitor`, and play. Ctrl-C (or q, or
any signal) stops it and its board together; its flash is kept for the next run."""

import os
import signal
import sys
import threading

from dicetower_host.errors import UserError

HELP = ("run a virtual Pico (the MicroPython VM, or MicroPython's rp2 firmware on an emulated RP2040) to flash, "
        "monitor and play without a board")


def add_arguments(parser):
    parser.add_argument("--emulator", choices=("vm", "rp2040"), default="vm",
                        help="vm: the MicroPython WebAssembly VM, its flash a folder (default); rp2040: the "
                             "official rp2 firmware on an emulated RP2040 (rp2040js), its flash a 2 MiB image")
    parser.add_argument("--files", default=os.path.join(os.path.expanduser("~"), ".dicetower", "pico"),
                        help="with --emulator vm: the virtual flash's folder (default ~/.dicetower/pico)")
    parser.add_argument("--image", help="with --emulator rp2040: the flash image (default "
                                        "~/.dicetower/rp2040-flash.img, made on first use)")
    parser.add_argument("--board", default="pico", help="the parts wired to it, as a profile names them")
    parser.add_argument("--headless", action="store_true",
                        help="print its ports and run until stopped, without showing its OLED (the default when "
                             "the output is not a terminal)")


class Stopped(Exception):
    """A signal (SIGTERM, SIGHUP) asked `dicetower pico` to stop."""

    def __init__(self, signum):
        Exception.__init__(self, signal.Signals(signum).name)
        self.signum = signum


class _Signals:
    """SIGTERM and SIGHUP stop the command as Ctrl-C does: its `with` blocks close, so the board's
    node process ends with it (were this process killed outright, the board's lifeline ends it)."""

    def __init__(self):
        self.app = None  # the screen, while it runs: told to exit rather than interrupted mid-draw
        self.before = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():  # signal handlers live there only
            for name in ("SIGTERM", "SIGHUP"):
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
        raise Stopped(signum)

    def __exit__(self, *exc):
        for number, handler in self.before.items():
            signal.signal(number, handler)


def start(args):
    """The board, and a line saying what it is."""
    from dicetower_host.pico import EmulatedPico, VirtualPico, profile_path

    profile_path(args.board)  # an unknown board is said before any folder is made
    try:
        if args.emulator == "rp2040":
            image = args.image or os.path.join(os.path.expanduser("~"), ".dicetower", "rp2040-flash.img")
            os.makedirs(os.path.dirname(os.path.abspath(image)), exist_ok=True)
            return (EmulatedPico(image, args.board), "an emulated RP2040 running MicroPython 1.27 with a %s's parts"
                    % args.board, image)
        os.makedirs(args.files, exist_ok=True)
        return VirtualPico(args.files, args.board), "a virtual %s" % args.board, args.files
    except RuntimeError as e:  # no Node.js, no npm, a board that did not start: said in one line
        raise UserError("the virtual Pico did not start: %s" % e) from None
    except OSError as e:  # a flash folder or image that cannot be made
        raise UserError("cannot use %s: %s" % (e.filename or args.files, e.strerror or e)) from None


def run(args, out=None):
    out = out or sys.stdout
    face = not args.headless and out is sys.stdout and out.isatty() and sys.stdin.isatty()
    signals = _Signals()
    flash_is = args.image or args.files
    try:
        with signals:
            pico, what, flash_is = start(args)
            with pico:
                about = ["%s on %s (its flash: %s)" % (what, pico.url, flash_is)]
                if hasattr(os, "openpty"):
                    about.append("its serial port: %s (the same REPL, as over USB)" % pico.open_pty())
                about.append("try: dicetower flash --port %s --board %s, then dicetower monitor --port %s"
                             % (pico.url, args.board, pico.url))
                if face:
                    return _show(pico, about, signals, out, flash_is)
                out.write("\n".join(about) + "\nCtrl-C stops it\n")
                out.flush()
                pico.process.wait()
                _say(out, "dicetower pico: the board stopped: %s" % (pico.reason() or "exit %d" % pico.process.returncode))
                return 1
    except KeyboardInterrupt:
        _say(out, "dicetower pico: stopped (Ctrl-C); its flash is kept in %s" % flash_is)
        return 0
    except Stopped as e:
        _say(out, "dicetower pico: stopped by %s; its flash is kept in %s" % (e, flash_is))
        return 128 + e.signum


def _show(pico, about, signals, out, flash_is):
    """The board's OLED, ring and buttons on this terminal until q, Ctrl-C or a signal."""
    from dicetower_host.pico_view import BoardFace

    app = BoardFace(pico, about)
    signals.app = app
    try:
        app.run()
    finally:
        signals.app = None
    if app.stopped_by is not None:
        _say(out, "dicetower pico: stopped by %s; its flash is kept in %s" % (signal.Signals(app.stopped_by).name,
                                                                            flash_is))
        return 128 + app.stopped_by
    if app.stopped is not None:
        _say(out, "dicetower pico: the board stopped: %s" % app.stopped)
        return 1
    _say(out, "dicetower pico: stopped; its flash is kept in %s" % flash_is)
    return 0


def _say(out, line):
    try:
        out.write(line + "\n")
        out.flush()
    except (OSError, ValueError):  # the terminal is gone (SIGHUP): nobody is left to read it
        pass
