"""The device's wiring at power-up: settings and board profile -> drivers -> dice -> app, and what
start-up refuses said. `wire` makes the parts and hands them to the Device, which holds them (and its
loop's own state) from then on.

Boot's alone, as startup.py: `Device.__init__` calls `wire` once and forgets this module (a game's heap
does not hold the power-up's code); a start that fails keeps it, with the problem on the OLED.
"""

import json

from dicetower.core.board import BoardError
from dicetower.saves import why
from dicetower.core.dice import load_overrides
from dicetower.core.entropy import FairDice
from dicetower.core.scope import Scope
from dicetower.hw.buttons import Buttons, Encoder
from dicetower.hw.storage import TooBig, keep_aside, read_text
from dicetower.saves import SaveStore
from dicetower.ui.flow import App
from dicetower.ui.leds import Lights

HEROES_BYTES = 16384  # the built-in 13 heroes with their cards are about 6 KB
DICE_BYTES = 1024


def wire(platform, dev):
    """The device's parts and its app, made on `platform` for `dev` (the Device being made) to hold:
    (config, board, oled, ring, encoder, buttons, dice, saves, app, lights, watchdog, buzzer, link, wifi,
    doubt). Of `dev` they are given its files and its public methods (the console, errors.log, settings
    files, events, setup.json's files); none of its state is set here. If the tower cannot start: the
    problem instead (a str), said on the console and the OLED."""
    files = dev.files
    root = dev.root
    log_line = dev.log_line
    notices = []  # what start-up refused, said on the OLED before the start menu
    from dicetower import startup  # boot's alone: forgotten once the device is up (the end of its __init__)

    startup.sweep(files, root, log_line)  # what a cut left of a file written whole
    damaged = []
    config = startup.config(root, log_line, damaged)
    # A damaged (or missing) config.json must not cost the board its pins: an RP2040-Zero may run the
    # Pico's MicroPython, so only the profile the last flash chose (its manifest) tells them apart then;
    # else its own MicroPython's name does, or the board is in doubt (`_doubt`).
    name = config.get("board") or startup.flashed_board(root)
    for reason in damaged:
        _refuse(dev, notices, root + "config.json", reason, "the default settings are used")
    board = None
    error = None
    try:
        board = startup.board(root, name, platform.machine_name)
    except BoardError as e:
        error = "Board profile: %s" % e
    oled = startup.oled(platform, board.oled if board else None, log_line)
    if board is None:
        return _stop(dev, oled, "BOARD PROBLEM", error)
    leds = board.leds
    try:
        ring = platform.ring(leds["pin"], leds["count"], leds["order"], board.cap)
    except ImportError as e:
        # CircuitPython without the neopixel library in /lib: say so, instead of a traceback.
        return _stop(
            dev,
            oled,
            "LIBRARY MISSING",
            "Library missing: %s. Run dicetower flash --runtime circuitpython, or copy "
            "neopixel.mpy from the Adafruit bundle to /lib." % e,
        )
    buttons, encoder, doubt = _buttons(platform, board, damaged, notices)
    # Started once the start menu shows (Device.__init__): their start-up test is the boot's longest work.
    dice = platform.dice or FairDice(*platform.entropy_sources(), later=True)
    options = _options(dev, notices)
    saves = SaveStore(root + "game.sav", files, dev.log)
    collect = getattr(platform, "collect", None)
    if collect is not None:
        collect()  # what stays of a saved game's load packed low: main.py's boot says why
    app = App(
        dice,
        saves=saves,
        write_json=dev.write_json,
        emit=dev.emit,
        settings=config,
        options=options,
        setups=dev.setup_files,
    )
    saves.say = app.say  # a save that fails is said on the screen, whoever was writing it
    lights = Lights(ring)
    # Off by default: a started watchdog cannot be stopped, and mpremote could no longer interrupt.
    watchdog = platform.watchdog(8000) if config.get("watchdog") else None
    buzzer = None
    if board.buzzer is not None:
        from dicetower.hw.buzzer import Buzzer

        buzzer = Buzzer(platform.pwm(board.buzzer), platform.ticks_diff)
    link = None  # the radio (hw/wifi.py) of a board that has one, unless config.json turns it off
    wifi = None
    if board.wifi:
        link, wifi = _radio_setup(dev, platform, config, dice, app)
    return (config, board, oled, ring, encoder, buttons, dice, saves, app, lights, watchdog, buzzer, link, wifi, doubt)


def _buttons(platform, board, damaged, notices):
    """The profile's buttons and knob, listening: (buttons, encoder or None, doubt: the buttons only other
    boards have, {button: its board's profile}, for Device._doubted, or None)."""
    pins = {}
    active_low = {}
    for key, spec in board.buttons.items():
        pins[key] = platform.input(spec["pin"], spec.get("pull", "up"))
        active_low[key] = spec.get("pull", "up") != "down"  # pulled down: pressed reads 1
    doubt = None
    others = getattr(board, "doubt", None)
    if others:
        doubt = _doubt(platform, board, others, pins, active_low, damaged, notices)
    encoder = None
    if "enc_a" in pins and "enc_b" in pins:
        encoder = Encoder(pins.pop("enc_a"), pins.pop("enc_b"))
    if "enc_push" in pins:
        pins["c2"] = pins.pop("enc_push")  # the knob's push is a second C
    # The app never waits for double presses (it counts two taps as two), so a short
    # press acts as soon as the button is released.
    buttons = Buttons(pins, active_low, doubles=(), diff=platform.ticks_diff)
    buttons.listen(platform.ticks_ms)
    if encoder is not None:
        encoder.listen()
    return buttons, encoder, doubt


