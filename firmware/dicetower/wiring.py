"""The device's wiring at power-up: settings and board profile -> drivers -> dice -> app, and what
start-up refuses said.

Boot's alone, as startup.py: `Device.__init__` calls `wire` once and releases this module (a game's heap
does not hold the power-up's code); a start that fails keeps it, with the problem on the OLED.
"""

import json

from dicetower import VERSION
from dicetower.core.board import BoardError
from dicetower.saves import why
from dicetower.core.dice import load_overrides
from dicetower.core.entropy import FairDice
from dicetower.hw.buttons import POLL_MS, Buttons, Encoder
from dicetower.hw.storage import OsFiles, TooBig, keep_aside, read_text
from dicetower.saves import SaveStore
from dicetower.ui.flow import App
from dicetower.ui.leds import Lights

HEROES_BYTES = 16384  # the built-in 13 heroes with their cards are about 6 KB
DICE_BYTES = 1024
WEB_PORT = 80  # the scoreboard's page: http://<the tower's address>/


def wire(dev, platform):
    """Make the device's parts and its app; False if the tower cannot start (said on the OLED)."""
    dev.files = platform.files or OsFiles()
    dev.notices = []  # what start-up refused, said on the OLED before the start menu
    from dicetower import startup  # boot's alone: released once the device is up (the end of __init__)

    startup.sweep(dev.files, dev.root, dev._log_line)  # what a cut left of a file written whole
    damaged = []
    dev.config = startup.config(dev.root, dev._log_line, damaged)
    # A damaged (or missing) config.json must not cost the board its pins: an RP2040-Zero may run the
    # Pico's MicroPython, so only the profile the last flash chose (its manifest) tells them apart then;
    # else its own MicroPython's name does, or the board is in doubt (`_doubt`).
    board = dev.config.get("board") or startup.flashed_board(dev.root)
    for reason in damaged:
        _refuse(dev, dev.root + "config.json", reason, "the default settings are used")
    dev.board = None
    dev.error = None
    try:
        dev.board = startup.board(dev.root, board, platform.machine_name)
    except BoardError as e:
        dev.error = "Board profile: %s" % e
    dev.oled = startup.oled(platform, dev.board.oled if dev.board else None, dev._log_line)
    if dev.board is None:
        _stop(dev, "BOARD PROBLEM", dev.error)
        return False
    leds = dev.board.leds
    try:
        dev.ring = platform.ring(leds["pin"], leds["count"], leds["order"], dev.board.cap)
    except ImportError as e:
        # CircuitPython without the neopixel library in /lib: say so, instead of a traceback.
        _stop(
            dev,
            "LIBRARY MISSING",
            "Library missing: %s. Run dicetower flash --runtime circuitpython, or copy "
            "neopixel.mpy from the Adafruit bundle to /lib." % e,
        )
        return False
    pins = {}
    active_low = {}
    for name, spec in dev.board.buttons.items():
        pins[name] = platform.input(spec["pin"], spec.get("pull", "up"))
        active_low[name] = spec.get("pull", "up") != "down"  # pulled down: pressed reads 1
    doubt = getattr(dev.board, "doubt", None)
    if doubt:
        _doubt(dev, platform, doubt, pins, active_low, damaged)
    dev.encoder = None
    if "enc_a" in pins and "enc_b" in pins:
        dev.encoder = Encoder(pins.pop("enc_a"), pins.pop("enc_b"))
    if "enc_push" in pins:
        pins["c2"] = pins.pop("enc_push")  # the knob's push is a second C
    # The app never waits for double presses (it counts two taps as two), so a short
    # press acts as soon as the button is released.
    dev.buttons = Buttons(pins, active_low, doubles=(), diff=platform.ticks_diff)
    dev.buttons.listen(platform.ticks_ms)
    if dev.encoder is not None:
        dev.encoder.listen()
    dev._polled = None  # when the loop last polled the buttons, lit a frame (None: never)
    dev._poll_in = POLL_MS  # when it polls next: sooner than POLL_MS when a press is about to settle
    dev._lit = None
    dev._late = 0  # how late the last frame came (ms): the next is due that much sooner
    dev._pressed = []  # presses polled, waiting for their turn: one a pass
    dev._busy = True  # the last pass did some work: poll again at once
    dev._tidy = False  # work since the last garbage collection that left garbage behind
    dev._collect = getattr(platform, "collect", None)
    dev._dice_passes = 0  # the dice's idle passes since the last collection they asked for
    dev.dice = platform.dice or FairDice(*platform.entropy_sources())
    # Entropy made ahead at idle, and paused dice retried with back-off (core/entropy.py).
    dev._prime = getattr(dev.dice, "prime", None)
    # Each press's time, to the microsecond where the board has the clock, goes into the dice.
    dev._stir = getattr(dev.dice, "stir", None)
    dev._micros = getattr(platform, "ticks_us", None)
    options = {}
    try:
        heroes = _user_file(dev, "heroes.json", HEROES_BYTES, "the built-in heroes are used")
        if heroes is not None:
            from dicetower.core.roster import load_heroes  # Battlerealm's: not loaded without a heroes.json

            options["heroes"] = load_heroes(heroes)
    except Exception as e:  # noqa: BLE001 (whatever the file holds, the built-in heroes play)
        dev.notices.append("%s. The built-in heroes are used." % e)
        dev._log_line("%s; the default heroes are used" % e)
    try:
        attack = _user_file(dev, "dice.json", DICE_BYTES, "the default Attack Die is used")
        if attack is not None:
            options["attack_faces"] = list(load_overrides(attack).faces)
    except Exception as e:  # noqa: BLE001 (whatever the file holds, the default Attack Die plays)
        dev._log_line("dice.json: %s; the default Attack Die is used" % e)
    _restarted(dev)
    if dev.notices:
        options["notice"] = " ".join(dev.notices)
    dev.saves = SaveStore(dev.root + "game.sav", dev.files, dev._log)
    dev._setups = None  # setup_files.py's SetupFiles, while a game is set up (`_setup_files`)
    if dev._collect is not None:
        dev._collect()  # what stays of a saved game's load packed low: main.py's boot says why
    dev.app = App(
        dev.dice,
        saves=dev.saves,
        write_json=dev.write_json,
        emit=dev._emit,
        settings=dev.config,
        options=options,
        setups=dev._setup_files,
    )
    dev.saves.say = dev.app.say  # a save that fails is said on the screen, whoever was writing it
    dev.lights = Lights(dev.ring)
    # Off by default: a started watchdog cannot be stopped, and mpremote could no longer interrupt.
    dev.watchdog = platform.watchdog(8000) if dev.config.get("watchdog") else None
    dev.buzzer = None
    if dev.board.buzzer is not None:
        from dicetower.hw.buzzer import Buzzer

        dev.buzzer = Buzzer(platform.pwm(dev.board.buzzer), platform.ticks_diff)
    dev.link = None  # the radio (hw/wifi.py) of a board that has one, unless config.json turns it off
    dev.web_port = WEB_PORT
    dev.wifi = None
    if dev.board.wifi:
        _radio_setup(dev, platform)
    dev._emit({"event": "ready", "version": VERSION, "board": dev.board.name, "dice": dev.dice.name})
    if dev._collect is not None:
        dev._collect()  # and the start menu's, which the first draw imports
    dev.render(0)
    return True


