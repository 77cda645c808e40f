"""How phones reach the tower: config.json's "wifi" settings, checked, with what a first boot makes.

    "wifi": {"mode": "ap", "name": "dicetower-3f9a", "password": "k7mq2xrtwp", "pin": "random"}

mode      "ap": the tower's own network (the default; name and password are made at first
          boot and kept in config.json), "join": the home network `name` with `password`,
          "off": no radio
pin       none (the default: phones only watch), a PIN of 4 to 8 digits, or "random" (a new
          one at each boot); shown on the OLED's Phones screen, it lets a phone press buttons

`settings(config, random_bytes, log)` returns the checked settings and whether config.json
must be written (something was made). A bad value is logged and replaced, never fatal.
"""

LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off a small screen
MODES = ("ap", "join", "off")


def good_pin(pin):
    """A PIN phones may send: 4 to 8 ASCII digits (str.isdigit also takes "²")."""
    return isinstance(pin, str) and 4 <= len(pin) <= 8 and all(c in "0123456789" for c in pin)


def _word(random_bytes, n):
    return "".join(LETTERS[b % len(LETTERS)] for b in random_bytes(n))


def settings(config, random_bytes, log):
    """(wifi settings, changed): see the module's docstring."""
    given = config.get("wifi")
    if given is None:
        given = {}
    if not isinstance(given, dict):
        log("config.json: wifi must be an object; the tower's own network is used")
        given = {}
    wifi = dict(given)
    changed = not isinstance(config.get("wifi"), dict)
    mode = wifi.get("mode", "ap")
    if mode not in MODES:
        log("config.json: wifi.mode must be ap, join or off; ap used")
        mode = "ap"
    wifi["mode"] = mode
    name, password = wifi.get("name"), wifi.get("password")
    if mode == "join" and not (isinstance(name, str) and name and isinstance(password, str)):
        log("config.json: wifi.mode join needs the network's name and password; the tower's own network is used")
        mode = wifi["mode"] = "ap"
        name = password = None
    if mode == "ap":
        if not (isinstance(name, str) and 1 <= len(name) <= 32):
            if name is not None:
                log("config.json: wifi.name must be 1 to 32 characters; a new one is made")
            wifi["name"] = "dicetower-" + _word(random_bytes, 4)
            changed = True
        if not (isinstance(password, str) and 8 <= len(password) <= 63):
            if password is not None:
                log("config.json: wifi.password must be 8 to 63 characters; a new one is made")
            wifi["password"] = _word(random_bytes, 10)
            changed = True
    wifi["shown_pin"] = _shown_pin(wifi.get("pin"), random_bytes, log)
    return wifi, changed


def _shown_pin(pin, random_bytes, log):
    """The PIN this boot shows on the Phones screen (None: phones only watch)."""
    if pin == "random":
        return "".join(str(b % 10) for b in random_bytes(4))
    if pin is None or pin == "":
        return None
    if good_pin(pin):
        return pin
    log('config.json: wifi.pin must be 4 to 8 digits or "random"; phones only watch')
    return None


def saved(wifi):
    """The settings as config.json keeps them (what was made at boot, not this boot's PIN)."""
    out = dict(wifi)
    out.pop("shown_pin", None)
    return out
