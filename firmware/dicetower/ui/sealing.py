"""A game's sealed dice on the tower (core/sealed.py): sealed when a game begins, its commitment said before
the first die; every press that drew told to the monitor, numbered; the seed revealed at the game's end
or on demand ("Reveal the seed", which seals a new one), and shown, told and served to the phones.

The tower's own dice (FairDice) give the seed; dice that cannot (set faces in tests and tutorials) leave
the game unsealed, its faces theirs. Dice paused when a game begins leave it unsealed too: the first
press after they are back seals it.
"""

from dicetower.core.actions import draws_dice
from dicetower.core.game import plural
from dicetower.core.sealed import SEED_BYTES, SealedDice, from_saved
from dicetower.ui.modes import OVER, PLAY, SEED

REVEAL = "reveal"
ROW = (("Reveal the seed", REVEAL, ()),)  # the last row of every sealed game's menu


def short(commitment):
    """The commitment as the OLED and the phones show it: its first 8 hex digits."""
    return commitment[:8]


class Sealing:
    def __init__(self, app):
        self.app = app
        self.dice = None  # the game's SealedDice, or None: unsealed
        self.revealed = None  # the last seal revealed this game, for the phones' Verify (not saved)
        self.counter = 0  # games sealed on this tower: the next seal's identity counts one more
        self._told = 0  # bytes of the record already told to the monitor
        self._drawn = 0  # and the draws in them
        saved = getattr(app.resume, "seal", None)  # a game found saved at power-up: count on from its seal
        if isinstance(saved, dict) and isinstance(saved.get("counter"), int):
            self.counter = saved["counter"]

    def begin(self, game, new):
        """A game begins (new, or resumed and carried on): its seal, from its save or made now, if it
        rolls dice; the words that say it ("" unsealed)."""
        self.revealed = None
        self.dice = None
        app = self.app
        app.dice = app.fair
        if not draws_dice(app.menu):
            return ""
        saved = getattr(game, "seal", None)
        players = None
        if not new and isinstance(saved, SealedDice):  # the game in memory, carried on (back from a menu)
            self._use(saved, saved.opened)
            self._announce()
            return self.said()
        if not new and isinstance(saved, dict):
            players = saved.get("players")
            try:
                self._use(from_saved(app.fair, game.KIND, saved), saved.get("open"))
                self._announce()  # a log that follows from here knows the stream it goes on
                return self.said()
            except Exception as e:  # noqa: BLE001 (a damaged seal: the game goes on, sealed afresh)
                app.emit({"event": "error", "where": "seal", "error": str(e)})
        self.seal(players)
        return self.said()

    def seal(self, players=None):
        """A new seed for the game, its commitment said; nothing if the tower's dice cannot give one."""
        app = self.app
        secret = getattr(app.fair, "secret", None)
        game = app.game
        if secret is None or game is None:
            return
        try:
            seed = secret(SEED_BYTES)
        except Exception:  # noqa: BLE001 (paused dice: the game goes on unsealed until they are back)
            return
        self.counter += 1
        # The players the game began with (a resumed game's count is its seal's, not the count screen's).
        if self.dice is not None:
            players = self.dice.players
        if not isinstance(players, int) or isinstance(players, bool) or players < 1:
            players = max(1, app.count)
        self._use(SealedDice(app.fair, seed, game.KIND, players, self.counter))
        self._announce()

    def _announce(self):
        """The seal, to the monitor: a new one before its first die, one carried on with its draws so far."""
        dice = self.dice
        self.app.emit(
            {
                "event": "seal",
                "game": dice.kind,
                "players": dice.players,
                "counter": dice.counter,
                "commitment": dice.commitment,
                "drawn": dice.draws(),
            }
        )

    def _use(self, dice, opened=False):
        self.dice = dice
        dice.opened = bool(opened)
        self.counter = max(self.counter, dice.counter)
        self._told = dice.size
        self._drawn = dice.draws()
        app = self.app
        app.dice = dice
        app.game.seal = dice
        app.menu = app.game_module.MENU + ROW

    def pressed(self):
        """After each press: what it drew told to the monitor; a game over revealed; a game that goes on
        after its seed was revealed (undone from its end) sealed afresh; a full record revealed and sealed."""
        app = self.app
        dice = self.dice
        if app.game is None:
            return
        if dice is None:
            if app.mode == PLAY and draws_dice(app.menu) and getattr(app.fair, "failure", None) is None:
                self.seal()  # the dice were paused when the game began
            return
        if dice.size > self._told:
            text = dice.text(self._told)
            first = self._drawn + 1
            self._told = dice.size
            self._drawn = dice.draws()
            dice.roll_ends()
            app.emit({"event": "draws", "game": app.kind, "first": first, "record": text})
        over = app.game.over()
        if over and not dice.opened:
            self.reveal()
            self._show(over + " " + self._words(dice))  # the seed on its own screen, then the game's end
        elif dice.opened and not over:
            self.seal()
        elif dice.full():
            self.reveal()
            self.seal()

    def undone(self):
        if self.dice is not None:
            self.dice.undone()

    def reveal(self):
        """The seed shown and told; the game's save marks it open."""
        dice = self.dice
        dice.opened = True
        self.revealed = dice.revealed()
        app = self.app
        app.emit(
            {
                "event": "reveal",
                "game": dice.kind,
                "commitment": dice.commitment,
                "seed": self.revealed["seed"],
                "draws": dice.draws(),
                "rolls": dice.rolls,
            }
        )
        app.save()

    def on_play(self):
        """ "Reveal the seed" chosen: shown on its own screen, and a new seal for the rest of the game."""
        old = self.dice
        self.reveal()
        text = self._words(old)
        self.seal()
        if self.dice is not old:
            text += " New seal: %s." % short(self.dice.commitment)
        self._show(text)

    def _words(self, dice):
        """What the OLED says of a revealed seal: its commitment, its draws, its seed in four groups."""
        seed = self.revealed["seed"]
        return "Seal %s revealed: %s in %s. Seed: %s %s %s %s" % (
            short(dice.commitment),
            plural(dice.draws(), "draw"),
            plural(dice.rolls, "roll"),
            seed[:16],
            seed[16:32],
            seed[32:48],
            seed[48:],
        )

    def _show(self, text):
        app = self.app
        app.message = text
        app.page = 0
        app.mode = SEED

    def on_seed(self, button, kind):
        app = self.app
        if not app.turn_page(button):
            app.mode = OVER if app.game.over() else PLAY
            app.message = "Seal %s." % short(self.dice.commitment) if self.dice is not None else ""

    def draw_seed(self, canvas):
        from dicetower.ui.screens import draw_pages

        draw_pages(canvas, self.app.message, self.app.page)

    def said(self):
        """The seal's words for the start of a game ("Seal 5dbc2560."), or ""."""
        return " Seal %s." % short(self.dice.commitment) if self.dice is not None else ""
