"""Buttons, debounced by polling: short press, long press and double press as events.

`poll(now)` reads every pin once and returns the events that became due
(a preallocated list, emptied on each call). It is what the device's asyncio
task calls every POLL_MS, and what a test calls with its own clock. A press
is "short" once released and no second press follows within DOUBLE_MS;
"long" as soon as it has been held LONG_MS (its release then says nothing);
"double" on the second release within DOUBLE_MS.
"""

POLL_MS = 10
DEBOUNCE_MS = 30
LONG_MS = 700
DOUBLE_MS = 300

SHORT = "short"
LONG = "long"
DOUBLE = "double"


class _Button:
    def __init__(self, name, pin, active_low):
        self.name = name
        self.pin = pin
        self.active_low = active_low
        self.stable = False  # debounced: pressed?
        self.raw = False
        self.raw_since = 0
        self.down_at = 0
        self.long_sent = False
        self.waiting = False  # a short press waits to see if a double follows
        self.up_at = 0
        # Events are preallocated tuples: polling allocates nothing.
        self.events = {SHORT: (name, SHORT), LONG: (name, LONG), DOUBLE: (name, DOUBLE)}


class Buttons:
    def __init__(self, pins, active_low=True):
        """`pins`: dict of name -> object with value() (a machine.Pin or a stand-in)."""
        self.buttons = [_Button(name, pin, active_low) for name, pin in sorted(pins.items())]
        self.out = []

    def poll(self, now):
        out = self.out
        del out[:]
        for b in self.buttons:
            level = b.pin.value()
            pressed = (level == 0) if b.active_low else (level == 1)
            if pressed != b.raw:
                b.raw = pressed
                b.raw_since = now
            if b.waiting and now - b.up_at > DOUBLE_MS:
                # No second press came in time: the first was a short press.
                b.waiting = False
                out.append(b.events[SHORT])
            if pressed != b.stable and now - b.raw_since >= DEBOUNCE_MS:
                b.stable = pressed
                if pressed:
                    b.down_at = now
                    b.long_sent = False
                elif not b.long_sent:
                    if b.waiting and now - b.up_at <= DOUBLE_MS:
                        b.waiting = False
                        out.append(b.events[DOUBLE])
                    else:
                        b.waiting = True
                        b.up_at = now
            if b.stable and not b.long_sent and now - b.down_at >= LONG_MS:
                b.long_sent = True
                b.waiting = False
                out.append(b.events[LONG])
        return out
