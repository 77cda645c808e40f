"""A virtual `busio.I2C`: the block comes from the pins, a transfer needs the lock, no pull-ups no bus."""

import devices

from dicetower.core.board_check import I2C_SCL, I2C_SDA


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        bus = 0 if sda.id in I2C_SDA[0] else 1 if sda.id in I2C_SDA[1] else None
        if bus is None or scl.id not in I2C_SCL[bus]:
            raise ValueError("Invalid pins")
        if not any(b == bus and d.present for (b, a), d in devices.BENCH.i2c.items()):
            # CircuitPython checks for the pull-up resistors, which live on the display's board.
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        self.bus = bus
        self.frequency = frequency
        self._locked = False

    def try_lock(self):
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def _need_lock(self):
        if not self._locked:
            raise RuntimeError("Function requires lock")

    def scan(self):
        self._need_lock()
        return sorted(a for (b, a), d in devices.BENCH.i2c.items() if b == self.bus and d.present)

    def writeto(self, address, buffer, *, start=0, end=None):
        self._need_lock()
        device = devices.BENCH.i2c.get((self.bus, address))
        if device is None or not device.present:
            raise OSError(19, "No such device")  # no ACK
        device.receive(bytes(buffer[start : len(buffer) if end is None else end]))

    def deinit(self):
        pass
