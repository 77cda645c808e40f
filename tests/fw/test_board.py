"""Board profiles: the shipped ones load; a wrong one says which field. CPython and the VM."""

import json
import os
import unittest

from dicetower.core.board import BoardError
from dicetower.core.board_check import parse


def shipped():
    """The shipped profiles' texts: from the repo's boards/ (mounted at /boards on the VM)."""
    if "boards" in os.listdir("/"):
        folder = "/boards"
    else:
        folder = __file__.rsplit("/", 3)[0] + "/boards"
    return {name[:-5]: open(folder + "/" + name).read() for name in os.listdir(folder) if name.endswith(".json")}


def pico(**changes):
    data = json.loads(shipped()["pico"])
    for path, value in changes.items():
        place = data
        keys = path.split("__")
        for key in keys[:-1]:
            place = place[key]
        if value is None:
            del place[keys[-1]]
        else:
            place[keys[-1]] = value
    return json.dumps(data)


class Shipped(unittest.TestCase):
    def test_every_shipped_profile_loads(self):
        profiles = shipped()
        for name in ("pico", "pico_w", "pico2", "pico2_w", "rp2040_zero"):
            with self.subTest(board=name):
                board = parse(profiles[name])
                self.assertEqual(sorted(b for b in board.buttons if b in "abc"), ["a", "b", "c"])

    def test_machine_names_match_micropython(self):
        profiles = shipped()
        self.assertEqual(parse(profiles["pico"]).machine, "Raspberry Pi Pico with RP2040")
        self.assertEqual(parse(profiles["pico2"]).machine, "Raspberry Pi Pico2 with RP2350")

    def test_brightness_cap_from_the_current_budget(self):
        board = parse(shipped()["pico"])
        # 300 mA for 12 LEDs at 60 mA each (full white) -> 0.4167
        self.assertAlmostEqual(board.cap, 300 / 720, 4)


class Wrong(unittest.TestCase):
    def test_each_mistake_names_its_field(self):
        cases = (
            ("{", "not valid JSON"),
            (pico(oled__sda=5), "oled.sda GP5 is not an SDA pin of I2C0"),
            (pico(oled__scl=None), "oled.scl is missing"),
            (pico(oled__address=12), "oled.address"),
            (pico(leds__order="BGR"), "leds.order"),
            (pico(leds__count=0), "leds.count"),
            (pico(buttons__c=None), "buttons.c is missing"),
            (pico(buttons__c__pin=16), "GP16 is used twice: LED ring and button C"),
            (pico(buttons__c__pin=40), "buttons.c.pin is GP40"),
            (pico(buttons__zz={"pin": 20}), "buttons.zz is not a button"),
            (pico(chip="ESP32"), "chip must be RP2040 or RP2350"),
            (pico(buzzer="GP15"), "buzzer must be a whole number"),
        )
        for text, words in cases:
            with self.subTest(words=words):
                with self.assertRaises(BoardError) as caught:
                    parse(text)
                self.assertIn(words, str(caught.exception))
