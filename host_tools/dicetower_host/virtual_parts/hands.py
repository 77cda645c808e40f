"""Hands on the virtual Pico's bench, for vm/pico.mjs's control port (runs inside the VM).

The bridge wires the parts a board profile names (`wire`) before every boot,
and passes each control line to `reply`: a JSON object with one request,
answered with one JSON object.

  {"press": "a"}     hold button A down (active low, as the profile says)
  {"release": "a"}   let it go
  {"oled": true}     the OLED's memory (hex) and whether it is on; the host reads the text,
                     so reading does not depend on the firmware files on the board
  {"leds": true}     the ring's colours, [r, g, b] per LED

The emulated RP2040 (rp2040/emulator.mjs) keeps its parts here too, so every bench decodes the
same way: it asks `present` at an I2C address phase and hands over each I2C write (`i2c`) and each
WS2812 frame decoded from the ring pin's edges (`ws2812`).
"""

import json

import devices

_parts = {}


def wire(profile_text):
    profile = json.loads(profile_text)
    bench = devices.reset()
    _parts["profile"] = profile
    _parts["panel"], _parts["strip"] = devices.wire(bench, profile)


def present(bus, address):
    """Whether a device answers (ACKs) at this I2C address."""
    device = devices.BENCH.i2c.get((bus, address))
    return device is not None and device.present


def i2c(bus, address, data_hex):
    """One I2C write transaction the chip made to a present device."""
    from binascii import unhexlify

    devices.BENCH.i2c[(bus, address)].receive(unhexlify(data_hex))


def ws2812(pin, data_hex):
    """One WS2812 frame sent on `pin`."""
    from binascii import unhexlify

    strip = devices.BENCH.strips.get(pin)
    if strip is not None:
        strip.receive(unhexlify(data_hex))


def _pin(name):
    spec = _parts["profile"]["buttons"].get(name)
    if spec is None:
        raise ValueError("no button %r on this board" % name)
    return spec["pin"], spec.get("pull", "up") != "down"


def reply(line):
    try:
        request = json.loads(line)
        if not isinstance(request, dict):
            raise ValueError("a request is a JSON object")
        if "press" in request or "release" in request:
            pressed = "press" in request
            pin, active_low = _pin(request["press"] if pressed else request["release"])
            devices.BENCH.press(pin, pressed, active_low)
            return json.dumps({"ok": True})
        if "oled" in request:
            from binascii import hexlify

            return json.dumps({"ram": hexlify(_parts["panel"].ram).decode(), "on": _parts["panel"].on})
        if "leds" in request:
            strip = _parts["strip"]
            count = len(strip.data) // len(strip.order)
            return json.dumps({"leds": [list(strip.rgb(i)) for i in range(count)]})
        raise ValueError("unknown request")
    except Exception as e:  # noqa: BLE001 (a bad request is answered, never fatal to the bench)
        return json.dumps({"error": "%s: %s" % (type(e).__name__, e)})
