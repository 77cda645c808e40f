"""The seal's moments between throws (ui/sealing.py holds what a game in play needs): a game of dice
sealed, its commitment said (16 hex digits) and its cut asked for on the OLED (CutScreen) and from the
phones (`take`); a seal revealed, and kept with the game's history; a seal read back from flash revealed
as far as it can be read, never silently replaced. Loaded for these moments, forgotten once no cut is open.

The seals this tower has made are counted in config.json ("seals"), written before each commitment is
said, so no two seals of one tower share a counter, with or without a saved game (a lost or refused
config.json counts on from the highest counter the saved game holds).
"""

from dicetower.core.game import SEALS_KEPT, landed_at, plural
from dicetower.core.sealed import SEED_BYTES, SealedDice
from dicetower.ui.screens import Screen, draw_list

ROW = (("Reveal the seed", "reveal", ()),)  # the last row of a sealed game's menu (ui/screens.py's Play knows it)
COUNTER = "seals"  # config.json's count of the seals this tower has made
SHOWN = 16  # hex digits of a commitment the OLED shows
SEALS_TEXT = 4000  # characters of revealed records a game keeps for its history (the last whole)
CUT_MOST = 9  # contributions a cut takes: eight phones and a number from the buttons
PHONE_DIGITS = 32  # a phone's contribution: 128 bits, as hex digits
NUMBER_DIGITS = 6  # a number entered with the buttons: 0 to 999,999
HEX = "0123456789abcdef"
ROWS = ("Cut and play", "Enter a number")


def short(commitment):
    """The commitment as the OLED shows it: its first 16 hex digits (64 bits)."""
    return commitment[:SHOWN]


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
        sealing.show(_reveal_saved(sealing, game, saved))
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


# -- revealing --------------------------------------------------------------------------------------------


def reveal(sealing):
    """The seed told, kept with the game's history and saved; the game unsealed until it seals again.
    Its words for the OLED."""
    dice = sealing.dice
    dice.opened = True
    kept = dice.saved()
    app = sealing.app
    _keep(app.game, kept)
    sealing.dice = None
    sealing.screen = None
    app.game.seal = None
    app.dice = app.fair
    app.set_menu()
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


def _reveal_saved(sealing, game, saved):
    """A seal read from flash, revealed as far as it can be read: kept, told, and said in words."""
    kept, problem = checked(saved)
    app = sealing.app
    if not kept.get("open"):
        kept["open"] = 1
        event = {"event": "reveal", "game": game.KIND, "commitment": kept.get("commitment", "")}
        for key in ("seed", "draws", "throws", "counter", "cut"):
            if key in kept:
                event[key] = kept[key]
        if problem:
            event["damaged"] = problem
        app.emit(event)
    _keep(game, kept)
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


def checked(saved):
    """A seal as a save holds it (SealedDice.saved), checked for what the tower shows and serves of it:
    (the seal, None), or (what could be read of it, why the rest could not). A seal's seed and record
    are never trusted here, only shown: the players' verifier recomputes them."""
    if not isinstance(saved, dict):
        return {}, "the seal is not a record"
    kept = {}
    problem = None
    if saved.get("version") != 2:
        problem = "it is an earlier firmware's seal"
    for key, kind in (
        ("commitment", str),
        ("seed", str),
        ("record", str),
        ("dice", str),
        ("kind", str),
        ("counter", int),
        ("players", int),
        ("draws", int),
        ("throws", int),
        ("version", int),
        ("cut", list),
        ("open", int),
    ):
        value = saved.get(key)
        if isinstance(value, kind) and not isinstance(value, bool) and (kind is not str or len(value) <= 6000):
            kept[key] = value
        elif problem is None:
            problem = "its %s is damaged" % key
    seed = kept.get("seed", "")
    if len(seed) != 2 * SEED_BYTES or any(c not in HEX for c in seed):
        kept.pop("seed", None)
        problem = problem or "its seed is damaged"
    cut = kept.get("cut", [])
    if len(cut) > CUT_MOST or any(not isinstance(c, str) or len(c) > PHONE_DIGITS for c in cut):
        kept.pop("cut", None)
        problem = problem or "its cut is damaged"
    return kept, problem


def _keep(game, kept):
    """A revealed seal into the game's history: the last SEALS_KEPT, their records within SEALS_TEXT, but
    never one whose throws an undo can still reach (the history's lines show their faces)."""
    seals = game.seals
    seals.append(kept)
    reach = game.base.get("thrown", 0)
    while (
        len(seals) > 1
        and _last_place(seals[0]) < reach
        and (len(seals) > SEALS_KEPT or sum([len(s.get("record", "")) for s in seals]) > SEALS_TEXT)
    ):
        seals.pop(0)


def _last_place(seal):
    """The furthest position a revealed seal's record throws at (-1: none)."""
    record = seal.get("record", "")
    return max([landed_at(token) for token in record.split()]) if record else -1


def _seed_words(seed):
    """The seed on the OLED, in four groups of 16 hex digits."""
    if not seed:
        return "Its seed cannot be read."
    return "Seed: %s %s %s %s" % (seed[:16], seed[16:32], seed[32:48], seed[48:])
