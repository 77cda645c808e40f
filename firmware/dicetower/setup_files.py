"""The files a game's set-up reads and writes on flash: the last set-up of each game, and a user's presets.

`setup.json` holds, for each kind of game, the player count and the set-up
last started ({"champions": {"count": 2, "setup": {...}}, ...}), so that the
next game of that kind starts from it with one press. A presets file
(`champions.json`) adds a user's own heroes and scenarios to the built-in
ones. A setup.json that cannot be used is kept aside (`setup.json.bad1`), a presets file left in place
to be mended, and said: the set-up goes on from the defaults or the built-in presets.
"""

import json

from dicetower.core.game import parsed
from dicetower.hw.storage import TooBig, keep_aside, read_text, replace

SETUP_BYTES = 4096  # four games' set-ups are under 1 KB
PRESETS_BYTES = 8192


class SetupFiles:
    def __init__(self, files, root, log):
        self.files = files
        self.root = root
        self.log = log  # a line for the console and errors.log
        self.pending = None  # (kind, count, set-up as JSON) to write

    def _aside(self, name, reason):
        """Keep a file the set-up cannot use under a new name; what to say on the OLED."""
        try:
            aside = keep_aside(self.files, self.root + name, "bad").rsplit("/", 1)[-1]
            said = "%s. It is kept as %s." % (reason, aside)
        except OSError as e:
            said = "%s (%s not kept aside: %s)." % (reason, name, e)
        self.log(said)
        return said

    def load(self, name, parse, limit=PRESETS_BYTES, aside=True):
        """(parse(text), None) for a file there is, (None, None) with none, (None, what was said) for
        one refused: too big, not text, or `parse` raised ValueError naming what is wrong. A refused
        file is kept aside (the tower's own), or with `aside` False left where it is (a user's presets,
        to be mended where they are: said at each set-up until then)."""
        try:
            text = read_text(self.root + name, limit)
            if text is None:
                return None, None
            return parse(text), None
        except (TooBig, ValueError, TypeError, KeyError) as e:  # a hand-edited file: whatever it holds
            if aside:
                return None, self._aside(name, str(e))
            said = "%s; the file is left as it is." % str(e).rstrip(".")
            self.log(said)
            return None, said

    def remembered(self):
        """Every game's last set-up ({} with none); (that, what was said of a refused file)."""
        saved, said = self.load("setup.json", _setups, SETUP_BYTES)
        return saved or {}, said

    def refuse(self, reason):
        """A remembered set-up its rows cannot show (a value out of range): setup.json kept aside as a
        file the set-up cannot use, so the next set-up does not meet it again; what to say."""
        return self._aside("setup.json", "setup.json: " + reason) + " The set-ups start from the defaults."

    def remember(self, kind, count, setup):
        """The set-up a game of `kind` started with, the default for the next one: written by `write`,
        in a pass of the loop of its own (the press that starts the game is answered first)."""
        self.pending = (kind, count, json.dumps(setup))

    def write(self):
        """The set-up remembered last, into setup.json (a power cut keeps the file before or after)."""
        kind, count, setup = self.pending
        self.pending = None
        saved, _ = self.remembered()
        saved[kind] = {"count": count, "setup": json.loads(setup)}
        try:
            replace(self.files, self.root + "setup.json", json.dumps(saved))
        except OSError as e:
            self.log("setup.json not saved (%s)" % (e,))


def _setups(text):
    saved = parsed(text, "setup.json")
    if not isinstance(saved, dict):
        raise ValueError("setup.json holds no set-up for each game")
    return saved
