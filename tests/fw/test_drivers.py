"""The hw/ drivers against the virtual peripherals: the bytes on the I2C bus, the LED stream,
the button events. Runs on CPython and the MicroPython VM."""

import unittest

import devices
import machine

from dicetower.hw.buttons import DOUBLE_MS, LONG_MS, Buttons, Encoder
from dicetower.hw.oled import Oled
from dicetower.hw.pixels import Ring
from dicetower.ui.canvas import Canvas


def bench_with_oled():
    bench = devices.reset()
    panel = devices.SSD1306()
    bench.i2c[(0, 0x3C)] = panel
    return bench, panel


class OledDriver(unittest.TestCase):
    def test_init_turns_the_panel_on_in_horizontal_mode(self):
        bench, panel = bench_with_oled()
        Oled(machine.I2C(0), 0x3C, log=lambda m: None)
        self.assertTrue(panel.on)
        self.assertEqual(panel.mode, 0)
        self.assertEqual(panel.contrast, 0xCF)
        self.assertEqual(panel.settings[0x8D], [0x14])  # charge pump

    def test_what_is_drawn_is_what_the_panel_holds(self):
        bench, panel = bench_with_oled()
        oled = Oled(machine.I2C(0), 0x3C, log=lambda m: None)
        canvas = Canvas()
        canvas.text(0, 0, "PVP 21")
        canvas.big(0, 2, "17")
        oled.show(canvas.buf)
        self.assertEqual(panel.ram, canvas.buf)
        self.assertEqual(panel.rows()[0][:5], "###..")  # the top row of "P"

    def test_only_changed_columns_are_sent(self):
        bench, panel = bench_with_oled()
        oled = Oled(machine.I2C(0), 0x3C, log=lambda m: None)
        canvas = Canvas()
        full = oled.show(canvas.buf)
        self.assertTrue(full >= 1024)
        self.assertEqual(oled.show(canvas.buf), 0)
        canvas.text(50, 3, "7")
        sent = oled.show(canvas.buf)
        self.assertTrue(0 < sent <= 7 + 2 + 5, sent)  # window command, prefix, at most five columns
        self.assertEqual(panel.ram, canvas.buf)

    def test_a_missing_display_is_survived_and_found_again(self):
        bench = devices.reset()
        said = []
        oled = Oled(machine.I2C(0), 0x3C, log=said.append)
        self.assertFalse(oled.present)
        self.assertIn("no answer at 0x3c", said[0])
        canvas = Canvas()
        canvas.text(0, 0, "hello")
        self.assertEqual(oled.show(canvas.buf, now=100), 0)
        panel = devices.SSD1306()
        bench.i2c[(0, 0x3C)] = panel
        self.assertEqual(oled.show(canvas.buf, now=200), 0)  # not yet time to retry
        oled.show(canvas.buf, now=6000)
        self.assertTrue(oled.present)
        self.assertEqual(panel.ram, canvas.buf)
        panel.present = False  # unplugged mid-game
        canvas.text(0, 1, "x")
        oled.show(canvas.buf, now=7000)
        self.assertFalse(oled.present)
        self.assertIn("lost", said[-1])


class VirtualPanel(unittest.TestCase):
    def test_page_mode_vertical_mode_invert_and_off(self):
        panel = devices.SSD1306()
        panel.receive(b"\x00\xaf\x20\x02\xb3\x05\x12")  # on, page mode, page 3, column 0x25
        panel.receive(b"\x40\xff\x81")
        self.assertEqual(panel.ram[3 * 128 + 0x25], 0xFF)
        self.assertEqual(panel.ram[3 * 128 + 0x26], 0x81)
        panel.receive(b"\x00\x20\x01\x21\x00\x01\x22\x00\x01")  # vertical, 2x2 window
        panel.receive(b"\x40\x01\x02\x03\x04")
        self.assertEqual((panel.ram[0], panel.ram[128], panel.ram[1], panel.ram[129]), (1, 2, 3, 4))
        self.assertEqual(panel.pixel(0, 0), 1)
        panel.receive(b"\x00\xa7")
        self.assertEqual(panel.pixel(0, 0), 0)
        panel.receive(b"\x00\xae")
        self.assertEqual(panel.pixel(37, 24), 0)


