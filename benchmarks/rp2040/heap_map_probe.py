"""Runs on the emulated RP2040 (MicroPython's rp2 port), right after a soft reset, with the firmware
flashed as .mpy by dicetower flash and tests/fw/scripted_games.py copied beside it; GAME (a name in
scripted_games) is set before this code. Prints the heap's map (`micropython.mem_info(1)`, one letter a
16-byte block), the table of names (`micropython.qstr_info()`) and the firmware's modules loaded (a line
"MODULES name..."), each after a line "MAP <where>":
with the device booted as main.py boots it (its start menu), then at each new low of a full four-player
game of that mode played through the core beside it, after a collection following each action. The last
"MAP low" is the game's lowest point.

Started by benchmarks/rp2040_pico.py --heap-map, which reads the maps.
"""

import gc
import sys

import micropython

import main

dev = main.boot()
while dev._prime is not None and dev._prime():
    pass  # the dice's start-up test, as the loop finishes it at idle


def heap_map(where):
    gc.collect()
    print("MAP " + where)
    micropython.mem_info(1)
    micropython.qstr_info()
    print("MODULES " + " ".join(sorted(m for m in sys.modules if m.startswith("dicetower"))))


heap_map("start menu")
import scripted_games  # noqa: E402

lowest = [1 << 30, 0]


def after(game):
    gc.collect()
    lowest[1] += 1
    free = gc.mem_free()
    if free < lowest[0]:
        lowest[0] = free
        heap_map("low %s after action %d" % (GAME, lowest[1]))  # noqa: F821 (set before)


scripted_games.play(getattr(scripted_games, GAME), after)  # noqa: F821
print("MAP end")
