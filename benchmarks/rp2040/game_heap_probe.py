"""Runs on the emulated RP2040 (MicroPython's rp2 port), right after a soft reset, with the firmware
flashed as .mpy by dicetower flash and tests/fw/scripted_games.py (and radio_standin.py) copied beside
it; GAME (a name in scripted_games) and SCOREBOARD are set before this code. With SCOREBOARD (a Pico W),
the device makes the phones' scoreboard first, as a Pico W holds it while phones follow: its link
through tests/fw/radio_standin.py (the emulator has no CYW43 radio), microdot, the server and the game's
document. Prints one JSON object: the lowest free heap during a full four-player game of that mode, its
actions through the core, after a collection following each action (and the smallest of the largest free
pieces then, found by allocating), beside the device booted as main.py boots it (at its start menu, its
dice's start-up test finished).

Started by benchmarks/rp2040_pico.py, once a game, each in a fresh heap: a device holds one game. The
figure counts what the harness holds too (scripted_games.py compiled on the chip, this code).
"""

import gc
import json
import sys

import main

if SCOREBOARD:  # noqa: F821 (set before)
    import radio_standin

    sys.modules["network"] = radio_standin
dev = main.boot()
while dev._prime is not None and dev._prime():
    pass  # the dice's start-up test, as the loop finishes it at idle
gc.collect()
with_device = gc.mem_free()
phones = None
if SCOREBOARD:  # noqa: F821
    from dicetower.web import server

    dev.share()
    phones = server.Server(dev, "2468")  # kept, as the radio task keeps it
    dev.scoreboard.update(dev.app)  # its first document, as the loop makes it
gc.collect()
with_scoreboard = gc.mem_free()
import scripted_games  # noqa: E402

gc.collect()
start = gc.mem_free()
game, done, lowest, piece = scripted_games.lowest_free(getattr(scripted_games, GAME))  # noqa: F821 (set before)
print(json.dumps({"game": GAME, "actions": done, "over": bool(game.over()), "free_before": start,  # noqa: F821
                  "lowest_free": lowest, "largest_piece": piece, "free_with_device": with_device,
                  "free_with_scoreboard": with_scoreboard}))
