"""Make the build's documents from boards/ and hardware/parts.json: the bill of materials with
its power budget (Markdown), the wiring (pin table, SVG and PNG) and the printable enclosure
(STL and PNG, rendered by OpenSCAD)."""

import os
import sys

HELP = "the build: parts and power, wiring drawings, the printable tower"


def add_arguments(parser):
    parser.add_argument("what", choices=("bom", "wiring", "enclosure"),
                        help="bom: parts and power budget (Markdown); wiring: pin table, SVG and PNG;"
                             " enclosure: STL and PNG through OpenSCAD")
    parser.add_argument("--board", help="one profile from boards/ (default: every profile)")
    parser.add_argument("--out", help="the folder to write into (default: hardware/WHAT/ of the checkout, "
                                      "else of the current folder)")


def run(args, out=None):
    from dicetower_host import parts, paths

    out = out or sys.stdout
    names = [args.board] if args.board else parts.profile_names()
    # An installed package's own data is not the place to write: the current folder is.
    folder = args.out or os.path.join(os.path.join(os.getcwd(), "hardware") if paths.INSTALLED else parts.HARDWARE,
                                      args.what)
    for name in names:
        if args.what == "bom":
            text = parts.bom_markdown(name)
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, name + ".md")
            with open(path, "w") as f:
                f.write(text)
            out.write("%s\n" % path)
        elif args.what == "wiring":
            from dicetower_host import wiring

            out.write("%s\n" % " ".join(wiring.write(name, folder)))
        else:
            from dicetower_host import enclosure

            paths_written, _, seconds = enclosure.render(name, folder)
            out.write("%s (%.1f s)\n" % (" ".join(paths_written), seconds))
    return 0
