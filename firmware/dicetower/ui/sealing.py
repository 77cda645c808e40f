"""A game's sealed dice on the tower while it plays (core/sealed.py): every throw opened in the record,
in the save before its faces are shown, told to the monitor; dice given back recorded; the seed revealed
when the game ends, when "Reveal the seed" is chosen and when the record is full, and the game sealed
afresh when it goes on. The moments between throws (a seal made, its cut on the OLED and from the phones:
ui/resealing.py; a seal revealed or read back from flash: ui/revealing.py) are loaded for them and
forgotten after, so a game in play holds this module only.

The tower's own dice (FairDice) give the seed; dice that cannot (set faces in tests and tutorials) leave
the game unsealed, its faces theirs. Dice paused when a game begins leave it unsealed too: the first
press after they are back seals it, and no die is thrown before.
"""

from dicetower.core.entropy import PAUSED, EntropyFailure
from dicetower.core.game import Refused
from dicetower.core.scope import Scope
from dicetower.ui.screens import Pages

STEPS = "dicetower.ui.resealing"
REVEALS = "dicetower.ui.revealing"
SHOWN = 16  # hex digits of a commitment the OLED shows
CUT_MOST = 9  # contributions a cut takes: eight phones and a number from the buttons
PHONE_DIGITS = 32  # a phone's contribution: 128 bits, as hex digits
HEX = "0123456789abcdef"


def short(commitment):
    """The commitment as the OLED shows it: its first 16 hex digits (64 bits)."""
    return commitment[:SHOWN]


