"""CircuitPython runs this at power-up, before USB starts: who may write the drive.

The game saves only if the code may write; the computer copies files only if
it may. By default the game gets the drive; hold C while plugging the tower
in to give it to the computer instead (to flash, or to copy files by hand).
See dicetower/hw/circuitpy.give_drive_to_code and the README. MicroPython
also runs a boot.py at power-up: there this does nothing.
"""

import sys

if sys.implementation.name == "circuitpython":
    from dicetower.hw.circuitpy import give_drive_to_code

    give_drive_to_code()
