"""The seal's moments between throws (ui/sealing.py holds what a game in play needs): a game of dice
sealed, its commitment said (16 hex digits) and its cut asked for on the OLED (CutScreen) and from the
phones (`take`). A seal revealed (at a game's end, on a full record, by "Reveal the seed", or read back
from flash) is ui/revealing.py's: the press that ends a game loads that alone. Loaded for these moments,
forgotten once no cut is open.

The seals this tower has made are counted in config.json ("seals"), written before each commitment is
said, so no two seals of one tower share a counter, with or without a saved game (a lost or refused
config.json counts on from the highest counter the saved game holds).
"""

from dicetower.core.game import plural
from dicetower.core.sealed import SEED_BYTES, SealedDice
from dicetower.ui.screens import Screen, draw_list
from dicetower.ui.sealing import CUT_MOST, HEX, PHONE_DIGITS, short

ROW = (("Reveal the seed", "reveal", ()),)  # the last row of a sealed game's menu (ui/screens.py's Play knows it)
COUNTER = "seals"  # config.json's count of the seals this tower has made
NUMBER_DIGITS = 6  # a number entered with the buttons: 0 to 999,999
ROWS = ("Cut and play", "Enter a number")


def dice_text(dice):
    """The dice a game throws, as its identity names them: "Attack=Star,2,3,4,5,Blank;Danger Coin=Energy,Moon"."""
    return ";".join(["%s=%s" % (die.name, ",".join(die.faces)) for die in dice])


def contribution(text):
    """A contribution to a cut in its recorded form, or ValueError saying what is wrong: a phone's 32 hex
    digits (in lower case), or a number from the buttons, "#" and its digits (no leading zeros)."""
    if not isinstance(text, str):
        raise ValueError("a cut is %d hex digits" % PHONE_DIGITS)
    if text[:1] == "#":
        digits = text[1:]
        if not 1 <= len(digits) <= NUMBER_DIGITS or any(c not in HEX[:10] for c in digits):
            raise ValueError("a number cut is 1 to %d digits" % NUMBER_DIGITS)
        return "#%d" % int(digits)
    low = text.lower()
    if len(low) != PHONE_DIGITS or any(c not in HEX for c in low):
        raise ValueError("a cut is %d hex digits, not %d characters" % (PHONE_DIGITS, len(text)))
    return low


def add(dice, text):
    """A contribution to the open cut of `dice` (SealedDice); its recorded form, or ValueError why not."""
    if not dice.cutting:
        raise ValueError("seal %s is cut already" % short(dice.commitment))
    token = contribution(text)
    if token in dice.cut:
        raise ValueError("the same as a contribution taken already")
    if len(dice.cut) >= CUT_MOST:
        raise ValueError("the cut holds %d contributions already" % CUT_MOST)
    dice.cut.append(token)
    return token


def who(cut):
    """Who cut a seal, in words: "2 phones and a number", "nobody (an empty cut)"."""
    phones = len([c for c in cut if c[:1] != "#"])
    parts = [plural(phones, "phone")] if phones else []
    if len(cut) > phones:
        parts.append("a number")
    return " and ".join(parts) if parts else "nobody (an empty cut)"


# -- a game begins ----------------------------------------------------------------------------------------


def begin(sealing, game, new):
    """A game begins (new, read from flash, or carried on from memory): a game of dice sealed now and its
    cut asked for; one read from flash first reveals the seal it was saved with."""
    sealing.dice = None
    sealing.screen = None
    app = sealing.app
    app.dice = app.fair
    if not game.dice():
        return
    saved = game.seal
    if not new and isinstance(saved, SealedDice):  # the game in memory, carried on (back from a menu)
        _use(sealing, saved)
        _announce(sealing)
        if saved.cutting:
            _ask_cut(sealing)
        return
    game.seal = None
    if isinstance(saved, dict):
        sealing.show(sealing.reveals().saved(sealing, game, saved))
    seal(sealing)


def seal(sealing):
    """A new seed for the game, its commitment said and its cut asked for; nothing if the tower's dice
    cannot give one (set faces; paused: sealed when they are back)."""
    app = sealing.app
    secret = getattr(app.fair, "secret", None)
    game = app.game
    if secret is None or game is None or not game.dice():
        return
    try:
        seed = secret(SEED_BYTES)
    except Exception:  # noqa: BLE001 (paused dice: the game waits, unsealed, until they are back)
        return
    counter = app.settings.get(COUNTER)
    ok = isinstance(counter, int) and not isinstance(counter, bool) and counter >= 0
    counter = max(sealing.floor, counter if ok else 0) + 1
    app.settings[COUNTER] = counter
    app.keep("config.json", app.settings)  # on flash before the commitment is said
    dice = game.dice()
    _use(sealing, SealedDice(app.fair, seed, game.KIND, _players(sealing, game), counter, dice_text(dice)))
    _announce(sealing)
    _ask_cut(sealing)


def _players(sealing, game):
    """The players the game began with: its last seal's (a resumed game's), else the count chosen."""
    for seal in [sealing.dice] + list(reversed(game.seals)):
        players = seal.get("players") if isinstance(seal, dict) else getattr(seal, "players", None)
        if isinstance(players, int) and not isinstance(players, bool) and players >= 1:
            return players
    return max(1, sealing.app.count)


