"""Runs on the emulated RP2040 (MicroPython's rp2 port), right after a soft reset, with the firmware
flashed as .mpy by dicetower flash. Prints one JSON object a line.

Started by benchmarks/rp2040_pico.py. The device is booted as main.py boots it, on the real
`machine` module (OLED on I2C0, ring on GP16); times are the chip's own `time.ticks_us`.
"""

import gc
import json
import time

gc.collect()
print(json.dumps({"free_at_boot": gc.mem_free()}))

import main  # noqa: E402
from dicetower import device as _device  # noqa: E402,F401

gc.collect()
print(json.dumps({"free_after_import": gc.mem_free()}))

dev = main.boot()
app = dev.app
gc.collect()
print(json.dumps({"free_with_device": gc.mem_free()}))


def us(work):
    start = time.ticks_us()
    work()
    return time.ticks_diff(time.ticks_us(), start)


def now():
    return time.ticks_ms()


# One redraw: a full frame (a panel whose memory is unknown gets all 1,024 bytes) and a menu step.
dev.render(now())
dev.oled._unknown = True
app.changed = True
full = us(lambda: dev.render(now()))
app.press("b", "short")
menu = us(lambda: dev.render(now()))
app.press("a", "short")
dev.render(now())
frames = [us(dev.frame) for _ in range(20)]
frames.sort()
print(json.dumps({"redraw_full_us": full, "redraw_menu_step_us": menu, "led_frame_us": frames[len(frames) // 2]}))

# A roll with its animation: a new Battlerealm game for two, then Hulk rolls (the dice, their entropy
# gathered ahead as the loop does at idle; the advice follows in slices), the screen, the ring's
# animation frames until it ends; then the cursor moved over the dice (median of six redraws).
for key in "caacc":  # New Battlerealm, two heroes, start, the seal's cut
    app.press(key, "short")
    dev.render(now())
while dev._prime is not None and dev._prime():
    pass  # the roll's entropy made ahead, as the loop does at idle
roll = us(lambda: app.press("c", "short"))
draw = us(lambda: dev.render(now()))
animation = 0
count = 0
while app.animation is not None and count < 100:
    animation += us(dev.frame)
    count += 1
while app.thinking():
    app.think()
dev.render(now())
steps = []
for key in "bbbaaa":  # the cursor over the dice: one icon inverted, one line changed
    app.press(key, "short")
    steps.append(us(lambda: dev.render(now())))
steps.sort()
print(json.dumps({"roll_press_us": roll, "roll_redraw_us": draw, "roll_animation_frames": count,
                  "roll_animation_compute_us": animation, "redraw_dice_step_us": steps[len(steps) // 2]}))
