"""Wi-Fi on a Pico W: config.json's settings (web/access.py), the radio (hw/wifi.py) over a stand-in
for MicroPython's `network`, and the tower that makes its network's name and password at first boot
and shows them, with the address once the radio is up, on the start menu's Phones screen.
CPython and the VM.
"""

import json
import sys
import unittest

from dicetower.hw.wifi import Link
from dicetower.web import access
from table import Table


def counting_bytes():
    state = [0]

    def random_bytes(n):
        out = bytes((state[0] + 7 * i) % 256 for i in range(n))
        state[0] += n
        return out

    return random_bytes


class FakeWLAN:
    """network.WLAN as the rp2 port's CYW43 driver answers (what the tests need of it)."""

    fail = None  # an OSError to raise from active(), as a radio that does not answer

    def __init__(self, interface):
        self.interface = interface
        self.settings = {}
        self.on = False
        self.joined = None

    def config(self, **kw):
        self.settings.update(kw)

    def active(self, on=None):
        if FakeWLAN.fail is not None:
            raise FakeWLAN.fail
        if on is None:
            return self.on
        self.on = on

    def connect(self, name, key):
        self.joined = (name, key)

    def isconnected(self):
        return self.on and self.joined is not None

    def ifconfig(self):
        return ("192.168.4.1" if self.interface == FakeNetwork.AP_IF else "10.0.0.23", "255.255.255.0", "", "")


class FakeNetwork:
    AP_IF = 1
    STA_IF = 0
    made = []

    @classmethod
    def WLAN(cls, interface):
        wlan = FakeWLAN(interface)
        cls.made.append(wlan)
        return wlan


class Settings(unittest.TestCase):
    def test_a_first_boot_makes_its_own_network_with_a_password(self):
        log = []
        wifi, changed = access.settings({}, counting_bytes(), log.append)
        self.assertTrue(changed)
        self.assertEqual(wifi["mode"], "ap")
        self.assertTrue(wifi["name"].startswith("dicetower-") and len(wifi["name"]) == 14)
        self.assertEqual(len(wifi["password"]), 10)  # WPA2 wants 8 to 63
        self.assertTrue(all(c in access.LETTERS for c in wifi["password"]))
        self.assertEqual((wifi["shown_pin"], log), (None, []))
        self.assertFalse("shown_pin" in access.saved(wifi))

    def test_what_was_made_is_kept(self):
        wifi, _ = access.settings({}, counting_bytes(), print)
        again, changed = access.settings({"wifi": access.saved(wifi)}, counting_bytes(), print)
        self.assertFalse(changed)
        self.assertEqual((again["name"], again["password"]), (wifi["name"], wifi["password"]))

    def test_bad_values_are_said_and_replaced(self):
        log = []
        wifi, changed = access.settings(
            {"wifi": {"mode": "mesh", "password": "short", "pin": "12"}}, counting_bytes(), log.append
        )
        self.assertEqual(wifi["mode"], "ap")
        self.assertEqual(len(wifi["password"]), 10)
        self.assertEqual(wifi["shown_pin"], None)
        self.assertEqual(len(log), 3, log)
        log = []
        wifi, _ = access.settings({"wifi": {"mode": "join", "name": "home"}}, counting_bytes(), log.append)
        self.assertEqual(wifi["mode"], "ap")
        self.assertTrue("needs the network's name and password" in log[0])
        wifi, _ = access.settings({"wifi": "yes"}, counting_bytes(), log.append)
        self.assertEqual(wifi["mode"], "ap")

    def test_a_pin_is_fixed_or_new_at_each_boot(self):
        wifi, _ = access.settings({"wifi": {"pin": "2468"}}, counting_bytes(), print)
        self.assertEqual(wifi["shown_pin"], "2468")
        wifi, _ = access.settings({"wifi": {"pin": "random"}}, counting_bytes(), print)
        self.assertEqual(len(wifi["shown_pin"]), 4)
        self.assertTrue(wifi["shown_pin"].isdigit())
        self.assertEqual(access.saved(wifi)["pin"], "random")


