"""Runs on the emulated RP2040 (MicroPython's rp2 port), right after a soft reset, with the firmware
flashed as .mpy by dicetower flash; KEYS (an example's presses, [button, kind] each), NAME and SEEDS
are set before this code, and example_device.py's start (`dev`, `settle`). Prints one JSON object: the lowest free heap while the example is played through the
device as a player plays it (each press handed to the device as a button's is, then its loop run for
example_device.py's SETTLE_MS of the chip's time, the roll's animation and the idle work included), after a collection
following each press, the press it followed, and what the game was at the end (its kind, over or not,
whether it was sealed).

Unlike game_heap_probe.py (the core's game beside a device at its start menu), this is the whole device
in play: the menus, the dice's screen and Roll, the advisor when a roll asks for it, a sealed game's
seal and record. Started by benchmarks/rp2040_pico.py, once an example, each in a fresh heap.
"""

import gc
import json
import sys

# dev and settle() are example_device.py's, run before this code.
settle()
gc.collect()
lowest = gc.mem_free()
held = []
at = 0
sealed = False  # a game sealed at some point (a revealed seed may leave none at the end)
for i, (button, kind) in enumerate(KEYS):  # noqa: F821 (set before)
    dev.press(button, kind)
    settle()
    gc.collect()
    free = gc.mem_free()
    if free < lowest:
        lowest, at = free, i + 1
        held = sorted(m for m in sys.modules if m.startswith("dicetower"))
    sealed = sealed or (dev.app.sealing is not None and dev.app.sealing.dice is not None)
app = dev.app
print(
    json.dumps(
        {
            "example": NAME,  # noqa: F821 (set before)
            "presses": len(KEYS),  # noqa: F821
            "lowest_free": lowest,
            "after_press": at,
            "kind": app.game.KIND if app.game is not None else None,
            "over": bool(app.game is not None and app.game.over()),
            "sealed": sealed,
            "held": held,  # the firmware's modules at the lowest
        }
    )
)
