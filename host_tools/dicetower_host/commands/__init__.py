"""The `dicetower` subcommands, one module each.

Each module has a docstring (its `dicetower NAME --help` description), HELP (its line in
`dicetower --help`), add_arguments(parser) and run(args, out=None) -> exit status: the
arguments checked (which go together included) and one call into the room that does the work. A
UserError (dicetower_host.errors) raised by run() is printed as "dicetower: <reason>" with exit
status 2; any other exception is a bug and keeps its traceback.
"""


def positive(kind):
    """An argparse type: a number of `kind` above zero, or a one-line refusal."""
    import argparse

    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not value > 0 or value != value or value == float("inf"):
            raise argparse.ArgumentTypeError("must be a number above 0, not %r" % text)
        return value

    return parse


def port(text):
    """An argparse type for --port: a device path (/dev/ttyACM0, COM3) or a URL pyserial opens as
    mpremote does, checked before anything is opened (pyserial's own refusals are tracebacks)."""
    import argparse

    scheme, found, rest = text.partition("://")
    if not found:
        if not text.strip():
            raise argparse.ArgumentTypeError("give a device (/dev/ttyACM0, COM3) or socket://HOST:PORT")
        return text
    if scheme not in ("socket", "rfc2217"):
        raise argparse.ArgumentTypeError(
            "%r is not a port this command opens: give a device (/dev/ttyACM0, COM3) "
            "or socket://HOST:PORT (a virtual Pico's)" % text
        )
    host, colon, number = rest.split("?", 1)[0].rpartition(":")
    if not colon or not host or not number.isdecimal() or not 0 < int(number) < 65536:
        raise argparse.ArgumentTypeError(
            "%r needs a host and a port number, e.g. %s://127.0.0.1:41069" % (text, scheme)
        )
    return text


def png_file(text):
    """An argparse type for a picture to write: a file whose name ends in .png, not a folder."""
    import argparse
    import os

    if os.path.isdir(text) or not text.lower().endswith(".png"):
        raise argparse.ArgumentTypeError("%r is not a .png file to write: give a file name such as dice.png" % text)
    return text


def find_board():
    """The one board plugged in (flash's own search), or a UserError saying none or several."""
    from dicetower_host.errors import UserError
    from dicetower_host.flash import FlashError, find_port

    try:
        return find_port()
    except FlashError as e:
        raise UserError(str(e))


def add_source_options(parser, example="Mutant,Skill,Tech"):
    """The dice a host-side command rolls with: --seed or --faces, else the OS's entropy."""
    parser.add_argument("--seed", type=int, help="roll from a seed (replayable) instead of the OS")
    parser.add_argument("--faces", help="set faces in order, e.g. %s (teaching, tests)" % example)
