"""The Pico itself, for main.py: its machine module, clock, name and filesystem root.

A virtual platform with the same attributes (host_tools/virtual/devices.py)
lets the same main.py boot in tests and in the simulator.
"""


class Platform:
    def __init__(self):
        import machine
        import os
        import time

        self.machine = machine
        self.ticks_ms = time.ticks_ms
        self.ticks_diff = time.ticks_diff
        self.sleep_ms = time.sleep_ms
        self.machine_name = os.uname().machine
        self.root = "/"
        self.dice = None  # chosen from the chip

    def console(self, line):
        print(line)
