"""The dice the tower rolls, as data: one place for every die's faces.

A `Die` is a name and a tuple of face names; rolling it picks a face index
uniformly (see `entropy.FairDice`). Faces are strings so that the screen,
the log and the rules all speak the rulebooks' words.

The Battleworld Attack Die's numbered faces are not printed in its
rulebook; the defaults below are an assumption and a user may replace them
without reflashing code, with a `dice.json` file on the device (see
`load_overrides`).
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

# Battlerealm: each of the six symbols once (docs/rules.md, "The dice").
MUTANT = "Mutant"
SCIENCE = "Science"
SKILL = "Skill"
TECH = "Tech"
COSMIC = "Cosmic"
MYSTIC = "Mystic"
SYMBOLS = (MUTANT, SCIENCE, SKILL, TECH, COSMIC, MYSTIC)

# Battleworld: "the Attack Die's star face always hits and its blank face
# always misses". The four numbers are an ASSUMPTION (the rulebook's example
# rolls a 5); change them in dice.json if your die differs.
STAR = "Star"
BLANK = "Blank"
ATTACK_FACES = (STAR, "2", "3", "4", "5", BLANK)

# "the Danger advances on Energy Battles or on crescent-moon Battles (the two
# symbols on the coin's faces)".
ENERGY = "Energy"
MOON = "Moon"
COIN_FACES = (ENERGY, MOON)

_MAX_SIDES = const(100)


class Die:
    """A die: its name and its faces, in the order their indices use."""

    def __init__(self, name, faces):
        if not isinstance(name, str) or not name:
            raise ValueError("a die needs a name")
        faces = tuple(faces)
        if len(faces) < 2 or len(faces) > _MAX_SIDES:
            raise ValueError("die %s: needs 2 to %d faces, has %d" % (name, _MAX_SIDES, len(faces)))
        for face in faces:
            if not isinstance(face, str) or not face:
                raise ValueError("die %s: every face must be a non-empty string" % name)
        self.name = name
        self.faces = faces
        self.sides = len(faces)

    def index(self, face):
        """The index of `face` (a name, or an index given as int)."""
        if isinstance(face, int) and not isinstance(face, bool):
            if 0 <= face < self.sides:
                return face
        elif face in self.faces:
            return self.faces.index(face)
        raise ValueError("%r is not a face of the %s die %s" % (face, self.name, self.faces))

    def __repr__(self):
        return "Die(%r, %r)" % (self.name, self.faces)


def plain(sides):
    """A plain die with faces "1".."sides" (d6, d20, a d2 coin...)."""
    if not isinstance(sides, int) or isinstance(sides, bool) or not 2 <= sides <= _MAX_SIDES:
        raise ValueError("a plain die has 2 to %d sides, not %r" % (_MAX_SIDES, sides))
    return Die("d%d" % sides, [str(n) for n in range(1, sides + 1)])


BATTLEREALM = Die("Battlerealm", SYMBOLS)
DICE = 6  # Battlerealm's dice in a roll
ATTACK = Die("Attack", ATTACK_FACES)
DANGER_COIN = Die("Danger Coin", COIN_FACES)
D6 = plain(6)


def attack_hits(face, bonus, target):
    """Whether an Attack Die face plus the hero's bonus hits the target.

    Rulebook: "the Attack Die's star face always hits and its blank face
    always misses"; otherwise "If your total is equal to or higher than the
    Attack Target Number on the Battle Card, you hit."
    """
    if face == STAR:
        return True
    if face == BLANK:
        return False
    return int(face) + bonus >= target


def load_overrides(text):
    """Replace the Attack Die's faces from the JSON text of `dice.json`.

    The file looks like {"attack": ["Star", "2", "3", "4", "5", "Blank"]}.
    Returns the new Attack `Die`. Raises ValueError naming what is wrong;
    the caller keeps the defaults then, so a bad file never stops a game.
    """
    from dicetower.core.game import parsed, said

    data = parsed(text, "dice.json", strict=True)
    if not isinstance(data, dict):
        raise ValueError('dice.json must hold an object like {"attack": [...]}')
    for key in data:
        if key != "attack" and not key.startswith("_"):
            raise ValueError('dice.json: unknown key %s (only "attack" can change)' % said(key))
    faces = data.get("attack")
    if faces is None:
        return ATTACK
    try:
        return Die("Attack", check_attack_faces(faces))
    except ValueError as e:
        raise ValueError("dice.json: %s" % e)


def decimal(text):
    """True for ASCII digits only: str.isdigit also takes "²" and other digits int() refuses or reads
    otherwise."""
    if not text:
        return False
    for c in text:
        if c not in "0123456789":
            return False
    return True


def check_attack_faces(faces):
    """The Attack Die's faces as a tuple, or ValueError: one Star, one Blank, numbers."""
    if not isinstance(faces, (list, tuple)):
        raise ValueError('"attack" must be a list of faces')
    if faces.count(STAR) != 1 or faces.count(BLANK) != 1:
        raise ValueError('"attack" needs exactly one Star and one Blank face')
    for face in faces:
        if face not in (STAR, BLANK):
            if not isinstance(face, str) or not decimal(face):
                from dicetower.core.game import said

                raise ValueError("attack face %s is not Star, Blank or a number" % said(face))
    if not 2 <= len(faces) <= _MAX_SIDES:
        raise ValueError("the Attack Die needs 2 to %d faces" % _MAX_SIDES)
    return tuple(faces)
