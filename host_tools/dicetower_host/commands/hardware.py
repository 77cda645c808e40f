"""Make the build's documents from boards/ and hardware/parts.json: the bill of materials with
its power budget (Markdown), the wiring (pin table, SVG and PNG) and the printable enclosure
(STL and PNG, rendered by OpenSCAD). A file whose content would not change is left as it is."""

import os
import sys

from dicetower_host.errors import UserError

HELP = "the build: parts and power, wiring drawings, the printable tower"


def add_arguments(parser):
    parser.add_argument(
        "what",
        choices=("bom", "wiring", "enclosure"),
        help="bom: parts and power budget (Markdown); wiring: pin table, SVG and PNG;"
        " enclosure: STL and PNG through OpenSCAD",
    )
    parser.add_argument("--board", help="one profile from boards/ (default: every profile)")
    parser.add_argument(
        "--out", help="the folder to write into (default: hardware/WHAT/ of the checkout, else of the current folder)"
    )


def run(args, out=None):
    from dicetower_host import paths
    from dicetower_host.hardware import parts

    out = out or sys.stdout
    names = [args.board] if args.board else parts.profile_names()
    # An installed package's own data is not the place to write: the current folder is.
    folder = args.out or os.path.join(
        os.path.join(os.getcwd(), "hardware") if paths.INSTALLED else parts.HARDWARE, args.what
    )
    try:
        for name in names:
            out.write(make(args.what, name, folder) + "\n")
    except OSError as e:  # a folder that cannot be written, a file in the way
        raise UserError("cannot write the %s into %s: %s" % (args.what, folder, e.strerror or e))
    return 0


def make(what, name, folder):
    """Write one profile's documents of the kind `what` into `folder`; the line saying what was written."""
    from dicetower_host.hardware import parts

    if what == "bom":
        text = parts.bom_markdown(name)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, name + ".md")
        with open(path, "w") as f:
            f.write(text)
        return path
    if what == "wiring":
        from dicetower_host.hardware import wiring

        return " ".join(wiring.write(name, folder))
    from dicetower_host.hardware import enclosure

    kept = []
    made, _, seconds = enclosure.render(name, folder, kept=kept)
    return "%s (%.1f s)" % (" ".join(p + (" (unchanged)" if p in kept else "") for p in made), seconds)
