"""A board profile (boards/*.json) as the device keeps it: pins, I2C, LEDs, buttons.

A profile is data, not code. `parse` turns its JSON text into a `Board`, or
raises `BoardError` naming the field that is wrong, so the console (and the
OLED, when it works) can say exactly what to fix. `parse` and the checks are
core/board_check.py's, boot's modules, forgotten once the device is up: a
game's heap holds only the `Board` read (2.2 KB of .mpy less on a Pico).

The LED ring's brightness cap comes from the profile's current budget: a
WS2812 draws about 20 mA per colour channel at full (60 mA white), so
`cap = budget_ma / (count * 60)` (at most 1), applied to every channel.
With 12 LEDs and 300 mA (what a USB 2.0 port's 500 mA leaves after the Pico,
about 25 mA, the OLED, about 20 mA, and a margin) the cap is 0.42.
"""

MA_PER_LED_WHITE = 60


class BoardError(Exception):
    """The profile cannot drive this board; `str(e)` says which field is wrong."""


class Board:
    def __init__(self, data):
        self.name = data["name"]
        self.machine = data["machine"]
        self.chip = data["chip"]
        self.oled = data["oled"]
        self.leds = data["leds"]
        self.buttons = data["buttons"]
        self.buzzer = data.get("buzzer")
        self.status_led = data.get("status_led")
        self.wifi = data.get("wifi") is True  # a radio (Pico W, Pico 2 W): the scoreboard for phones
        self.cap = min(1.0, self.leds["budget_ma"] / (self.leds["count"] * MA_PER_LED_WHITE))

    def pins(self):
        """Every pin the profile uses, with what it is for."""
        used = [(self.oled["sda"], "OLED SDA"), (self.oled["scl"], "OLED SCL"), (self.leds["pin"], "LED ring")]
        for name in sorted(self.buttons):
            used.append((self.buttons[name]["pin"], "button " + name.upper()))
        if self.buzzer is not None:
            used.append((self.buzzer, "buzzer"))
        if self.status_led:
            used.append((self.status_led["pin"], "status LED"))
        return used
