"""The board's own dice (the same source and sampler a game uses) thrown `rolls` times per die
kind, for dicetower stats --port: the source's name, then each face index as one character, a line
per 1,000, and "-" after each die kind."""

import sys

from dicetower.core import dice as _d
from dicetower.core.entropy import FairDice
from dicetower.hw.entropy import sources_for
from dicetower.hw.platform import _machine_name


def roll_dice(rolls):
    dice = FairDice(*sources_for(_machine_name(sys)))
    print(dice.source.name)
    out = bytearray(1000)
    for die in (_d.BATTLEREALM, _d.ATTACK, _d.DANGER_COIN):
        left = rolls
        while left:
            k = min(left, 1000)
            for i in range(k):
                out[i] = 48 + dice.draw(die)
            print(out[:k].decode())
            left -= k
        print("-")
