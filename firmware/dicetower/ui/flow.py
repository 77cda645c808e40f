"""The device's flow, as a state machine of button events: start, set-up, play, game over.

Three buttons are enough everywhere:
  A short   previous / minus          A long   undo (in a game)
  B short   next / plus               B long   redo (in a game)
  C short   choose / confirm / roll   C long   back / the start menu
`App.press(button, kind)` takes one event ("a", "short") and changes the
app's state; `screens.draw(app, canvas)` and `leds.scene(app, ...)` show it.
It touches no hardware: the dice, the save store and the console come in as
objects, so the same flow runs on a Pico, in the simulator and in tests.
"""

from dicetower.core import cards, roster
from dicetower.core.triples import ABILITIES
from dicetower.core.dice import ATTACK, DANGER_COIN, Die
from dicetower.core.entropy import EntropyFailure
from dicetower.core.game import Refused
from dicetower.core.games.battlerealm import letters_from_symbols
from dicetower.core.roll import DICE, RollRefused
from dicetower.ui import actions as A

# The re-roll advisor's modules in the order they import one another (see App._planned).
ADVISOR_MODULES = ("dicetower.core.ranks", "dicetower.core.keeps", "dicetower.core.lucky", "dicetower.core.advisor")
GAMES = (("Battlerealm", "battlerealm"), ("Champions", "champions"), ("United", "united"),
         ("Battleworld", "battleworld"))

# Modes
START = "start"
SETUP = "setup"
PLAY = "play"
ARGS = "args"
DICE_MODE = "dice"
MARK = "mark"
OVER = "over"
RESULT = "result"
SETTINGS = "settings"
PHONES = "phones"
HEROES = "heroes"
HERO = "hero"
NOTICE = "notice"

# The dice screen's cursor: dice 0-5, then these (Finalize last: A from die 1 reaches it).
REROLL = DICE
LUCKY = DICE + 1
TARGET = DICE + 2
PLACE = DICE + 3
FINALIZE = DICE + 4


def new_game(kind, count, options):
    """A tracker for `kind` with `count` players from the default rosters."""
    from dicetower.core.store import game_class

    cls = game_class(kind)
    if kind == "battlerealm":
        heroes = options.get("heroes") or roster.BATTLEREALM_HEROES
        return cls.setup([dict(h) for h in heroes[:count]])
    if kind == "champions":
        return cls.setup([dict(h) for h in roster.CHAMPIONS_HEROES[:count]], roster.CHAMPIONS_SCHEME,
                         roster.CHAMPIONS_VILLAIN)
    if kind == "united":
        teams = 2 if count >= 2 and options.get("teams") == 2 else 1
        heroes = [{"name": h["name"], "team": (i % 2 if teams == 2 else 0)}
                  for i, h in enumerate(roster.UNITED_HEROES[:count])]
        return cls.setup(heroes, teams=teams)
    return cls.setup(count, options.get("attack_faces"))


PLAYERS = {"battlerealm": (2, 6, 4), "champions": (1, 4, 2), "united": (1, 6, 4), "battleworld": (1, 5, 1)}


