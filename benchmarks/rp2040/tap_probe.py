"""Runs on the emulated RP2040 (MicroPython's rp2 port), right after a soft reset, with the firmware
flashed as .mpy by dicetower flash; KEYS (an example's presses, [button, kind] each), NAME and SEEDS
are set before this code, and example_device.py's start (`dev`, `settle`). Prints one JSON object: for each press, in the chip's microseconds, the
stages of the firmware's own work from the press being handed to the device (as a button's is, after
its poll) to the redraw on the bus: the wait for the loop to take it, the app's work (App.press), the
save written before the screen (a throw's: its faces show only once it is on flash), the drawing
(screens.draw into the canvas) and the send (the OLED driver's show, at the emulator's I2C speed, with
the bytes it sent).

The stages are timed by wrapping the device's own calls on this board (nothing in the firmware
measures itself); benchmarks/rp2040_pico.py adds the stages the emulator sees at the pins (the release
to the loop's first poll, the bits on the bus) and prints the p50 and p99 of each.
"""

import json
import time

# dev and settle() are example_device.py's, run before this code.
ticks_us = time.ticks_us
diff = time.ticks_diff
# Per press: [handed over (us), work, save before the screen, draw, send, bytes sent, the first send's end];
# printed with the press's index in KEYS
now = [0, 0, 0, 0, 0, 0, -1]


def timed(call, slot):
    def wrapped(*args):
        began = ticks_us()
        result = call(*args)
        if now[6] < 0:  # what comes after the press's redraw is another stage's
            now[slot] += diff(ticks_us(), began)
            if slot == 4 and result:
                now[5] += result
                now[6] = diff(ticks_us(), now[0])
        return result

    return wrapped


from dicetower.ui import screens  # noqa: E402

app_press = dev.app.press
dev.app.press = lambda button, kind: timed_press(button, kind)
pressed_at = [None]


def timed_press(button, kind):
    if pressed_at[0] is None:
        pressed_at[0] = diff(ticks_us(), now[0])  # the wait for the loop to take it
    began = ticks_us()
    result = app_press(button, kind)
    now[1] += diff(ticks_us(), began)
    return result


screens.draw = timed(screens.draw, 3)
dev.oled.show = timed(dev.oled.show, 4)
dev.saves.step = timed(dev.saves.step, 2)


settle()
stages = []
for i, (button, kind) in enumerate(KEYS):  # noqa: F821 (set before)
    now[:] = [ticks_us(), 0, 0, 0, 0, 0, -1]
    pressed_at[0] = None
    dev.press(button, kind)
    settle()
    if now[6] >= 0:  # a press that changed nothing on the screen sends nothing: no redraw to time
        stages.append([pressed_at[0] or 0, now[1], now[2], now[3], now[4], now[5], now[6], i])
print(json.dumps({"example": NAME, "presses": len(KEYS), "stages": stages}))  # noqa: F821
