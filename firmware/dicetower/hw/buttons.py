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
        self.doubles = True  # does this button wait for a second press at all
        self.up_at = 0
        # Events are preallocated tuples: polling allocates nothing.
        self.events = {SHORT: (name, SHORT), LONG: (name, LONG), DOUBLE: (name, DOUBLE)}


def _subtract(a, b):
    return a - b


class Buttons:
    def __init__(self, pins, active_low=True, doubles=None, diff=None):
        """`pins`: dict of name -> object with value() (a machine.Pin or a stand-in).

        active_low  True, or a dict of name -> True (pulled up, pressed = 0) / False
        doubles     the buttons that wait DOUBLE_MS for a second press (None: all);
                    the others report a short press as soon as it is released
        diff        time.ticks_diff on a device (ticks wrap after about 12 days)
        """
        self.buttons = []
        for name, pin in sorted(pins.items()):
            low = active_low.get(name, True) if isinstance(active_low, dict) else active_low
            button = _Button(name, pin, low)
            button.doubles = doubles is None or name in doubles
            self.buttons.append(button)
        self.out = []
        self.diff = diff or _subtract

    def poll(self, now):
        out = self.out
        del out[:]
        diff = self.diff
        for b in self.buttons:
            level = b.pin.value()
            pressed = (level == 0) if b.active_low else (level == 1)
            if pressed != b.raw:
                b.raw = pressed
                b.raw_since = now
            if b.waiting and diff(now, b.up_at) > DOUBLE_MS:
                # No second press came in time: the first was a short press.
                b.waiting = False
                out.append(b.events[SHORT])
            if pressed != b.stable and diff(now, b.raw_since) >= DEBOUNCE_MS:
                b.stable = pressed
                if pressed:
                    b.down_at = now
                    b.long_sent = False
                elif not b.long_sent:
                    if b.waiting and diff(now, b.up_at) <= DOUBLE_MS:
                        b.waiting = False
                        out.append(b.events[DOUBLE])
                    elif b.doubles:
                        b.waiting = True
                        b.up_at = now
                    else:
                        out.append(b.events[SHORT])
            if b.stable and not b.long_sent and diff(now, b.down_at) >= LONG_MS:
                b.long_sent = True
                b.waiting = False
                out.append(b.events[LONG])
        return out


# Quadrature steps: (previous AB, new AB) -> +1 or -1. Invalid jumps count nothing.
_STEPS = {(0, 1): 1, (1, 3): 1, (3, 2): 1, (2, 0): 1, (0, 2): -1, (2, 3): -1, (3, 1): -1, (1, 0): -1}
DETENT = 4  # quarter steps per click of a common encoder


class Encoder:
    """A rotary encoder read by polling: each click turns into an A (back) or B (forward) short press."""

    def __init__(self, pin_a, pin_b):
        self.pin_a = pin_a
        self.pin_b = pin_b
        self.state = (pin_a.value() << 1) | pin_b.value()
        self.count = 0
        self.out = []
        self._forward = ("b", SHORT)
        self._back = ("a", SHORT)

    def poll(self, now):
        out = self.out
        del out[:]
        state = (self.pin_a.value() << 1) | self.pin_b.value()
        if state != self.state:
            self.count += _STEPS.get((self.state, state), 0)
            self.state = state
            if self.count >= DETENT:
                self.count = 0
                out.append(self._forward)
            elif self.count <= -DETENT:
                self.count = 0
                out.append(self._back)
        return out
