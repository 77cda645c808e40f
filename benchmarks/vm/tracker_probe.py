"""Runs on the MicroPython VM: heap and flash bytes of a whole four-player game per mode.

Started by benchmarks/vm_trackers.py (through vm/run.mjs, whose steps let the
VM's garbage collector free what earlier steps dropped). Prints
"imports BYTES", then per game:
name actions heap_end heap_peak save_max save_mean save_total us_per_action
"""

import gc
import time

gc.collect()
before_import = gc.mem_alloc()
from dicetower.core.savefile import encode  # noqa: E402
from scripted_games import GAMES  # noqa: E402

# --- vm step ---
gc.collect()
print("imports %d" % (gc.mem_alloc() - before_import))

# The largest save: six heroes with long names and a full undo window.
from dicetower.core.games.battlerealm.tracker import Battlerealm  # noqa: E402

six = Battlerealm.setup(
    [{"name": "Black Panther", "pvp": 10, "abilities": ["Tough", "Cunning", "Peaceful"]} for _ in range(6)]
)
for t in range(60):
    six.do("roll", "YKKTCC", [(t + 1) % 6, (t + 2) % 6])
    six.do("attack", (t + 3) % 6, 1, True)
    six.do("end_turn")
print("six %d %d" % (len(six.actions), len(encode(six))))
six = None

# The largest Champions save the tracker allows: four players, five game areas, eight side
# schemes with the longest names, and 50 side-scheme actions to undo.
from dicetower.core.games.champions.tracker import Champions  # noqa: E402

big = Champions.setup(
    [{"name": "Player %d with hp" % n, "hp": 15} for n in range(4)],
    {"name": "A Long Main Sch.", "stages": [[20, 3, 5]] * 6},
    {"name": "A Long Villain N", "stages": [20] * 6, "final": False},
)
for p in range(4):
    big.do(
        "separate",
        p,
        {"name": "A Long Main Sch.", "stages": [[20, 3, 5]] * 6},
        {"name": "A Long Villain N", "stages": [20] * 6},
    )
for n in range(8):
    big.do("side", n % 5, "A Side Scheme Name %05d" % n, 12, 1, 3, 3)
for _ in range(50):
    big.do("side_threat", 0, 0, 12)
print("champions_max %d %d" % (len(big.actions), len(encode(big))))
big = None
queue = list(GAMES)
repeat = True
game = None

# --- vm step: repeat ---
if game is None:
    # A new game; `baseline` is the heap before it exists.
    gc.collect()
    maker = queue.pop(0)
    baseline = gc.mem_alloc()
    game, ending, actions = maker()
    actions = iter(actions)
    sizes = []
    peak = 0
    done = 0
    elapsed = 0
else:
    gc.collect()  # what the previous step dropped is freed now
    peak = max(peak, gc.mem_alloc() - baseline)
    action = None if game.over() else next(actions, None)
    if action is None:
        print(
            "%s %d %d %d %d %d %d %d"
            % (
                maker.__name__,
                done,
                gc.mem_alloc() - baseline,
                peak,
                max(sizes),
                sum(sizes) // len(sizes),
                sum(sizes),
                elapsed // done,
            )
        )
        game = actions = None
        repeat = bool(queue)
    else:
        began = time.ticks_us()
        game.do(*action)
        sizes.append(len(encode(game)))  # the device rewrites the whole save after each action
        elapsed += time.ticks_diff(time.ticks_us(), began)
        done += 1