def _options(dev, notices):
    """The app's options from the files a user may write (heroes.json, dice.json), and the notice of what
    start-up refused or why the board restarted itself, said before the start menu."""
    options = {}
    try:
        heroes = _user_file(dev, notices, "heroes.json", HEROES_BYTES, "the built-in heroes are used")
        if heroes is not None:
            # Checked whole now, for the notice, with Battlerealm's roster and rules forgotten after: a
            # set-up reads the file again for the heroes it offers (roster.py). Kept as read, with its
            # modules, it held 32 KB of the VM's heap in every game, of every kind.
            checking = Scope("heroes.json")
            try:
                checking.load("dicetower.core.games.battlerealm.roster").load_heroes(heroes)
            finally:
                checking.close()
            options["heroes_file"] = dev.root + "heroes.json"
    except Exception as e:  # noqa: BLE001 (whatever the file holds, the built-in heroes play)
        notices.append("%s. The built-in heroes are used." % e)
        dev.log_line("%s; the default heroes are used" % e)
    try:
        attack = _user_file(dev, notices, "dice.json", DICE_BYTES, "the default Attack Die is used")
        if attack is not None:
            options["attack_faces"] = list(load_overrides(attack).faces)
    except Exception as e:  # noqa: BLE001 (whatever the file holds, the default Attack Die plays)
        dev.log_line("dice.json: %s; the default Attack Die is used" % e)
    _restarted(dev.files, dev.root, notices)
    if notices:
        options["notice"] = " ".join(notices)
    return options


def _doubt(platform, board, others, pins, active_low, damaged, notices):
    """A board found by a name other boards give too (startup.board's `doubt`): the other boards' buttons
    on pins this one does not use are heard (Device._doubted); {button: the other board's profile}. Any
    button goes on past a notice; a press of a button only another board has tells the tower it is that
    board (named in config.json, and the board restarts on its pins). When config.json, where its board
    may have been named, was refused, the notice says the tower cannot tell."""
    used = [pin for pin, _ in board.pins()]
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
    if damaged:
        mine = board.name
        notices.append(
            "The tower cannot tell a %s from a %s running its MicroPython: the %s's pins are used. On the "
            "other, press its A: the tower names it in config.json and restarts. Any button goes on."
            % (mine, " or a ".join(o.name for o in others), mine)
        )
    return heard


def _restarted(files, root, notices):
    """The loop restarted the board (startup.restarting): why, said first on the notice, and its file gone."""
    from dicetower.hw.storage import read_at_most
    from dicetower.startup import RESTARTED

    path = root + RESTARTED
    try:
        why = read_at_most(files, path, 512).decode()
    except (OSError, ValueError):  # none (OSError), too big (TooBig) or not text (UnicodeError)
        why = None
    if why is not None:
        notices.insert(0, "The tower restarted itself: %s. errors.log has what came before." % why)
    try:
        files.remove(path)
    except OSError:
        pass


def _stop(dev, oled, title, text):
    """The game cannot start: say why on the console and the OLED, and do nothing more. What `wire`
    returns then: the problem."""
    from dicetower import startup

    dev.console(json.dumps({"event": "error", "error": text}))
    startup.show_problem(oled, dev.canvas, title, text)
    return text


def _refuse(dev, notices, path, reason, instead):
    """A file start-up will not use: kept aside under a new name, said on the console, in
    errors.log and on the OLED (a notice before the start menu)."""
    try:
        aside = keep_aside(dev.files, path, "bad").rsplit("/", 1)[-1]
        text = "%s. It is kept as %s; %s." % (reason, aside, instead)
    except OSError as e:
        text = "%s (not kept aside: %s); %s." % (reason, why(e), instead)
    notices.append(text)
    dev.log_line(text)
    dev.keep_log(text)


def _user_file(dev, notices, name, limit, instead):
    """A file a user may write (heroes.json, dice.json): its text, None if there is none or it is
    too big to read (then refused: kept aside, said); ValueError if it is not UTF-8."""
    try:
        return read_text(dev.root + name, limit)
    except TooBig as e:
        _refuse(dev, notices, dev.root + name, str(e), instead)
        return None


def _radio_setup(dev, platform, config, dice, app):
    """The radio of a board that has one: (its Link, the Wi-Fi settings), or (None, None) when the
    platform has no network or config.json turns it off."""
    network = platform.network() if hasattr(platform, "network") else None
    if network is None:
        return None, None
    from dicetower.hw.wifi import Link
    from dicetower.web import access

    from dicetower.web import radio

    wifi, changed = access.settings(config, lambda n: radio.random_bytes(dice, n), dev.log_line)
    if changed:  # the network's name and password, made at first boot: kept, as the OLED shows them
        config["wifi"] = access.saved(wifi)
        dev.write_json("config.json", config)
    if wifi["mode"] == "off":
        return None, None
    link = Link(network, wifi, dev.log_line)
    dev.share()
    app.phones = {
        "url": None,
        "wifi": wifi["name"],
        "pin": wifi["shown_pin"],
        "password": wifi["password"] if wifi["mode"] == "ap" else None,
    }
    return link, wifi