class Radio(unittest.TestCase):
    def setUp(self):
        FakeWLAN.fail = None
        FakeNetwork.made = []

    def test_the_towers_own_network_is_an_access_point_with_the_password(self):
        wifi, _ = access.settings({}, counting_bytes(), print)
        link = Link(FakeNetwork, wifi, print)
        self.assertTrue(link.keep())
        wlan = FakeNetwork.made[0]
        self.assertEqual(wlan.interface, FakeNetwork.AP_IF)
        self.assertEqual(wlan.settings, {"ssid": wifi["name"], "key": wifi["password"]})
        self.assertEqual(link.address(), "192.168.4.1")

    def test_joining_the_home_network(self):
        wifi, _ = access.settings(
            {"wifi": {"mode": "join", "name": "home", "password": "hunter22"}}, counting_bytes(), print
        )
        link = Link(FakeNetwork, wifi, print)
        self.assertTrue(link.keep())
        self.assertEqual(FakeNetwork.made[0].joined, ("home", "hunter22"))
        self.assertEqual(link.address(), "10.0.0.23")

    def test_a_radio_that_fails_is_said_once_and_tried_again(self):
        log = []
        wifi, _ = access.settings({}, counting_bytes(), print)
        link = Link(FakeNetwork, wifi, log.append)
        FakeWLAN.fail = OSError(-1)
        self.assertFalse(link.keep())
        self.assertFalse(link.keep())
        self.assertEqual(link.address(), None)
        self.assertEqual(len([line for line in log if line.startswith("Wi-Fi: could not start")]), 1, log)
        FakeWLAN.fail = None  # the radio answers again
        self.assertTrue(link.keep())
        self.assertEqual(link.address(), "192.168.4.1")


def pico_w(config=None):
    """A Pico W on the bench, config.json naming its profile (as `dicetower flash` writes it)."""
    root = Table().root
    with open(root + "config.json", "w") as f:
        f.write(json.dumps(dict(config or {}, board="pico_w")))
    return Table(board="pico_w", root=root, keep_files=True)


class Tower(unittest.TestCase):
    def setUp(self):
        FakeWLAN.fail = None
        sys.modules["network"] = FakeNetwork

    def tearDown(self):
        del sys.modules["network"]

    def test_a_pico_w_keeps_its_network_in_config_and_offers_the_phones_screen(self):
        # The encoder as a board has it: not loaded (a test of the encoder itself may have imported it in
        # this process, and a scope never forgets what it did not load).
        sys.modules.pop("dicetower.ui.qr", None)
        t = pico_w()
        with open(t.root + "config.json") as f:
            kept = json.loads(f.read())["wifi"]
        self.assertEqual(kept["mode"], "ap")
        phones = t.app.phones
        self.assertEqual((phones["wifi"], phones["password"], phones["url"]), (kept["name"], kept["password"], None))
        self.assertTrue("Phones: scoreboard" in t.screen())
        t.presses("b b b b c")  # the fifth item: Phones
        screen = t.screen()
        self.assertEqual(t.app.mode, "phones")
        self.assertTrue(screen[1].startswith(kept["name"][:11]))
        self.assertTrue(screen[2].startswith("key " + kept["password"][:7]))
        self.assertTrue("Waiting for" in screen[4])
        t.app.phones["url"] = "http://192.168.4.1/"  # the server is up: the address, and its QR code
        t.app.changed = True
        t.wait(100)
        lines = t.screen()[4:6]
        self.assertEqual([line[:11] for line in lines], ["Scan, or go", "192.168.4.1"])
        self.assertTrue(all("~" in line[11:] for line in lines), lines)  # the code's modules, right of the text
        self.assertFalse("dicetower.ui.qr" in sys.modules)  # drawn from its kept modules: the encoder is let go
        t.presses("c")
        self.assertEqual(t.app.mode, "start")

    def test_a_pico_without_a_radio_has_no_phones_screen(self):
        t = Table(board="pico")
        self.assertEqual(t.app.phones, None)
        self.assertFalse("Phones: scoreboard" in t.screen())

    def test_wifi_off_in_config_starts_no_radio(self):
        t = pico_w({"wifi": {"mode": "off"}})
        self.assertEqual((t.app.phones, t.device.link), (None, None))


if __name__ == "__main__":
    unittest.main()
