"""A user's Battlerealm roster, `/heroes.json` on the device (edited without reflashing code):
{"heroes": [{"name", "pvp", "abilities", "primary", "cards": [{"name", "dice"}, ...]}, ...]}.

The built-in heroes are the same kind of file, heroes.json beside this module. Either is read from flash
once a set-up (`heroes`) and let go when the game begins (`in_play`): as a module of data the built-in
ones took 80 ms of the chip to import and left their names in its table of names for good, and a user's
file checked at power-up and kept as read held 32 KB of the VM's heap in every game, of every kind.

The built-in file carries every hero and power card the rulebook names, with the dice it gives (Hulk's
Thunderclap and World Breaker, Thor's Odin's Wrath, Vision's Physical Disruption, Black Panther's
Panther's Stealth, Falcon's (Redwing's) Raptor Strike, Hawkeye's Incendiary Arrow from the Ghost Orchid
example). Everything the rulebook does not print is a user-fillable entry, marked so: a card with
"dice": null (never paid, never advised) and a "_fill" note, heroes 9 to 13 named "Hero 9"...
ASSUMPTIONS: the starting PVP (10) and abilities of every hero but the Hulk (Cunning, Peaceful, Tough)
are placeholders too.
"""

from dicetower.core.game import parsed
from dicetower.core.games.battlerealm.triples import check_abilities
from dicetower.core.games.battlerealm.cards import MAX_CARDS, check_card


def heroes(options, whole=False):
    """The Battlerealm roster in play: the options' own list (`"heroes"`: a shell's, or heroes edited where
    no file could be written), else the user's heroes.json (`"heroes_file"`, wiring.py), else the built-in
    heroes: what a game uses of them (`read`), or with `whole` the file as it is, notes and all (the
    settings' editor saves it as the user's heroes.json), read now and not kept."""
    if options.get("heroes"):
        return options["heroes"]
    if whole:
        return _parsed(options, True)
    read(options)
    return _READ[1]


_READ = []  # the set-up's read: the file it came from (None: the built-in heroes), then its roster


def read(options):
    """The roster read from flash now (the user's heroes.json, else the built-in heroes), if the game needs
    it (no roster in the options) and that file's is not read yet: True if it was read (the set-up's
    `prepare`: an idle pass of its own).

    Read once a set-up (on a Pico 73 ms), and kept until the game begins (`in_play`) or the heroes'
    settings have their copy (`forget`). Read whole, then parsed (json.load reads a file a byte at a
    time; a hero a pass, the pieces left on the chip's heap kept the Lucky advice's machine code from
    loading)."""
    source = options.get("heroes_file")
    if options.get("heroes") or (_READ and _READ[0] == source):
        return False
    del _READ[:]  # another file's read (the editor saved one since) let go first
    _READ.extend((source, _parsed(options, False)))
    return True


def _parsed(options, whole):
    """The roster from its file: the user's heroes.json, checked again, else the built-in heroes. The user's
    may have changed since power-up: gone or no longer passing, the built-in heroes play, as they would
    have at power-up; a heap too short to parse it raises MemoryError, which the device says as such.

    Unless `whole`, only what a game uses of it: the notes to fill in, the primary powers' text and the
    power cards without dice (never paid, never advised) are let go as soon as they are read. On the VM the
    thirteen built-in heroes held 16.4 KB whole, 4.7 KB so, all through a set-up."""
    import json

    roster = None
    if options.get("heroes_file"):
        try:
            with open(options["heroes_file"]) as f:
                roster = _checked(json.loads(f.read()))  # not load_heroes: it says MemoryError as "too large"
        except MemoryError:
            raise
        except Exception:  # noqa: BLE001 (gone, or no longer passing: whatever the parser raises)
            roster = None
    if roster is None:
        with open(BUILT_IN) as f:
            roster = json.loads(f.read())["heroes"]
    if not whole:
        for hero in roster:
            hero.pop("_fill", None)
            hero.pop("primary", None)
            hero["cards"] = [card for card in hero["cards"] if card["dice"] is not None]
    return roster


def forget():
    """The built-in roster read is let go: the heroes not seated go with it."""
    del _READ[:]


BUILT_IN = __file__[: max(__file__.rfind("/"), __file__.rfind("\\")) + 1] + "heroes.json"


def in_play(options, names):
    """The roster's entries for the heroes called `names`: what a game keeps of the roster (their
    power cards, ui/battlerealm.py); the rest of the built-in roster read is let go."""
    seated = [hero for hero in heroes(options) if hero["name"] in names]
    forget()
    return seated


def load_heroes(text):
    """A user's Battlerealm roster from heroes.json, or ValueError naming the field."""
    return _checked(parsed(text, "heroes.json"))


def _checked(data):
    """heroes.json's parsed value as the roster a game uses, or ValueError naming the field."""
    heroes = data.get("heroes") if isinstance(data, dict) else None
    if not isinstance(heroes, list) or not 2 <= len(heroes) <= 13:
        raise ValueError('heroes.json needs "heroes": a list of 2 to 13 heroes')
    out = []
    for n, hero in enumerate(heroes):
        where = _hero_named(n, hero, out)
        pvp = hero.get("pvp", 10)
        if not isinstance(pvp, int) or isinstance(pvp, bool) or not 1 <= pvp <= 20:
            raise ValueError('%s: "pvp" must be 1 to 20' % where)
        abilities = hero.get("abilities", [])
        if not isinstance(abilities, list):
            raise ValueError('%s: "abilities" must be a list' % where)
        try:
            check_abilities(abilities)
        except ValueError as e:
            raise ValueError("%s: %s" % (where, e))
        primary = hero.get("primary", "")
        if not isinstance(primary, str):
            raise ValueError('%s: "primary" must be text' % where)
        cards = hero.get("cards", [])
        if not isinstance(cards, list) or len(cards) > MAX_CARDS:
            raise ValueError('%s: "cards" must be a list of up to %d power cards' % (where, MAX_CARDS))
        checked = []
        for i, card in enumerate(cards):
            try:
                checked.append(check_card(card))
            except ValueError as e:
                name = card.get("name") if isinstance(card, dict) else None
                label = " (%s)" % name if isinstance(name, str) and name else ""
                raise ValueError("%s card %d%s: %s" % (where, i + 1, label, e))
        entry = {
            "name": hero["name"][:16],
            "pvp": pvp,
            "abilities": list(abilities),
            "primary": primary,
            "cards": checked,
        }
        if "_fill" in hero:
            entry["_fill"] = hero["_fill"]
        out.append(entry)
    return out


def _hero_named(n, hero, out):
    """How errors name hero number n + 1 ("heroes.json hero 2 (Thor)"), once its name is one the seats can
    tell from the heroes before it (`out`); ValueError if not."""
    where = "heroes.json hero %d" % (n + 1)
    if not isinstance(hero, dict) or not isinstance(hero.get("name"), str) or not hero["name"]:
        raise ValueError('%s: "name" is missing' % where)
    where = "%s (%s)" % (where, hero["name"])
    if hero["name"][0] in "=~":  # a save writes its short codes so (core/savefile.py): a name cannot be one
        raise ValueError('%s: a name cannot start with "=" or "~"' % where)
    for other in out:  # the seats tell heroes apart by name (as the OLED shows it: 16 characters)
        if other["name"] == hero["name"][:16]:
            raise ValueError("%s: a hero is named so already" % where)
    return where


def cards_of(heroes, name):
    """The power cards of the hero called `name` in a roster ([] if none)."""
    for hero in heroes:
        if hero["name"] == name:
            return hero.get("cards") or []
    return []
