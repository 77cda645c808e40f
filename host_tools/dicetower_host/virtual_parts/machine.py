"""A virtual `machine` module: the calls the firmware makes, wired to devices.BENCH."""

import devices


def _bench():
    return devices.BENCH


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4  # the rp2 port's values
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        if not isinstance(id, int) or not 0 <= id <= 29:
            raise ValueError("invalid pin")
        self.id = id
        self.mode = mode
        self.pull = pull
        self._out = value if value is not None else 0

    def init(self, mode=-1, pull=-1, value=None):
        self.mode = mode
        self.pull = pull

    def value(self, v=None):
        if v is not None:
            self._out = 1 if v else 0
            return None
        bench = _bench()
        levels = bench.levels
        if self.id in levels:
            bench.reads += 1  # the loop came by: a press can be answered once it has (vm/pico.mjs)
            return levels[self.id]
        if self.mode == self.OUT:
            return self._out
        return 1 if self.pull == self.PULL_UP else 0

    def __call__(self, v=None):
        return self.value(v)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        """The handler runs as soon as the bench changes the pin's level, as a hard interrupt would."""
        bench = _bench()
        if handler is None:
            bench.irqs.pop(self.id, None)
        else:
            bench.irqs[self.id] = (handler, trigger, self)

    def on(self):
        self._out = 1

    def off(self):
        self._out = 0


class I2C:
    def __init__(self, id, scl=None, sda=None, freq=400000, timeout=50000):
        if id not in (0, 1):
            raise ValueError("I2C(%r) doesn't exist" % (id,))
        self.id = id
        self.freq = freq
        self.scl = scl
        self.sda = sda

    def _device(self, addr):
        device = _bench().i2c.get((self.id, addr))
        if device is None or not device.present:
            raise OSError(5)  # EIO: no ACK, as on the rp2 port
        return device

    def scan(self):
        return sorted(a for (bus, a), d in _bench().i2c.items() if bus == self.id and d.present)

    def writeto(self, addr, buf, stop=True):
        self._device(addr).receive(bytes(buf))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = b"".join(bytes(v) for v in vector)
        self._device(addr).receive(data)
        return len(data)


SoftI2C = I2C


def bitstream(pin, encoding, timing, buf):
    strip = _bench().strips.get(pin.id)
    if strip is not None:
        strip.receive(buf)


class PWM:
    """A PWM output (the buzzer): records its frequency and duty."""

    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16
        _bench().pwm[pin.id] = self

    def freq(self, value=None):
        if value is None:
            return self._freq
        self._freq = value

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        self._duty = value

    def deinit(self):
        self._duty = 0


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = min(timeout, 8388)
        self.fed = 0
        _bench().watchdog = self

    def feed(self):
        self.fed += 1


class _Mem:
    def __getitem__(self, address):
        return 0

    def __setitem__(self, address, value):
        pass


mem32 = _Mem()


def freq(hz=None):
    return 125000000


def unique_id():
    return b"\xd1\xce\x70\x3e\x00\x00\x00\x01"


def reset():
    raise SystemExit("machine.reset()")
