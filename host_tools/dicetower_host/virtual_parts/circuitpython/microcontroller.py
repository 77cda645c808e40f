"""A virtual `microcontroller`: the chip's pins by GPIO number, and its watchdog."""

import devices


class Pin:
    def __init__(self, number):
        self.id = number  # the bench keys parts by GPIO number

    def __repr__(self):
        return "board.GP%d" % self.id


class _Pins:
    pass


pin = _Pins()
for _n in range(30):
    setattr(pin, "GPIO%d" % _n, Pin(_n))


class _WatchDog:
    """microcontroller.watchdog: set timeout and mode, then feed."""

    def __init__(self):
        self.timeout = None
        self.mode = None
        self.fed = 0

    def feed(self):
        if self.mode is None:
            raise RuntimeError("WatchDogTimer is not currently running")
        self.fed += 1
        devices.BENCH.watchdog = self


watchdog = _WatchDog()
