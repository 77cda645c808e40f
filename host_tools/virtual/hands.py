"""Hands on the virtual Pico's bench, for vm/pico.mjs's control port (runs inside the VM).

The bridge wires the parts a board profile names (`wire`) before every boot,
and passes each control line to `reply`: a JSON object with one request,
answered with one JSON object.

  {"press": "a"}     hold button A down (active low, as the profile says)
  {"release": "a"}   let it go
  {"oled": true}     the OLED's memory (hex) and whether it is on; the host reads the text,
                     so reading does not depend on the firmware files on the board
  {"leds": true}     the ring's colours, [r, g, b] per LED
"""

import json

import devices

_parts = {}


def wire(profile_text):
    profile = json.loads(profile_text)
    bench = devices.reset()
    _parts["profile"] = profile
    _parts["panel"], _parts["strip"] = devices.wire(bench, profile)


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
    except Exception as e:  # noqa: a bad request is answered, never fatal to the bench
        return json.dumps({"error": "%s: %s" % (type(e).__name__, e)})
