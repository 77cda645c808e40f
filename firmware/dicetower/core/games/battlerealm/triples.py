"""What six finalized Battlerealm dice mean: triples, Prison, Explosion, PVP.

`judge` reads the finalized faces for a hero and returns an `Outcome` that
says, in the rulebook's words, what happened and what is mandatory. It is a
pure function of the faces, the hero's abilities and whether the hero is in
the Crystal Prison.

Choices where the rulebook leaves a gap (docs/rules.md):
- Triples are judged on the finalized dice; Science before Mutant.
- In the Crystal Prison any three of a kind escape, and those three dice are
  spent. With more than one triple the player may name the symbol to spend
  (`escape_with`); otherwise Mutant is spent first, then Science (their
  triples are the ones with mandatory effects), then the die's own order.
  The dice left over are judged as usual, so six Mutant in the Prison
  escape with three and go straight back with the other three.
- Peaceful looks at all six finalized dice: three Skill spent on an escape
  were still rolled ("If the Hero did not roll any Skill or Tech results").
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

from dicetower.core.dice import COSMIC, MUTANT, MYSTIC, SCIENCE, SKILL, SYMBOLS, TECH

ABILITIES = ("Careful", "Cunning", "Elusive", "Flight", "Gifted", "Honest", "Lucky", "Peaceful", "Survivor", "Tough")

_TRIPLE = const(3)
ESCAPE_ORDER = (MUTANT, SCIENCE, SKILL, TECH, COSMIC, MYSTIC)

# Why a die cannot pay a power card.
SPENT_ESCAPE = "escape"
SPENT_EXPLOSION = "Explosion"
SPENT_PRISON = "Prison"
SPENT_CARD = "card"  # paid a power card (Outcome.expend)


def check_abilities(abilities):
    """The abilities as a tuple, or ValueError naming the unknown one."""
    abilities = tuple(abilities)
    for name in abilities:
        if name not in ABILITIES:
            raise ValueError("unknown special ability %r (known: %s)" % (name, ", ".join(ABILITIES)))
    return abilities


def prison_threshold(abilities):
    """Rulebook, Honest: "It requires four Mutant, not three"."""
    return 4 if "Honest" in abilities else _TRIPLE


def explosion_threshold(abilities):
    """Rulebook, Careful: "It requires four Science results, not three"."""
    return 4 if "Careful" in abilities else _TRIPLE


class Outcome:
    """The meaning of one finalized roll. Read its fields or `lines`.

    symbols    the six faces, by name
    counts     dict symbol -> how many dice show it (all six dice)
    spent      per die: None, or why it cannot pay a power card
    escaped    True if a triple freed the hero from the Crystal Prison
    escape_symbol  the symbol of the spent triple, or None
    explosion  damage to every other hero at the location (0: none)
    prison     True if the hero must go to the Crystal Prison (turn ends)
    pvp        PVP Points gained now: Mystic, Gifted, Peaceful
    skill, tech, cosmic, mystic  dice of each left for actions or cards
    lines      plain sentences, mandatory actions first
    mandatory  the sentences the player must carry out
    """

    def __init__(self):
        self.symbols = ()
        self.counts = {}
        self.spent = [None] * 6
        self.escaped = False
        self.escape_symbol = None
        self.explosion = 0
        self.prison = False
        self.pvp = 0
        self.skill = self.tech = self.cosmic = self.mystic = 0
        self.lines = []
        self.mandatory = []
        self.held = False  # still in the Crystal Prison: the dice do nothing

    def expend(self, dice):
        """The dice (indices) that paid power cards are expended: "expending those dice results" leaves
        them for no dice action, so the Skill, Tech and Cosmic the result offers are counted again."""
        for i in dice:
            self.spent[i] = SPENT_CARD
        self.skill, self.tech, self.cosmic = _left(self, SKILL), _left(self, TECH), _left(self, COSMIC)
        kept = []
        for line in self.lines:
            if not _is_option(line):
                kept.append(line)
        self.lines = kept + _options(self)

    def free(self):
        """Indices of the dice that may still pay power cards."""
        return [i for i in range(len(self.spent)) if self.spent[i] is None]

    def __repr__(self):
        return "Outcome(%s)" % " ".join(self.lines)


def _spend(outcome, symbol, why, limit):
    n = 0
    for i in range(len(outcome.symbols)):
        if n < limit and outcome.symbols[i] == symbol and outcome.spent[i] is None:
            outcome.spent[i] = why
            n += 1


def _left(outcome, symbol):
    n = 0
    for i in range(len(outcome.symbols)):
        if outcome.symbols[i] == symbol and outcome.spent[i] is None:
            n += 1
    return n


# What `resolve` reports, as bits.
ESCAPED = 1
EXPLODED = 2
IMPRISONED = 4


def resolve(counts, prison_at=_TRIPLE, explosion_at=_TRIPLE, escape=-1):
    """Spend what the rules spend, on counts of finalized dice (a bytearray in SYMBOLS order).

    `escape` is the index of the symbol whose three dice free the hero from
    the Crystal Prison (-1: no escape). Afterwards `counts` holds the dice
    that may still pay power cards; returns ESCAPED | EXPLODED | IMPRISONED.
    Allocates nothing: the advisor calls it for every outcome.
    """
    flags = 0
    if escape >= 0:
        counts[escape] -= _TRIPLE
        flags = ESCAPED
    if counts[1] >= explosion_at:  # Science first
        counts[1] = 0
        flags |= EXPLODED
    if counts[0] >= prison_at:
        counts[0] = 0
        flags |= IMPRISONED
    return flags


def escapes(counts):
    """The symbol indices a hero in the Prison may escape with, default first (ESCAPE_ORDER)."""
    return [SYMBOLS.index(s) for s in ESCAPE_ORDER if counts[SYMBOLS.index(s)] >= _TRIPLE]


def judge(symbols, abilities=(), in_prison=False, escape_with=None):
    """Judge finalized faces (names) for a hero; returns an `Outcome`.

    Raises ValueError for an unknown face or ability, or an `escape_with`
    symbol that is not a triple in this roll.
    """
    abilities = check_abilities(abilities)
    out = Outcome()
    out.symbols = tuple(symbols)
    out.spent = [None] * len(out.symbols)
    counts = bytearray(len(SYMBOLS))
    for face in out.symbols:
        if face not in SYMBOLS:
            raise ValueError("%r is not a Battlerealm face" % (face,))
        counts[SYMBOLS.index(face)] += 1
    for i in range(len(SYMBOLS)):
        out.counts[SYMBOLS[i]] = counts[i]

    escape = _escape_index(counts, in_prison, escape_with)
    science = counts[1] - (_TRIPLE if escape == 1 else 0)
    mutant = counts[0] - (_TRIPLE if escape == 0 else 0)
    threshold = explosion_threshold(abilities)
    flags = resolve(counts, prison_threshold(abilities), threshold, escape)
    if flags & ESCAPED:
        out.escaped = True
        out.escape_symbol = SYMBOLS[escape]
        _spend(out, out.escape_symbol, SPENT_ESCAPE, _TRIPLE)
        out.lines.append(
            "Escape! Three %s free you from the Crystal Prison (those dice are spent): "
            "move to any location." % out.escape_symbol
        )
    if flags & EXPLODED:
        out.explosion = 1 + science - threshold
        _spend(out, SCIENCE, SPENT_EXPLOSION, 6)
        out.mandatory.append(
            "Explosion! %d Science: %d damage to every other hero at your location "
            "(not an Attack)." % (science, out.explosion)
        )
    if flags & IMPRISONED:
        out.prison = True
        _spend(out, MUTANT, SPENT_PRISON, 6)
        out.mandatory.append(
            "Crystal Prison! %d Mutant: go to the Crystal Prison; entering it ends your turn." % mutant
        )

    out.skill = _left(out, SKILL)
    out.tech = _left(out, TECH)
    out.cosmic = _left(out, COSMIC)
    out.mystic = _left(out, MYSTIC)

    gained = []
    if out.mystic:
        out.pvp += out.mystic
        gained.append("%d Mystic" % out.mystic)
        if "Gifted" in abilities:
            out.pvp += 1
            gained.append("1 Gifted")
    if "Peaceful" in abilities and out.counts[SKILL] == 0 and out.counts[TECH] == 0:
        out.pvp += 2
        gained.append("2 Peaceful")
    if out.pvp:
        out.lines.append("+%d PVP (%s)." % (out.pvp, ", ".join(gained)))
    _say_options(out, in_prison)
    return out


def _options(out):
    """The dice actions the dice left offer, a line each (none for a hero still held); each line names
    the play menu's action that applies it: the result is read before the menu."""
    lines = []
    if out.held:
        return lines
    if out.skill:
        lines.append(
            "Skill %d: up to %d damage to heroes at your location (Attack, from: Skill)." % (out.skill, out.skill)
        )
    if out.tech:
        lines.append(
            "Tech %d: up to %d damage to heroes at other locations (Attack, from: Tech)." % (out.tech, out.tech)
        )
    if out.cosmic:
        lines.append("Cosmic %d: move (1 Cosmic, plus 1 for each other hero at your location)." % out.cosmic)
    return lines


