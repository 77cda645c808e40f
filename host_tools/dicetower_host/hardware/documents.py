"""`dicetower hardware`'s documents for a profile, written into a folder: the bill of materials
(Markdown), the wiring (pin table, SVG and PNG) or the enclosure (STL and PNG). A file whose content
would not change is left as it is."""

import os
import sys

from dicetower_host import paths
from dicetower_host.errors import UserError


def write(what, board=None, folder=None, out=None):
    """Write the documents of the kind `what` (bom, wiring, enclosure) for `board`, or for every profile,
    into `folder` (default: hardware/WHAT/ of the checkout, else of the current folder), a line for each.
    The exit status."""
    from dicetower_host.hardware import parts

    out = out or sys.stdout
    names = [board] if board else parts.profile_names()
    # An installed package's own data is not the place to write: the current folder is.
    folder = folder or os.path.join(os.path.join(os.getcwd(), "hardware") if paths.INSTALLED else parts.HARDWARE, what)
    try:
        for name in names:
            out.write(make(what, name, folder) + "\n")
    except OSError as e:  # a folder that cannot be written, a file in the way
        raise UserError("cannot write the %s into %s: %s" % (what, folder, e.strerror or e))
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
