"""The dice at the table, in a terminal: `dicetower roll`'s Battlerealm turns at a prompt and `dicetower
throw`'s other dice, run by the firmware's own engine (dicetower.core) on this computer, with the
OS's entropy through the same health tests and fair sampler as a Pico, or a seed or set faces."""

import sys

from dicetower.core import dice as dice_data
from dicetower.core.entropy import EntropyFailure
from dicetower.core.games.battlerealm.roll import DICE, Roll, RollRefused
from dicetower_host.errors import UserError


def face_source(seed=None, faces=None, die=None):
    """The dice a command rolls with: set `faces` (a comma-separated text, each checked against `die`),
    a `seed`, or the OS."""
    from dicetower.core.entropy import FairDice
    from dicetower.core.replay import ScriptedFaces, SeededSource
    from dicetower.hw.entropy import Urandom

    if faces:
        faces = [f.strip() for f in faces.split(",") if f.strip()]
        for face in faces if die is not None else ():
            try:
                die.index(face)
            except ValueError:
                raise UserError("--faces: %r is not a face of the %s die (%s)" % (face, die.name, ", ".join(die.faces)))
        return ScriptedFaces(faces)
    if seed is not None:
        return FairDice(SeededSource(seed))
    return FairDice(Urandom(name="host os.urandom"))


COMMANDS = """Commands:
  r 2 3 5   re-roll dice 2, 3 and 5 (locked Mutant and Science cannot)
  r all     re-roll every unlocked die
  l 4       Lucky's extra re-roll of die 4 (Lucky heroes only)
  f         finalize and see what the dice do
  f Cosmic  finalize, spending three Cosmic to escape the Crystal Prison
  n         a new turn
  q         quit"""


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


def turns(abilities=(), disorientated=False, in_prison=False, seed=None, faces=None, stdin=None, out=None):
    """`dicetower roll`: Battlerealm turns typed at a prompt until q or the input ends; the exit status."""
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    dice = face_source(seed, faces, dice_data.BATTLEREALM)
    if dice.failure:
        out.write(dice.failure + "\n")
        return 1
    hero = dict(abilities=list(abilities), disorientated=disorientated, in_prison=in_prison)
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


MAX_COUNT = 10000


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


def throw(name, count=1, bonus=0, target=None, seed=None, faces=None, out=None):
    """`dicetower throw`: `count` of the die `name` thrown, their faces on one line; the Attack Die's
    hit or miss against `target` with `bonus`. The exit status."""
    out = out or sys.stdout
    die = die_named(name)
    if die is not dice_data.ATTACK and (bonus or target is not None):
        raise UserError(
            "--bonus and --target go with the Attack Die (dicetower throw attack ...), not the %s" % die.name
        )
    if not 1 <= count <= MAX_COUNT:
        raise UserError("throw 1 to %d dice at a time, not %d" % (MAX_COUNT, count))
    dice = face_source(seed, faces, die)
    thrown = [die.faces[dice.draw(die)] for _ in range(count)]
    out.write(" ".join(thrown) + "\n")
    if die is dice_data.ATTACK and target is not None:
        for face in thrown:
            hit = dice_data.attack_hits(face, bonus, target)
            out.write("%s + %d vs %d: %s\n" % (face, bonus, target, "hit" if hit else "miss"))
    return 0
