"""The imperative shell: the loop's steps, and the saves and events they serve.

`Device(platform)` has wiring.py make its parts (settings and board profile -> drivers -> dice -> app),
and holds them beside its loop's own state.
`tick(now)` is the whole loop's
schedule, written once. Each pass reads the buttons' latched edges (every
POLL_MS, at the moment a press has lasted its debounce, and straight after any
work), then does one piece of work, the most urgent first: a press, the
redraw it caused (drawn and sent to the OLED), an LED frame (every FRAME_MS),
the save of the last action, a slice of the advisor's work, a byte of
entropy for the next roll, a garbage collection. Each is a few ms on a
Pico, so the buttons are never left for long; it returns how long the loop
may sleep. The device runs it under asyncio (`serve`), CircuitPython in a
plain loop, the test bench and the simulator with their own clock: the
same steps at the same rates everywhere. Any error inside a step is logged
to a bounded file on flash (errors.log) and said in one line on the OLED; an
error in a press or a redraw also brings back the last good screen (the game
being played, else the start menu: App.recover), the save on flash left as it
was. LOOP_FAILS passes in a row that raise restart the board through the
watchdog, its reason kept on flash for the next boot to say.
"""

import json

from dicetower import VERSION
from dicetower.core.scope import Scope
from dicetower.hw.buttons import POLL_MS
from dicetower.hw.storage import OsFiles, append_bounded, replace
from dicetower.saves import why
from dicetower.ui import screens
from dicetower.ui.canvas import COLUMNS, Canvas, wrap

ERROR_LOG_BYTES = 2048  # errors.log starts again past this, the full one kept as errors.log.1
FRAME_MS = 33
DICE_PASSES = 32  # the dice's idle passes (32 noise samples each) between two collections of the loop
# Passes in a row whose step raised, recovered each time, before the board restarts: a screen that
# cannot be drawn even after App.recover fails every pass, so 10 is a few ms on a Pico, never a player's
# presses (a pass that does not raise starts the count again).
LOOP_FAILS = 10
WEB_PORT = 80  # the scoreboard's page: http://<the tower's address>/


