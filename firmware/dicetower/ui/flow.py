"""The device's flow, as a state machine of button events: start, set-up, play, game over.

Three buttons are enough everywhere:
  A short   previous / minus          A long   undo (in a game)
  B short   next / plus               B long   redo (in a game)
  C short   choose / confirm / roll   C long   back / the start menu
`App.press(button, kind)` takes one event ("a", "short") and changes the app's state;
`screens.draw(app, canvas)` and `leds.Lights.tick(app)` show it. It touches no hardware: the dice,
the save store and the console come in as objects, so the same flow runs on a Pico, in the
simulator and in tests. `App` holds what every screen shares (the screen up, the cursor, the
message, the game) and passes each press to the screen that is up (`screen`, a class of
ui/screens.py's `Screen`: made when it comes up, `show`, dropped when another replaces it). The
screens: the play menu and the game's end (ui/screens.py), the menus before a game (ui/menus.py),
the count screen (ui/choosing.py) and the set-up's rows (ui/setup.py), the values an action needs
(`Picker`, ui/picker.py), Battlerealm's dice over the core's `Turn` (ui/battlerealm.py), the game's
sealed dice (ui/sealing.py, ui/resealing.py). What each game is (its tracker, menu, status line,
gauge) is its package in core/games/.
"""

import sys

from dicetower.core import games
from dicetower.core.entropy import PAUSED, EntropyFailure
from dicetower.core.game import Refused
from dicetower.core.scope import Scope, once
from dicetower.core.actions import SIX_DICE, draws_dice
from dicetower.core.dice import DICE
from dicetower.ui.screens import Notice, Over, Play


DICE_BACK = "Dice back: the noise passes its tests again."