class RingDriver(unittest.TestCase):
    def test_grb_stream_with_the_cap(self):
        bench = devices.reset()
        strip = devices.Strip(3, "GRB")
        bench.strips[16] = strip
        ring = Ring(machine.Pin(16, machine.Pin.OUT), 3, "GRB", cap=0.5)
        ring.set(0, 255, 0, 0)
        ring.set(2, 10, 20, 30)
        ring.show()
        self.assertEqual(strip.data, bytes([0, 127, 0, 0, 0, 0, 10, 5, 15]))
        self.assertEqual(strip.rgb(0), (127, 0, 0))

    def test_a_frame_allocates_nothing(self):
        import gc

        devices.reset()
        ring = Ring(machine.Pin(16), 12, "GRB", cap=0.42, bitstream=lambda pin, enc, timing, buf: None)
        ring.fill(200, 100, 50)
        ring.show()
        if not hasattr(gc, "mem_alloc"):
            self.skipTest("CPython has no gc.mem_alloc; the VM run checks this")
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        for i in range(12):
            ring.set(i, 10 * i, 0, 255 - i)
        ring.show()
        after = gc.mem_alloc()
        gc.enable()
        self.assertEqual(after - before, 0)


class Pins:
    def __init__(self):
        self.level = 1

    def value(self):
        return self.level


def poll_script(buttons, pin, script, until=3000):
    """Poll every 10 ms, setting the pin's level at the (ms, level) changes; returns [(ms, event)]."""
    events = []
    changes = dict(script)
    for now in range(0, until, 10):
        if now in changes:
            pin.level = changes[now]
        for event in buttons.poll(now):
            events.append((now, event[1]))
    return events


class ButtonEvents(unittest.TestCase):
    def run_presses(self, script):
        """script: list of (ms, level) changes; returns [(ms, event)] over 3 s of polling."""
        pin = Pins()
        return poll_script(Buttons({"c": pin}), pin, script)

    def test_short_press(self):
        events = self.run_presses([(100, 0), (200, 1)])
        self.assertEqual([e for _, e in events], ["short"])
        self.assertTrue(events[0][0] > 200 + DOUBLE_MS)

    def test_long_press_fires_while_held(self):
        events = self.run_presses([(100, 0), (1500, 1)])
        self.assertEqual(events, [(100 + LONG_MS, "long")])  # held since 100: the debounce confirms it

    def test_double_press(self):
        self.assertEqual([e for _, e in self.run_presses([(100, 0), (180, 1), (300, 0), (380, 1)])], ["double"])

    def test_bounces_are_ignored(self):
        script = [(100, 0), (110, 1), (120, 0), (130, 1), (140, 0), (300, 1), (310, 0), (320, 1)]
        self.assertEqual([e for _, e in self.run_presses(script)], ["short"])

    def test_two_slow_presses_are_two_shorts(self):
        events = self.run_presses([(100, 0), (200, 1), (800, 0), (900, 1)])
        self.assertEqual([e for _, e in events], ["short", "short"])


class PowerUpNoise(unittest.TestCase):
    def test_the_first_frame_overwrites_whatever_the_panel_held(self):
        bench, panel = bench_with_oled()
        for i in range(len(panel.ram)):
            panel.ram[i] = (i * 73 + 19) & 0xFF  # an SSD1306 powers up with noise
        oled = Oled(machine.I2C(0), 0x3C, log=lambda m: None)
        canvas = Canvas()
        canvas.line(0, "DICETOWER", invert=True, centre=True)
        oled.show(canvas.buf)
        self.assertEqual(panel.ram, canvas.buf)


