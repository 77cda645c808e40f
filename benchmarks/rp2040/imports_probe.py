"""Runs on the emulated RP2040 (MicroPython's rp2 port), right after a soft reset, with the firmware
flashed as .mpy by dicetower flash; STEP is set before this code. Prints one JSON object a line.

STEP "boot": the device booted as main.py boots it; the firmware's modules it loaded, in the order they
came (sys.modules keeps none: each module's place in the import chain is found by importing it alone
next run), then its dice's start-up at idle, a Battlerealm game's modules (what a game in play holds)
imported one a pass in its descriptor's order, each timed, and a collection's time at each.
STEP "lookups": the flash's file system asked for a file by its path (os.stat, found and not found) at
each depth of folders; the four lookups an import makes for a module at each depth (a folder of its
name, its .py, its .mpy, the .mpy opened); and a .mpy opened and read whole.
STEP "imports": MODULES (the boot's) imported one by one in their order, each timed (a module one of them
imports is in that one's time), then main.boot() with all of them in: the boot's own work.

Started by benchmarks/rp2040_pico.py --imports.
"""

import gc
import json
import os
import sys
import time


def us(work, *args):
    began = time.ticks_us()
    work(*args)
    return time.ticks_diff(time.ticks_us(), began)


def say(**figures):
    print(json.dumps(figures))


if STEP == "boot":  # noqa: F821 (set before this code)
    from dicetower.core.scope import Scope

    let_go = []  # what the boot's scopes forgot once the device was up (the launch, wiring, startup...)
    drop = Scope.drop

    def dropped(scope, name):
        if name in scope.held:
            let_go.append(name)
        drop(scope, name)

    Scope.drop = dropped
    import main

    dev = main.boot()
    Scope.drop = drop
    say(boot_modules=sorted(set(m for m in sys.modules if m.startswith("dicetower")) | set(let_go)))
    say(collect_start_menu_us=us(gc.collect), free_start_menu=gc.mem_free())
    while dev._prime is not None and dev._prime():
        pass  # the dice's start-up test, as the loop finishes it at idle
    # A Battlerealm game's modules, one an idle pass in the order its descriptor names them, each after a
    # collection (as the loop collects at idle): each import's time is a pass the buttons wait through.
    from dicetower.core.games import battlerealm

    game = []
    for part in battlerealm.AHEAD + ("advisor",):
        name = part if "." in part else "dicetower.core.games.battlerealm." + part
        if name not in sys.modules:
            gc.collect()
            game.append((name, us(__import__, name)))
    for name in ("dicetower.ui.battlerealm", "dicetower.ui.sealing"):
        gc.collect()
        game.append((name, us(__import__, name)))
    say(game_imports=game)

    gc.collect()
    say(collect_in_play_us=us(gc.collect), free_in_play=gc.mem_free())

elif STEP == "lookups":  # noqa: F821

    def missing(path):
        try:
            os.stat(path)
        except OSError:
            pass

    for path in (
        "main.py",
        "dicetower/device.mpy",
        "dicetower/core/game.mpy",
        "dicetower/core/games/__init__.mpy",
        "dicetower/core/games/battlerealm/tracker.mpy",
    ):
        found = sorted(us(os.stat, path) for _ in range(3))[1]
        absent = sorted(us(missing, path + "x") for _ in range(3))[1]
        say(lookup=path, depth=path.count("/") + 1, found_us=found, missing_us=absent)

    def lookups(path):
        """What an import asks the file system for a module's path (no extension) before it loads it: a
        folder of that name (a package), the .py, then the .mpy, found and opened (py/builtinimport.c)."""
        missing(path)
        missing(path + ".py")
        os.stat(path + ".mpy")
        open(path + ".mpy", "rb").close()

    for path in ("dicetower/device", "dicetower/core/game", "dicetower/core/games/battlerealm/tracker"):
        looked = sorted(us(lookups, path) for _ in range(3))[1]
        say(import_lookups=path, depth=path.count("/") + 1, us=looked)

    def read(path):
        with open(path, "rb") as f:
            f.read()

    path = "dicetower/core/games/battlerealm/tracker.mpy"
    say(read=path, bytes=os.stat(path)[6], us=sorted(us(read, path) for _ in range(3))[1])

else:
    times = []
    for name in MODULES:  # noqa: F821 (set before this code)
        if name in sys.modules:
            continue  # imported by one before it: in that one's time
        gc.collect()
        times.append((name, us(__import__, name)))
    say(imports=times)
    import main

    gc.collect()
    say(boot_work_us=us(main.boot))
