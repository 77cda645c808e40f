"""CircuitPython under the same firmware: its board, busio, digitalio, neopixel and supervisor as the device's parts.

Only this module imports CircuitPython's own modules (and firmware/boot.py,
`storage`, at power-up); hw/platform.make() picks it when
`sys.implementation.name` is "circuitpython". Everything above it
(device.py, the games, the screens, the LED scenes, the button logic) is the
code MicroPython runs.

- Pins: a profile's GP numbers are `board.GP<n>`, else `microcontroller.pin.GPIO<n>`.
- Buttons: `digitalio` inputs polled by hw/buttons.py, so debounce, long and
  double presses are the same code and timing as on MicroPython (`keypad`
  would debounce once more in the background, on its own clock).
- OLED: hw/oled.py over `busio.I2C` through `LockedI2C`: busio wants
  try_lock/unlock around a transfer and has no writevto, and its constructor
  raises RuntimeError when SDA and SCL have no pull-ups (no display wired),
  which becomes the OSError the driver already survives and retries.
- Ring: Adafruit's `neopixel` library, in the profile's colour order, at
  brightness 1.0: the firmware's own cap is applied first, in the same
  integers as on MicroPython, so both runtimes send the same bytes.
- Dice: `os.urandom`, behind the same health tests. On the RP2040 it is a
  SHA-256 generator seeded from the ring oscillator: the tests see hashed
  output, which is why MicroPython reads the raw bit instead.
- Saves: the drive is read-only to code unless firmware/boot.py remounted it
  at power-up; a save then fails with EROFS and the game goes on in memory.
- Clock: `supervisor.ticks_ms`, which wraps at 2**29 ms.
"""

from dicetower.hw.pixels import Pixels

TICKS_PERIOD = 1 << 29
TICKS_HALF = TICKS_PERIOD >> 1


def ticks_diff(a, b):
    """a - b in ms across supervisor.ticks_ms's wrap (as adafruit_ticks does it)."""
    return ((a - b + TICKS_HALF) & (TICKS_PERIOD - 1)) - TICKS_HALF


def sleep_ms(ms):
    import time

    time.sleep(ms / 1000)


def machine_name(reported):
    """os.uname().machine in MicroPython's words: CircuitPython writes the chip in lower case
    ("Raspberry Pi Pico with rp2040", "... with rp2350a") where MicroPython writes "RP2040", "RP2350"."""
    name, sep, chip = reported.rpartition(" with ")
    if not sep:
        return reported
    chip = chip.upper()
    if chip.startswith("RP2350"):
        chip = "RP2350"  # rp2350a, rp2350b: two packages of one chip
    return name + " with " + chip


def pin(number):
    """The CircuitPython pin for a profile's GP number."""
    import board

    found = getattr(board, "GP%d" % number, None)
    if found is None:
        import microcontroller

        # microcontroller.pin's names are the chip's own, made per port (not in the stubs).
        found = getattr(getattr(microcontroller, "pin", None), "GPIO%d" % number, None)
    if found is None:
        raise ValueError("GP%d is not a pin of this board" % number)
    return found


class Level:
    """A digitalio input as hw/buttons.py reads a pin: value() is 0 or 1."""

    def __init__(self, io):
        self.io = io

    def value(self):
        return 1 if self.io.value else 0


def button_input(number, pull):
    import digitalio

    io = digitalio.DigitalInOut(pin(number))
    io.switch_to_input(pull={"up": digitalio.Pull.UP, "down": digitalio.Pull.DOWN, "none": None}[pull])
    return io