class Device:
    def __init__(self, platform):
        self.platform = platform
        self.root = platform.root
        self.console = platform.console
        self.canvas = Canvas()
        # The flash's files, before wiring: what start-up refuses is kept in errors.log (keep_log).
        self.files = platform.files or OsFiles()
        self._unsent = True
        self._last_error = None
        self._fails = 0  # passes in a row whose step raised (LOOP_FAILS restarts the board)
        self._said = None  # the error's one line, over the bottom of the screen until the next press
        # What the pass does, for _crash: "screen" (a press or a redraw: the last good screen is brought
        # back), a piece of work between presses that can be set down (stop_work), else None.
        self._step = None
        self._setups = None  # setup_files.py's SetupFiles, while a game is set up (`setup_files`)
        self._setups_scope = None  # setup_files.py's scope, while the start menu may need it
        self.scoreboard = None  # the game for phones (web/scoreboard.py), once share() was called
        self.web = None  # the phones' server (web/server.py) once one serves this tower
        self.web_port = WEB_PORT
        self.board = None
        self.error = None  # why the tower cannot start (on the OLED), else None
        from dicetower import wiring

        parts = wiring.wire(platform, self)
        if isinstance(parts, str):
            self.error = parts
            return  # the problem on the OLED: nothing more starts
        # What wiring.py made is the device's from here. `_doubt`: the board was taken by a name another
        # board's MicroPython gives too: the buttons only that other board has, and its profile
        # ({"any9": "rp2040_zero"}), else None (`_doubted`).
        (
            self.config,
            self.board,
            self.oled,
            self.ring,
            self.encoder,
            self.buttons,
            self.dice,
            self.saves,
            self.app,
            self.lights,
            self.watchdog,
            self.buzzer,
            self.link,
            self.wifi,
            self._doubt,
        ) = parts
        self._polled = None  # when the loop last polled the buttons, lit a frame (None: never)
        self._poll_in = POLL_MS  # when it polls next: sooner than POLL_MS when a press is about to settle
        self._lit = None
        self._late = 0  # how late the last frame came (ms): the next is due that much sooner
        self._pressed = []  # presses polled, waiting for their turn: one a pass
        self._busy = True  # the last pass did some work: poll again at once
        self._tidy = False  # work since the last garbage collection that left garbage behind
        self._collect = getattr(platform, "collect", None)
        self._dice_passes = 0  # the dice's idle passes since the last collection they asked for
        # Entropy made ahead at idle, and paused dice retried with back-off (core/entropy.py).
        self._prime = getattr(self.dice, "prime", None)
        # Each press's time, to the microsecond where the board has the clock, goes into the dice.
        self._stir = getattr(self.dice, "stir", None)
        self._micros = getattr(platform, "ticks_us", None)
        if self._collect is not None:
            self._collect()  # and the start menu's, which the first draw imports
        self.render(0)
        # The start menu shows, then the dice start (wiring.py made them `later`): their start-up test's
        # first samples and their seed, before the loop takes a press (a press now waits in its latch).
        start = getattr(self.dice, "start", None)
        if start is not None:
            start()
        self.emit({"event": "ready", "version": VERSION, "board": self.board.name, "dice": self.dice.name})
        # Up: what wiring.py and startup.py (boot.py's too) did is done, a game's heap need not hold them.
        # Adopted, not loaded by the scope: what they imported (the drivers, the app) is the device's.
        booting = Scope("boot")
        booting.adopt("dicetower.wiring")
        booting.adopt("dicetower.startup")
        booting.adopt("dicetower.core.board_check")  # the profile's checks: the Board read stays
        booting.close()
        if self._collect is not None:
            # Boot's garbage (the profile's and settings' text, the drivers' set-up) goes now, while
            # nothing waits: left behind, it cuts the heap up before the first advice's work arrays
            # (benchmarks/rp2040_pico.py's loop probe).
            self._collect()

    # -- what the app calls: events, settings files -------------------------------

    def emit(self, event):
        """An event on the console, a line of JSON with its time; a roll's or a game's moment beeps too
        (the buzzer, with sounds on)."""
        now = self.platform.ticks_ms()
        event["t"] = now
        self.console(json.dumps(event))
        kind = event.get("event")
        if self.buzzer is not None and self.config.get("sounds"):
            if kind in ("roll", "reroll", "over", "entropy", "prison", "explosion"):
                self.buzzer.beep("error" if kind == "entropy" else "roll" if kind == "reroll" else kind, now)

    def write_json(self, name, data):
        """Write a settings file (config.json, heroes.json) as JSON, so that a power cut keeps one whole
        (hw/storage.replace): its path, or None if the flash refused (logged)."""
        path = self.root + name
        try:
            replace(self.files, path, json.dumps(data))
        except OSError as e:
            self.log_line("%s not saved (%s)" % (name, why(e)))
            return None
        return path

    def setup_files(self):
        """setup.json's reader and writer (setup_files.py), made at the first call while a game is set up."""
        if self._setups is None:
            self._setups_scope = self._setups_scope or Scope("set-up files")
            loaded = self._setups_scope.load("dicetower.setup_files")
            self._setups = loaded.SetupFiles(self.files, self.root, self.log_line)
        return self._setups

    def log(self, text, lasting=False):
        """A line on the console; with `lasting`, in errors.log too (the saves' words: saves.SaveStore)."""
        self.log_line(text)
        if lasting:
            self.keep_log(text)

    def log_line(self, text):
        """A line on the console."""
        self.console(json.dumps({"event": "log", "text": text}))

    # -- the loop's steps --------------------------------------------------------

    def poll(self, now):
        """Read the buttons' latched edges (and the knob's clicks): their presses wait their turn."""
        pressed = self._pressed
        had = len(pressed)
        events = self.buttons.poll(now)
        times = self.buttons.times
        for i in range(len(events)):
            button, kind = events[i]
            pressed.append(("c" if button == "c2" else button, kind, times[i]))  # with its edge's time
        if self.encoder is not None:
            for button, kind in self.encoder.poll(now):
                pressed.append((button, kind, now))
        if self.web is not None and len(pressed) > had:
            self.web.lift()  # a hand on the tower: phones locked out by wrong PINs may press again
        if self.buzzer is not None:
            self.buzzer.tick(now)
        if self.watchdog is not None:
            self.watchdog.feed()

    def _work(self, now, frame_due):  # noqa: C901 (the loop's every pass: one frame, no call per kind of work)
        """One piece of work, the most urgent first: True if there was one."""
        app = self.app
        self._step = None
        if app.holding:
            # A throw landed: its save first, a step a pass (the buttons polled between), then its faces.
            if self.saves.pending():
                self.saves.step()
            else:
                app.throw_saved()
        elif self._pressed and app.later is None:  # (a press's work left for later first)
            button, kind, at = self._pressed.pop(0)
            self._tidy = True
            if self._stir is not None:
                # The chip's microseconds as the press is taken; else its edge's time (a phone's: now).
                self._stir(self._micros() if self._micros is not None else 1000 * (now if at is None else at))
            if self._said is not None:
                self._said = None  # the error's line goes with the next press
                app.changed = True
            if self._doubt:
                button, kind = self._doubted(button, kind)
                if button is None:
                    return True
            self._step = "screen"
            app.press(button, kind)
        elif app.changed or (self._unsent and self.oled.present):
            self._step = "screen"
            self.render(now)  # drawn and sent in one piece: the panel never lags the canvas between passes
        elif app.held:
            app.tell_held()  # a throw's events, once its faces are on the screen
        elif app.later is not None:
            self._step = "screen"  # the press's work, its screen shown: a failure brings back the last good one
            app.go_on()
        elif frame_due:
            # Frames keep their pace when other work delays one: an animation lasts its FRAMES * FRAME_MS.
            late = 0 if self._lit is None else self.platform.ticks_diff(now, self._lit) - FRAME_MS + self._late
            self._late = late if 0 < late < FRAME_MS else 0
            self._lit = now
            self.frame()
        elif self.saves.pending():
            self._step = "save"
            self.saves.step()  # the game the last action left, in steps once the press is answered
        elif self._setups is not None and self._setups.pending is not None:
            self._setups.write()  # after the game's save: the game first
        elif self._setups is not None and app.game is not None:
            self._setups = None  # made again with the start menu (ui/menus.py): until then the game's heap
            self._setups_scope.close()
            self._setups_scope = None
        elif self.scoreboard is not None and self.scoreboard.stale:
            self._step = "phones"
            self.scoreboard.update(app)  # after the OLED and the save: phones are the last to know
        elif app.thinking():
            self._tidy = True
            self._step = "think"
            app.think()  # a slice of the advice; once it is ready, its redraw is the next pass's work
        elif self._tidy and self._collect is not None:
            # At idle: a collection of a few ms here is not one inside a press's pass later. Before the
            # dice's work, which can fill the first seconds' idle passes (their start-up test).
            self._tidy = False
            self._collect()
        elif self._prime is not None and self._primed(app, now):
            app.dice_checked()  # paused dice that roll again: the screen says so
            # The start-up test keeps the loop busy for seconds: a collection every DICE_PASSES of its
            # passes, or the loop's garbage scatters what a game keeps over the heap, and the advisor's
            # import finds no piece large enough (benchmarks/rp2040_pico.py's loop probe).
            self._dice_passes += 1
            if self._dice_passes >= DICE_PASSES:
                self._dice_passes = 0
                self._tidy = True
        else:
            if not self.oled.present:
                self.render(now)  # a missing OLED: tried again now and then (at its own pace)
            return False
        return True

    def _primed(self, app, now):
        """Idle work on the dice: a sealed game's (its next request made ahead, else the tower's), or the
        tower's own (ui/sealing.py)."""
        sealing = app.sealing
        if sealing is not None and sealing.dice is not None:
            return sealing.dice.prime(now)
        return self._prime(now)

    def share(self):
        """Keep the game as JSON for phones from now on (web/scoreboard.py); the scoreboard."""
        if self.scoreboard is None:
            from dicetower.web.scoreboard import Scoreboard

            self.scoreboard = Scoreboard()
        return self.scoreboard

    def press(self, button, kind):
        """A press from elsewhere (a phone's): it waits its turn as a button's does."""
        self._pressed.append((button, kind, None))

    def _doubted(self, button, kind):
        """A board taken by a name another board's MicroPython gives too (wiring.py's doubt): its pins may be
        another's. A button only the other board has was pressed: it is that board, named in config.json
        (the other settings kept), and the board restarts on its pins. Else, on a notice, any button goes
        on (a page, then past it)."""
        other = self._doubt.get(button)
        if other is not None:
            self.config["board"] = other
            self.write_json("config.json", self.config)
            self.log_line("a button only a %s has was pressed: config.json names it, and the board restarts" % other)
            self.reset()
            return None, kind
        app = self.app
        if app.mode == "notice":  # B while screens.draw_pages has a page after this one (seven lines a page)
            return ("b" if (app.page + 1) * 7 < len(wrap(app.message)) else "c"), "short"
        return button, kind

    def render(self, now):
        """Redraw after a change and send what changed; a missing OLED is tried again now and then."""
        if self.app.changed:
            screens.draw(self.app, self.canvas)
            if self._said is not None:
                self.canvas.line(7, self._said, invert=True)
            self.app.changed = False
            self._unsent = True
            if self.scoreboard is not None:
                self.scoreboard.stale = True
        if self._unsent or not self.oled.present:
            sent = self.oled.show(self.canvas.buf, now)
            self._unsent = not self.oled.present
            return sent
        return 0

    def frame(self):
        self.lights.tick(self.app)

    def keep_log(self, text):
        """A line at the end of errors.log, which is never read back and stays bounded. Never raises:
        a log that cannot be written must not hide what it was to say (the console has said it)."""
        try:
            append_bounded(self.files, self.root + "errors.log", text + "\n", ERROR_LOG_BYTES)
        except Exception:  # noqa: BLE001 (a full, read-only or failing flash; said already on the console)
            pass

    def _crash(self, error):
        """A step raised. Logged (once while it repeats), said in one line; a press or a redraw that
        failed brings the last good screen back (App.recover: the game, or the start menu once the game's
        screen failed too), without the save that press or redraw left: the game on flash is the last one
        the tower could show. LOOP_FAILS passes in a row restart the board."""
        text = "%s: %s" % (type(error).__name__, error)
        app = self.app
        memory = isinstance(error, MemoryError)  # the heap, not the game: its save is written (below)
        shown = self._step == "screen"
        if shown:
            if not memory and not app.holding:  # a throw's save goes to flash before its faces show: kept
                self.saves.drop(begun=False)
            app.recover(self._fails < 2)
            self._unsent = True
        if memory:
            said = self._out_of_memory()
            text = "%s (%s)" % (text, said)
        else:
            self.stop_work(self._step)
        if not memory and (shown or text != self._last_error):
            self._said = ("Error: " + type(error).__name__)[:COLUMNS]
            app.changed = True  # drawn whole again, with the error's line
        if text != self._last_error:  # the same error again: logged once, not written to flash every pass
            self._last_error = text
            self.console(json.dumps({"event": "error", "error": text}))
            self.keep_log(text)
        if self._fails >= LOOP_FAILS:
            self._restart(text)

    def _restart(self, text):
        """The loop stops (tick), and startup.py has the board restarted, saying why: imported again for
        it, boot's code. Without the heap for that, the platform resets it unexplained."""
        try:
            from dicetower import startup

            startup.restarting(self, text, LOOP_FAILS)
        except Exception:  # noqa: BLE001 (out of heap or flash: the restart comes all the same)
            self.reset()

    def reset(self):
        """The board restarted now, by its platform's reset (a platform without one: nothing happens)."""
        reset = getattr(self.platform, "reset", None)
        if reset is not None:
            reset()

    def stop_work(self, step):
        """Work between presses raised: set down, so that the next pass does not raise again and play
        goes on without it (LOOP_FAILS counts passes in a row). A save's step: the game on flash stays the
        last one written, and the next action's save writes it whole; the phones' update: made again at
        the next change; the work at idle: the modules it was loading come at the press that needs
        them, and the advice it was finding is not given."""
        if step == "save":
            self.saves.drop()
        elif step == "phones":
            self.scoreboard.stale = False
        elif step == "think":
            self.app.stop_thinking()

    def _out_of_memory(self):
        """The heap ran out in a step (a maker's huge roster, a heap cut up by a long game): what was
        collected, the last whole action saved, and the player told in words; the loop goes on. What
        it did for the log."""
        self._unsent = True  # the screen is drawn whole again: the failed pass may have drawn half
        if self._collect is not None:
            self._collect()
        try:
            self.saves.flush()  # the actions done before the failed step: each was whole
            said = "the game is saved"
        except Exception as e:  # noqa: BLE001 (the save itself out of room too: the last one on flash stands)
            self.saves.drop()
            said = "the last save stands (%s)" % type(e).__name__
        self.app.say("Out of memory: %s. If it comes again, unplug the tower and plug it in: the game resumes." % said)
        return said

    def tick(self, now):
        """Whatever is due at `now`; the milliseconds until something else is (0: come straight back)."""
        if self.board is None or self._fails >= LOOP_FAILS:
            return 1000  # (LOOP_FAILS: restarting, the watchdog fed no more)
        diff = self.platform.ticks_diff
        # Times since the last poll and frame, never deadlines: a sum could outgrow the ticks' range.
        if self._busy or self._polled is None or diff(now, self._polled) >= self._poll_in:
            self.poll(now)
            self._polled = now
            self._poll_in = self.buttons.settles_in(now)
        frame_due = self._lit is None or diff(now, self._lit) >= FRAME_MS - self._late
        try:
            self._busy = self._work(now, frame_due)
            self._fails = 0
        except Exception as e:  # noqa: BLE001 (nothing a step does may stop the game)
            self._busy = True
            self._fails += 1
            try:
                self._crash(e)
            except Exception:  # noqa: BLE001 (its own handling failed, out of heap: counted, tried next pass)
                if self._fails >= LOOP_FAILS:
                    self._restart("%s, and its recovery failed" % type(e).__name__)
        if self._busy:
            return 0
        return max(0, min(self._poll_in - diff(now, self._polled), FRAME_MS - self._late - diff(now, self._lit)))

    async def serve(self):
        """The loop on MicroPython: asyncio, so that other tasks (a web server) can share it."""
        import asyncio

        if self.link is not None:
            from dicetower.web import radio

            asyncio.create_task(radio.keep_up(self))
        ticks_ms = self.platform.ticks_ms
        while True:
            await asyncio.sleep_ms(self.tick(ticks_ms()))
