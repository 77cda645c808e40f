"""The board under the firmware: its parts, clock, name and filesystem, for the runtime it runs.

`make()` looks at `sys.implementation.name` and imports only that runtime's
modules: MicroPython's `machine` here, CircuitPython's `board`, `busio`,
`digitalio` and `neopixel` in hw/circuitpy.py. The shell (device.py,
startup.py) reaches a runtime only through a platform, written down here once;
tests/test_protocols.py checks every platform (Platform here, hw/circuitpy's,
the virtual ones in host_tools/dicetower_host/virtual_parts/) offers all of it.

A platform, the runtime seam:
    root                          the filesystem's root: "/" on a board
    machine_name                  the board as MicroPython names it, "Raspberry Pi Pico with RP2040"
    files                         None (the board's own filesystem) or one standing in for it (hw/storage.py)
    dice                          None (dice from entropy_sources) or dice standing in for them
    console(line)                 print one line of the log
    ticks_ms()                    the clock, in ms
    ticks_diff(a, b)              a - b in ms, across the clock's wrap
    i2c(spec)                     the I2C bus of a profile's "oled" entry
    input(pin, pull)              a button's pin: value() is 0 or 1; pull is "up", "down" or "none"
    ring(pin, count, order, cap)  the LED ring (hw/pixels.py's calls)
    pwm(pin)                      a PWM output with freq() and duty_u16(), for the buzzer
    watchdog(ms)                  a started watchdog with feed()
    entropy_sources()             the chip's entropy sources, best first (core/entropy.py's protocol)
The device also calls `collect()` (a garbage collection at idle), `ticks_us()` (a press's time for
the dice; else 1000 x ticks_ms), `network()` (MicroPython's `network`, or None) and `reset()` (the
board restarted now: the loop's last resort when `watchdog` cannot start one) where a platform has
them, and
main.py calls `run(device)` (the loop for ever) on a board; the test bench and
the simulator step the device themselves.
"""


def ticks_diff(a, b):
    """a - b: the clock difference a driver uses when given none (a host's clock, which never wraps).
    A board's platform gives its runtime's own, which counts across the wrap."""
    return a - b


def make():
    """The platform for the runtime this code runs on."""
    import sys

    if sys.implementation.name == "circuitpython":
        from dicetower.hw.circuitpy import Platform as CircuitPythonPlatform

        return CircuitPythonPlatform()
    return Platform()


class MachineParts:
    """Parts made with MicroPython's `machine` module (`self.machine`: the real one or the virtual one)."""

    files = None  # the device's own filesystem (hw/storage.OsFiles)

    def __init__(self, machine, machine_name):
        self.machine = machine
        self.machine_name = machine_name

    def i2c(self, spec):
        m = self.machine
        return m.I2C(spec["i2c"], scl=m.Pin(spec["scl"]), sda=m.Pin(spec["sda"]), freq=spec["freq"])

    def input(self, pin, pull):
        """A button's pin: `value()` is 0 or 1. `pull` is "up", "down" or "none"."""
        m = self.machine
        return m.Pin(pin, m.Pin.IN, {"up": m.Pin.PULL_UP, "down": m.Pin.PULL_DOWN, "none": None}[pull])

    def ring(self, pin, count, order, cap):
        from dicetower.hw.pixels import Ring

        m = self.machine
        return Ring(m.Pin(pin, m.Pin.OUT), count, order, cap, m.bitstream)

    def pwm(self, pin):
        m = self.machine
        return m.PWM(m.Pin(pin))

    def network(self):
        """MicroPython's `network` on a board with a radio (Pico W, Pico 2 W), else None."""
        try:
            import network  # type: ignore[import-not-found]  # (the Pico's stubs have none; the Pico W's do)
        except ImportError:
            return None
        return network

    def watchdog(self, ms):
        return self.machine.WDT(timeout=ms)

    def reset(self):
        self.machine.reset()

    def entropy_sources(self):
        from dicetower.hw.entropy import sources_for

        return sources_for(self.machine_name)

    def run(self, device):
        """Serve the device for ever: asyncio tasks for the buttons and the lights."""
        import asyncio

        serve = device.serve()
        if hasattr(asyncio, "run"):
            asyncio.run(serve)
        else:  # the WebAssembly port (the virtual Pico): the host's event loop runs the tasks
            asyncio.create_task(serve)


class Platform(MachineParts):
    """A Pico running MicroPython."""

    def __init__(self):
        import machine
        import sys
        import time

        import gc

        MachineParts.__init__(self, machine, _machine_name(sys))
        self.collect = gc.collect  # the loop collects at idle (Device._work); a virtual platform has none
        self.ticks_ms = time.ticks_ms
        self.ticks_us = time.ticks_us  # a press's time for the dice (Device._work)
        self.ticks_diff = time.ticks_diff
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
