"""The Pico itself, for main.py: its machine module, clock, name and filesystem root.

A virtual platform with the same attributes (host_tools/virtual/devices.py)
lets the same main.py boot in tests and in the simulator.
"""


class Platform:
    def __init__(self):
        import machine
        import sys
        import time

        self.machine = machine
        self.ticks_ms = time.ticks_ms
        self.ticks_diff = time.ticks_diff
        self.sleep_ms = time.sleep_ms
        self.machine_name = _machine_name(sys)
        self.root = "/"
        self.dice = None  # chosen from the chip

    def console(self, line):
        print(line)


def _machine_name(sys):
    """The board's name as MicroPython reports it, e.g. "Raspberry Pi Pico with RP2040"."""
    name = getattr(sys.implementation, "_machine", None)
    if name:
        return name
    import os

    return os.uname().machine  # ports that lack sys.implementation._machine
