"""On the MicroPython VM: play a script and print a digest of the OLED and LEDs after every step.

    node vm/run.mjs --mount ... host_tools/dicetower_host/virtual_parts/parity_main.py /examples/battlerealm.sim
tests/test_sim_parity.py compares these lines with the same run on CPython.
"""

import sys

from script import digests, parse, setting

from dicetower.core.entropy import FairDice
from dicetower.core.replay import SeededSource
from tower import Tower

with open(sys.argv[1]) as f:
    steps = parse(f.read())
tower = Tower("/", setting(steps, "board", "pico"), FairDice(SeededSource(setting(steps, "seed", 1))))
for line, digest in digests(tower, steps):
    print("STEP %d %s" % (line, digest))
