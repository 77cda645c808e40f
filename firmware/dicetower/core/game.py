"""What every score tracker shares: actions, refusals, undo, redo and history.

A game's whole state is one plain dict of numbers, strings, lists and dicts,
so it saves as JSON and compares with ==. A game changes only through
`do(name, *args)`: the game's `act_<name>` method checks the request and
changes a copy of the state, returning the history line; if it raises
`Refused`, the state is untouched. A finished game (`state["over"]` set)
refuses new actions but can still undo.

Undo and redo keep the state as it was UNDO_DEPTH actions ago (`base`) and
the actions since, and rebuild the state by replaying them; the same three
things are what the save file holds, so undo works across a power cut.

A die that has landed stays landed. Each action in THROWS is one throw, counted
in `state["thrown"]`; a throw's place is that count where it is thrown (and the
acting hero, in a game that keys throws by hero): `place()`. What landed at each
place is kept in `landed` (the thrower's own note: a face, a roll as it stands),
saved with the game, for as long as undo can reach the place: a throw at a place
that has landed dice gives them back, whatever was undone, redone or cut off by
the power since. Only a throw at a new place draws new faces.
"""

UNDO_DEPTH = 50
NO_HERO = 255  # a place with no hero: the game keys its throws by position alone
LANDED_MOST = 200  # landed notes a save may hold (a place a throw, within the undo window)
PLACES = 60000  # the most throws a game counts: a save claiming more is damaged
SEALS_KEPT = 4  # revealed seals a game keeps for its history (the oldest goes first; the log has them all)


def place_text(at, hero=NO_HERO):
    """A throw's place as the game and its sealed record write it: "7", or "7.2" (the hero acting)."""
    return "%d" % at if hero == NO_HERO else "%d.%d" % (at, hero)


class Refused(Exception):
    """A request the rules do not allow; `str(e)` says why, for the screen. A set-up's refusal may name
    the row it is about: `path`, the keys of its value in the set-up (ui/setup.py chooses that row)."""

    path = None


def refused_at(path, check, *args):
    """check(*args); a Refused it raises names the set-up's row at `path` (see Refused)."""
    try:
        return check(*args)
    except Refused as e:
        e.path = path
        raise


def parsed(text, name, strict=False):
    """A user's JSON file's text (heroes.json, setup.json...) as its value; ValueError naming the file
    for anything the parser refuses (not JSON, too deep, out of memory), with the line and column of
    a mistake (core/json_at.py: MicroPython's json does not say where). `strict`, for a file only a
    person writes (champions.json, dice.json): checked as JSON first, since MicroPython's parser takes
    a missing or a trailing comma, and the file would mean on the tower what it means nowhere else."""
    import json

    from dicetower.core.scope import once

    at = once("dicetower.core.json_at", "where", text) if strict else None
    if at is None:
        try:
            return json.loads(text)
        except MemoryError:
            raise ValueError("%s is too large to read" % name)
        except Exception:  # noqa: BLE001 (whatever the parser raises)
            at = once("dicetower.core.json_at", "where", text)
    raise ValueError("%s is not valid JSON%s" % (name, " at line %d, column %d" % at if at else ""))


def clone(value):
    """A deep copy of a JSON-like value (MicroPython has no `copy` module)."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


def number(value, low, high, what):
    """`value` as an int in [low, high], or Refused naming `what`."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refused("%s must be a whole number, not %s." % (what, said(value)))
    if value < low or (high is not None and value > high):
        if high is not None and high < low:  # e.g. a stage where a scheme has none
            raise Refused("%s must be one of those set, and none are." % what)
        if high is None:
            raise Refused("%s must be at least %d, not %s." % (what, low, said(value)))
        raise Refused("%s must be %d to %d, not %s." % (what, low, high, said(value)))
    return value


def said(value):
    """A value as a message shows it: one a hand-edited file made huge (a 4,000-digit number, a long
    list) is cut to its start, so a line of the OLED still says what was wrong."""
    text = repr(value)
    return text if len(text) <= 10 else text[:8] + ".."


def fields(value, what):
    """`value` as a dict of settings (a hero, a scheme...), or Refused."""
    if not isinstance(value, dict):
        raise Refused("%s must be given as named fields." % what)
    return value


def text(value, what, longest=16):
    if not isinstance(value, str) or not value or len(value) > longest or value[0] in "~=":
        raise Refused("%s must be a name of 1 to %d characters, not starting with ~ or =." % (what, longest))
    return value


def plural(count, word, words=None):
    """`count` and the word for that many: "1 hit", "2 hits", "1 KO token", "3 dice" (plural(3, "die", "dice"))."""
    if count == 1:
        return "%d %s" % (count, word)
    return "%d %s" % (count, words or word + "s")


