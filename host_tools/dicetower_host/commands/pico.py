"""Run a virtual Pico to flash, monitor and play without a board: the MicroPython VM behind a
serial port (socket://, and a pty where there are pseudo-terminals), its flash a folder, or
(--emulator rp2040) MicroPython's own rp2 firmware on an emulated RP2040, booting the firmware
file you give (--firmware, or DICETOWER_RP2_FIRMWARE: MicroPython's published RPI_PICO UF2). Its
buttons, OLED and ring are the parts the board profile names.

On a terminal it shows the board's OLED and ring and takes its buttons from the keyboard, as
the simulator does (a, b, c tap; A, B, C hold; q quits); --headless only prints its ports;
--script plays a simulator script's presses on it once its firmware runs, printing the OLED at
each mark and at the end, and runs on.

Flash it from another terminal, follow it with dicetower monitor, and play. Ctrl-C (or q, or
any signal) stops it and its board together; its flash is kept for the next run."""

import os
import signal
import sys
import threading

from dicetower_host.errors import UserError, typed

HELP = (
    "run a virtual Pico (the MicroPython VM, or MicroPython's rp2 firmware on an emulated RP2040) to flash, "
    "monitor and play without a board"
)


def add_arguments(parser):
    parser.add_argument(
        "--emulator",
        choices=("vm", "rp2040"),
        default="vm",
        help="vm: the MicroPython WebAssembly VM, its flash a folder (default); rp2040: the "
        "official rp2 firmware on an emulated RP2040 (rp2040js), its flash a 2 MiB image",
    )
    parser.add_argument(
        "--files",
        default=os.path.join(os.path.expanduser("~"), ".dicetower", "pico"),
        help="with --emulator vm: the virtual flash's folder (default ~/.dicetower/pico)",
    )
    parser.add_argument(
        "--firmware",
        help="with --emulator rp2040: MicroPython's RPI_PICO firmware file (a .uf2 "
        "from MicroPython's download page; default $DICETOWER_RP2_FIRMWARE)",
    )
    parser.add_argument(
        "--image",
        help="with --emulator rp2040: the flash image (default ~/.dicetower/rp2040-flash.img, made on first use)",
    )
    parser.add_argument("--board", default="pico", help="the parts wired to it, as a profile names them")
    parser.add_argument(
        "--headless",
        action="store_true",
        help="print its ports and run until stopped, without showing its OLED (the default when "
        "the output is not a terminal)",
    )
    parser.add_argument(
        "--script",
        help="once the firmware runs on it, play this file of presses and waits (as "
        "dicetower sim --script does), print its OLED at each mark and at the end, "
        "and run on (headless)",
    )


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


def flash_of(args):
    """Where the board's flash is kept: a folder, or the emulated chip's image."""
    if args.emulator == "rp2040":
        return args.image or os.path.join(os.path.expanduser("~"), ".dicetower", "rp2040-flash.img")
    return args.files


def start(args):
    """The board, and a line saying what it is."""
    from dicetower_host.pico import EmulatedPico, VirtualPico, profile_path

    profile_path(args.board)  # an unknown board is said before any folder is made
    try:
        if args.emulator == "rp2040":
            os.makedirs(os.path.dirname(os.path.abspath(flash_of(args))), exist_ok=True)
            pico = EmulatedPico(flash_of(args), args.board, firmware=args.firmware)
            return pico, "an emulated RP2040 running %s with a %s's parts" % (
                os.path.basename(pico.firmware),
                args.board,
            )
        os.makedirs(args.files, exist_ok=True)
        return VirtualPico(args.files, args.board), "a virtual %s" % args.board
    except RuntimeError as e:  # no Node.js, no npm, a board that did not start: said in one line
        raise UserError("the virtual Pico did not start: %s" % e) from None
    except OSError as e:  # a flash folder or image that cannot be made
        raise UserError("cannot use %s: %s" % (e.filename or args.files, e.strerror or e)) from None


def run(args, out=None):
    from dicetower_host.pico import BoardGone

    out = out or sys.stdout
    steps = _script(args.script) if args.script else None
    face = steps is None and not args.headless and out is sys.stdout and out.isatty() and sys.stdin.isatty()
    signals = _Signals()
    flash_is = flash_of(args)
    try:
        with signals:
            pico, what = start(args)
            with pico:
                about = ["%s on %s (its flash: %s)" % (what, pico.url, flash_is)]
                if hasattr(os, "openpty"):
                    about.append("its serial port: %s (the same REPL, as over USB)" % pico.open_pty())
                about.append("try: %s flash --port %s --board %s" % (typed(), pico.url, args.board))
                if face:
                    return _show(pico, about, signals, out, flash_is)
                out.write("\n".join(about) + "\nCtrl-C stops it\n")
                out.flush()
                if steps is not None:
                    _play(pico, steps, out, args.script)
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


def _script(path):
    """The script's steps (virtual_parts/script.py's language), or a UserError naming the line."""
    from dicetower_host.sim import use_virtual_parts

    use_virtual_parts()
    from dicetower_host.virtual_parts.script import ScriptError, parse

    try:
        with open(path) as f:
            return parse(f.read())
    except (OSError, UnicodeDecodeError) as e:
        raise UserError("cannot read the script %s: %s" % (path, getattr(e, "strerror", None) or e)) from None
    except ScriptError as e:
        raise UserError("%s: %s" % (path, e)) from None


def _play(pico, steps, out, script):
    """Once the firmware has lit the OLED, the script's presses and waits on the board; its OLED's
    lines at each mark and at the end. A board that stops, or stops answering, is BoardGone (one line)."""
    from dicetower_host.pico import BoardGone
    from dicetower_host.virtual_parts.script import ScriptError, play

    if not pico.ask({"oled": True}).get("on"):
        out.write(
            "waiting for the firmware to light the OLED: %s flash --port %s --board %s\n"
            % (typed(), pico.url, pico.board)
        )
        out.flush()
        while not pico.ask({"oled": True}).get("on"):
            pico.pause()

    def show(title):
        out.write("-- %s\n%s\n" % (title, "\n".join("   " + line for line in pico.screen())))  # its 8 lines
        out.flush()

    def marked(n, command, args):
        if command == "mark":
            show("mark %s" % args[0])

    try:
        play(pico, steps, marked, refused=RuntimeError)
    except ScriptError as e:
        if isinstance(e.__cause__, BoardGone):  # not the script's fault: said with the line it was at
            raise BoardGone("%s, %s" % (script, e)) from None
        raise UserError("the board did not take %s" % e) from None
    show("the script is done; the board runs on (Ctrl-C stops it)")


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
