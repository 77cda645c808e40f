"""Runs on the MicroPython VM: heap bytes and time per dice operation.

Started by benchmarks/vm_memory.py; prints one `name bytes_per_op us_per_op` line each.
"""

import gc
import sys
import time

from dicetower.core.dice import ATTACK, D6
from dicetower.core.entropy import FairDice
from dicetower.core.games.battlerealm.roll import Roll
from dicetower.core.replay import SeededSource
from dicetower.hw.entropy import Urandom

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1000


def measure(name, setup, action):
    """Average heap bytes allocated (gc.mem_alloc delta, GC off) and time per action."""
    objects = [setup(i) for i in range(N)]
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    start = time.ticks_us()
    for obj in objects:
        action(obj)
    elapsed = time.ticks_diff(time.ticks_us(), start)
    allocated = gc.mem_alloc() - before
    gc.enable()
    print("%s %.1f %.1f" % (name, allocated / N, elapsed / N))


dice = FairDice(SeededSource(1))


def fresh_roll(i):
    return Roll(dice)


def rolled(i):
    roll = Roll(dice, abilities=("Lucky",))
    roll.roll()
    return roll


def reroll_first_free(roll):
    for die in range(6):
        if not roll.locked[die]:
            roll.reroll(SINGLE[die])
            return


SINGLE = tuple((d,) for d in range(6))
seeded = SeededSource(2)
scratch = bytearray(32)


def urandom_like(n):
    # Like os.urandom on a Pico: a new bytes object per call (the VM has no os.urandom).
    seeded.fill(scratch)
    return bytes(scratch[:n])


urandom_dice = FairDice(Urandom(urandom_like))
urandom_dice.recover()  # the whole start-up test first, as a device's loop does at idle after boot


def whole_turn(_):
    # A new turn, the roll, two re-rolls of the first free die, finalize.
    roll = Roll(dice)
    roll.roll()
    reroll_first_free(roll)
    reroll_first_free(roll)
    roll.finalize()


measure("draw_d6", lambda i: dice, lambda d: d.draw(D6))
measure("draw_attack", lambda i: dice, lambda d: d.draw(ATTACK))
measure("new_turn", lambda i: None, lambda _: Roll(dice))
measure("roll", fresh_roll, lambda r: r.roll())
measure("reroll_one", rolled, reroll_first_free)
measure("lucky_reroll", rolled, lambda r: r.lucky_reroll(0))
measure("finalize", rolled, lambda r: r.finalize())
measure("roll_urandom", lambda i: Roll(urandom_dice), lambda r: r.roll())
measure("whole_turn", lambda i: None, whole_turn)