def _is_option(line):
    for word in ("Skill ", "Tech ", "Cosmic "):
        if line.startswith(word):
            return True
    return False


# judge's helpers: plain calls that build nothing, so a roll makes no more garbage than before; only
# two, as each function is heap the module holds through a game.
def _escape_index(counts, in_prison, escape_with):
    """The symbol index of the triple spent to leave the Crystal Prison (-1: none): the player's pick,
    else the first in ESCAPE_ORDER."""
    escape = -1
    if in_prison:
        triples = escapes(counts)
        if escape_with is not None:
            if escape_with not in SYMBOLS or SYMBOLS.index(escape_with) not in triples:
                raise ValueError("cannot escape with %s: the roll has no three %s" % (escape_with, escape_with))
            escape = SYMBOLS.index(escape_with)
        elif triples:
            escape = triples[0]
    elif escape_with is not None:
        raise ValueError("escape_with is only for a hero in the Crystal Prison")
    return escape


def _say_options(out, in_prison):
    """What the dice left may do (nothing, for a hero still held), then `out.lines` put in order."""
    held = out.held = in_prison and not out.escaped
    if held:
        out.lines.append("Still in the Crystal Prison: no three of a kind. You cannot Attack, be Attacked or move.")
    out.lines += _options(out)
    # The escape comes first, then what is mandatory, then the options.
    if out.escaped:
        out.lines = out.lines[:1] + out.mandatory + out.lines[1:]
    else:
        out.lines = out.mandatory + out.lines
