"""A virtual `watchdog`: the modes microcontroller.watchdog takes."""


class WatchDogMode:
    RAISE = "RAISE"
    RESET = "RESET"
