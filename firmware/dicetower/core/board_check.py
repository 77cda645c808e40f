"""A board profile's JSON text read and checked, field by field, into the `Board` core/board.py keeps.

Boot's alone: the device forgets it once up (device.py), as it forgets startup.py.
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

import json

from dicetower.core.board import Board, BoardError

BUTTONS = ("a", "b", "c")  # the three every board must have
OPTIONAL_BUTTONS = ("d1", "d2", "d3", "d4", "d5", "d6", "enc_a", "enc_b", "enc_push")
ORDERS = ("RGB", "GRB", "RGBW", "GRBW")
# RP2040 / RP2350 I2C pin functions (datasheet, GPIO function table).
I2C_SDA = {0: (0, 4, 8, 12, 16, 20, 24, 28), 1: (2, 6, 10, 14, 18, 22, 26)}
I2C_SCL = {0: (1, 5, 9, 13, 17, 21, 25, 29), 1: (3, 7, 11, 15, 19, 23, 27)}
_MAX_PIN = const(29)


def _field(data, key, what, kind):
    if not isinstance(data, dict) or key not in data:
        raise BoardError("%s is missing" % what)
    value = data[key]
    if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise BoardError("%s must be a whole number, not %r" % (what, value))
    if kind is str and not isinstance(value, str):
        raise BoardError("%s must be text, not %r" % (what, value))
    if kind is dict and not isinstance(value, dict):
        raise BoardError("%s must be an object" % what)
    return value


def _pin(data, key, what):
    pin = _field(data, key, what, int)
    if not 0 <= pin <= _MAX_PIN:
        raise BoardError("%s is GP%d; the chip has GP0 to GP%d" % (what, pin, _MAX_PIN))
    return pin


def _check_oled(data):
    """The OLED's bus, its SDA/SCL pins on that bus, its address and clock."""
    oled = _field(data, "oled", "oled", dict)
    bus = _field(oled, "i2c", "oled.i2c", int)
    if bus not in (0, 1):
        raise BoardError("oled.i2c must be 0 or 1, not %d" % bus)
    sda = _pin(oled, "sda", "oled.sda")
    scl = _pin(oled, "scl", "oled.scl")
    if sda not in I2C_SDA[bus]:
        raise BoardError("oled.sda GP%d is not an SDA pin of I2C%d (try GP%s)" % (sda, bus, I2C_SDA[bus][:4]))
    if scl not in I2C_SCL[bus]:
        raise BoardError("oled.scl GP%d is not an SCL pin of I2C%d (try GP%s)" % (scl, bus, I2C_SCL[bus][:4]))
    if _field(oled, "address", "oled.address", int) not in (0x3C, 0x3D):
        raise BoardError("oled.address must be 60 (0x3C) or 61 (0x3D)")
    _field(oled, "freq", "oled.freq", int)


def _check_buttons(data):
    """Buttons a, b and c, nothing the firmware does not know, and encoders in pairs."""
    buttons = _field(data, "buttons", "buttons", dict)
    for name in BUTTONS:
        if name not in buttons:
            raise BoardError("buttons.%s is missing: every board needs buttons a, b and c" % name)
    for name in buttons:
        if name not in BUTTONS and name not in OPTIONAL_BUTTONS:
            raise BoardError("buttons.%s is not a button the firmware knows" % name)
        spec = _field(buttons, name, "buttons." + name, dict)
        _pin(spec, "pin", "buttons.%s.pin" % name)
        if spec.get("pull", "up") not in ("up", "down", "none"):
            raise BoardError("buttons.%s.pull must be up, down or none" % name)
    if ("enc_a" in buttons) != ("enc_b" in buttons):
        raise BoardError("a rotary encoder needs both buttons.enc_a and buttons.enc_b")


def parse(text):
    """A Board from a profile's JSON text, or BoardError."""
    try:
        data = json.loads(text)
    except Exception:  # noqa: BLE001 (any parser error (too deep, out of memory, no text) is a profile not to use)
        raise BoardError("the profile is not valid JSON")
    if not isinstance(data, dict):
        raise BoardError("the profile must be a JSON object")
    _field(data, "name", "name", str)
    _field(data, "machine", "machine", str)
    if _field(data, "chip", "chip", str) not in ("RP2040", "RP2350"):
        raise BoardError("chip must be RP2040 or RP2350, not %r" % data["chip"])
    # The two longest parts' checks are helpers; the order of all is the profile's, first wrong field first.
    _check_oled(data)
    leds = _field(data, "leds", "leds", dict)
    _pin(leds, "pin", "leds.pin")
    if not 1 <= _field(leds, "count", "leds.count", int) <= 64:
        raise BoardError("leds.count must be 1 to 64")
    if _field(leds, "order", "leds.order", str) not in ORDERS:
        raise BoardError("leds.order must be one of %s" % ", ".join(ORDERS))
    if not 20 <= _field(leds, "budget_ma", "leds.budget_ma", int) <= 2000:
        raise BoardError("leds.budget_ma must be 20 to 2000 (mA)")
    _check_buttons(data)
    if data.get("buzzer") is not None:
        _pin(data, "buzzer", "buzzer")
    if data.get("wifi") is not None and not isinstance(data["wifi"], bool):
        raise BoardError("wifi must be true or false")
    if data.get("status_led") is not None:
        _pin(_field(data, "status_led", "status_led", dict), "pin", "status_led.pin")
    board = Board(data)
    seen = {}
    for pin, use in board.pins():
        if pin in seen:
            raise BoardError("GP%d is used twice: %s and %s" % (pin, seen[pin], use))
        seen[pin] = use
    return board
