"""Roll other dice: Battleworld's Attack Die (with --bonus and --target, say hit or miss), the
Danger Coin, the six Battlerealm dice, or plain dN, with the same fair sampler as a Pico."""

from dicetower_host import dice
from dicetower_host.commands import add_source_options

HELP = "roll the Attack Die, the Danger Coin or plain dice"


def add_arguments(parser):
    add_source_options(
        parser, example="Star,3,Blank (attack), Moon,Energy (coin) or 6,1 (d6): the thrown die's own faces"
    )
    parser.add_argument("die", help="attack, coin, battlerealm or dN (d6, d20...)")
    parser.add_argument("count", nargs="?", type=int, default=1, help="how many to throw (1 to %d)" % dice.MAX_COUNT)
    parser.add_argument("--bonus", type=int, default=0, help="Attack Bonus added to the Attack Die")
    parser.add_argument("--target", type=int, help="Attack Target Number: say hit or miss")


def run(args, out=None):
    return dice.throw(args.die, args.count, args.bonus, args.target, args.seed, args.faces, out)
