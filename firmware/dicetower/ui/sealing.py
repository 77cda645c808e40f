"""A game's sealed dice on the tower (core/sealed.py): sealed when a game of dice begins, its commitment
said, then cut by the players before the first die (ui/cutting.py's screen); every throw told to the
monitor, numbered, and in the save before its faces are shown; the seed revealed at the game's end, on
demand ("Reveal the seed", which seals afresh), when the record is full, and when a game is read back
from flash (whoever reads the flash knows the seed): each seal of the game kept for its history.

The tower's own dice (FairDice) give the seed; dice that cannot (set faces in tests and tutorials) leave
the game unsealed, its faces theirs. Dice paused when a game begins leave it unsealed too: the first
press after they are back seals it, and no die is thrown before.
"""

from dicetower.core.entropy import PAUSED, EntropyFailure
from dicetower.core.game import SEALS_KEPT, Refused, landed_at, plural
from dicetower.core.sealed import SEED_BYTES, SealedDice, checked, contribution, dice_text
from dicetower.ui.modes import CUT, OVER, PLAY, SEED

REVEAL = "reveal"
ROW = (("Reveal the seed", REVEAL, ()),)  # the last row of every sealed game's menu
COUNTER = "seal.json"  # the seals this tower ever made: no counter is used twice, saved game or not
SHOWN = 16  # hex digits of a commitment the OLED shows
SEALS_TEXT = 4000  # characters of revealed records a game keeps for its history (the last whole)


def short(commitment):
    """The commitment as the OLED shows it: its first 16 hex digits (64 bits)."""
    return commitment[:SHOWN]


def who(cut):
    """Who cut a seal, in words: "2 phones and a number", "nobody (an empty cut)"."""
    phones = len([c for c in cut if c[:1] != "#"])
    parts = [plural(phones, "phone")] if phones else []
    if len(cut) > phones:
        parts.append("a number")
    return " and ".join(parts) if parts else "nobody (an empty cut)"


