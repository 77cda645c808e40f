"""The `dicetower` command.

  dicetower sim      the firmware on this laptop: virtual buttons, OLED and LED ring
  dicetower roll     a Battlerealm turn in the terminal: roll, re-roll, Lucky, finalize
  dicetower throw    other dice: the Attack Die, the Danger Coin, plain dN
  dicetower stats    fairness of the dice in a saved event log, or rolled on a board (chi-square, runs test)
  dicetower monitor  follow a device's roll and score events live, and save them
  dicetower flash    put the firmware on a board: only what changed, saves kept, checked at boot
  dicetower pico     a virtual Pico to flash and monitor without a board
  dicetower hardware the build, made from boards/ and hardware/parts.json: bom, wiring, enclosure

Both run the firmware's own engine (`dicetower.core`) on the host, with the
host's OS entropy through the same health tests and fair sampler as a Pico,
or a seed (`--seed`) or set faces (`--faces`) for replays and teaching.
"""

import argparse
import os
import sys

from dicetower.core import dice as dice_data
from dicetower.core.triples import ABILITIES
from dicetower.core.entropy import EntropyFailure, FairDice, ScriptedFaces, SeededSource
from dicetower.core.roll import DICE, Roll, RollRefused
from dicetower.hw.entropy import Urandom

HELP = """Commands:
  r 2 3 5   re-roll dice 2, 3 and 5 (locked Mutant and Science cannot)
  r all     re-roll every unlocked die
  l 4       Lucky's extra re-roll of die 4 (Lucky heroes only)
  f         finalize and see what the dice do
  f Cosmic  finalize, spending three Cosmic to escape the Crystal Prison
  n         a new turn
  q         quit"""


def face_source(args):
    """The dice the command rolls with: set faces, a seed, or the OS."""
    if args.faces:
        return ScriptedFaces([f.strip() for f in args.faces.split(",") if f.strip()])
    if args.seed is not None:
        return FairDice(SeededSource(args.seed))
    return FairDice(Urandom(name="host os.urandom"))


def show_roll(roll, out):
    state = "finalized" if roll.finalized else "re-rolls left: %d" % roll.rerolls_left
    if roll.lucky_left and not roll.finalized:
        state += ", Lucky re-roll left"
    out.write("Dice (%s):\n" % state)
    for die, face in enumerate(roll.symbols()):
        out.write("  %d %-8s%s\n" % (die + 1, face, "  locked" if roll.locked[die] else ""))


def parse_dice(words, roll):
    if words == ["all"]:
        return [d for d in range(DICE) if not roll.locked[d]]
    picked = []
    for word in words:
        if not word.isdigit():
            raise RollRefused("Dice are numbered 1 to 6, not %r." % word)
        picked.append(int(word) - 1)
    return picked


def play_turn(roll, command, out):
    """Carry out one typed command on the roll. Returns False to quit."""
    words = command.split()
    if not words:
        return True
    verb, rest = words[0].lower(), words[1:]
    if verb in ("q", "quit", "exit"):
        return False
    if verb in ("h", "help", "?"):
        out.write(HELP + "\n")
        return True
    if verb in ("r", "reroll"):
        roll.reroll(parse_dice(rest, roll))
        show_roll(roll, out)
    elif verb in ("l", "lucky"):
        picked = parse_dice(rest, roll)
        if len(picked) != 1:
            raise RollRefused("Lucky re-rolls exactly one die: l 1 to l 6.")
        roll.lucky_reroll(picked[0])
        show_roll(roll, out)
    elif verb in ("f", "finalize"):
        outcome = roll.finalize(escape_with=rest[0].capitalize() if rest else None)
        show_roll(roll, out)
        for line in outcome.lines or ["Nothing happens."]:
            out.write("  " + line + "\n")
    else:
        raise RollRefused("Unknown command %r; type h for help." % verb)
    return True


def cmd_roll(args, stdin=sys.stdin, out=sys.stdout):
    dice = face_source(args)
    if dice.failure:
        out.write(dice.failure + "\n")
        return 1
    hero = dict(abilities=args.ability, disorientated=args.disorientated, in_prison=args.in_prison)
    out.write("Battlerealm dice, %s. Type h for help.\n" % dice.name)
    roll = None
    while True:
        if roll is None:
            roll = Roll(dice, **hero)
            try:
                roll.roll()
            except EntropyFailure as e:
                out.write(str(e) + "\n")
                return 1
            show_roll(roll, out)
        out.write("> ")
        out.flush()
        line = stdin.readline()
        if not line:
            out.write("\n")
            return 0
        if line.strip().lower() in ("n", "new"):
            roll = None
            continue
        try:
            if not play_turn(roll, line, out):
                return 0
        except (RollRefused, ValueError) as e:
            out.write("Refused: %s\n" % e)
        except EntropyFailure as e:
            out.write(str(e) + "\n")
            return 1