def _announce(sealing):
    """The seal, to the monitor: a new one before its cut and first die, one carried on with its draws."""
    dice = sealing.dice
    sealing.app.emit(
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


def _use(sealing, dice):
    sealing.dice = dice
    sealing.phones = []
    sealing.names = [part.split("=")[0] for part in dice.dice.split(";")]
    sealing.told()
    app = sealing.app
    app.dice = dice
    app.game.seal = dice
    app.set_menu(ROW)


# -- the cut ----------------------------------------------------------------------------------------------


def _ask_cut(sealing):
    sealing.screen = CutScreen(sealing)
    if sealing.app.mode != "seed":  # else the revealed seed first: its C brings the cut (sealing.py's Seed)
        sealing.take(sealing.screen)


def take(sealing, text, address):
    """A phone's contribution to the open cut: (True, its recorded form) or (False, why not)."""
    dice = sealing.dice
    if dice is None or not dice.cutting:
        if dice is None:
            return False, "no seal waits for a cut now"
        return False, "seal %s is cut already" % short(dice.commitment)
    try:
        contribution(text)  # what is wrong with it first: a malformed part spends no phone's turn
        if address in sealing.phones:
            return False, "this phone has cut seal %s already" % short(dice.commitment)
        token = add(dice, text)
    except ValueError as e:
        return False, str(e)
    sealing.phones.append(address)
    sealing.app.changed = True  # the cut screen counts the phones
    return True, token


def cut(sealing, number=None):
    """The players close the cut (with a number from the buttons, or none): the game's dice are drawn
    from it from now on; said, told, saved."""
    dice = sealing.dice
    if number is not None:
        add(dice, "#%d" % number)
    dice.close()
    sealing.screen = None
    app = sealing.app
    said = dice.nonce_hex()
    app.emit(
        {"event": "cut", "game": dice.kind, "commitment": dice.commitment, "cut": " ".join(dice.cut), "nonce": said}
    )
    app.save()
    sealing.back_to_game()
    app.message = "Seal %s, cut by %s: %s." % (short(dice.commitment), who(dice.cut), said[:8])
    for name, faces in not_own(dice.dice):
        app.message += " The %s Die is dice.json's: %s." % (name, faces.replace(",", " "))


def not_own(dice):
    """The dice of a seal's identity that are not the games' own (a dice.json's Attack Die): [(name, faces)]."""
    from dicetower.core.dice import ATTACK, BATTLEREALM, DANGER_COIN

    other = []
    for part in dice.split(";"):
        name, _, faces = part.partition("=")
        for own in (ATTACK, BATTLEREALM, DANGER_COIN):
            if own.name == name and ",".join(own.faces) != faces:
                other.append((name, faces))
    return other


class CutScreen(Screen):
    """The cut on the OLED, as long as it is open: the seal, the phones that cut it, a number the players
    may add with the buttons; "Cut and play" closes it.

      rows      A / B move, C chooses: "Cut and play", "Enter a number"
      a number  A one less, B one more (the digit under the mark), C the next digit; hold C leaves it
    """

    MODE = "cut"

    def __init__(self, sealing):
        self.app = sealing.app
        self.sealing = sealing
        self.digits = None  # the number being entered, a digit a place, or None
        self.at = 0  # the digit being entered
        self.number = None  # the number entered, once every digit is
        # A word for the players on the line above the keys: first, a die that is not the game's own.
        other = not_own(sealing.dice.dice)
        self.said = "%s Die: dice.json's" % other[0][0] if other else ""

    def press(self, button, kind):
        app = self.sealing.app
        digits = self.digits
        if digits is not None:
            if button == "c":
                self.at += 1
                if self.at == NUMBER_DIGITS:
                    self.number = int("".join(["%d" % d for d in digits]))
                    self.digits = None
                    app.cursor = 0
            else:
                digits[self.at] = (digits[self.at] + (1 if button == "b" else -1)) % 10
            return
        if button != "c":
            return app.step(button, len(ROWS))
        if app.cursor % len(ROWS) == 0:
            cut(self.sealing, self.number)
            self.sealing.done()
        else:
            self.digits = [0] * NUMBER_DIGITS
            self.at = 0

    def back(self):
        """Hold C: out of the number being entered; the cut itself stays until it is made."""
        if self.digits is not None:
            self.digits = None
        else:
            self.said = "First the cut: C on Cut."

    def draw(self, canvas):
        sealing = self.sealing
        canvas.line(0, "Seal " + short(sealing.dice.commitment))
        canvas.line(1, "Cut it before the dice:")
        phones = len(sealing.phones)
        canvas.line(2, "phones: %d" % phones if phones else "phones: none yet")
        if self.digits is not None:
            canvas.line(3, "number: " + " ".join(["%d" % d for d in self.digits]))
            canvas.line(4, " " * (8 + 2 * self.at) + "^")
            canvas.line(7, "A- B+ digit  C: next", invert=True)
            return
        canvas.line(3, "number: none" if self.number is None else "number: %d" % self.number)
        draw_list(canvas, 4, ROWS, sealing.app.cursor % len(ROWS), 6)
        canvas.line(6, self.said)
        canvas.line(7, "A/B move  C: choose", invert=True)