class ButtonKinds(unittest.TestCase):
    def test_pulled_down_buttons_read_pressed_as_high(self):
        pin = Pins()
        pin.level = 0  # released, pulled down
        buttons = Buttons({"c": pin}, active_low={"c": False}, doubles=())
        events = poll_script(buttons, pin, [(100, 1), (200, 0)], until=600)
        self.assertEqual([e for _, e in events], ["short"])

    def test_without_doubles_a_short_press_acts_at_once(self):
        pin = Pins()
        buttons = Buttons({"b": pin}, doubles=())
        events = poll_script(buttons, pin, [(100, 0), (200, 1)], until=600)
        self.assertEqual(events, [(200, "short")])  # at the poll that reads the release: not DOUBLE_MS later

    def test_ticks_that_wrap_around(self):
        period = 1 << 30  # MicroPython's ticks_ms wraps here

        def diff(a, b):
            return ((a - b + period // 2) % period) - period // 2

        pin = Pins()
        buttons = Buttons({"c": pin}, doubles=(), diff=diff)
        events = []
        start = period - 150
        for step in range(60):
            now = (start + step * 10) % period
            if step == 5:
                pin.level = 0
            if step == 15:
                pin.level = 1
            events += [e[1] for e in buttons.poll(now)]
        self.assertEqual(events, ["short"])


class IrqPin:
    """A pin with an interrupt on both edges, moved by the test at times it chooses."""

    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, clock):
        self.level = 1
        self.clock = clock
        self.handler = None

    def value(self):
        return self.level

    def irq(self, handler, trigger, hard=False):
        self.handler = handler

    def set(self, level, at):
        self.clock[0] = at
        if level != self.level:
            self.level = level
            self.handler(self)


class LatchedEdges(unittest.TestCase):
    """Edges are latched by interrupt with their times: a busy loop that polls late loses no press."""

    def make(self, names="c"):
        clock = [0]
        pins = {name: IrqPin(clock) for name in names}
        buttons = Buttons(pins, doubles=())
        self.assertTrue(buttons.listen(lambda: clock[0]))
        return clock, pins, buttons

    def test_twenty_quick_taps_while_the_loop_polls_every_300_ms(self):
        clock, pins, buttons = self.make()
        events = []
        for tap in range(20):  # 50 ms down, 50 ms up
            pins["c"].set(0, 1000 + tap * 100)
            pins["c"].set(1, 1050 + tap * 100)
            if tap % 3 == 2:
                events += list(buttons.poll(1050 + tap * 100 + 5))  # the loop comes back now and then
        events += list(buttons.poll(4000))
        self.assertEqual(events, [("c", "short")] * 20)

    def test_a_bouncing_tap_seen_late_is_one_press(self):
        clock, pins, buttons = self.make()
        for at, level in ((100, 0), (102, 1), (104, 0), (107, 1), (109, 0), (160, 1), (162, 0), (163, 1)):
            pins["c"].set(level, at)
        self.assertEqual(list(buttons.poll(600)), [("c", "short")])

    def test_a_release_counts_at_its_first_edge_and_its_bounces_are_no_press(self):
        clock, pins, buttons = self.make()
        pins["c"].set(0, 100)
        pins["c"].set(1, 200)  # the finger lifts: the tap is answered at the next poll
        self.assertEqual(list(buttons.poll(201)), [("c", "short")])
        for at, level in ((202, 0), (204, 1), (206, 0), (209, 1)):  # the contacts bounce as they part
            pins["c"].set(level, at)
        self.assertEqual(list(buttons.poll(600)), [])

    def test_a_spike_of_noise_is_no_press(self):
        clock, pins, buttons = self.make()
        pins["c"].set(0, 100)
        pins["c"].set(1, 101)
        self.assertEqual(list(buttons.poll(600)), [])

    def test_a_long_hold_seen_only_after_its_release_is_a_long_press(self):
        clock, pins, buttons = self.make()
        pins["c"].set(0, 100)
        pins["c"].set(1, 100 + LONG_MS + 50)
        self.assertEqual(list(buttons.poll(2000)), [("c", "long")])

    def test_taps_on_two_buttons_keep_their_order(self):
        clock, pins, buttons = self.make("ab")
        for n, name in enumerate("abba"):
            pins[name].set(0, 100 + n * 100)
            pins[name].set(1, 150 + n * 100)
        self.assertEqual([e[0] for e in buttons.poll(1000)], list("abba"))

    def test_pins_without_interrupts_are_polled(self):
        pin = Pins()
        buttons = Buttons({"c": pin}, doubles=())
        self.assertFalse(buttons.listen(lambda: 0))
        self.assertEqual(poll_script(buttons, pin, [(100, 0), (200, 1)], until=600), [(200, "short")])


class Knob(unittest.TestCase):
    def test_clicks_turned_while_the_loop_is_busy_all_count(self):
        clock = [0]
        a, b = IrqPin(clock), IrqPin(clock)
        knob = Encoder(a, b)
        self.assertTrue(knob.listen())
        for _ in range(3):  # three clicks clockwise (B leads A), no poll between
            for la, lb in ((1, 0), (0, 0), (0, 1), (1, 1)):
                b.set(lb, 0)
                a.set(la, 0)
        moves = []
        for now in range(5):
            moves += list(knob.poll(now))
        self.assertEqual(moves, [("b", "short")] * 3)
