"""The radio of a Pico W or Pico 2 W (MicroPython's `network`): the tower's own network, or the home one.

`Link(network, wifi, log)` with the settings of web/access.py. `keep()` brings the link up
and, called again later, back up after a loss; `address()` is the tower's IP address while
the link is up, else None. Nothing here raises: a radio that fails is logged, and the tower
plays on with the OLED alone (web/radio.py tries again every few seconds).
"""


class Link:
    def __init__(self, network, wifi, log):
        self.network = network
        self.wifi = wifi
        self.log = log
        self.wlan = None
        self._said = []  # the failures logged since the link was last up: each said once, not every few seconds

    def _fail(self, what, error):
        text = "Wi-Fi: %s: %s" % (what, error)
        if text not in self._said:
            self._said.append(text)
            self.log(text)

    def keep(self):
        """Up, or trying to be: True once the link carries traffic."""
        if self.up():
            return True
        wifi = self.wifi
        try:
            if self.wlan is None:
                ap = wifi["mode"] == "ap"
                self.wlan = self.network.WLAN(self.network.AP_IF if ap else self.network.STA_IF)
            if wifi["mode"] == "ap":
                try:
                    self.wlan.config(ssid=wifi["name"], key=wifi["password"])
                except (TypeError, ValueError):  # a port before 1.20 names them essid and password
                    self.wlan.config(essid=wifi["name"], password=wifi["password"])
                self.wlan.active(True)
            else:
                self.wlan.active(True)
                self.wlan.connect(wifi["name"], wifi["password"])
        except (OSError, RuntimeError, ValueError) as e:
            self._fail("could not start", e)
            return False
        return self.up()

    def up(self):
        if self.wlan is None:
            return False
        try:
            up = bool(self.wlan.active() if self.wifi["mode"] == "ap" else self.wlan.isconnected())
            if up:
                self._said = []  # a later loss is said again
            return up
        except OSError as e:
            self._fail("no answer", e)
            return False

    def address(self):
        """The tower's IP address while the link is up, else None."""
        wlan = self.wlan
        if wlan is None or not self.up():
            return None
        try:
            return wlan.ifconfig()[0]
        except (OSError, IndexError) as e:
            self._fail("no address", e)
            return None