class LockedI2C:
    """busio.I2C with MicroPython's writeto/writevto, locked around each transfer, made when first used."""

    def __init__(self, scl, sda, freq):
        self._scl = scl
        self._sda = sda
        self._freq = freq
        self._bus = None
        self._joined = bytearray(129)  # a control byte and one page's 128 columns: writevto without allocating

    def _open(self):
        if self._bus is None:
            import busio

            try:
                self._bus = busio.I2C(self._scl, self._sda, frequency=self._freq)
            except RuntimeError as e:  # "No pull up found on SDA or SCL": nothing wired there
                raise OSError(5, str(e))
        return self._bus

    def writeto(self, address, buf, end=None):
        bus = self._open()
        while not bus.try_lock():
            pass
        try:
            bus.writeto(address, buf, end=len(buf) if end is None else end)
        finally:
            bus.unlock()

    def writevto(self, address, vector):
        joined = self._joined
        n = 0
        for part in vector:
            k = len(part)
            if n + k > len(joined):  # longer than a page: grow once, keeping what is joined so far
                grown = bytearray(n + k)
                grown[:n] = joined[:n]
                joined = self._joined = grown
            joined[n : n + k] = part
            n += k
        self.writeto(address, joined, n)


class NeoPixelRing(Pixels):
    """The ring through Adafruit's neopixel library (and its adafruit_pixelbuf)."""

    def __init__(self, data_pin, count, order="GRB", cap=1.0):
        import neopixel  # ImportError when /lib lacks it: device.py says so on the OLED

        Pixels.__init__(self, count, order, cap)
        self.pixels = neopixel.NeoPixel(
            data_pin, count, bpp=self.bpp, brightness=1.0, auto_write=False, pixel_order=order
        )

    def _put(self, i, r, g, b):
        if self.bpp == 3:
            self.pixels[i] = (r << 16) | (g << 8) | b  # a packed small int: nothing allocated per LED
        else:
            self.pixels[i] = (r, g, b, 0)  # all four given, so the library never moves a grey to the white LED

    def _send(self):
        self.pixels.show()


class Pwm:
    """pwmio.PWMOut with machine.PWM's freq() and duty_u16(), for the buzzer."""

    def __init__(self, out_pin):
        import pwmio

        self.out = pwmio.PWMOut(out_pin, duty_cycle=0, frequency=1000, variable_frequency=True)

    def freq(self, hz):
        self.out.frequency = hz

    def duty_u16(self, value):
        self.out.duty_cycle = value


class Watchdog:
    def __init__(self, ms):
        import microcontroller
        import watchdog

        dog = microcontroller.watchdog
        if dog is None:
            raise RuntimeError('this board has no watchdog; set "watchdog": false in config.json')
        dog.timeout = min(ms, 8388) / 1000  # the RP2040's longest, as MicroPython's WDT caps it
        dog.mode = watchdog.WatchDogMode.RESET
        self.dog = dog

    def feed(self):
        self.dog.feed()


class Parts:
    """The device's parts on CircuitPython (the same calls as hw/platform.MachineParts)."""

    files = None  # the drive, through hw/storage.OsFiles

    def __init__(self, machine_name):
        self.machine_name = machine_name

    def i2c(self, spec):
        # CircuitPython picks the I2C block from the pins; the profile's bus number is implied by them.
        return LockedI2C(pin(spec["scl"]), pin(spec["sda"]), spec["freq"])

    def input(self, number, pull):
        return Level(button_input(number, pull))

    def ring(self, number, count, order, cap):
        return NeoPixelRing(pin(number), count, order, cap)

    def pwm(self, number):
        return Pwm(pin(number))

    def watchdog(self, ms):
        return Watchdog(ms)

    def reset(self):
        import microcontroller

        microcontroller.reset()

    def entropy_sources(self):
        from dicetower.hw.entropy import Urandom, chip_of

        return (Urandom(name="%s os.urandom (CircuitPython)" % (chip_of(self.machine_name) or "board")),)


class Platform(Parts):
    """A board running CircuitPython."""

    def __init__(self):
        import gc
        import os

        import supervisor

        Parts.__init__(self, machine_name(os.uname().machine))
        self.collect = gc.collect  # the loop collects at idle (Device._work); a virtual platform has none
        self.ticks_ms = supervisor.ticks_ms
        self.ticks_diff = ticks_diff
        self.root = "/"
        self.dice = None

    def console(self, line):
        print(line)

    def run(self, device):
        """The device's loop (`Device.tick`) for ever, in a plain loop: a bare CircuitPython has no
        asyncio (it is a bundle library), and one schedule needs none."""
        while True:
            sleep_ms(device.tick(self.ticks_ms()))
