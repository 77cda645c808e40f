"""Runs on the emulated RP2040 after a soft reset, beside tests/fw/scripted_games.py: the heap the game
has, however the firmware was installed (frozen in a UF2, .mpy or .py files on the flash). Prints one
JSON object a line. Started by benchmarks/rp2040_uf2.py.
"""

import gc
import json

gc.collect()
print(json.dumps({"free_at_boot": gc.mem_free()}))

fits = True
try:
    import main

    main.frozen()  # a UF2's firmware first, as at power-up
    dev = main.boot()
    gc.collect()
    print(json.dumps({"free_with_device": gc.mem_free()}))
    import dicetower.core.advisor  # noqa: F401 (a Battlerealm game loads it)

    import scripted_games
except MemoryError as e:  # the firmware does not fit this way (as .py source, compiled on the chip)
    print(json.dumps({"error": "MemoryError: %s" % e}))
    fits = False

for name in ("battlerealm", "champions", "united", "battleworld") if fits else ():
    game, done, lowest = scripted_games.lowest_free(getattr(scripted_games, name))
    del game
    gc.collect()
    print(json.dumps({"game": name, "actions": done, "lowest_free": lowest}))
