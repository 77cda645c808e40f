"""Make the build's documents from boards/ and hardware/parts.json: the bill of materials with
its power budget (Markdown), the wiring (pin table, SVG and PNG) and the printable enclosure
(STL and PNG, rendered by OpenSCAD). A file whose content would not change is left as it is."""

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
    from dicetower_host.hardware.documents import write

    return write(args.what, args.board, args.out, out)