class App:
    def __init__(self, dice, saves=None, emit=None, settings=None, options=None, setups=None, write_json=None):
        self.dice = self.fair = dice  # the tower's own (`fair`); `dice` gives a game's faces (ui/sealing.py)
        # The game on flash (saves.py's SaveStore), or None: nothing is saved.
        self.saves = saves
        self.write_json = write_json  # write_json(name, data): a settings file on flash, whole; None: none
        # The last set-up of each game and a user's presets (setup_files.py's SetupFiles, made on the call), or None.
        self.setups = setups
        self._tell = emit or (lambda event: None)  # the console (Device.emit): see `emit`
        # A throw's save under way: until it is on flash, the throw's faces are held back from the screen,
        # the phones and the console (Device._work steps the save first, then calls `throw_saved`).
        self.holding = False
        self.held = []  # the events it held back: told once the screen shows the throw (`tell_held`)
        self.settings = settings if settings is not None else {"brightness": 100, "sounds": True}
        self.options = options or {}
        self.mode = "start"  # the screen's name (its MODE): what the ring, the phones and the console read
        self.screen = None  # the screen up (ui/screens.py's Screen): the start menu, once it is drawn
        self.cursor = 0
        self.game = None
        self.kind = None
        self.game_module = None  # the game's module (core/games/): its menu, status line and gauge
        self.count = 0
        self.setup = None  # the set-up of the game being chosen: its set-up module's setup_default's shape
        self.setup_module = None  # that module (core/games/<game>/setup.py), while the game is set up
        self.unready = None  # its name, until it is made ready (ui/choosing.py's make_ready)
        # What is on the heap when (core/scope.py): the start menu's screens, the set-up's rows and
        # checks, each game chosen or resumed (by its kind), and what lives as long as the tower.
        self.start_scope = None  # made with the start menu (`menus`), closed when a game begins
        self.setup_scope = None  # made when a set-up first loads a module (`setting_up`), closed when it starts
        self.scopes = {}
        self.ahead = None  # the game's scope whose modules the idle passes load (`choose_ahead`)
        self.undescribed = False  # True until its descriptor is loaded and what it names queued
        self.kept = Scope("tower")  # the sealed dice's modules, once a game of dice begins: never closed
        self.last_setup = None  # the remembered set-up, until then
        self.form = None  # its rows on the OLED (ui/setup.py), made at the first use
        self.message = ""  # the last thing that happened, for the screen
        self.refused = None  # while the message is a refusal: what was said before it, back at the next press
        self.browsing = False  # A or B last moved through the play menu: it shows the actions, not the message
        self.menu = ()
        self.animation = None  # the last moment for the LEDs: "roll", "prison", "explosion", "over" (animate)
        self.animations = 0  # how many were asked for: the ring starts one when this changes
        self.resume = None
        self.saved_message = None
        self.page = 0
        self.changed = True
        # The rest of a press's work (a generator), a step a loop pass once the press's screen is drawn
        # (Device._work): presses wait for it. A new game made after "Starting..." (ui/choosing.py), a seal
        # revealed after the game's end (ui/sealing.py).
        self.later = None
        self.phones = None  # how phones reach the scoreboard (url, wifi, password, pin), once it is served
        self._menus = None  # ui/menus.py, while the menus before a game show (`menus`)
        self.choosing = None  # and its ui/choosing.py's Choosing: a new game's count and set-up
        self.turn = None  # core/games/battlerealm/turn.py's Turn, once a Battlerealm game is played
        self.dice_screens = None  # its screens (ui/battlerealm.py)
        notices = []
        if saves is not None:
            reading = Scope("read")
            for line in games.GAMES:  # what launch.py loaded first for the saved game (Battlerealm's
                kind = line[1]  # work arrays, a Lucky hero's advice): the read's, kept with the game it reads
                for name in getattr(sys.modules.get(games.PACKAGE + kind), "set_aside", ()):
                    reading.adopt(games.part(kind, name))
            game, message = saves.resume(reading)
            self.resume = game
            if game is None:
                reading.close()  # nothing to resume: what the read loaded is nobody's
            else:  # what resuming it will import, imported meanwhile at idle
                scope = self.scopes[game.KIND] = reading  # its tracker came with it: the game's scope
                scope.name = game.KIND
                self.choose_ahead(game.KIND)
            if message:
                notices.append(message)
        if self.options.get("notice"):
            notices.append(self.options["notice"])  # a bad heroes.json: the built-in heroes are in play
        self.sealing = None  # the game's sealed dice (ui/sealing.py), once a game begins
        if notices:
            # A saved game or a file refused: said first, in full (B pages), with the name it is kept under.
            self.notice(" ".join(notices))

    # What the scoreboard, the ring and the tests read of the dice (none before a Battlerealm game).
    @property
    def roll(self):
        return self.turn.roll if self.turn is not None else None

    @property
    def advice(self):
        return self.turn.advice if self.turn is not None else None

    @property
    def advised(self):
        return self.turn.advised if self.turn is not None else 0

    def say(self, text):
        """Tell the players `text` on the screen now (the shell's words: a save that failed, an error)."""
        self.message = text
        self.changed = True

    def animate(self, name):
        """A moment for the ring to play ("roll", "prison", "explosion", "over"), once, from its start."""
        self.animation = name
        self.animations += 1

    def show(self, screen):
        """`screen` up (a Screen, made for it): the one it replaces is dropped, its memory with it."""
        self.screen = screen
        self.mode = screen.MODE
        self.changed = True
        return screen

    def notice(self, text, then=None):
        """`text` said whole (B pages it), then the screen `then` (one interrupted: a set-up's), else
        the start menu."""
        self.message = text
        self.page = 0
        self.show(Notice(self, then))

    def start_menu(self):
        """The start menu up, a game being played kept to resume."""
        if self.game is not None:
            self.resume = self.game
        self.cursor = 0
        self.show(self.menus.Start(self))

    def to_game(self):
        """The game's own screen: its end if it is over, else its play menu."""
        self.show(Over(self) if self.game.over() else Play(self))

    def pick(self, action):
        """The values `action` needs, picked on their own screen; done once every value is known."""
        self.kept.load(PICKER).Picker(self, action).ask(0)

    def set_menu(self, extra=()):
        """The play menu: the game's actions, the row that shows its table (ui/table.py), then `extra`
        (a sealed game's reveal: ui/resealing.py)."""
        self.menu = self.game_module.MENU + TABLE_ROW + extra

    def show_table(self):
        """The game's table (ui/table.py), its module loaded for the moment the screen is made."""
        self.show(once("dicetower.ui.table", "Table", self))

    def keep(self, name, data):
        """A settings file written whole on flash (config.json, heroes.json) by the shell, if it has one: its
        path if it was written, else None."""
        if self.write_json is not None:
            return self.write_json(name, data)
        return None

    # -- events ------------------------------------------------------------

    def press(self, button, kind):
        """Handle one button event. Never raises for a player's input."""
        while self.later is not None:
            self.go_on()  # the last press's work first (a device's loop has done it: a shell calling this)
        self.changed = True
        self.browsing = False
        if self.refused is not None:
            # A refusal is said until the next press: then what was said before it is back.
            self.message, self.refused = self.refused, None
        said = self.message
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
            if self.game is not None and kind == "long" and button in ("a", "b") and self._held(button):
                return
            if self.screen is None:
                self.start_menu()
            self.screen.press(button, kind)
        except (Refused, ValueError, EntropyFailure) as e:  # a RollRefused too
            self._refused(e, said)
        finally:
            if self.sealing is not None:
                self.sealing.pressed()

    def go_on(self):
        """A step of the work a press left for the passes after its screen (`later`)."""
        try:
            next(self.later)
        except StopIteration:
            self.later = None
        except (Refused, ValueError, EntropyFailure) as e:  # (another error: the shell's `recover`)
            self.later = None
            self._refused(e, "")  # what the press's screen said ("Starting...") is not to come back

    def _refused(self, e, said):
        """A player's press refused (`e`): why, on the screen until the next press, which brings back
        what was `said` before it; dice that cannot roll say what to do (the console the whole reason)."""
        if isinstance(e, EntropyFailure):
            self.message = e.screen
            self.emit({"event": "entropy", "error": str(e)})
        else:
            self.message = str(e)
            self.refused = said
        self.changed = True

    def _held(self, button):
        """Hold A or B in a game: undo or redo, from the game's screens (not a picker's, where a hold
        steps ten); True if it was taken."""
        if self.mode in ("dice", "mark"):
            self.message = "Finalize the roll first; then hold A to undo."
            return True
        if self.mode in ("play", "over", "result"):
            self.to_game()  # a half-chosen action is dropped
            self._undo(button == "a")
            return True
        return False

    def recover(self, to_game=True):
        """The shell's call after a press or a redraw raised (Device._crash): what was half made is let
        go (a set-up's rows and values, an action's half-chosen values, modules still to load) and the
        last good screen is up: the game being played (`to_game`; its seal's cut if one is open), else the
        start menu, the game kept to resume as a hold of C keeps it. Nothing is saved: the game on flash
        stays as it was."""
        was = self.mode
        self.close_setup()
        self.later = None
        self.ahead = None
        self.message = ""
        self.page = 0
        self.cursor = self.cursor if was == "play" else 0
        game = self.game
        if game is None or not to_game:
            self.resume = game or self.resume
            self.start_menu()
        elif self.sealing is not None and self.sealing.screen is not None:
            self.show(self.sealing.screen)  # the seal waits for its cut before any die
        else:
            self.to_game()

    def stop_thinking(self):
        """The work at idle raised (Device.stop_work): what was left of it is dropped. Modules it was
        loading ahead come at the press that needs them; a set-up not made ready offers the defaults;
        the advice it was finding is not given for this roll."""
        self.ahead = None
        self.unready = None
        if self.turn is not None:
            self.turn.stop_thinking()

    def dice_checked(self):
        """The loop's call after its work on the dice: paused dice that roll again are said to."""
        if self.message == PAUSED and getattr(self.fair, "failure", None) is None:
            self.message = DICE_BACK
            self.changed = True
            self.emit({"event": "entropy", "back": self.fair.name})

    def _die_button(self, die, kind):
        """A board with one button per die: press it to pick that die for a re-roll."""
        if self.mode == "dice" and 0 <= die < DICE:
            self.cursor = die
            self.screen.press("c", kind)

    def step(self, button, count):
        """A and B move the cursor through `count` items, round."""
        if button == "a":
            self.cursor = (self.cursor - 1) % count
        elif button == "b":
            self.cursor = (self.cursor + 1) % count

    def turn_page(self, button):
        """A and B page a long text (a result, a notice); True if they did."""
        if button == "b":
            self.page += 1
        elif button == "a":
            self.page = max(0, self.page - 1)
        return button in ("a", "b")

    def _back(self):
        if self.screen is None:
            self.start_menu()
        self.screen.back()

    def scope_of(self, kind):
        """The scope of the game called `kind`: its package's modules, chosen or resumed."""
        scope = self.scopes.get(kind)
        if scope is None:
            scope = self.scopes[kind] = Scope(kind)
        return scope

    def choose_ahead(self, kind):
        """Load at idle, one a pass, what a game of `kind` will need: its descriptor's AHEAD (`begin`
        closes the scopes of games of other kinds)."""
        self.set_aside(kind)
        self.ahead = self.scope_of(kind)
        # Its descriptor first, the first idle pass's (the press shows the count screen from the registry's
        # line), or now if it is in already (a save's read, a game resumed).
        self.undescribed = True
        if games.PACKAGE + kind in sys.modules:
            self.load_ahead()

    def set_aside(self, kind):
        """A game of `kind` is chosen: games of other kinds chosen before it are forgotten, but the one
        kept to resume, which only forgets what it needs in play alone (its descriptor's set_aside:
        Battlerealm's work arrays and what holds them, made again if it is resumed); a Battlerealm turn
        keeps its own."""
        resume = self.resume.KIND if self.resume is not None else None
        # A firmware module its AHEAD names (core/names.py) that another game's scope brought in is its own
        # from now on: forgotten with that scope, it would be imported again beside the copy its modules hold.
        shared = games.ahead_of(kind) if games.PACKAGE + kind in sys.modules else ()
        for other in [k for k in self.scopes if k != kind and not self.scopes[k].lasting]:
            for name in shared:
                self.scopes[other].hand(name, self.scope_of(kind))
            if other != resume:
                self.scopes.pop(other).close()
            else:
                for name in getattr(games.descriptor(other), "set_aside", ()):
                    self.scopes[other].drop(games.part(other, name))
                self.scopes[other].drop(SEAL_MOMENTS)  # loaded ahead for a new game of its kind, not begun

    def to_load(self):
        """True while modules the chosen game will need wait to be loaded (`choose_ahead`)."""
        return self.ahead is not None and (self.undescribed or bool(self.ahead.queued))

    def load_ahead(self):
        """The next module the chosen game will need, now: its descriptor (the game's, as the rest of its
        package) and what it names to load queued, then those one a call."""
        scope = self.ahead
        kind = scope.name
        if self.undescribed:
            self.undescribed = False
            described = scope.load(games.PACKAGE + kind)
            game = None  # the game of its kind begun or kept to resume, if there is one
            for known in (self.game, self.resume):
                if known is not None and known.KIND == kind:
                    game = known
                    break
            scope.queue(games.ahead_of(kind, self.options, game))
            scope.queue((PICKER,))  # every game's pickers: not the start menu's heap
            if getattr(described, "SCREENS", False):
                # Its own screens (ui/<game>.py), after its rules; the icons they draw in a pass before them
                # (an import in the pass of the module that imports it was 13 ms more of that pass on a Pico).
                scope.queue(("dicetower.ui.icons", "dicetower.ui." + kind))
            rules = sys.modules.get(games.tracker_of(kind))
            if rules is not None:  # loaded already (a save's read, a set-up's import): what it needs next
                self._tracker_in(rules)
        elif scope.step() == games.tracker_of(kind):
            self._tracker_in(games.game(kind))

    def _tracker_in(self, rules):
        """A chosen game's tracker is in: it is the game's rules, and its sealed dice are next if it draws
        dice (its scope's until it begins, the tower's after: a game of another kind begun later goes on
        counting its seals)."""
        if self.game_module is None and rules.TRACKER.KIND == self.kind:
            self.game_module = rules  # the game chosen (at power-up, a saved game's module: not yet chosen)
        if draws_dice(rules.MENU):  # not imported by the press that starts it; the tower's once it begins
            scope = self.scope_of(rules.TRACKER.KIND)
            scope.queue(SEALING)
            if self.game_module is rules:  # chosen for a new game: its seal's moments too (not a save's read)
                scope.queue((SEAL_MOMENTS,))

    def load_to_tracker(self):
        """The chosen game's AHEAD up to its tracker, now: what its set-up imports of it is then in the
        game's scope, not the set-up's (which is closed when the game starts)."""
        while self.game_module is None and self.to_load():
            self.load_ahead()

    def game_module_now(self):
        """The chosen game's tracker, loaded now if the idle passes have not come to it."""
        self.load_to_tracker()
        if self.game_module is None:
            self.game_module = self.scope_of(self.kind).load(games.tracker_of(self.kind))
        return self.game_module

    @property
    def menus(self):
        """The menus before a game (ui/menus.py): loaded when one shows, forgotten while a game is played."""
        if self._menus is None:
            self.start_scope = self.start_scope or Scope("start menu")
            self._menus = self.start_scope.load("dicetower.ui.menus")
            self.choosing = self._menus.Choosing(self)
            if self.setups is not None:
                self.setups()  # setup.json's reader, made with the start menu: the press choosing a game uses it
        return self._menus

    def menus_aside(self):
        """A game chosen: the start menu's screens (ui/menus.py) are forgotten while it is counted and set
        up, its heap the set-up's (`menus` loads them again to go back); the count screen and the set-up's
        Choosing stay (ui/choosing.py, the start scope's until a game begins)."""
        if self._menus is not None:
            self._menus = None
            self.start_scope.drop("dicetower.ui.menus")

    def begin(self, game, new=False):
        kind = game.KIND
        self.close_setup()
        self._menus = self.choosing = None  # the start menu's screens: the game's heap until it shows again
        if self.start_scope is not None:
            self.start_scope.close()
            self.start_scope = None
        scope = self.scope_of(kind)
        rules = scope.load(games.tracker_of(kind))
        scope.load(PICKER)
        scope.hand(PICKER, self.kept)  # the tower's once a game begins, as the sealed dice
        if draws_dice(rules.MENU):  # its sealed dice, the tower's for as long as it runs
            for name in SEALING:
                scope.load(name)
                scope.hand(name, self.kept)
            if self.sealing is None:  # with the first game of dice (before `resume` goes: its seal's
                self.sealing = sys.modules["dicetower.ui.sealing"].Sealing(self)  # counter counts on)
            scope.hand(SEAL_MOMENTS, self.sealing.moments())  # if loaded ahead: forgotten after the cut
        self.resume = None  # replaced (kept on flash) or resumed: `choose_ahead` below sets the others aside
        if new and self.saves is not None:
            self.saves.keep_replaced()  # the game it replaces stays on flash: the start menu brings it back
        self.game = game
        self.kind = kind
        self.game_module = rules
        self.set_menu()
        self.to_game()
        self.cursor = 0
        # What the idle passes have not loaded yet, now, in its order (presses may have left no idle pass).
        self.choose_ahead(kind)
        while self.to_load():
            self.load_ahead()
        self.message = "New game." if new else "Resumed."
        if rolls_six_dice(self.menu):
            self._dice_screens().begin(self, game)
            if not new:
                self.dice_screens.resume(self)  # a roll thrown and not recorded is back as it landed
        if self.sealing is not None:
            self.sealing.begin(game, new)
        self.save()
        self.emit({"event": "game", "game": self.kind, "new": new})

    def setting_up(self):
        """The set-up's scope, made when a set-up first loads a module."""
        if self.setup_scope is None:
            self.setup_scope = Scope("set-up")
        return self.setup_scope

    def close_setup(self):
        """The game starts: the set-up's rows, presets and values are forgotten (set up again, they come
        back from setup.json); their heap is the game's."""
        if self.setup_scope is not None:
            self.setup_scope.close()
            self.setup_scope = None
        self.form = self.setup = self.setup_module = self.unready = self.last_setup = None
        self.options.pop("presets", None)

    def _dice_screens(self):
        """The Battlerealm dice's turn and screens, made at the first Battlerealm game (other games
        never load them)."""
        if self.dice_screens is None:
            scope = self.scope_of(self.kind)
            self.dice_screens = screens = scope.load("dicetower.ui.battlerealm")
            self.turn = screens.Turn(self.acted, self.save)
            scope.lasting = True  # the turn holds its modules as long as the tower runs
        return self.dice_screens

    # -- playing -------------------------------------------------------------

    def do(self, name, values):
        acting = self.game.state.get("turn")
        done, self.message = self.game.attempt(name, values)
        if done:
            if self.game.state.get("turn") != acting:
                self.cursor = 0  # the next hero's menu starts at the top, not on End turn
            self.acted(name, values, self.message)
        return done

    def acted(self, name, values, line):
        """After each action done: saved, told, and the game over shown if it ended."""
        self.save()
        event = {"event": "action", "game": self.kind, "action": name, "args": values, "line": line}
        place = self.game.places[-1] if self.game.places else None
        if place is not None:
            event["at"] = place  # its throw's place: the faces it shows are the record's there
        self.emit(event)
        if self.game.over():
            self.show(Over(self))
            self.animate("over")
            self.emit({"event": "over", "game": self.kind, "result": self.game.over()})

    def _undo(self, undo):
        try:
            line = self.game.undo() if undo else self.game.redo()
        except Refused as e:
            self.message = str(e)
            return
        self.message = line
        self.to_game()
        self.save()
        self.emit({"event": "undo" if undo else "redo", "game": self.kind, "line": line})

    def save(self):
        if self.saves is not None and self.game is not None:
            self.saves.save(self.game)

    def emit(self, event):
        """An event for the console; held while a throw's save is under way, and after those it held."""
        if self.holding or self.held:
            self.held.append(event)
        else:
            self._tell(event)

    def save_first(self):
        """A throw landed: the game is saved before anything shows its faces (see `holding`)."""
        if self.saves is not None and self.game is not None:
            self.saves.save(self.game)
            self.holding = True

    def throw_saved(self):
        """The throw's save is on flash: the screen may show it, its events are told after (`tell_held`;
        a line to the console was 5 ms of the throw's press before its faces on a Pico)."""
        self.holding = False
        self.changed = True

    def tell_held(self):
        """The events a throw's save held back, told in order (the device's loop, once the screen is sent)."""
        held, self.held = self.held, []
        for event in held:
            self._tell(event)

    def cut_by(self, text, address):
        """A phone's part of the open seal's cut (web/server.py's /cut): (True, as recorded) or (False, why)."""
        if self.sealing is None:
            return False, "no seal waits for a cut now"
        return self.sealing.cut_by(text, address)

    # -- the advice, a slice at a time (the device's loop calls these) ----------

    def think(self):
        """One slice of the work left at idle: a module the chosen game will need, else the advisor's
        work; True while more remains. The advice, once found, is shown."""
        if self.later is not None:
            self.go_on()  # (on a device, Device._work's first: presses wait for it)
            return True
        ahead = self.to_load()
        if self.game_module is None and ahead:
            self.load_ahead()  # its AHEAD up to its tracker, before its set-up (which imports it)
            return True
        if self.unready is not None:
            # The set-up's modules one a pass, then its rows made ready: no pass keeps the buttons waiting long.
            # The game's checks too (its descriptor's CHECKS), the start's: the press that starts it waited
            # 40 ms on a Pico for their import. The set-up's, so forgotten when the game starts.
            for name in ("dicetower.ui.setup", self.unready, getattr(games.descriptor(self.kind), "CHECKS", None)):
                if name is not None and name not in sys.modules:
                    self.setting_up().load(name)
                    return True
            prepare = getattr(sys.modules[self.unready], "prepare", None)
            if prepare is not None and prepare(self.options):
                return True  # what its rows read from flash, in a pass of its own (ui/setup.py)
            self.setting_up().load("dicetower.ui.setup").make_ready(self)
            self.changed = True  # the count screen says what its C starts (ui/choosing.py)
            return True
        if ahead:
            self.load_ahead()
            return True
        turn = self.turn
        if turn is None or not turn.thinking():
            return False
        more = turn.think()
        if not more and turn.advice is not None:
            self.changed = True
        return more

    def thinking(self):
        return bool(
            self.later is not None
            or self.unready is not None
            or self.to_load()
            or (self.turn is not None and self.turn.thinking())
        )


# A game of dice's sealed dice, in the order they import one another (a Pico holds core/drbg.py already).
SEALING = ("dicetower.core.drbg", "dicetower.core.sealed", "dicetower.ui.sealing")
# Then, for a new game, the seal's moments (ui/sealing.py's STEPS: the seal made, its cut): loaded at idle
# while it is set up, they are the seal's after its start and forgotten once the cut is made. Imported by
# the press that starts the game, they kept the buttons waiting 49 ms on a Pico.
SEAL_MOMENTS = "dicetower.ui.resealing"
# The screen that picks an action's values (ui/picker.py): loaded ahead with a chosen game, the tower's
# once a game begins; the start menu holds none of it (2 KB of a Pico's heap at the start menu).
PICKER = "dicetower.ui.picker"
TABLE_ROW = (("The table", "table", ()),)  # the play menu's row for ui/table.py's screen (Play knows it)


def rolls_six_dice(menu):
    """Whether a game's menu rolls Battlerealm's six dice (its turn is then the dice screen's)."""
    for action in menu:
        if action[2] and action[2][0][1] == SIX_DICE:
            return True
    return False
