"""What the phones at the table see: the game as one JSON document, made once per change.

The device marks the scoreboard stale whenever its screen changes and remakes the
document as a piece of work of its own (Device._work), after the press and its redraw:
the OLED answers first. The web server (web/server.py) sends `latest` to every phone that
asks, however many: the document is made once, not once a phone. Pure: no sockets, no
hardware; it runs on CPython, the MicroPython VM and the Pico alike.

The document: `version` (one more each change), `mode` (the device's screen), `message`
(its last words), and with a game: `kind`, `title` (the game's name in full) and `status` (its
OLED lines, which the page shows for a game it has no view of), the game's own `state` (scores, turn, places:
each game's state as it saves it; for Battlerealm also `places`, the locations' names, and
`goal`, the PVP Points that win), `over` (the game over line, naming the winner, or ""),
`moves` (how many history lines; the lines themselves are `history(app)`, fetched when
`moves` grows), `results` (the last few lines), and `roll` while Battlerealm's dice are
out: the faces, the locked dice, re-rolls and Lucky left, and the advisor's chance and
risk in percent with the dice it re-rolls (or `thinking` while it works); `seal` (the game's
commitment, whether it waits for its cut, and the cut's contributions so far: a phone finds its own)
and `revealed` (the last revealed seal's commitment, which the page's Verify checks from `history`).
"""

import json

RESULTS = 6  # the last results sent with every change (the page shows them first)


class Scoreboard:
    def __init__(self):
        self.version = 0
        self.latest = json.dumps({"version": 0, "mode": "start", "message": ""})
        self.stale = True

    def update(self, app):
        """Remake the document from the app as it stands; returns it."""
        doc = snapshot(app)
        self.version += 1
        doc["version"] = self.version
        self.latest = json.dumps(doc)
        self.stale = False
        return self.latest


def snapshot(app):
    """The app's game as a dict of plain values (see the module's docstring)."""
    doc = {"mode": app.mode, "message": app.message or ""}
    game = app.game
    if game is None:
        return doc
    lines = game.lines
    doc["kind"] = app.kind
    module = app.game_module
    if module is not None:  # the registry's: a game the page has no view of shows its OLED lines
        doc["title"] = module.TITLE
        doc["status"] = module.status(game.state, 8)
    doc["state"] = game.state
    doc["over"] = game.over() or ""
    doc["moves"] = len(lines)
    doc["results"] = lines[-RESULTS:]
    part = getattr(module, "scoreboard", None)  # module None: not yet loaded, so no part
    if part is not None:  # what the page shows of the game beyond its status (its tracker's)
        part(game.state, doc)
    sealing = getattr(app, "sealing", None)
    if sealing is not None and sealing.dice is not None:  # the commitment, and its cut (each phone adds its own)
        dice = sealing.dice
        doc["seal"] = {"commitment": dice.commitment, "counter": dice.counter, "cutting": dice.cutting, "cut": dice.cut}
    if sealing is not None and sealing.revealed is not None:
        doc["revealed"] = sealing.revealed.get("commitment")  # the page's Verify checks it (/history)
    roll = app.roll
    if roll is not None and roll.rolled and not roll.finalized:
        shown = {
            "faces": list(roll.symbols()),
            "locked": list(roll.locked),
            "rerolls_left": roll.rerolls_left,
            "lucky_left": roll.lucky_left,
        }
        advice = app.advice
        if advice is not None:
            shown["chance"] = advice.percent()
            shown["risk"] = advice.percent(True)
            shown["advised"] = [die for die in range(len(roll.faces)) if app.advised >> die & 1]
        elif app.thinking():
            shown["thinking"] = True
        doc["roll"] = shown
    return doc


def history(app, since=0):
    """The history lines from `since` on, as JSON, with `at`: each line's throw's place (null for a line
    that throws nothing), so a verifier checks the faces a line shows against the record; and `seals`,
    the game's seals (ui/sealing.py): those revealed, with their seeds, and the one in play, without
    (`dicetower verify` and the page check them)."""
    game = app.game
    lines = game.lines[since:] if game is not None else []
    at = game.places[since:] if game is not None else []
    seals = list(game.seals) if game is not None else []
    sealing = getattr(app, "sealing", None)
    if sealing is not None and sealing.dice is not None and game is not None:
        sealed = sealing.dice.saved()
        del sealed["seed"]
        seals.append(sealed)
    return json.dumps({"since": since, "lines": lines, "at": at, "seals": seals})
