"""The board `dicetower pico` runs: the virtual Pico (the VM, its flash a folder) or the emulated
RP2040 (its flash an image), started, or a UserError in one line."""

import os

from dicetower_host.errors import UserError
from dicetower_host.pico.board import profile_path
from dicetower_host.pico.rp2040 import EmulatedPico
from dicetower_host.pico.vm import VirtualPico


def flash_of(emulator, files, image=None):
    """Where the board's flash is kept: a folder (`files`), or the emulated chip's image."""
    if emulator == "rp2040":
        return image or os.path.join(os.path.expanduser("~"), ".dicetower", "rp2040-flash.img")
    return files


def start(emulator, files, image, board, firmware=None):
    """The board, and a line saying what it is."""
    profile_path(board)  # an unknown board is said before any folder is made
    try:
        if emulator == "rp2040":
            os.makedirs(os.path.dirname(os.path.abspath(flash_of(emulator, files, image))), exist_ok=True)
            pico = EmulatedPico(flash_of(emulator, files, image), board, firmware=firmware)
            return pico, "an emulated RP2040 running %s with a %s's parts" % (
                os.path.basename(pico.firmware),
                board,
            )
        os.makedirs(files, exist_ok=True)
        return VirtualPico(files, board), "a virtual %s" % board
    except RuntimeError as e:  # no Node.js, no npm, a board that did not start: said in one line
        raise UserError("the virtual Pico did not start: %s" % e) from None
    except OSError as e:  # a flash folder or image that cannot be made
        raise UserError("cannot use %s: %s" % (e.filename or files, e.strerror or e)) from None
