"""Buttons and a rotary encoder: edges latched when they happen, debounced from their own times.

A press must never be lost because the loop was busy (a redraw, a slice of
advice, a save). So each button's pin, where it can (`Pin.irq` on
MicroPython), writes every edge with its `ticks_ms` into a preallocated ring
the moment it happens, from a hard interrupt that allocates nothing.
`poll(now)` then replays the edges in order and reads each pin once more
(the same code serves a pin without interrupts, such as CircuitPython's
digitalio: it is then a poll). A press counts once its level has lasted
DEBOUNCE_MS, measured between the latched edges, so a 50 ms tap that the
loop only looks at 300 ms later is still one press, and a spike of noise
is none. A release counts at its first edge: the button was down for
DEBOUNCE_MS at least, so the edge is the finger lifting, and the bounces
after it are presses too short to count. A tap is answered at the loop's
next poll after the release, not DEBOUNCE_MS later.

Events (preallocated tuples, in a list emptied on each call, with the time of
the edge that made each in `times`, kept beside it): "short" once
released (or, for a button in `doubles`, once no second press follows
within DOUBLE_MS), "long" once held LONG_MS (its release then says
nothing), "double" on the second release within DOUBLE_MS.
"""

from array import array

from dicetower.hw.platform import ticks_diff

POLL_MS = 10
DEBOUNCE_MS = 30
LONG_MS = 700
DOUBLE_MS = 300
EDGES = 64  # latched edges waiting for the loop: about 20 bouncy presses

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


def _both_edges(pin):
    return pin.IRQ_FALLING | pin.IRQ_RISING


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
        self.times = []  # the ms of the edge that made each event in `out` (a press's time, for the dice)
        self.diff = diff or ticks_diff
        # The ring of latched edges: written by the interrupt (head), read by poll (tail).
        self._who = bytearray(EDGES)
        self._level = bytearray(EDGES)
        self._at = array("i", bytes(4 * EDGES))
        self._head = 0
        self._tail = 0
        self.latching = False

    def listen(self, ticks_ms):
        """Latch every edge from now on, where the pins have interrupts; True if they all do."""
        for index in range(len(self.buttons)):
            pin = self.buttons[index].pin
            if not hasattr(pin, "irq"):
                return False
            pin.irq(self._on_edge(index, pin, ticks_ms), _both_edges(pin), hard=True)
        self.latching = True
        return True

    def _on_edge(self, index, pin, ticks_ms):
        def edge(_pin):
            # A hard interrupt: no allocation, so only small ints into the preallocated ring.
            head = self._head
            after = head + 1 if head + 1 < EDGES else 0
            if after == self._tail:
                return  # full: poll's own reading of the pin still sees the level
            self._who[head] = index
            self._level[head] = pin.value()
            self._at[head] = ticks_ms()
            self._head = after

        return edge

    def poll(self, now):
        out = self.out
        del out[:]
        del self.times[:]
        diff = self.diff
        buttons = self.buttons
        # The edges latched since the last poll, in the order they came.
        tail = self._tail
        while tail != self._head:
            b = buttons[self._who[tail]]
            level = self._level[tail]
            at = self._at[tail]
            for other in buttons:  # what settled before this edge comes first: presses keep their order
                self._settle(other, at, out)
            self._edge(b, (level == 0) if b.active_low else (level == 1), at, out)
            tail = tail + 1 if tail + 1 < EDGES else 0
            self._tail = tail
        for b in buttons:
            # The level now: all there is without interrupts, and a check that no edge went unlatched.
            level = b.pin.value()
            self._edge(b, (level == 0) if b.active_low else (level == 1), now, out)
            self._settle(b, now, out)
            if b.waiting and diff(now, b.up_at) > DOUBLE_MS:
                # No second press came in time: the first was a short press.
                b.waiting = False
                self._event(b, SHORT, b.up_at, out)
            if b.stable and not b.long_sent and diff(now, b.down_at) >= LONG_MS:
                b.long_sent = True
                b.waiting = False
                self._event(b, LONG, now, out)
        return out

    def settles_in(self, now):
        """Milliseconds until a press the last poll read, but did not yet count, will have lasted
        DEBOUNCE_MS: the loop polls again then rather than at its next POLL_MS (a hold is timed from
        it). POLL_MS when no level waits."""
        wait = POLL_MS
        diff = self.diff
        for b in self.buttons:
            if b.raw != b.stable:
                left = DEBOUNCE_MS - diff(now, b.raw_since)
                if left < wait:
                    wait = left
        return wait if wait > 0 else 0

    def _edge(self, b, pressed, at, out):
        """The pin went to `pressed` at `at`: the press before it counts if it lasted; a release at once."""
        if pressed != b.raw:
            self._settle(b, at, out)
            b.raw = pressed
            b.raw_since = at
            if not pressed:
                self._settle(b, at, out)

    def _settle(self, b, now, out):
        """The raw level becomes the debounced one: a press once it has lasted DEBOUNCE_MS (at `now`), a
        release as soon as it comes."""
        diff = self.diff
        if b.raw == b.stable or (b.raw and diff(now, b.raw_since) < DEBOUNCE_MS):
            return
        at = b.raw_since
        b.stable = b.raw
        if b.stable:
            b.down_at = at
            b.long_sent = False
        elif not b.long_sent:
            if diff(at, b.down_at) >= LONG_MS:
                # Held long enough, though the loop only saw it now: still a long press.
                b.long_sent = True
                b.waiting = False
                self._event(b, LONG, at, out)
            elif b.waiting and diff(at, b.up_at) <= DOUBLE_MS:
                b.waiting = False
                self._event(b, DOUBLE, at, out)
            elif b.doubles:
                b.waiting = True
                b.up_at = at
            else:
                self._event(b, SHORT, at, out)

    def _event(self, b, kind, at, out):
        out.append(b.events[kind])
        self.times.append(at)


# Quadrature: the count's change for (previous AB << 2 | new AB); invalid jumps count nothing.
_STEPS = array("b", (0, 1, -1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 0, -1, 1, 0))
DETENT = 4  # quarter steps per click of a common encoder


class Encoder:
    """A rotary encoder: each click turns into an A (back) or B (forward) short press.

    Counted where it happens, as micropython-async's encoder does: an interrupt on
    both edges of both pins adds the quarter step to a counter, so a quick turn while
    the loop is busy keeps every click; `poll` reads the pins too (no interrupts, or
    an edge the interrupts did not see).
    """

    def __init__(self, pin_a, pin_b):
        self.pin_a = pin_a
        self.pin_b = pin_b
        self.state = (pin_a.value() << 1) | pin_b.value()
        self.count = 0
        self.out = []
        self._forward = ("b", SHORT)
        self._back = ("a", SHORT)

    def listen(self):
        """Count on every edge from now on, where the pins have interrupts; True if they do."""
        if not hasattr(self.pin_a, "irq"):
            return False
        for pin in (self.pin_a, self.pin_b):
            pin.irq(self._turned, _both_edges(pin), hard=True)
        return True

    def _turned(self, _pin=None):
        state = (self.pin_a.value() << 1) | self.pin_b.value()
        self.count += _STEPS[(self.state << 2) | state]
        self.state = state

    def poll(self, now):
        out = self.out
        del out[:]
        self._turned()
        if self.count >= DETENT:
            self.count -= DETENT
            out.append(self._forward)
        elif self.count <= -DETENT:
            self.count += DETENT
            out.append(self._back)
        return out
