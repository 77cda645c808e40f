"""`network` for a board with Wi-Fi where no radio answers (the MicroPython VM; the emulated RP2040,
which has no CYW43): installed as sys.modules["network"], it answers as a radio that came up, so the
device makes its link and the phones' scoreboard as on a Pico W. Used by the heap probes
(tests/heap_probe.py, benchmarks/rp2040/game_heap_probe.py)."""

AP_IF = 1
STA_IF = 0


class WLAN:
    def __init__(self, interface=STA_IF):
        self.on = False

    def config(self, *args, **kw):
        pass

    def active(self, on=None):
        if on is None:
            return self.on
        self.on = on

    def connect(self, name, key):
        pass

    def isconnected(self):
        return self.on

    def status(self, *args):
        return 3  # CYW43_LINK_UP

    def ifconfig(self):
        return ("192.168.4.1", "255.255.255.0", "", "")
