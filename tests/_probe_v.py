"""Runs on the MicroPython VM with the firmware mounted at /fw as `dicetower flash` sends it (.mpy files,
main.py as source): the live heap the firmware holds, after a collection, at each point of a game.

    node vm/run.mjs --mount ... tests/heap_probe.py BOARD examples|games NAME [phones]

Started by tests/heap_budget.py (for tests/test_heap_budget.py and benchmarks/vm_heap.py).

The device boots as main.py boots it on the bench's virtual parts (tests/fw/table.py), on the profile
BOARD; on a board with Wi-Fi the scoreboard is made too (its document kept up by the device, microdot,
the server made, the radio's link up), as a Pico W holds it while phones follow the game; with
"phones", four phones follow the game live and two read it (tests/fw/phones.py), each served once
after every step. Then:
- examples: examples/NAME.sim played press by press;
- games: tests/fw/scripted_games.py's NAME game played through the core
  beside the booted device, action by action: what the emulated chip's heap probe plays
  (benchmarks/rp2040/game_heap_probe.py), so the two can be set side by side.

Each figure is gc.mem_alloc() after gc.collect(), less what the VM and the bench's own modules held
before the firmware was imported. The collection runs in a VM step after the one that dropped the
garbage (vm/run.mjs: the VM's collector frees only what earlier calls left). Prints
"boot BYTES" (the device at its start menu), "held boot MODULES" (the firmware's modules it holds
then), "game NAME STEPS KIND" (KIND: the game in play at the
end, so a key path gone astray shows) and "peak NAME BYTES AT" (AT: the
step or action after which it was seen), "held end MODULES" (at the game's end). One game a run: a device holds one game, and the chip's
probe plays each after a soft reset of its own.
"""

import gc
import sys

import devices  # noqa: F401 (the bench, loaded before the baseline: not the firmware's)
import radio_standin
import script  # noqa: F401

sys.modules["network"] = radio_standin  # a radio that comes up: the device makes its link and scoreboard
BOARD = sys.argv[1]
KIND = sys.argv[2]
NAME = sys.argv[3]
PHONES = "phones" in sys.argv[4:]
gc.collect()
# --- vm step ---
gc.collect()
base = gc.mem_alloc()

from table import Table  # noqa: E402 (the firmware's first import: the baseline is taken)

seed = 1
steps = None
if KIND == "examples":
    with open("/examples/%s.sim" % NAME) as f:
        steps = script.parse(f.read())
    seed = script.setting(steps, "seed", 1)  # the example's own dice, as the simulator plays it
with open("/config.json", "w") as f:
    # As `dicetower flash` names the profile; a board with Wi-Fi as after its first boot, its network
    # made: otherwise its name and password are drawn from the dice before the game, and the example's
    # sealed game (a seed from the same dice) would not be the one the simulator plays.
    wifi = ', "wifi": {"mode": "ap", "name": "dicetower-bench", "password": "benchpassword"}'
    f.write('{"board": "%s"%s}' % (BOARD, wifi if BOARD != "pico" else ""))
t = Table(seed=seed, board=BOARD, keep_files=True)
while t.device._prime is not None and t.device._prime():
    pass  # the dice's start-up test, as the loop finishes it at idle
if t.device.board.wifi:
    t.device.share()
    if PHONES:
        from phones import Phones  # noqa: E402

        phones = Phones(t.device)  # its server kept, as the radio task keeps it
        phones.step()
    else:
        from dicetower.web import server  # noqa: E402

        phones = server.Server(t.device, "2468")  # kept, as the radio task keeps it
    print("scoreboard made")
    t.wait(100)  # the scoreboard's first document, made in the loop
# --- vm step ---
gc.collect()
print("boot %d" % (gc.mem_alloc() - base))
print("held boot %s" % " ".join(sorted(m for m in sys.modules if m.startswith("dicetower"))))

if KIND == "examples":
    queue = iter(steps)
    game = None
else:
    import scripted_games

    game, ending, queue = getattr(scripted_games, NAME)()
    queue = iter(queue)
peak = [0, 0]
done = 0
repeat = True
# --- vm step: repeat ---
gc.collect()
live = gc.mem_alloc() - base
if live > peak[0]:
    peak = [live, done]
if True:
    print("step %d %d %s" % (done, live, " ".join(sorted(m[10:] for m in sys.modules if m.startswith("dicetower")))))
step = next(queue, None)
if step is None or (game is not None and game.over()):
    print("game %s %d %s" % (NAME, done, t.app.kind if game is None else game.KIND))
    print("peak %s %d %d" % (NAME, peak[0], peak[1]))
    print("held end %s" % " ".join(sorted(m for m in sys.modules if m.startswith("dicetower"))))
    if PHONES:
        print("phones %d %s" % (phones.taken, " ".join(str(s[1].taken) for s in phones.streams if s)))
    repeat = False
elif game is None:
    script.play(t, [step])
    done += 1
else:
    game.do(*step)
    done += 1
if PHONES and repeat:
    phones.step()
