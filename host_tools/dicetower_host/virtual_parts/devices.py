"""The devices behind the virtual `machine`: SSD1306, WS2812 strip, clock, and the wiring.

`BENCH` is the one bench of parts the virtual `machine` module reaches:
pins by number, I2C devices by bus and address, strips by pin. A test (or
the simulator) builds it, boots the firmware, presses buttons and reads the
OLED's memory and the strip's bytes.
"""


class Clock:
    """Milliseconds that move only when the test says so."""

    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.now += ms

    def advance(self, ms):
        self.now += ms


class SSD1306:
    """A 128x64 SSD1306 on I2C: decodes command and data bytes into its GDDRAM.

    Supports the commands a driver uses: addressing mode (horizontal,
    vertical, page), column and page windows, page-mode start addresses,
    display on/off, contrast, invert, entire-display-on, and the set-up
    commands with their arguments (remap, multiplex, offset, clock, charge
    pump...), which it records.
    """

    ARGS = {
        0x20: 1,
        0x21: 2,
        0x22: 2,
        0x81: 1,
        0xA8: 1,
        0xD3: 1,
        0xD5: 1,
        0xD9: 1,
        0xDA: 1,
        0xDB: 1,
        0x8D: 1,
        0x26: 6,
        0x27: 6,
        0x29: 5,
        0x2A: 5,
        0xA3: 2,
    }

    def __init__(self, width=128, height=64):
        self.width = width
        self.pages = height // 8
        self.ram = bytearray(width * self.pages)
        self.on = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.mode = 2  # page addressing after reset
        self.col_start, self.col_end = 0, width - 1
        self.page_start, self.page_end = 0, self.pages - 1
        self.col, self.page = 0, 0
        self.settings = {}
        self.bytes_received = 0
        self.present = True  # False: the device does not ACK
        self._pending = []

    def receive(self, data):
        """One I2C write transaction: a control byte, then commands or data."""
        self.bytes_received += len(data)
        if not data:
            return
        control = data[0]
        if control & 0x40:
            for byte in data[1:]:
                self._data(byte)
        else:
            for byte in data[1:]:
                self._command_byte(byte)

    def _command_byte(self, byte):
        if self._pending:
            self._pending.append(byte)
            if len(self._pending) == self.ARGS[self._pending[0]] + 1:
                self._command(self._pending)
                self._pending = []
            return
        if byte in self.ARGS:
            self._pending = [byte]
            return
        self._command([byte])

    def _command(self, c):
        op = c[0]
        if op == 0x20:
            self.mode = c[1] & 3
        elif op == 0x21:
            self.col_start, self.col_end = c[1] & 0x7F, c[2] & 0x7F
            self.col = self.col_start
        elif op == 0x22:
            self.page_start, self.page_end = c[1] & 7, c[2] & 7
            self.page = self.page_start
        elif op == 0x81:
            self.contrast = c[1]
        elif op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif op in (0xA4, 0xA5):
            self.entire_on = op == 0xA5
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif 0x10 <= op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        else:
            self.settings[op] = list(c[1:])

    def _data(self, byte):
        self.ram[self.page * self.width + self.col] = byte
        if self.mode == 0:  # horizontal: columns, then pages
            if self.col >= self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
            else:
                self.col += 1
        elif self.mode == 1:  # vertical: pages, then columns
            if self.page >= self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col >= self.col_end else self.col + 1
            else:
                self.page += 1
        else:  # page mode: columns only
            if self.col < self.width - 1:
                self.col += 1

    def pixel(self, x, y):
        """What the panel shows at (x, y): 1 lit, 0 dark."""
        if not self.on:
            return 0
        if self.entire_on:
            return 1
        bit = (self.ram[(y // 8) * self.width + x] >> (y % 8)) & 1
        return bit ^ (1 if self.inverted else 0)

    def rows(self):
        """The screen as text rows of '#' and '.', for tests and the terminal."""
        return ["".join("#" if self.pixel(x, y) else "." for x in range(self.width)) for y in range(self.pages * 8)]


class Strip:
    """A WS2812 strip: the last byte stream it was sent, in its colour order."""

    def __init__(self, count, order="GRB"):
        self.count = count
        self.order = order
        self.data = bytes(len(order) * count)
        self.frames = 0

    def receive(self, data):
        self.data = bytes(data)
        self.frames += 1

    def rgb(self, i):
        """LED i as (r, g, b) from the bytes received."""
        n = len(self.order)
        chunk = self.data[i * n : (i + 1) * n]
        if len(chunk) < n:
            return (0, 0, 0)
        return (chunk[self.order.index("R")], chunk[self.order.index("G")], chunk[self.order.index("B")])


class Bench:
    """The parts wired to the virtual chip."""

    def __init__(self):
        self.clock = Clock()
        self.levels = {}  # pin -> level driven from outside (a button), or absent
        self.irqs = {}  # pin -> (handler, trigger, Pin): machine.Pin.irq's, called on each edge
        self.reads = 0  # reads of a driven pin (the buttons' loop polling)
        self.i2c = {}  # (bus, address) -> device
        self.strips = {}  # pin -> Strip
        self.drive_writable = False  # CircuitPython: code writes only after boot.py remounts the drive
        self.machine_name = "Raspberry Pi Pico with RP2040"
        self.pwm = {}  # pin -> PWM (the buzzer)
        self.watchdog = None

    def press(self, pin, pressed=True, active_low=True):
        self.drive(pin, (0 if pressed else 1) if active_low else (1 if pressed else 0))

    def drive(self, pin, level):
        """Hold the pin at `level`; an edge runs its interrupt handler, if it has one."""
        before = self.levels.get(pin)
        self.levels[pin] = level
        irq = self.irqs.get(pin)
        if irq is not None and before is not None and before != level:
            handler, trigger, obj = irq
            if trigger & (8 if level else 4):  # IRQ_RISING, IRQ_FALLING
                handler(obj)

    def release(self, pin, active_low=True):
        self.press(pin, False, active_low)


BENCH = Bench()


def reset():
    """A fresh bench (as if the board were swapped)."""
    global BENCH
    BENCH = Bench()
    return BENCH


class OnBench:
    """What main.boot() needs besides the parts, on the bench: clock, name, files, console."""

    def __init__(self, bench, root, dice=None):
        self.bench = bench
        self.ticks_ms = bench.clock.ticks_ms
        self.ticks_diff = bench.clock.ticks_diff
        self.machine_name = bench.machine_name
        self.root = root
        self.dice = dice
        self.lines = []

    def console(self, line):
        self.lines.append(line)


_PLATFORM = []


def Platform(bench, root, dice=None):
    """A MicroPython board on the bench: the firmware's own MachineParts over the virtual `machine`.

    Made on first use: the virtual Pico imports this module before any firmware is on its flash.
    """
    if not _PLATFORM:
        from dicetower.hw.platform import MachineParts

        class MicroPythonOnBench(OnBench, MachineParts):
            def __init__(self, bench, root, dice=None):
                import machine

                OnBench.__init__(self, bench, root, dice)
                MachineParts.__init__(self, machine, bench.machine_name)

        _PLATFORM.append(MicroPythonOnBench)
    return _PLATFORM[0](bench, root, dice)


def wire(bench, profile):
    """Put an SSD1306 and a strip where a board profile (parsed JSON dict) says they are."""
    oled = profile["oled"]
    panel = SSD1306()
    bench.i2c[(oled["i2c"], oled["address"])] = panel
    leds = profile["leds"]
    strip = Strip(leds["count"], leds["order"])
    bench.strips[leds["pin"]] = strip
    for spec in profile["buttons"].values():
        bench.levels[spec["pin"]] = 1  # pulled up, not pressed
    return panel, strip
