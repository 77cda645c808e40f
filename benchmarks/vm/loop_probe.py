"""Advice in the device's own loop (`Device.tick`): from the dice on screen to the advice shown, and the
longest pass of the loop meanwhile (the longest a press waits to be polled). Prints one JSON object a line.

Runs on the emulated RP2040 (benchmarks/rp2040_pico.py: `run(main.boot())`, the chip's clock) and on
the MicroPython VM (benchmarks/vm_loop.py: a bench's device, whose clock stands still, so there the
passes are the advisor's slices and the loop's other work is left out). Positions: the roll a new
two-hero Battlerealm game starts with, then the hardest one (six free dice, two re-rolls, any of four
cards); and on a device of its own (a board soft-reset; on the VM a second bench in the same
interpreter, whose modules stay), the same with Lucky, in a game whose acting hero has it.
"""

import json
import time

FOUR = [
    {"name": "Card %d" % n, "dice": dice}
    for n, dice in enumerate(
        (
            ["Mutant", "Science", "Skill", "Skill"],
            ["Skill", "Skill", "Mystic", "Mystic"],
            ["Mutant", "Mutant", "Science", "Science"],
            ["Cosmic", "Tech", "Tech"],
        )
    )
]


def _advice(dev, name, setup):
    app = dev.app
    ticks_ms = dev.platform.ticks_ms
    setup(app.turn)
    app.turn.advise()
    if not app.thinking():
        raise RuntimeError("no advice to work out: %s (mode %s)" % (app.message, app.mode))
    start = time.ticks_us()
    longest = 0
    passes = 0
    while app.thinking():
        began = time.ticks_us()
        dev.tick(ticks_ms())
        longest = max(longest, time.ticks_diff(time.ticks_us(), began))
        passes += 1
    if app.advice is None:  # the plan raised: the device logged it and shows it (Device._crash)
        import gc

        gc.collect()
        try:
            import micropython

            micropython.mem_info()  # where the heap's free blocks are (MicroPython only)
        except (ImportError, AttributeError):
            pass
        raise RuntimeError("no advice for %s: %s (%d B free after a collection)" % (name, app.message, gc.mem_free()))
    print(
        json.dumps(
            {
                "advice": name,
                "ready_us": time.ticks_diff(time.ticks_us(), start),
                "longest_pass_us": longest,
                "passes": passes,
                "percent": app.advice.percent(),
            }
        )
    )


def _hardest(lucky):
    def setup(turn):
        roll = turn.roll
        for die, face in enumerate((2, 3, 4, 5, 4, 5)):  # Skill Tech Cosmic Mystic Cosmic Mystic, none locked
            roll.faces[die] = face
            roll.locked[die] = 0
        roll.rerolls_left = 2
        roll.lucky_left = lucky
        turn.hero_cards = lambda: FOUR
        turn.target = 0

    return setup


def run(dev, lucky=False):
    """`dev`: a device booted without a saved game (the start menu's first item is New Battlerealm). The
    built-in heroes: the first roll, then the hardest position. With `lucky`, a game whose Hulk has Lucky
    (a heroes.json's), as a table plays one: the loop's idle work done between its presses, which loads
    Lucky's search with the game's first modules (the descriptor's `ahead_of`) and the rest of the advice as
    it begins; then the same position with Lucky."""
    app = dev.app
    if not lucky:
        for key in "caaccc":  # New Battlerealm, two heroes, start, the seal's cut; Hulk rolls
            app.press(key, "short")
        _advice(dev, "the first roll of a new game (Hulk's two cards)", lambda turn: None)
        _advice(dev, "hardest:6free,2rerolls,any-of-4-cards", _hardest(0))
    else:
        app.options["heroes"] = [  # as wiring.py reads a heroes.json
            {"name": "Hulk", "pvp": 10, "abilities": ["Lucky"], "primary": "", "cards": FOUR},
            {"name": "Thor", "pvp": 10, "abilities": [], "primary": "", "cards": []},
        ]
        for key in "caacc":  # New Battlerealm, two heroes, start, the seal's cut: the loop's idle work between
            app.press(key, "short")
            while app.thinking():
                dev.tick(dev.platform.ticks_ms())
        app.press("c", "short")  # Hulk rolls
        _advice(dev, "6free,2rerolls,any-of-4,Lucky", _hardest(1))
    del app.turn.hero_cards
