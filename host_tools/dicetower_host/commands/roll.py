"""A Battlerealm turn of the six dice in the terminal: roll, re-roll, Lucky, finalize.

It runs the firmware's own engine (dicetower.core) on this computer, with the OS's
entropy through the same health tests and fair sampler as a Pico, or a seed (--seed)
or set faces (--faces) for replays and teaching. Type h at the prompt for the commands.
"""

from dicetower.core.games.battlerealm.triples import ABILITIES
from dicetower_host import dice
from dicetower_host.commands import add_source_options

HELP = "a Battlerealm turn of the six dice in the terminal"


def add_arguments(parser):
    add_source_options(parser)
    parser.add_argument(
        "--ability",
        action="append",
        default=[],
        choices=ABILITIES,
        help="a special ability of the rolling hero (repeatable)",
    )
    parser.add_argument("--disorientated", action="store_true", help="one re-roll this turn")
    parser.add_argument("--in-prison", action="store_true", help="the hero starts in the Crystal Prison")


def run(args, stdin=None, out=None):
    return dice.turns(args.ability, args.disorientated, args.in_prison, args.seed, args.faces, stdin, out)