def die_named(name):
    name = name.lower()
    known = {"battlerealm": dice_data.BATTLEREALM, "attack": dice_data.ATTACK,
             "coin": dice_data.DANGER_COIN, "danger": dice_data.DANGER_COIN}
    if name in known:
        return known[name]
    if name.startswith("d") and name[1:].isdigit():
        return dice_data.plain(int(name[1:]))
    raise ValueError("unknown die %r: battlerealm, attack, coin or dN (d6, d20...)" % name)


def cmd_throw(args, out=sys.stdout):
    die = die_named(args.die)
    dice = face_source(args)
    faces = [die.faces[dice.draw(die)] for _ in range(args.count)]
    out.write(" ".join(faces) + "\n")
    if die is dice_data.ATTACK and args.target is not None:
        for face in faces:
            hit = dice_data.attack_hits(face, args.bonus, args.target)
            out.write("%s + %d vs %d: %s\n" % (face, args.bonus, args.target, "hit" if hit else "miss"))
    return 0


def cmd_sim(args):
    from host_tools import sim

    if args.web is None and args.pin is not None:
        raise ValueError("--pin goes with --web (the PIN phones send to press the tower's buttons)")
    if args.script and args.web is not None:
        raise ValueError("--web serves the interactive simulator; leave out --script")
    if args.script:
        if args.script == "-":
            text = sys.stdin.read()
        else:
            try:
                with open(args.script) as f:
                    text = f.read()
            except OSError as e:
                raise ValueError("cannot read the script: %s" % e)
        return sim.run_script(text, args.board, args.seed, args.faces, args.state_dir, args.png)
    from host_tools import tui

    return tui.run(args.board or "pico", args.seed, args.faces, args.state_dir, args.speed, args.web, args.pin)