def _doubt(dev, platform, others, pins, active_low, damaged):
    """A board found by a name other boards give too (startup.board's `doubt`): the other boards' buttons
    on pins this one does not use are heard (Device._doubted). Any button goes on past a notice; a press
    of a button only another board has tells the tower it is that board (named in config.json, and the
    board restarts on its pins). When config.json, where its board may have been named, was refused, the
    notice says the tower cannot tell."""
    used = [pin for pin, _ in dev.board.pins()]
    heard = {}
    for other in others:
        for name in ("a", "b", "c"):
            spec = other.buttons[name]
            if spec["pin"] not in used:
                used.append(spec["pin"])
                key = "any%d" % spec["pin"]
                pins[key] = platform.input(spec["pin"], spec.get("pull", "up"))
                active_low[key] = spec.get("pull", "up") != "down"
                heard[key] = other.key
    dev._doubt = heard
    if damaged:
        mine = dev.board.name
        dev.notices.append(
            "The tower cannot tell a %s from a %s running its MicroPython: the %s's pins are used. On the "
            "other, press its A: the tower names it in config.json and restarts. Any button goes on."
            % (mine, " or a ".join(o.name for o in others), mine)
        )


def _restarted(dev):
    """The loop restarted the board (startup.restarting): why, said first on the notice, and its file gone."""
    from dicetower.hw.storage import read_at_most
    from dicetower.startup import RESTARTED

    path = dev.root + RESTARTED
    try:
        why = read_at_most(dev.files, path, 512).decode()
    except (OSError, ValueError):  # none (OSError), too big (TooBig) or not text (UnicodeError)
        why = None
    if why is not None:
        dev.notices.insert(0, "The tower restarted itself: %s. errors.log has what came before." % why)
    try:
        dev.files.remove(path)
    except OSError:
        pass


def _stop(dev, title, text):
    """The game cannot start: say why on the console and the OLED, and do nothing more."""
    from dicetower import startup

    dev.error = text
    dev.board = None
    dev.console(json.dumps({"event": "error", "error": text}))
    startup.show_problem(dev.oled, dev.canvas, title, text)


def _refuse(dev, path, reason, instead):
    """A file start-up will not use: kept aside under a new name, said on the console, in
    errors.log and on the OLED (a notice before the start menu)."""
    try:
        aside = keep_aside(dev.files, path, "bad").rsplit("/", 1)[-1]
        text = "%s. It is kept as %s; %s." % (reason, aside, instead)
    except OSError as e:
        text = "%s (not kept aside: %s); %s." % (reason, why(e), instead)
    dev.notices.append(text)
    dev._log_line(text)
    dev._keep_log(text)


def _user_file(dev, name, limit, instead):
    """A file a user may write (heroes.json, dice.json): its text, None if there is none or it is
    too big to read (then refused: kept aside, said); ValueError if it is not UTF-8."""
    try:
        return read_text(dev.root + name, limit)
    except TooBig as e:
        _refuse(dev, dev.root + name, str(e), instead)
        return None


def _radio_setup(dev, platform):
    network = platform.network() if hasattr(platform, "network") else None
    if network is None:
        return
    from dicetower.hw.wifi import Link
    from dicetower.web import access

    from dicetower.web import radio

    wifi, changed = access.settings(dev.config, lambda n: radio.random_bytes(dev.dice, n), dev._log_line)
    if changed:  # the network's name and password, made at first boot: kept, as the OLED shows them
        dev.config["wifi"] = access.saved(wifi)
        dev.write_json("config.json", dev.config)
    if wifi["mode"] == "off":
        return
    dev.wifi = wifi
    dev.link = Link(network, wifi, dev._log_line)
    dev.share()
    dev.app.phones = {
        "url": None,
        "wifi": wifi["name"],
        "pin": wifi["shown_pin"],
        "password": wifi["password"] if wifi["mode"] == "ap" else None,
    }