class Game:
    """Base of the trackers. Subclasses set KIND and define act_* methods."""

    KIND = "game"
    STATE_KEYS = ("over",)  # what a loaded state must have (the store checks)
    THROWS = ()  # the actions that throw the game's dice: each one throw, counted in state["thrown"]
    HERO_PLACES = False  # True: a throw's place names the acting hero too (each hero's roll of a turn)
    note = None  # what loading a save had to leave out, said to the players once (core/savefile.py)
    seal = None  # its sealed dice (core/sealed.py's SealedDice), or what a save held of them (a dict)

    def __init__(self, state, actions=None, redo=None):
        self.base = clone(state)
        self.actions = []
        self.redo_actions = list(redo or [])
        self.lines = []
        self.places = []  # each line's throw's place, or None: the history shows faces there
        self.landed = {}  # "<place> <die>" -> what landed there (see the module's docstring)
        self.seals = []  # the seals revealed in this game (core/sealed.py's saved), for its history
        self.state = clone(state)
        for action in actions or []:
            self._step(self.state, action)
            self.actions.append(action)

    def dice(self):
        """The dice the game throws (core/dice.py's Die), in the order its seal names them: none here."""
        return ()

    def where(self, state=None):
        """(position, hero) of the next throw: the throws counted so far, and the acting hero where the
        game keys its throws by hero (else NO_HERO)."""
        state = self.state if state is None else state
        return state.get("thrown", 0), state["turn"] if self.HERO_PLACES else NO_HERO

    def place(self):
        return place_text(*self.where())

    def landed_key(self, die):
        """Where what `die` lands at the game's place is kept in `landed`: "7 Attack", "3.1 Battlerealm"."""
        return self.place() + " " + die.name

    def throw(self, die, dice, seal=None):
        """One `die` thrown at the game's place: the face that landed there before, given back, else a new
        face from `dice` (the face source), kept as landed; its index. `seal` (ui/sealing.py's Sealing, or
        None) hears of each: its record names every throw."""
        key = self.landed_key(die)
        face = self.landed.get(key)
        if isinstance(face, int) and not isinstance(face, bool) and 0 <= face < die.sides:
            if seal is not None:
                seal.again(die, (face,))
            return face
        if seal is not None:
            seal.throw(die)
        face = dice.draw(die)
        self.landed[key] = face
        if seal is not None:
            seal.landed()  # on flash before anyone sees it: a power cut cannot throw it again
        return face

    def _step(self, state, action):
        """Apply `action` to `state` and note its line, and its throw's place if it throws."""
        throws = isinstance(action, list) and action and action[0] in self.THROWS
        place = place_text(*self.where(state)) if throws else None
        self.lines.append(self._apply(state, action))
        self.places.append(place)

    def _apply(self, state, action):
        if not isinstance(action, list) or not action or not isinstance(action[0], str):
            raise Refused("An action is a list that starts with its name.")
        handler = getattr(self, "act_" + action[0], None)
        if handler is None:
            raise Refused("%s has no action %r." % (self.KIND, action[0]))
        if state.get("over"):
            raise Refused("The game is over: %s" % state["over"])
        try:
            line = handler(state, *action[1:])
        except TypeError:
            raise Refused("Wrong number of values for %r." % action[0])
        if action[0] in self.THROWS:
            state["thrown"] = state.get("thrown", 0) + 1
        return line

    def do(self, name, *args):
        """Carry out one action; returns its history line or raises Refused."""
        action = clone([name] + list(args))  # nothing the caller keeps can change the game later
        state = clone(self.state)
        place = self.place() if name in self.THROWS else None
        line = self._apply(state, action)
        self.state = state
        self.actions.append(action)
        self.lines.append(line)
        self.places.append(place)
        self.redo_actions = []
        if len(self.actions) > UNDO_DEPTH:
            # The oldest action leaves the undo window: fold it into the base, and what landed before
            # the base's throws with it (no undo reaches there any more).
            self._apply(self.base, self.actions.pop(0))
            self.lines.pop(0)
            self.places.pop(0)
            low = self.base.get("thrown", 0)
            for key in [k for k in self.landed if landed_at(k) < low]:
                del self.landed[key]
        return line

    def attempt(self, name, values):
        """`do`, for a player's press: (True, its history line), or (False, why it was refused)."""
        try:
            return True, self.do(name, *values)
        except Refused as e:
            return False, str(e)

    def _rebuild(self):
        state = clone(self.base)
        self.lines = []
        self.places = []
        for action in self.actions:
            self._step(state, action)
        self.state = state

    def undo(self):
        """Take back the last action; returns its history line."""
        if not self.actions:
            raise Refused("Nothing to undo.")
        line = self.lines[-1]
        self.redo_actions.append(self.actions.pop())
        self._rebuild()
        return "Undone: " + line

    def take_back(self):
        """Take back the last action for good: a choice changed (where the acting hero stands), not
        history undone. The actions undone before go too, as after any new action: they were done
        after the one taken back and may need it (a buy at the location a move went to)."""
        if not self.actions:
            raise Refused("Nothing to take back.")
        line = self.lines[-1]
        self.actions.pop()
        self.redo_actions = []
        self._rebuild()
        return line

    def redo(self):
        """Carry out again the last action undone."""
        if not self.redo_actions:
            raise Refused("Nothing to redo.")
        action = self.redo_actions.pop()
        state = clone(self.state)
        self._step(state, action)
        self.state = state
        self.actions.append(action)
        return self.lines[-1]

    def history(self):
        """The history lines of the actions that can still be undone, oldest first."""
        return list(self.lines)

    def over(self):
        return self.state.get("over")

    def to_dict(self):
        content = {"game": self.KIND, "base": self.base, "actions": self.actions, "redo": self.redo_actions}
        if self.landed:
            content["landed"] = self.landed
        seal = self.seal
        if seal is not None:
            content["seal"] = seal if isinstance(seal, dict) else seal.saved()
        if self.seals:
            content["seals"] = self.seals
        return content


def landed_at(key):
    """The position of a `landed` key ("7.2 Battlerealm": 7)."""
    end = 0
    while end < len(key) and key[end] in "0123456789":
        end += 1
    return int(key[:end]) if end else -1
