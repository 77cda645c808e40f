"""Runs on the MicroPython VM (and on the emulated RP2040, benchmarks/rp2040_pico.py): time and heap of one piece of advice from core/games/battlerealm/advisor.py.

Started by benchmarks/vm_advisor.py; prints `name fastest_us median_us heap_bytes percent longest_slice_us
live_bytes` per case (the fastest and the median time of the runs of advise(); heap: gc.mem_alloc() delta
over one advice with the GC off; the longest single next() of advisor.plan() over the runs, each after a
collection; live: the most the advisor holds while a plan runs, its work arrays (made by the first plan
that needs them, then kept) included: gc.mem_alloc() after a collection at each step).
"""

import gc
import sys
import time

from dicetower.core.games.battlerealm import advisor, cards, ranks

# Lucky's modules now, as the device imports them: in loop passes of their own before a Lucky hero's first
# plan (core/games/battlerealm/turn.py, Turn._planned). Left to advise() they were timed in the first
# Lucky case's first run: 57 ms of machine code loaded, on the chip at 1ac0e7a.
__import__("dicetower.core.games.battlerealm.lucky")

# Arguments: the VM's command line, or PROBE_ARGS set before this code on a board (the rp2 port has no sys.argv).
ARGS = globals().get("PROBE_ARGS") or getattr(sys, "argv", [])[1:]
RUNS = int(ARGS[0]) if ARGS else 5
ONLY = ARGS[1].split("|") if len(ARGS) > 1 else None  # the cases to measure, "|" between (all if not given)
FULL_HAND = [
    cards.need(d)
    for d in (
        ["Mutant", "Science", "Skill", "Skill"],
        ["Skill", "Skill", "Mystic", "Mystic"],
        ["Mutant", "Mutant", "Science", "Science"],
        ["Cosmic", "Tech", "Tech"],
    )
]
THUNDERCLAP = FULL_HAND[:1]
FREE = bytearray((2, 3, 4, 5, 4, 5))  # six free dice: Skill Tech Cosmic Mystic Cosmic Mystic
NONE_LOCKED = bytearray(6)
TWO_LOCKED = (bytearray((0, 1, 4, 5, 2, 3)), bytearray((1, 1, 0, 0, 0, 0)))


def pool_bytes(lucky):
    """The heap of the advisor's work arrays (arrays: a 16-byte object and the items in 16-byte blocks),
    with Lucky's three more (lucky_tables.py's) for a Lucky case."""
    pool = list(ranks._POOL)
    if lucky:
        from dicetower.core.games.battlerealm import lucky_tables

        pool += lucky_tables.WORK
    return sum(16 + (4 * len(a) + 15) // 16 * 16 for a in pool)


def measure(name, faces, locked, rerolls, lucky, needs, location=cards.ELSEWHERE, in_prison=False):
    if ONLY and name not in ONLY:
        return
    goal = cards.Goal(needs, in_prison=in_prison, location=location, pvp=3)
    times = []
    for _ in range(RUNS):
        start = time.ticks_us()
        advisor.advise(faces, locked, rerolls, lucky, goal)
        times.append(time.ticks_diff(time.ticks_us(), start))
    times.sort()
    longest = 0
    for _ in range(RUNS):
        gc.collect()  # a collection is the loop's cost, not the advisor's slice
        work = advisor.plan(faces, locked, rerolls, lucky, goal)
        step = None
        while step is None:
            start = time.ticks_us()
            step = next(work)
            longest = max(longest, time.ticks_diff(time.ticks_us(), start))
    gc.collect()
    pool = pool_bytes(lucky)
    before = gc.mem_alloc()
    live = 0
    work = advisor.plan(faces, locked, rerolls, lucky, goal)
    step = None
    while step is None:
        step = next(work)
        gc.collect()
        live = max(live, gc.mem_alloc() - before)
    live += pool
    del work, step
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    advice = advisor.advise(faces, locked, rerolls, lucky, goal)
    heap = gc.mem_alloc() - before
    gc.enable()
    print("%s %d %d %d %d %d %d" % (name, times[0], times[len(times) // 2], heap, advice.percent(), longest, live))


measure("hardest:6free,2rerolls,any-of-4-cards", FREE, NONE_LOCKED, 2, 0, FULL_HAND)
measure("6free,2rerolls,Thunderclap", FREE, NONE_LOCKED, 2, 0, THUNDERCLAP)
measure("6free,2rerolls,any-of-4,Ghost-Orchid", FREE, NONE_LOCKED, 2, 0, FULL_HAND, cards.GHOST_ORCHID)
measure("6free,2rerolls,any-of-4,Lucky", FREE, NONE_LOCKED, 2, 1, FULL_HAND)
measure("6free,1reroll,any-of-4,Lucky", FREE, NONE_LOCKED, 1, 1, FULL_HAND)
measure("6free,1reroll,any-of-4", FREE, NONE_LOCKED, 1, 0, FULL_HAND)
measure("2locked,2rerolls,any-of-4", TWO_LOCKED[0], TWO_LOCKED[1], 2, 0, FULL_HAND)
measure("0rerolls,Lucky,any-of-4", FREE, NONE_LOCKED, 0, 1, FULL_HAND)
# The slowest paths of plan() keep their slices short too: Lucky with a locked die it may take,
# and the Prison, where only goal.check scores the dice (as at Avengers Tower).
measure("2locked,2rerolls,any-of-4,Lucky", TWO_LOCKED[0], TWO_LOCKED[1], 2, 1, FULL_HAND)
measure("6free,2rerolls,any-of-4,in-Prison", FREE, NONE_LOCKED, 2, 0, FULL_HAND, in_prison=True)
