"""Roll other dice: Battleworld's Attack Die (with --bonus and --target, say hit or miss), the
Danger Coin, the six Battlerealm dice, or plain dN, with the same fair sampler as a Pico."""

import sys

from dicetower.core import dice as dice_data
from dicetower_host.commands import add_source_options, face_source
from dicetower_host.errors import UserError

HELP = "roll the Attack Die, the Danger Coin or plain dice"
MAX_COUNT = 10000


def add_arguments(parser):
    add_source_options(
        parser, example="Star,3,Blank (attack), Moon,Energy (coin) or 6,1 (d6): the thrown die's own faces"
    )
    parser.add_argument("die", help="attack, coin, battlerealm or dN (d6, d20...)")
    parser.add_argument("count", nargs="?", type=int, default=1, help="how many to throw (1 to %d)" % MAX_COUNT)
    parser.add_argument("--bonus", type=int, default=0, help="Attack Bonus added to the Attack Die")
    parser.add_argument("--target", type=int, help="Attack Target Number: say hit or miss")


def die_named(name):
    name = name.lower()
    known = {
        "battlerealm": dice_data.BATTLEREALM,
        "attack": dice_data.ATTACK,
        "coin": dice_data.DANGER_COIN,
        "danger": dice_data.DANGER_COIN,
    }
    if name in known:
        return known[name]
    if name.startswith("d") and name[1:].isdigit():
        try:
            return dice_data.plain(int(name[1:]))
        except ValueError as e:  # the firmware's own words for a die it cannot make
            raise UserError(str(e))
    raise UserError("unknown die %r: battlerealm, attack, coin or dN (d6, d20...)" % name)


def run(args, out=None):
    out = out or sys.stdout
    die = die_named(args.die)
    if die is not dice_data.ATTACK and (args.bonus or args.target is not None):
        raise UserError(
            "--bonus and --target go with the Attack Die (dicetower throw attack ...), not the %s" % die.name
        )
    if not 1 <= args.count <= MAX_COUNT:
        raise UserError("throw 1 to %d dice at a time, not %d" % (MAX_COUNT, args.count))
    dice = face_source(args, die)
    faces = [die.faces[dice.draw(die)] for _ in range(args.count)]
    out.write(" ".join(faces) + "\n")
    if die is dice_data.ATTACK and args.target is not None:
        for face in faces:
            hit = dice_data.attack_hits(face, args.bonus, args.target)
            out.write("%s + %d vs %d: %s\n" % (face, args.bonus, args.target, "hit" if hit else "miss"))
    return 0