def cmd_monitor(args, out=sys.stdout):
    from host_tools import monitor

    save = open(args.save, "a") if args.save else None
    try:
        monitor.follow(monitor.open_serial(args.port), out, save, args.count, args.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        if save is not None:
            save.close()
    return 0


def cmd_stats(args, out=sys.stdout):
    from host_tools import fairness

    if args.port:
        if args.log:
            raise ValueError("give a log file or --port, not both")
        import io

        from host_tools.flash import FlashError, Session, restart

        if not 1 <= args.rolls <= 1000000:
            raise ValueError("--rolls must be 1 to 1,000,000")
        try:
            with Session(args.port) as on_board:
                faces, source = fairness.faces_from_device(on_board.transport, args.rolls)
                try:
                    restart(on_board.transport, io.StringIO())  # back to the game
                    on_board.restarted = True
                except FlashError as e:
                    sys.stderr.write("dicetower: rolled, but the firmware did not restart: %s\n" % e)
        except FlashError as e:
            raise ValueError(str(e))
        text, results = fairness.run([], args.png, faces)
        out.write("rolled on the board with its own dice (%s)\n%s\n" % (source, text))
        return 0
    if not args.log:
        raise ValueError("give a saved event log, or --port to roll on a board")
    if args.log == "-":
        lines = sys.stdin.read().splitlines()
    else:
        try:
            with open(args.log) as f:
                lines = f.read().splitlines()
        except OSError as e:
            raise ValueError("cannot read the log: %s" % e)
    text, results = fairness.run(lines, args.png)
    out.write(text + "\n")
    if args.png:
        out.write("histogram: %s\n" % args.png)
    return 0


def cmd_flash(args, out=sys.stdout):
    from host_tools import flash

    try:
        if args.runtime == "circuitpython":
            from host_tools import flash_circuitpy

            if args.port:
                raise flash.FlashError("--port is for MicroPython's REPL; a CircuitPython board is flashed "
                                       "through its CIRCUITPY drive (--drive PATH)")
            with _progress(out) as progress:
                flash_circuitpy.flash(args.drive, args.board, args.dry_run, out, progress)
            return 0
        if args.drive:
            raise flash.FlashError("--drive is for CircuitPython's CIRCUITPY drive: add --runtime circuitpython")
        port = args.port or flash.find_port()
        with _progress(out) as progress:
            flash.flash(port, args.board, args.dry_run, out, progress)
    except flash.FlashError as e:
        raise ValueError(str(e))
    return 0


class _progress:
    """A progress bar for the copy (rich, which Textual brings), on a terminal only."""

    def __init__(self, out):
        self.out = out
        self.bar = None

    def __enter__(self):
        if not getattr(self.out, "isatty", lambda: False)():
            return None
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

        self.bar = Progress(TextColumn("{task.description:<36}"), BarColumn(), DownloadColumn(), transient=True)
        self.bar.start()
        task = self.bar.add_task("copying", total=None)

        def update(path, done, total):
            self.bar.update(task, description=path, completed=done, total=total)

        return update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()


def cmd_uf2(args, out=sys.stdout):
    from host_tools import uf2

    try:
        path = uf2.build(args.board, args.output, args.jobs, out=out)
    except uf2.UF2Error as e:
        raise ValueError(str(e))
    out.write("wrote %s (%d bytes): hold BOOTSEL, plug the board in and copy it to the RPI-RP2 drive\n"
              % (path, os.path.getsize(path)))
    return 0


def cmd_pico(args, out=sys.stdout):
    import time

    from host_tools.pico import EmulatedPico, VirtualPico

    try:
        if args.emulator == "rp2040":
            image = args.image or os.path.join(os.path.expanduser("~"), ".dicetower", "rp2040-flash.img")
            os.makedirs(os.path.dirname(os.path.abspath(image)), exist_ok=True)
            pico = EmulatedPico(image, args.board)
            what = "an emulated RP2040 running MicroPython 1.27 with a %s's parts" % args.board
            flash_is = "its flash image: %s" % image
        else:
            os.makedirs(args.files, exist_ok=True)
            pico = VirtualPico(args.files, args.board)
            what = "a virtual %s" % args.board
            flash_is = "its flash: %s" % args.files
    except RuntimeError as e:
        out.write("dicetower pico: %s\n" % e)
        return 2
    with pico:
        out.write("%s on %s (%s); Ctrl-C stops it\n" % (what, pico.url, flash_is))
        if hasattr(os, "openpty"):
            out.write("its serial port: %s (the same REPL, as over USB)\n" % pico.open_pty())
        out.write("try: dicetower flash --port %s --board %s\n" % (pico.url, args.board))
        out.flush()
        try:
            while pico.process.poll() is None:
                time.sleep(0.5)
        except KeyboardInterrupt:
            return 0
        out.write("dicetower pico: the board stopped: %s\n" % (pico.stderr() or "exit %d" % pico.process.returncode))
    return 1


def cmd_hardware(args, out=sys.stdout):
    from host_tools import parts

    names = [args.board] if args.board else parts.profile_names()
    folder = args.out or os.path.join(parts.HARDWARE, args.what)
    for name in names:
        if args.what == "bom":
            text = parts.bom_markdown(name)
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, name + ".md")
            with open(path, "w") as f:
                f.write(text)
            out.write("%s\n" % path)
        elif args.what == "wiring":
            from host_tools import wiring

            out.write("%s\n" % " ".join(wiring.write(name, folder)))
        else:
            from host_tools import enclosure

            paths, _, seconds = enclosure.render(name, folder)
            out.write("%s (%.1f s)\n" % (" ".join(paths), seconds))
    return 0


