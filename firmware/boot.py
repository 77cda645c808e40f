"""CircuitPython runs this at power-up, before USB starts: who may write the drive.

The game saves only if the code may write; the computer copies files only if
it may. By default the game gets the drive; hold C while plugging the tower
in to give it to the computer instead (to flash, or to copy files by hand).
MicroPython also runs a boot.py at power-up; `dicetower flash` sends this one
only to CircuitPython boards, and on MicroPython it would do nothing.
"""

import sys

HOLD_AT_POWER_UP = "c"  # the button that, held while plugging in, leaves the drive to the computer


def give_drive_to_code(root="/", machine=None):
    """Let the game save, unless the maker holds C.

    CircuitPython lets either the computer (over USB) or the code write the
    drive, never both. By default the code gets it, so games are saved; holding
    C while plugging in leaves it to the computer, to copy files or flash.
    Returns True when the code got it. A board whose profile cannot be read
    leaves the drive to the computer, so the files can be fixed.
    """
    import storage

    from dicetower.core.board import BoardError
    from dicetower.hw.circuitpy import button_input, machine_name
    from dicetower.startup import board, config

    if machine is None:
        import os

        machine = machine_name(os.uname().machine)
    settings = config(root, lambda line: None)
    try:
        spec = board(root, settings.get("board"), machine).buttons[HOLD_AT_POWER_UP]
    except BoardError:
        return False
    pull = spec.get("pull", "up")
    io = button_input(spec["pin"], pull)
    held = io.value == (pull == "down")
    io.deinit()  # code.py takes the pin again
    if held:
        return False
    storage.remount("/", readonly=False)
    return True


if sys.implementation.name == "circuitpython":
    give_drive_to_code()
