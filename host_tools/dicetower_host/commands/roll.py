"""A Battlerealm turn of the six dice in the terminal: roll, re-roll, Lucky, finalize.

It runs the firmware's own engine (dicetower.core) on this computer, with the OS's
entropy through the same health tests and fair sampler as a Pico, or a seed (--seed)
or set faces (--faces) for replays and teaching. Type h at the prompt for the commands.
"""

import sys

from dicetower.core.dice import BATTLEREALM
from dicetower.core.entropy import EntropyFailure
from dicetower.core.roll import DICE, Roll, RollRefused
from dicetower.core.triples import ABILITIES
from dicetower_host.commands import add_source_options, face_source

HELP = "a Battlerealm turn of the six dice in the terminal"

COMMANDS = """Commands:
  r 2 3 5   re-roll dice 2, 3 and 5 (locked Mutant and Science cannot)
  r all     re-roll every unlocked die
  l 4       Lucky's extra re-roll of die 4 (Lucky heroes only)
  f         finalize and see what the dice do
  f Cosmic  finalize, spending three Cosmic to escape the Crystal Prison
  n         a new turn
  q         quit"""


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


def show_roll(roll, out):
    state = "finalized" if roll.finalized else "re-rolls left: %d" % roll.rerolls_left
    if roll.lucky_left and not roll.finalized:
        state += ", Lucky re-roll left"
    out.write("Dice (%s):\n" % state)
    for die, face in enumerate(roll.symbols()):
        out.write("  %d %-8s%s\n" % (die + 1, face, "  locked" if roll.locked[die] else ""))


def parse_dice(words, roll):
    if words == ["all"]:
        return [d for d in range(DICE) if not roll.locked[d]]
    picked = []
    for word in words:
        if not word.isdigit():
            raise RollRefused("Dice are numbered 1 to 6, not %r." % word)
        picked.append(int(word) - 1)
    return picked


def play_turn(roll, command, out):
    """Carry out one typed command on the roll. Returns False to quit."""
    words = command.split()
    if not words:
        return True
    verb, rest = words[0].lower(), words[1:]
    if verb in ("q", "quit", "exit"):
        return False
    if verb in ("h", "help", "?"):
        out.write(COMMANDS + "\n")
        return True
    if verb in ("r", "reroll"):
        roll.reroll(parse_dice(rest, roll))
        show_roll(roll, out)
    elif verb in ("l", "lucky"):
        picked = parse_dice(rest, roll)
        if len(picked) != 1:
            raise RollRefused("Lucky re-rolls exactly one die: l 1 to l 6.")
        roll.lucky_reroll(picked[0])
        show_roll(roll, out)
    elif verb in ("f", "finalize"):
        outcome = roll.finalize(escape_with=rest[0].capitalize() if rest else None)
        show_roll(roll, out)
        for line in outcome.lines or ["Nothing happens."]:
            out.write("  " + line + "\n")
    else:
        raise RollRefused("Unknown command %r; type h for help." % verb)
    return True


def run(args, stdin=None, out=None):
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    dice = face_source(args, BATTLEREALM)
    if dice.failure:
        out.write(dice.failure + "\n")
        return 1
    hero = dict(abilities=args.ability, disorientated=args.disorientated, in_prison=args.in_prison)
    out.write("Battlerealm dice, %s. Type h for help.\n" % dice.name)
    roll = None
    while True:
        if roll is None:
            roll = Roll(dice, **hero)
            try:
                roll.roll()
            except EntropyFailure as e:
                out.write(str(e) + "\n")
                return 1
            show_roll(roll, out)
        out.write("> ")
        out.flush()
        line = stdin.readline()
        if not line:
            out.write("\n")
            return 0
        if line.strip().lower() in ("n", "new"):
            roll = None
            continue
        try:
            if not play_turn(roll, line, out):
                return 0
        except (RollRefused, ValueError) as e:
            out.write("Refused: %s\n" % e)
        except EntropyFailure as e:
            out.write(str(e) + "\n")
            return 1