def build_parser():
    parser = argparse.ArgumentParser(prog="dicetower", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    def add_source_options(p):
        p.add_argument("--seed", type=int, help="roll from a seed (replayable) instead of the OS")
        p.add_argument("--faces", help="set faces in order, e.g. Mutant,Skill,Tech (teaching, tests)")

    simulate = sub.add_parser("sim", help="the firmware on this laptop, with virtual buttons, OLED and ring")
    add_source_options(simulate)
    simulate.add_argument("--board", help="board profile from boards/ (default: pico, or the script's)")
    simulate.add_argument("--script", help="play this file of presses headless (- reads stdin), print JSON")
    simulate.add_argument("--png", help="with --script: write the tower as a PNG at each mark, or at the end")
    simulate.add_argument("--state-dir", help="the device's files (saves, settings) live here, to resume later")
    simulate.add_argument("--speed", type=float, default=1.0, help="the clock's speed (2 runs twice as fast)")
    simulate.add_argument("--web", type=int, metavar="PORT", help="serve the scoreboard's page on this port too "
                                                                  "(as a Pico W does for the phones at the table)")
    simulate.add_argument("--pin", help="with --web: phones that send this PIN may press the tower's buttons")
    simulate.set_defaults(run=cmd_sim)

    watch = sub.add_parser("monitor", help="follow a device's roll and score events live")
    watch.add_argument("--port", required=True, help="the device (/dev/ttyACM0) or a URL (socket://127.0.0.1:PORT)")
    watch.add_argument("--save", help="append the events to this file as JSON lines")
    watch.add_argument("--count", type=int, help="stop after this many events")
    watch.add_argument("--seconds", type=float, help="stop after this long")
    watch.set_defaults(run=cmd_monitor)

    report = sub.add_parser("stats", help="fairness of the dice in a saved event log, or rolled on a board")
    report.add_argument("log", nargs="?", help="a file of the device's JSON event lines (- reads stdin)")
    report.add_argument("--port", help="instead: roll on this board (a device or socket:// URL) with its own dice")
    report.add_argument("--rolls", type=int, default=6000, help="with --port: rolls per die kind (default 6000)")
    report.add_argument("--png", help="write a histogram of each die kind here")
    report.set_defaults(run=cmd_stats)

    put = sub.add_parser("flash", help="put the firmware on a board (only what changed; saves kept)")
    put.add_argument("--port", help="the board (/dev/ttyACM0, COM3) or a URL; found by itself if only one")
    put.add_argument("--board", help="the board profile from boards/ (default: the board's config.json, "
                                     "else the one matching its name)")
    put.add_argument("--dry-run", action="store_true", help="say what would be copied and removed; write nothing")
    put.add_argument("--runtime", choices=("micropython", "circuitpython"), default="micropython",
                     help="what runs on the board: MicroPython over its USB REPL (default), or CircuitPython "
                          "through its CIRCUITPY drive")
    put.add_argument("--drive", help="with --runtime circuitpython: the CIRCUITPY drive's folder (found by its "
                                     "name if only one)")
    put.set_defaults(run=cmd_flash)

    make = sub.add_parser("uf2", help="build one file to install: MicroPython with the firmware frozen in "
                                      "(drop it on the RPI-RP2 drive)")
    make.add_argument("--board", default="pico", help="the board profile it boots with: pico (default), "
                                                       "rp2040_zero, pico_w, pico2, pico2_w")
    make.add_argument("--output", help="where to write the UF2 (default build/dicetower-BOARD.uf2)")
    make.add_argument("--jobs", type=int, help="parallel compile jobs (default: every core)")
    make.set_defaults(run=cmd_uf2)

    pico = sub.add_parser("pico", help="run a virtual Pico (the MicroPython VM, or MicroPython's rp2 firmware on "
                                       "an emulated RP2040) to flash and monitor by hand")
    pico.add_argument("--emulator", choices=("vm", "rp2040"), default="vm",
                      help="vm: the MicroPython WebAssembly VM, its flash a folder (default); rp2040: the official "
                           "rp2 firmware on an emulated RP2040 (rp2040js), its flash a 2 MiB image")
    pico.add_argument("--files", default=os.path.join(os.path.expanduser("~"), ".dicetower", "pico"),
                      help="with --emulator vm: the virtual flash's folder (default ~/.dicetower/pico)")
    pico.add_argument("--image", help="with --emulator rp2040: the flash image (default ~/.dicetower/rp2040-flash.img, "
                                      "made on first use)")
    pico.add_argument("--board", default="pico", help="the parts wired to it, as a profile names them")
    pico.set_defaults(run=cmd_pico)
    build = sub.add_parser("hardware", help="the build: parts and power, wiring drawings, the printable tower")
    build.add_argument("what", choices=("bom", "wiring", "enclosure"),
                       help="bom: parts and power budget (Markdown); wiring: pin table, SVG and PNG;"
                            " enclosure: STL and PNG through OpenSCAD")
    build.add_argument("--board", help="one profile from boards/ (default: every profile)")
    build.add_argument("--out", help="the folder to write into (default: hardware/WHAT/)")
    build.set_defaults(run=cmd_hardware)

    roll = sub.add_parser("roll", help="a Battlerealm turn of the six dice in the terminal")
    add_source_options(roll)
    roll.add_argument("--ability", action="append", default=[], choices=ABILITIES,
                      help="a special ability of the rolling hero (repeatable)")
    roll.add_argument("--disorientated", action="store_true", help="one re-roll this turn")
    roll.add_argument("--in-prison", action="store_true", help="the hero starts in the Crystal Prison")
    roll.set_defaults(run=cmd_roll)

    throw = sub.add_parser("throw", help="roll the Attack Die, the Danger Coin or plain dice")
    add_source_options(throw)
    throw.add_argument("die", help="attack, coin, battlerealm or dN (d6, d20...)")
    throw.add_argument("count", nargs="?", type=int, default=1)
    throw.add_argument("--bonus", type=int, default=0, help="Attack Bonus added to the Attack Die")
    throw.add_argument("--target", type=int, help="Attack Target Number: say hit or miss")
    throw.set_defaults(run=cmd_throw)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (ValueError, RollRefused, EntropyFailure) as e:
        sys.stderr.write("dicetower: %s\n" % e)
        return 2
    except BrokenPipeError:  # e.g. `dicetower roll | head`: the reader left
        sys.stdout = open(os.devnull, "w")
        return 0


if __name__ == "__main__":
    sys.exit(main())