class Sealing:
    def __init__(self, app):
        self.app = app
        self.dice = None  # the game's SealedDice, or None: unsealed
        self.names = ()  # the names of its dice, in its identity's order (the record names them by index)
        self.screen = None  # ui/cutting.py's CutScreen while a cut is open
        self.back = None  # (mode, cursor) of the game's screen that the seal's screens (SEED, CUT) return to
        self.phones = []  # the addresses that cut the open seal (one contribution each)
        self._told = 0  # bytes of the record already told to the monitor
        self._drawn = 0  # and the draws in them
        read = getattr(app, "read_json", None)
        stored = read(COUNTER) if read is not None else None
        self.counter = _count(stored.get("counter") if isinstance(stored, dict) else None)
        resumed = app.resume  # a game read at power-up: its seals have counted too
        for seal in [getattr(resumed, "seal", None)] + list(getattr(resumed, "seals", ())):
            if isinstance(seal, dict):
                self.counter = max(self.counter, _count(seal.get("counter")))

    @property
    def revealed(self):
        """The last seal revealed this game (its saved form, seed included), or None."""
        game = self.app.game
        return game.seals[-1] if game is not None and game.seals else None

    def begin(self, game, new):
        """A game begins (new, read from flash, or carried on from memory): a game of dice sealed now and
        its cut asked for; one read from flash first reveals the seal it was saved with."""
        self.dice = None
        self.screen = None
        app = self.app
        app.dice = app.fair
        if not game.dice():
            return
        saved = game.seal
        if not new and isinstance(saved, SealedDice):  # the game in memory, carried on (back from a menu)
            self._use(saved)
            self._announce()
            if saved.cutting:
                self._ask_cut()
            return
        game.seal = None
        if isinstance(saved, dict):
            self._show(self._reveal_saved(game, saved))
        self.seal()

    def _reveal_saved(self, game, saved):
        """A seal read from flash, revealed as far as it can be read: kept, told, and said in words."""
        kept, problem = checked(saved)
        app = self.app
        if not kept.get("open"):
            kept["open"] = 1
            event = {"event": "reveal", "game": game.KIND, "commitment": kept.get("commitment", "")}
            for key in ("seed", "draws", "throws", "counter", "cut"):
                if key in kept:
                    event[key] = kept[key]
            if problem:
                event["damaged"] = problem
            app.emit(event)
        self._keep(game, kept)
        name = short(kept.get("commitment", "?"))
        if problem:
            return "The saved seal %s is damaged (%s): revealed as far as it goes. %s" % (
                name,
                problem,
                _seed_words(kept.get("seed")),
            )
        return "Read from flash, seal %s is revealed: %s in %s. %s" % (
            name,
            plural(kept.get("draws", 0), "draw"),
            plural(kept.get("throws", 0), "throw"),
            _seed_words(kept["seed"]),
        )

    def seal(self):
        """A new seed for the game, its commitment said and its cut asked for; nothing if the tower's dice
        cannot give one (set faces; paused: sealed when they are back)."""
        app = self.app
        secret = getattr(app.fair, "secret", None)
        game = app.game
        if secret is None or game is None or not game.dice():
            return
        try:
            seed = secret(SEED_BYTES)
        except Exception:  # noqa: BLE001 (paused dice: the game waits, unsealed, until they are back)
            return
        self.counter += 1
        app.keep(COUNTER, {"counter": self.counter})  # on flash before the commitment is said
        dice = game.dice()
        self.names = [die.name for die in dice]
        self._use(SealedDice(app.fair, seed, game.KIND, self._players(game), self.counter, dice_text(dice)))
        self._announce()
        self._ask_cut()

    def _players(self, game):
        """The players the game began with: its last seal's (a resumed game's), else the count chosen."""
        for seal in [self.dice] + list(reversed(game.seals)):
            players = getattr(seal, "players", None) if not isinstance(seal, dict) else seal.get("players")
            if isinstance(players, int) and not isinstance(players, bool) and players >= 1:
                return players
        return max(1, self.app.count)

    def _announce(self):
        """The seal, to the monitor: a new one before its cut and first die, one carried on with its draws."""
        dice = self.dice
        self.app.emit(
            {
                "event": "seal",
                "game": dice.kind,
                "version": 2,
                "players": dice.players,
                "counter": dice.counter,
                "dice": dice.dice,
                "commitment": dice.commitment,
                "drawn": dice.draws(),
            }
        )

    def _use(self, dice):
        self.dice = dice
        self.phones = []
        self.names = [part.split("=")[0] for part in dice.dice.split(";")]
        self._told = dice.size
        self._drawn = dice.draws()
        app = self.app
        app.dice = dice
        app.game.seal = dice
        app.menu = app.game_module.MENU + ROW

    # -- the cut ------------------------------------------------------------------------------------------

    def _ask_cut(self):
        from dicetower.ui.cutting import CutScreen

        self.screen = CutScreen(self)
        if self.app.mode != SEED:  # else the revealed seed first: its C brings the cut (on_seed)
            self._take(CUT)

    def take(self, text, address):
        """A phone's contribution to the open cut: (True, its recorded form) or (False, why not)."""
        dice = self.dice
        if dice is None or not dice.cutting:
            return False, "no seal waits for a cut now" if dice is None else "seal %s is cut already" % short(
                dice.commitment
            )
        try:
            contribution(text)  # what is wrong with it first: a malformed part spends no phone's turn
            if address in self.phones:
                return False, "this phone has cut seal %s already" % short(dice.commitment)
            token = dice.take(text)
        except ValueError as e:
            return False, str(e)
        self.phones.append(address)
        self.app.changed = True  # the cut screen counts the phones
        return True, token

    def cut(self, number=None):
        """The players close the cut (with a number from the buttons, or none): the game's dice are drawn
        from it from now on; said, told, saved."""
        dice = self.dice
        if number is not None:
            dice.take("#%d" % number)
        dice.close()
        self.screen = None
        app = self.app
        nonce = dice.nonce_hex()
        app.emit(
            {"event": "cut", "game": dice.kind, "commitment": dice.commitment, "cut": " ".join(dice.cut), "nonce": nonce}
        )
        app.save()
        self._return()
        app.message = "Seal %s, cut by %s: %s." % (short(dice.commitment), who(dice.cut), nonce[:8])

    # -- throws -------------------------------------------------------------------------------------------

    def throw(self, die, dice=0):
        """A new throw of `die` at the game's place is about to draw (core/game.py's `throw`, core/turn.py):
        its record opens it. No die is thrown unsealed while the tower's dice can seal."""
        sealed = self.dice
        if sealed is None:
            if getattr(self.app.fair, "secret", None) is None:
                return  # set faces: the game is not sealed
            failure = getattr(self.app.fair, "failure", None)
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
        """A new throw landed: the game, its record and what landed are on flash before anyone sees it;
        then the monitor hears of it, before the action or the screen that shows its faces."""
        self.app.save_now()
        self._tell()

    def _tell(self):
        """What the record gained since it was last told, to the monitor: its draws numbered."""
        dice = self.dice
        if dice is not None and dice.size > self._told:
            text = dice.text(self._told)
            first = self._drawn + 1
            self._told = dice.size
            self._drawn = dice.draws()
            self.app.emit({"event": "draws", "game": self.app.kind, "first": first, "record": text})

    def _index(self, die):
        if die.name not in self.names:
            raise EntropyFailure("the seal has no %s die" % die.name, PAUSED)
        return self.names.index(die.name)

    def pressed(self):
        """After each press: the throw closed; a game over revealed; a game that goes on
        with no seal (undone from its end, dice back from a pause) sealed; a full record revealed and
        sealed afresh."""
        app = self.app
        dice = self.dice
        if app.game is None:
            return
        if dice is None:
            if app.mode == PLAY and getattr(app.fair, "failure", 0) is None:
                self.seal()
            return
        dice.ends()
        self._tell()
        over = app.game.over()
        if over:
            self._show(over + " " + self.reveal())  # the seed on its own screen, then the game's end
        elif dice.full():
            self._show("The record is full. " + self.reveal())
            self.seal()

    # -- revealing ----------------------------------------------------------------------------------------

    def reveal(self):
        """The seed told, kept with the game's history and saved; the game unsealed until it seals again.
        Its words for the OLED."""
        dice = self.dice
        dice.opened = True
        kept = dice.saved()
        app = self.app
        self._keep(app.game, kept)
        self.dice = None
        self.screen = None
        app.game.seal = None
        app.dice = app.fair
        app.menu = app.game_module.MENU
        app.emit(
            {
                "event": "reveal",
                "game": dice.kind,
                "commitment": dice.commitment,
                "seed": kept["seed"],
                "draws": kept["draws"],
                "throws": kept["throws"],
            }
        )
        app.save()
        return "Seal %s revealed: %s in %s. %s" % (
            short(dice.commitment),
            plural(kept["draws"], "draw"),
            plural(kept["throws"], "throw"),
            _seed_words(kept["seed"]),
        )

    def _keep(self, game, kept):
        """A revealed seal into the game's history: the last SEALS_KEPT, their records within SEALS_TEXT,
        but never one whose throws an undo can still reach (the history's lines show their faces)."""
        seals = game.seals
        seals.append(kept)
        reach = game.base.get("thrown", 0)
        while len(seals) > 1 and _last_place(seals[0]) < reach and (
            len(seals) > SEALS_KEPT or sum([len(s.get("record", "")) for s in seals]) > SEALS_TEXT
        ):
            seals.pop(0)

    def on_play(self):
        """ "Reveal the seed" chosen: shown on its own screen, and a new seal, cut, for the rest of the game."""
        self._show(self.reveal())
        self.seal()

    # -- the seal's screens: the seed revealed (SEED), the cut (CUT, ui/cutting.py) -------------------------

    def _take(self, mode):
        """The seal's screen `mode` up; the game's own screen comes back after."""
        app = self.app
        if app.mode not in (SEED, CUT):
            self.back = (app.mode, app.cursor)
        app.mode = mode
        app.cursor = 0

    def _return(self):
        app = self.app
        mode, cursor = self.back or (PLAY, 0)
        app.mode = OVER if app.game.over() else mode
        app.cursor = cursor
        self.back = None

    def _show(self, text):
        app = self.app
        app.message = text
        app.page = 0
        self._take(SEED)

    def on_seed(self, button, kind):
        app = self.app
        if not app.turn_page(button):
            if self.screen is not None:
                app.mode = CUT  # a new seal waits for its cut
            else:
                self._return()
                app.message = ""

    def draw_seed(self, canvas):
        from dicetower.ui.screens import draw_pages

        draw_pages(canvas, self.app.message, self.app.page)

    def on_cut(self, button, kind):
        self.screen.press(button, kind)

    def draw_cut(self, canvas):
        self.screen.draw(canvas)


def _seed_words(seed):
    """The seed on the OLED, in four groups of 16 hex digits."""
    if not seed:
        return "Its seed cannot be read."
    return "Seed: %s %s %s %s" % (seed[:16], seed[16:32], seed[32:48], seed[48:])


def _last_place(seal):
    """The furthest position a revealed seal's record throws at (-1: none)."""
    record = seal.get("record", "")
    return max([landed_at(token) for token in record.split()]) if record else -1


def _count(n):
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else 0