class Sealing:
    def __init__(self, app):
        self.app = app
        self.dice = None  # the game's SealedDice, or None: unsealed
        self.names = ()  # the names of its dice, in its identity's order (the record names them by index)
        self.screen = None  # ui/resealing.py's CutScreen while a cut is open
        self.back = None  # (screen, cursor): the game's screen that the seal's screens (Seed, the cut) return to
        self.phones = []  # the addresses that cut the open seal (one contribution each)
        self.floor = 0  # the highest counter a game found at power-up holds (config.json's count lost: count on)
        self._told = 0  # bytes of the record already told to the monitor
        self._drawn = 0  # and the draws in them
        self._moments = None  # ui/resealing.py's scope, while a moment of the seal's is under way
        resumed = app.resume
        for seal in [getattr(resumed, "seal", None)] + list(getattr(resumed, "seals", ())):
            counter = seal.get("counter") if isinstance(seal, dict) else None
            if isinstance(counter, int) and not isinstance(counter, bool):
                self.floor = max(self.floor, counter)

    def steps(self):
        """ui/resealing.py: the seal's moments between throws, loaded for them (forgotten by `done`)."""
        return self._moment(STEPS)

    def reveals(self):
        """ui/revealing.py: a seal revealed, loaded for it (forgotten by `done`)."""
        return self._moment(REVEALS)

    def moments(self):
        """The scope of the seal's moments (made when first needed): `done` forgets what it holds."""
        if self._moments is None:
            self._moments = Scope("seal's moments")
        return self._moments

    def _moment(self, name):
        return self.moments().load(name)

    def done(self):
        """No moment of the seal's under way (no cut open): its module's heap is the game's again."""
        if self.screen is None and self._moments is not None:
            self._moments.close()
            self._moments = None

    def cut_by(self, text, address):
        """A phone's part of the open cut (App.cut_by): (True, as recorded) or (False, why not)."""
        if self.dice is None:
            return False, "no seal waits for a cut now"
        if self.screen is None:  # late: the moments' module is forgotten, the reason is short
            return False, "seal %s is cut already" % self.dice.commitment[:16]
        return self.steps().take(self, text, address)

    @property
    def revealed(self):
        """The last seal revealed this game (its saved form, seed included), or None."""
        game = self.app.game
        return game.seals[-1] if game is not None and game.seals else None

    def begin(self, game, new):
        """A game begins (ui/resealing.py's `begin`: sealed now, or revealed from flash and sealed afresh)."""
        self.steps().begin(self, game, new)
        self.done()

    # -- throws (core/game.py's `throw`, core/games/battlerealm/turn.py) --------------------------------------------------

    def throw(self, die, dice=0):
        """A new throw of `die` at the game's place is about to draw: its record opens it. No die is thrown
        unsealed while the tower's dice can seal."""
        sealed = self.dice
        if sealed is None:
            fair = self.app.fair
            if getattr(fair, "secret", None) is None:
                return  # set faces: the game is not sealed
            failure = getattr(fair, "failure", None)
            if failure is not None:
                raise EntropyFailure(failure, PAUSED)
            raise Refused("The dice are back: a new seal comes first.")  # made by `pressed`, at once
        at, hero = self.app.game.where()
        sealed.throw(at, hero, self._index(die), dice)

    def again(self, die, faces):
        """Dice given back at their place: their record says so, and the monitor hears it."""
        if self.dice is not None:
            at, hero = self.app.game.where()
            self.dice.again(at, hero, self._index(die), faces)
            self._tell()

    def landed(self):
        """A new throw landed: the game, its record and what landed are on flash before anyone sees it
        (App.save_first: the screen, the phones and the monitor wait for the save); the monitor hears of
        it first, before the action or the screen that shows its faces."""
        self.app.save_first()
        self._tell()

    def _tell(self):
        """What the record gained since it was last told, to the monitor: its draws numbered."""
        dice = self.dice
        if dice is not None and dice.size > self._told:
            text = dice.text(self._told)
            first = self._drawn + 1
            self.told()
            self.app.emit({"event": "draws", "game": self.app.kind, "first": first, "record": text})

    def told(self):
        """The record as it stands counts as told (a new seal's, said whole when it is made)."""
        self._told = self.dice.size
        self._drawn = self.dice.draws()

    def _index(self, die):
        if die.name not in self.names:
            raise EntropyFailure("the seal has no %s die" % die.name, PAUSED)
        return self.names.index(die.name)

    def pressed(self):
        """After each press: the throw closed; a game over revealed; a game that goes on with no seal
        (undone from its end, dice back from a pause) sealed; a full record revealed and sealed afresh."""
        app = self.app
        dice = self.dice
        if app.game is None:
            return
        if dice is None:
            if app.mode == "play" and getattr(app.fair, "failure", 0) is None and app.game.dice():
                self.steps().seal(self)
                self.done()
            return
        dice.ends()
        self._tell()
        over = app.game.over()
        if (over or dice.full()) and app.later is None:
            app.later = self._revealing(over)

    def _revealing(self, over):
        """The seal revealed after the press that ended the game or filled the record (App.later): its
        screen (the game's end) drawn first, each import a pass of its own (on a Pico, the press that ended the
        Battlerealm example took 48 ms with them), then the seed; a full record sealed afresh."""
        self.reveals()
        yield
        self.show((over + " " if over else "The record is full. ") + self.reveals().reveal(self))
        if not over:
            self.steps()
            yield
            self.steps().seal(self)
        self.done()

    def reveal(self):
        """ "Reveal the seed" chosen: shown on its own screen, and a new seal, cut, for the rest of the game."""
        self.show(self.reveals().reveal(self))
        self.steps().seal(self)
        self.done()

    # -- the seal's screens: the seed revealed (Seed), the cut (ui/resealing.py's CutScreen) ----------------

    def take(self, screen):
        """The seal's `screen` up; the game's own screen comes back after."""
        app = self.app
        if app.mode not in ("seed", "cut"):
            self.back = (app.screen, app.cursor)
        app.show(screen)
        app.cursor = 0

    def back_to_game(self):
        app = self.app
        screen, cursor = self.back or (None, 0)
        self.back = None
        if screen is None or app.game.over():
            app.to_game()
        else:
            app.show(screen)
        app.cursor = cursor

    def show(self, text):
        app = self.app
        app.message = text
        app.page = 0
        self.take(Seed(app))


class Seed(Pages):
    """A revealed seed, in pages: C goes on to the new seal's cut, if one waits, else back to the game."""

    MODE = "seed"

    def read(self):
        app = self.app
        sealing = app.sealing
        if sealing.screen is not None:
            app.show(sealing.screen)  # a new seal waits for its cut
        else:
            sealing.back_to_game()
            app.message = ""