class App:
    def __init__(self, dice, store=None, emit=None, settings=None, options=None):
        self.dice = dice
        self.store = store  # has save(game) -> None, load() -> (game, message)
        self.emit = emit or (lambda event: None)
        self.settings = settings if settings is not None else {"brightness": 100, "sounds": True}
        self.options = options or {}
        self.mode = START
        self.cursor = 0
        self.game = None
        self.kind = None
        self.count = 0
        self.message = ""  # the last thing that happened, for the screen
        self.roll = None
        self.outcome = None
        self.picked = 0  # dice chosen for a re-roll, as bits
        self.marked = 0  # heroes marked at the roller's location, as bits
        self.menu = ()
        self.action = None
        self.values = []
        self.asking = 0
        self.choice = 0
        self.animation = None  # "roll", "prison", "explosion", "over" for the LEDs
        self.resume = None
        self.saved_message = None
        self.roster = []
        self.hero = 0
        self.replay = None
        self.page = 0
        self.changed = True
        self.target = 0  # the advisor's aim: 0 any of the hero's cards, n the hero's n-th card to pay
        self.advice = None
        self._plan = None  # the advisor's work in progress (a generator), while it lasts
        self._advisor = None  # core/advisor.py's plan, once a roll needed it (see _planned)
        self.advised = 0  # dice the advice re-rolls (or gives Lucky's re-roll), as bits, for the ring
        # How phones reach the scoreboard (url, wifi, password, pin), once it is served; else None.
        self.phones = None
        if store is not None:
            game, message = store.load()
            self.resume = game
            self.saved_message = message
            if message:
                self.message = message
        if self.options.get("notice"):
            # A bad heroes.json: say so first, in full; the built-in heroes are in play.
            self.mode = NOTICE
            self.message = self.options["notice"]

    # -- events ------------------------------------------------------------

    def press(self, button, kind):
        """Handle one button event. Never raises for a player's input."""
        self.changed = True
        try:
            if kind == "long" and button == "c":
                return self._back()
            if button[0] == "d" and button[1:].isdigit():
                return self._die_button(int(button[1:]) - 1, kind)
            if kind == "double":
                # Two quick presses: two steps on A or B, one choice on C.
                if button in ("a", "b"):
                    self.press(button, "short")
                kind = "short"
            if self.game is not None and kind == "long" and button in ("a", "b"):
                if self.mode in (DICE_MODE, MARK):
                    self.message = "Finalize the roll first; then hold A to undo."
                    return
                if self.mode in (PLAY, OVER, ARGS, RESULT):
                    self.mode = OVER if self.game.over() else PLAY  # a half-chosen action is dropped
                    return self._undo(button == "a")
            handler = getattr(self, "_on_" + self.mode)
            handler(button, kind)
        except (Refused, RollRefused, ValueError) as e:
            self.message = str(e)
        except EntropyFailure as e:
            self.message = str(e)
            self.emit({"event": "entropy", "error": str(e)})

    def _die_button(self, die, kind):
        """A board with one button per die: press it to pick that die for a re-roll."""
        if self.mode == DICE_MODE and 0 <= die < DICE:
            self.cursor = die
            self._on_dice("c", kind)

    def _step(self, button, count):
        if button == "a":
            self.cursor = (self.cursor - 1) % count
        elif button == "b":
            self.cursor = (self.cursor + 1) % count

    def _back(self):
        if self.mode == ARGS:
            self.mode = PLAY
            self.message = "Cancelled."
        elif self.mode == MARK:
            # The dice are rolled: back to them, not away from them.
            self.mode = DICE_MODE
            self.cursor = FINALIZE
        elif self.mode == DICE_MODE:
            self.message = "The dice are rolled: finalize them to go on."
        elif self.mode == RESULT:
            self.mode = PLAY
        elif self.mode == HERO:
            self.mode = HEROES
            self.cursor = self.hero
        elif self.mode == HEROES:
            self.mode = SETTINGS  # without saving: Done saves
            self.cursor = 2
        elif self.mode in (PLAY, OVER, SETUP, SETTINGS, PHONES):
            if self.mode == SETTINGS:
                self.emit({"event": "settings", "settings": self.settings})
            if self.game is not None:
                self.resume = self.game
            self.mode = START
            self.cursor = 0
        self.menu = ()

    def start_items(self):
        items = [("New " + label, key) for label, key in GAMES]
        if self.resume is not None:
            items.insert(0, ("Resume " + self.resume.KIND, "resume"))
        if self.phones is not None:
            items.append(("Phones: scoreboard", "phones"))
        items.append(("Settings", "settings"))
        return items

    def _on_start(self, button, kind):
        items = self.start_items()
        if button != "c":
            return self._step(button, len(items))
        choice = items[self.cursor % len(items)][1]
        self.cursor = 0
        if choice == "resume":
            self._begin(self.resume)
        elif choice == "settings":
            self.mode = SETTINGS
        elif choice == "phones":
            self.mode = PHONES
        else:
            if self.game is not None:
                self.resume = self.game  # still saved: it can be resumed until a new one starts
                self.game = None
            self.kind = choice
            self.count = PLAYERS[choice][2]
            self.mode = SETUP

    def _turn_page(self, button):
        """A and B page a long text (a result, a notice); True if they did."""
        if button == "b":
            self.page += 1
        elif button == "a":
            self.page = max(0, self.page - 1)
        return button in ("a", "b")

    def _on_phones(self, button, kind):
        self.mode = START  # any button: back to the menu

    def _on_notice(self, button, kind):
        if not self._turn_page(button):
            self.mode = START
            self.page = 0
            self.message = ""

    def _on_setup(self, button, kind):
        low, high, _ = PLAYERS[self.kind]
        if button == "a":
            self.count = max(low, self.count - 1)
        elif button == "b":
            self.count = min(high, self.count + 1)
        else:
            self._begin(new_game(self.kind, self.count, self.options), new=True)

    def settings_items(self):
        return ["Brightness %d%%" % self.settings["brightness"],
                "Sounds %s" % ("on" if self.settings["sounds"] else "off"), "Heroes and abilities"]

    def _on_settings(self, button, kind):
        if button != "c":
            return self._step(button, 3)
        if self.cursor == 0:
            self.settings["brightness"] = self.settings["brightness"] % 100 + 10
        elif self.cursor == 1:
            self.settings["sounds"] = not self.settings["sounds"]
        else:
            self.roster = [dict(h, abilities=list(h["abilities"]))
                           for h in (self.options.get("heroes") or roster.BATTLEREALM_HEROES)]
            self.mode = HEROES
            self.cursor = 0

    def _on_heroes(self, button, kind):
        if button != "c":
            return self._step(button, len(self.roster) + 1)
        if self.cursor == len(self.roster):
            self.options["heroes"] = self.roster
            self.emit({"event": "heroes", "heroes": self.roster})
            self.message = "Heroes saved."
            self.mode = SETTINGS
            self.cursor = 2
        else:
            self.hero = self.cursor
            self.mode = HERO
            self.cursor = 0

    def hero_items(self):
        hero = self.roster[self.hero]
        items = ["Starting PVP %d" % hero["pvp"]]
        items += ["[%s] %s" % ("x" if a in hero["abilities"] else " ", a) for a in ABILITIES]
        return items + ["Done"]

    def _on_hero(self, button, kind):
        count = len(ABILITIES) + 2
        if button != "c":
            return self._step(button, count)
        hero = self.roster[self.hero]
        if self.cursor == 0:
            hero["pvp"] = hero["pvp"] % 20 + 1
        elif self.cursor <= len(ABILITIES):
            ability = ABILITIES[self.cursor - 1]
            if ability in hero["abilities"]:
                hero["abilities"].remove(ability)
            else:
                hero["abilities"].append(ability)
        else:
            self.mode = HEROES
            self.cursor = self.hero

    def _begin(self, game, new=False):
        self.game = game
        self.kind = game.KIND
        self.resume = None
        self.mode = OVER if game.over() else PLAY
        self.cursor = 0
        self.menu = A.MENUS[self.kind]
        self.message = "New game." if new else "Resumed."
        self._save()
        self.emit({"event": "game", "game": self.kind, "new": new})

    # -- playing -------------------------------------------------------------

    def _on_play(self, button, kind):
        menu = A.MENUS[self.kind]
        if button != "c":
            return self._step(button, len(menu))
        label, name, args = menu[self.cursor % len(menu)]
        if name == "roll":
            return self._start_roll()
        self.action = (label, name, args)
        self.values = [None] * len(args)
        self._next_arg(0)

    def _next_arg(self, start):
        """Ask for the next value the player picks; roll what the box rolls; then do it."""
        label, name, args = self.action
        for i in range(start, len(args)):
            kind = args[i][1]
            if kind == A.FIXED:
                self.values[i] = args[i][2]
            elif kind in (A.SIDE_NAME, A.BATTLE_NAME):
                self.values[i] = self._auto_name(kind)
            elif kind not in (A.ROLL_ATTACK, A.FLIP_COIN):
                if not self.choices(args[i]):
                    self.mode = PLAY
                    raise Refused("Nobody to choose for %s." % args[i][0])
                self.asking = i
                self.choice = self._first_choice(args[i])
                self.mode = ARGS
                return
        for i in range(len(args)):  # the box's own throws come last
            kind = args[i][1]
            if kind == A.ROLL_ATTACK:
                faces = self.game.state.get("faces") or ATTACK.faces
                self.values[i] = faces[self.dice.draw(Die(ATTACK.name, faces))]  # a Die: set faces can name its faces
            elif kind == A.FLIP_COIN:
                self.values[i] = DANGER_COIN.faces[self.dice.draw(DANGER_COIN)]
        self.mode = PLAY
        self._do(name, self.values)

    def _auto_name(self, kind):
        state = self.game.state
        if kind == A.BATTLE_NAME:
            return "Battle %d" % (len(state["battles"]) + 1)
        return "Side %d" % (sum(len(a["sides"]) for a in state["areas"]) + 1)

    def choices(self, arg):
        """The (label, value) pairs an argument offers, from the game's state."""
        label, kind, detail = arg
        state = self.game.state
        if kind == A.NUMBER:
            return [(str(n), n) for n in range(detail[0], detail[1] + 1)]
        if kind == A.CHOICE:
            return list(detail)
        if kind == A.HERO:
            heroes = state["heroes"]
            return [(heroes[i]["name"], i) for i in range(len(heroes)) if not heroes[i].get("out")]
        if kind == A.AREA:
            return [("Area %d" % (i + 1), i) for i in range(len(state["areas"]))]
        if kind == A.SCHEME:
            # The side schemes of the game area chosen for this action.
            area = 0
            args = self.action[2] if self.action else ()
            for i in range(len(args)):
                if args[i][1] == A.AREA and self.values[i] is not None:
                    area = self.values[i]
            if not 0 <= area < len(state["areas"]):
                area = 0
            sides = [(s["name"], i) for i, s in enumerate(state["areas"][area]["sides"])]
            return sides or [("(no side scheme)", -2)]
        if kind == A.BATTLE:
            battles = state["battles"]
            return [(battles[i]["name"], i) for i in range(len(battles)) if not battles[i]["result"]] or \
                [("(no open battle)", -1)]
        return [("?", None)]

    def _first_choice(self, arg):
        if arg[1] == A.NUMBER:
            return min(max(0, 1 - arg[2][0]), arg[2][1] - arg[2][0])  # start at 1 where it can
        if arg[1] == A.HERO and self.kind == "battlerealm":
            # A target other than the acting hero first.
            options = self.choices(arg)
            turn = self.game.state["turn"]
            for n in range(len(options)):
                if options[n][1] != turn:
                    return n
        return 0

    def _on_args(self, button, kind):
        arg = self.action[2][self.asking]
        options = self.choices(arg)
        if not options:
            self.mode = PLAY
            raise Refused("Nobody to choose for %s." % arg[0])
        if button == "a":
            self.choice = (self.choice - 1) % len(options)
        elif button == "b":
            self.choice = (self.choice + 1) % len(options)
        else:
            self.values[self.asking] = options[self.choice % len(options)][1]
            self._next_arg(self.asking + 1)

    def _do(self, name, values):
        try:
            line = self.game.do(name, *values)
        except Refused as e:
            self.message = str(e)
            return False
        self.message = line
        self._after(name, values, line)
        return True

    def _after(self, name, values, line):
        self._save()
        self.emit({"event": "action", "game": self.kind, "action": name, "args": values, "line": line})
        if self.game.over():
            self.mode = OVER
            self.animation = "over"
            self.emit({"event": "over", "game": self.kind, "result": self.game.over()})

    def _undo(self, undo):
        last = self.game.actions[-1] if undo and self.game.actions else None
        try:
            line = self.game.undo() if undo else self.game.redo()
        except Refused as e:
            self.message = str(e)
            return
        self.message = line
        self.mode = OVER if self.game.over() else PLAY
        if last is not None and last[0] == "roll":
            # An undone roll keeps its faces: rolling again this turn brings them back.
            state = self.game.state
            self.replay = ((state["round"], state["turn"]), last[1])
        self._save()
        self.emit({"event": "undo" if undo else "redo", "game": self.kind, "line": line})

    def _save(self):
        if self.store is not None and self.game is not None:
            self.store.save(self.game)

    def _on_over(self, button, kind):
        if button == "c":
            self.mode = START
            self.cursor = 0
            self.game = None

    # -- the Battlerealm dice ------------------------------------------------

    def _start_roll(self):
        if self.game.state["rolled"]:
            raise Refused("%s has rolled this turn already." % self.active_name())
        roll = self.game.new_roll(self.replay_dice() or self.dice)
        roll.roll()  # if the dice fail, nothing changes and the message says why
        if self.replay is not None:
            roll.rerolls_left = 0  # the undone roll's finalized faces come back, not new chances
            roll.lucky_left = 0
            self.replay = None
        self.roll = roll
        self.outcome = None
        self.picked = 0
        self.cursor = 0
        self.mode = DICE_MODE
        self.animation = "roll"
        self.message = "Pick dice to re-roll, or finalize."
        self._advise()
        self.emit({"event": "roll", "hero": self.active_name(), "faces": list(self.roll.symbols())})

    def replay_dice(self):
        """The faces of a roll undone this same turn: rolling again brings them back."""
        state = self.game.state
        if self.replay is not None and self.replay[0] == (state["round"], state["turn"]):
            from dicetower.core.entropy import ScriptedFaces
            from dicetower.core.games.battlerealm import symbols_from_letters

            return ScriptedFaces(symbols_from_letters(self.replay[1]))
        self.replay = None
        return None

    def active_name(self):
        return self.game.state["heroes"][self.game.state["turn"]]["name"]

    def hero_cards(self):
        """The acting hero's power cards whose dice are known, from the roster (heroes.json)."""
        found = roster.cards_of(self.options.get("heroes") or roster.BATTLEREALM_HEROES, self.active_name())
        return [c for c in found if c.get("dice") is not None]

    def target_name(self):
        known = self.hero_cards()
        if not known:
            return "No cards"
        return "Any card" if self.target % (len(known) + 1) == 0 else known[self.target % (len(known) + 1) - 1]["name"]

    def place(self):
        """Where the acting hero stands for paying cards: in the game's state, so saves keep it."""
        return cards.LOCATIONS[self.game.state["heroes"][self.game.state["turn"]]["place"]]

    def _move(self):
        """The acting hero to the next location, as a tracked move so a power cut keeps it.

        Cycling through the locations leaves one move in the history, not one per press.
        """
        game = self.game
        target = (cards.LOCATIONS.index(self.place()) + 1) % len(cards.LOCATIONS)
        if game.actions and game.actions[-1][0] == "move":
            game.undo()
            game.redo_actions.pop()
            if self.place() == cards.LOCATIONS[target]:
                self._save()
                self.message = "At: %s, as before." % cards.SHORT_NAMES[target]
                return
        self._do("move", [target])

    def _advise(self):
        """Start the advisor on the current dice (core/advisor.py): `think` works it out a slice at a
        time, so the dice show at once and every press is served meanwhile. A new roll, a re-roll or
        a new aim starts again, and the stale work is dropped."""
        self.advice = None
        self.advised = 0
        self._plan = None
        known = self.hero_cards()
        if not known or self.roll is None or self.roll.finalized:
            return
        choice = self.target % (len(known) + 1)
        chosen = known if choice == 0 else [known[choice - 1]]
        hero = self.game.state["heroes"][self.game.state["turn"]]
        roll = self.roll
        goal = cards.Goal([cards.need(c["dice"]) for c in chosen], roll.abilities, roll.in_prison, self.place(),
                          hero["pvp"])
        self._plan = self._planned(roll.faces, roll.locked, roll.rerolls_left, roll.lucky_left, goal)

    def _planned(self, faces, locked, rerolls_left, lucky_left, goal):
        """advisor.plan, with the advisor's import in slices of its own the first time: the roll's
        dice are on the screen before it. Its four modules are imported one a slice, each importing
        only what the ones before brought in (from .mpy on a Pico the whole took 51 ms; frozen, 10)."""
        if self._advisor is None:
            # Imported when first needed, not at boot: games without the custom dice keep its heap.
            # (Not ahead of the first roll either: on a Pico with .mpy files the import then found the
            # heap too fragmented for the work arrays the first plan makes.)
            for part in ADVISOR_MODULES:
                __import__(part)
                yield None
            from dicetower.core.advisor import plan

            self._advisor = plan
        yield from self._advisor(faces, locked, rerolls_left, lucky_left, goal)

    def think(self):
        """One slice of the advisor's work; True while more remains. The advice, once found, is shown."""
        work = self._plan
        if work is None:
            return False
        try:
            advice = next(work)
        except BaseException:
            self._plan = None
            raise
        if advice is None:
            return True
        self._plan = None
        self.advice = advice
        for die in advice.reroll:
            self.advised |= 1 << die
        if advice.lucky >= 0:
            self.advised |= 1 << advice.lucky
        self.changed = True
        return False

    def thinking(self):
        return self._plan is not None

    def _on_dice(self, button, kind):
        roll = self.roll
        if button != "c":
            return self._step(button, FINALIZE + 1)
        if self.cursor < DICE:
            if roll.locked[self.cursor] and not roll.lucky_left:
                self.message = "Die %d is locked." % (self.cursor + 1)
            else:
                self.picked ^= 1 << self.cursor
            return
        if self.cursor == TARGET:
            self.target = (self.target + 1) % (len(self.hero_cards()) + 1)
            self._advise()
        elif self.cursor == PLACE:
            self._move()
            self._advise()
        elif self.cursor == REROLL:
            dice = [d for d in range(DICE) if self.picked & (1 << d)]
            roll.reroll(dice)
            self.picked = 0
            self.animation = "roll"
            self.message = "Re-rolled %d; %d re-roll%s left." % (len(dice), roll.rerolls_left,
                                                                "" if roll.rerolls_left == 1 else "s")
            self._advise()
            self.emit({"event": "reroll", "dice": [d + 1 for d in dice], "faces": list(roll.symbols())})
        elif self.cursor == LUCKY:
            dice = [d for d in range(DICE) if self.picked & (1 << d)]
            if len(dice) != 1:
                raise RollRefused("Pick exactly one die for Lucky's re-roll.")
            roll.lucky_reroll(dice[0])
            self.picked = 0
            self.animation = "roll"
            self.message = "Lucky re-roll of die %d." % (dice[0] + 1)
            self._advise()
            self.emit({"event": "reroll", "dice": [dice[0] + 1], "lucky": True, "faces": list(roll.symbols())})
        else:
            self._finalize()

    def _finalize(self):
        # Judge first, without finalizing, to know whether heroes must be marked.
        outcome = self.roll.judged()
        self.outcome = outcome
        if outcome.explosion and len(self.game.state["heroes"]) > 1:
            self.mode = MARK
            self.marked = 0
            self.cursor = 0
            self.message = "Explosion %d: mark the heroes at your location." % outcome.explosion
            return
        self._record_roll()

    def _on_result(self, button, kind):
        if not self._turn_page(button):
            self.mode = PLAY
            self.cursor = 0

    def mark_items(self):
        heroes = self.game.state["heroes"]
        turn = self.game.state["turn"]
        return [i for i in range(len(heroes)) if i != turn and not heroes[i]["out"]]

    def _on_mark(self, button, kind):
        items = self.mark_items()
        if button != "c":
            return self._step(button, len(items) + 1)
        if self.cursor < len(items):
            self.marked ^= 1 << items[self.cursor]
        else:
            self._record_roll()

    def _record_roll(self):
        outcome = self.roll.finalize()
        hero = self.game.state["heroes"][self.game.state["turn"]]
        # Sent to the Prison, the hero pays cards before going (the roll ends the turn), so the
        # Warehouse is paid first, and never with the last point: the roll must still be recorded.
        pvp = hero["pvp"] - 1 if outcome.prison else hero["pvp"]
        plan = cards.pay(outcome.symbols, outcome.spent, self.hero_cards(), self.place(), pvp)
        paid = cards.describe(*plan) if self.hero_cards() else ""
        bought = sum(len(card[2]) for card in plan[0])
        self.advice = None
        self._plan = None
        self.advised = 0
        sharing = [i for i in range(len(self.game.state["heroes"])) if self.marked & (1 << i)]
        letters = letters_from_symbols(self.roll.symbols())
        self.mode = PLAY
        self.cursor = 0
        if outcome.explosion:
            self.animation = "explosion"
        if outcome.prison:
            self.animation = "prison"
        charge = ""
        first = bought and outcome.prison
        if first:
            charge, first = self._buy(bought)
        if self._do("roll", [letters, sharing]):
            if bought and not outcome.prison:
                charge = self._buy(bought)[0]
            self.message = " ".join(outcome.lines) or "Nothing happens."
            if paid:
                self.message += " " + paid
            if charge:
                self.message += " " + charge
            if not self.game.over():
                self.mode = RESULT  # the whole result on its own screen, pages with A/B
                self.page = 0
            if outcome.explosion:
                self.emit({"event": "explosion", "damage": outcome.explosion})
            if outcome.prison:
                self.emit({"event": "prison"})
        elif first:
            self.game.undo()  # the roll was refused: nothing bought for it either
            self._save()
        self.marked = 0

    def _buy(self, results):
        """Charge the Warehouse's results the paid cards use: (the line or why it was refused, done)."""
        message = self.message
        done = self._do("buy", [results])
        line, self.message = self.message, message
        return line, done
