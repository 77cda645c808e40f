"""`dicetower pico --script`: a simulator script's presses and waits played on the board once its
firmware runs, its OLED printed at each mark and at the end."""

from dicetower_host.errors import UserError, typed
from dicetower_host.pico.board import BoardGone


def steps_of(path):
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


def play_on(pico, steps, out, script):
    """Once the firmware has lit the OLED, the script's presses and waits on the board; its OLED's
    lines at each mark and at the end. A board that stops, or stops answering, is BoardGone (one line)."""
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
