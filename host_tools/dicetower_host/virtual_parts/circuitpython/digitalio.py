"""A virtual `digitalio`: inputs read the bench's levels (buttons), outputs keep their value."""

import devices


class Direction:
    INPUT = "INPUT"
    OUTPUT = "OUTPUT"


class Pull:
    UP = "UP"
    DOWN = "DOWN"


class DriveMode:
    PUSH_PULL = "PUSH_PULL"
    OPEN_DRAIN = "OPEN_DRAIN"


def claim(pin):
    """CircuitPython refuses a pin that something else holds: "GP16 in use"."""
    held = devices.BENCH.__dict__.setdefault("claimed", set())
    if pin.id in held:
        raise ValueError("GP%d in use" % pin.id)
    held.add(pin.id)


def release(pin):
    devices.BENCH.__dict__.setdefault("claimed", set()).discard(pin.id)


class DigitalInOut:
    def __init__(self, pin):
        claim(pin)
        self.pin = pin
        self.direction = Direction.INPUT
        self.pull = None
        self._value = False

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self.direction = Direction.OUTPUT
        self._value = bool(value)

    @property
    def value(self):
        if self.direction == Direction.OUTPUT:
            return self._value
        level = devices.BENCH.levels.get(self.pin.id)
        if level is None:
            return self.pull == Pull.UP
        return bool(level)

    @value.setter
    def value(self, v):
        if self.direction != Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self._value = bool(v)

    def deinit(self):
        release(self.pin)
