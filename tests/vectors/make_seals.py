"""Writes tests/vectors/seals.json: histories of honest games as the tower serves them (/history), and
the same histories doctored the ways a cheat would try. tests/test_verify_vectors.py runs every vector
through `dicetower verify` and through the phones' page in Chromium: both must give the verdict named
here, in the same words.

    .venv/bin/python tests/vectors/make_seals.py     (after a change to what the tower serves)

The games are played on the simulator with seeded dice, so the file is the same each time it is made.
"""

import copy
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "firmware"))

from dicetower_host import sim  # noqa: E402

sim.use_virtual_parts()
from dicetower.web import scoreboard  # noqa: E402
from dicetower_host.virtual_parts.script import keystrokes  # noqa: E402

PHONES = ("0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210")
# Histories that are not a tower's at all (exit 2: one line, no verdict on the dice).
BAD_INPUT = ("is not a contribution to a cut", "reads version 2", "do not pair up")


class Table:
    """A simulated tower with hands that choose by name: the games below read as a table plays them."""

    def __init__(self, seed, state=None):
        self.tower = sim.boot("pico", seed, None, state)
        self.app = self.tower.app

    def keys(self, keys):
        for button, kind in keystrokes(keys):
            self.tower.press(button, kind)

    def new(self, game, players):
        """A new game from the start menu: `players` steps of B on the count screen, then the set-up's start."""
        self.choose_start(game)
        self.keys("b" * players + "c")
        if self.app.mode == "form":  # the set-up's rows: the last is the start
            self.keys("a c")

    def choose_start(self, label):
        for _ in range(12):
            if self.app.menus.start_items(self.app)[self.app.cursor][0] == label:
                return self.keys("c")
            self.keys("b")
        raise AssertionError("no %r on the start menu" % label)

    def cut(self, phones=0, number=None):
        assert self.app.mode == "cut", self.app.mode
        for n in range(phones):
            done, said = self.app.cut_by(PHONES[n], "127.0.0.%d" % (n + 2))
            assert done, said
        if number is not None:
            self.keys("b c")  # Enter a number
            for digit in "%06d" % number:
                self.keys("b" * int(digit) + "c")
        self.keys("c")  # Cut and play
        assert self.app.mode in ("play", "dice"), self.app.mode

    def act(self, label, picks=""):
        """The play menu's `label`, its values taken as offered (or stepped with `picks` first)."""
        menu = self.app.menu
        for _ in range(len(menu)):
            if menu[self.app.cursor % len(menu)][0] == label:
                break
            self.keys("b")
        else:
            raise AssertionError("no %r in the menu" % label)
        self.keys("c")
        for key in picks:
            self.keys(key)
        while self.app.mode == "args":
            self.keys("c")
        if self.app.mode == "result":
            self.keys("c")

    def roll(self, rerolls=()):
        """The acting hero rolls; each re-roll picks its dice (numbered from 0); then finalized."""
        self.act("Roll the dice")
        for dice in rerolls:
            for die in dice:
                self.app.cursor = die
                self.keys("c")
            self.app.cursor = 6  # Re-roll picked
            self.keys("c")
        self.app.cursor = 10  # Finalize
        self.keys("c")
        while self.app.mode in ("mark", "result"):
            self.keys("a c" if self.app.mode == "mark" else "c")

    def history(self):
        self.tower.wait(300)
        return json.loads(scoreboard.history(self.app))

    def reveal(self):
        self.act("Reveal the seed")
        assert self.app.mode == "seed", self.app.mode
        self.keys("c")
        return self.history()


def announced(doc):
    return [s["commitment"][:16] for s in doc["seals"]]


def one_battle(t):
    """A Battleworld game for one, cut by nobody: a battle, an Attack on it, the Danger Coin."""
    t.new("New Battleworld", 0)
    t.cut()
    t.act("New battle")
    t.act("Attack a battle")
    t.act("Flip Danger Coin")
    return t


def honest():
    games = {}
    # Battleworld, two starting heroes, cut by two phones and a number: battles, Attacks, the Danger Coin,
    # an Attack undone and made again at another battle (its face given back), its seed revealed.
    t = Table(7)
    t.new("New Battleworld", 1)
    t.cut(phones=2, number=4711)
    t.act("New battle")
    t.act("New battle")
    t.act("Attack a battle")
    t.keys("A")  # undone: made again at the other battle, its face comes back
    t.act("Attack a battle", "b")
    t.act("Flip Danger Coin")
    t.act("Attack a battle")
    games["battleworld"] = t.reveal()
    # Battlerealm, two heroes: rolls with re-rolls, a roll undone across a turn and thrown again.
    t = Table(1)
    t.new("New Battlerealm", 0)
    t.cut()
    t.roll([(0, 1), (2,)])
    t.act("End turn")
    t.roll([(5,)])
    t.keys("AAA")  # Thor's roll, Hulk's end of turn, Hulk's roll
    t.roll()  # Hulk's dice as they landed
    t.act("End turn")
    t.roll()  # Thor's, too
    games["battlerealm"] = t.reveal()
    # Battleworld with a dice.json that loads the Attack Die: accepted, and named in the verdict.
    state = tempfile.mkdtemp()
    with open(os.path.join(state, "dice.json"), "w") as f:
        json.dump({"attack": ["Star", "5", "5", "5", "5", "Blank"]}, f)
    t = one_battle(Table(3, state))
    games["battleworld-loaded-die"] = t.reveal()
    shutil.rmtree(state)
    # Battleworld through a power cut: the seal read back from flash revealed, the game sealed afresh.
    state = tempfile.mkdtemp()
    t = one_battle(Table(5, state))
    t.tower.wait(300)
    t = Table(9, state)  # the power back: Resume, the old seal's seed, the new seal's cut
    t.keys("c")
    assert t.app.mode == "seed", t.app.mode
    t.keys("c")
    t.cut(phones=1)
    t.act("Attack a battle")
    t.keys("A")
    t.keys("A")  # and an undo back across the power cut: the coin, then the Attack, given back
    t.act("Flip Danger Coin")
    games["battleworld-power-cut"] = t.reveal()
    shutil.rmtree(state)
    return games


def doctored(games):
    """(name, doc, what the verdict must say): each a cheat's change to an honest history."""
    world = games["battleworld"]
    realm = games["battlerealm"]
    out = []

    def change(doc, name, says, edit):
        doc = copy.deepcopy(doc)
        edit(doc)
        out.append((name, doc, says))

    def emptied(doc):
        doc["seals"][0]["record"] = ""

    change(world, "an emptied record", "where the record throws no Attack die", emptied)

    def emptied_and_recounted(doc):
        doc["seals"][0]["record"] = ""
        doc["seals"][0]["draws"] = doc["seals"][0]["throws"] = 0

    change(world, "an emptied record, its count too", "where the record throws no Attack die", emptied_and_recounted)

    def as_coins(doc):  # the Attack Die's throws read as the Danger Coin's
        seal = doc["seals"][0]
        seal["record"] = " ".join(t.replace(":0:", ":1:").replace("=0:", "=1:") for t in seal["record"].split())

    change(world, "the seed read as coins", "is not one of the Danger Coin die's 2", as_coins)

    def other_face(doc):
        for i, line in enumerate(doc["lines"]):
            if doc["at"][i] is not None and " + " in line:
                face = line.split(" ")[0]
                doc["lines"][i] = ("3" if face != "3" else "4") + line[len(face) :]
                return

    change(world, "a history line with another face", "the record has", other_face)

    def invented(doc):  # a whole seal made up: its own seed, commitment and faces
        import hashlib

        seal = doc["seals"][0]
        seed = bytes(32)
        identity = "dicetower 2 %s %d %d %s" % (seal["kind"], seal["players"], seal["counter"], seal["dice"])
        seal["seed"] = seed.hex()
        seal["commitment"] = hashlib.sha256(seed + identity.encode()).hexdigest()

    change(world, "an invented seal", "the tower announced it, and this history does not hold it", invented)

    def rethrown(doc):  # an Attack thrown again at its place with new faces
        seal = doc["seals"][0]
        first = seal["record"].split()[0]
        place, _, rest = first.partition(":")
        die, _, face = rest.partition(":")
        seal["record"] += " %s:%s:%d" % (place, die, (int(face) + 1) % 6)
        seal["draws"] += 1
        seal["throws"] += 1

    change(world, "a re-throw with new faces", "drew new faces", rethrown)

    def wrong_die(doc):
        seal = doc["seals"][0]
        seal["record"] = seal["record"].replace(":0:", ":2:", 1)

    change(world, "a die the seal does not have", "names die 2; the seal has 2", wrong_die)
    for written in ("0x9", "+3", "3e0", "1.0"):

        def odd_face(doc, written=written):
            seal = doc["seals"][0]
            tokens = seal["record"].split()
            head, _, _ = tokens[0].rpartition(":")
            tokens[0] = head + ":" + written
            seal["record"] = " ".join(tokens)

        change(
            world,
            "a face written %s" % written,
            "is not a throw of the record" if written != "1.0" else "writes its faces as another die's",
            odd_face,
        )

    def short(doc):
        seal = doc["seals"][0]
        seal["record"] = seal["record"].rsplit(" ", 1)[0]

    change(world, "a record short of its last throw", "where the record throws no Attack die", short)

    def realm_changed(doc):
        seal = doc["seals"][0]
        tokens = seal["record"].split()
        head, _, faces = tokens[0].rpartition(":")
        tokens[0] = head + ":" + faces[::-1]
        seal["record"] = " ".join(tokens)

    change(realm, "a roll's faces reordered", "the seed gives", realm_changed)

    def given_back_otherwise(doc):
        seal = doc["seals"][0]
        tokens = seal["record"].split()
        for i, token in enumerate(tokens):
            if "=" in token:
                head, _, faces = token.rpartition(":")
                tokens[i] = head + ":" + faces[1:] + faces[0]
        seal["record"] = " ".join(tokens)

    change(realm, "dice given back as other faces", "they had landed as", given_back_otherwise)

    def contribution(doc):
        doc["seals"][0]["cut"][0] = "0x" + doc["seals"][0]["cut"][0][2:]

    change(world, "a cut that is not a phone's", "is not a contribution to a cut", contribution)

    def version_one(doc):
        del doc["seals"][0]["version"]

    change(world, "a seal of the first version", "reads version 2", version_one)

    def unpaired(doc):
        doc["at"] = doc["at"][:-1]

    change(world, "lines and places that do not pair", "do not pair up", unpaired)
    return out


def main():
    games = honest()
    vectors = []
    for name, doc in games.items():
        vectors.append({"name": "honest " + name, "history": doc, "announced": announced(doc), "status": 0, "says": ""})
    for name, doc, says in doctored(games):
        source = games["battlerealm"] if doc["seals"][0]["kind"] == "battlerealm" else games["battleworld"]
        status = 2 if says in BAD_INPUT else 1
        vectors.append({"name": name, "history": doc, "announced": announced(source), "status": status, "says": says})
    path = os.path.join(HERE, "seals.json")
    with open(path, "w") as f:
        json.dump({"vectors": vectors}, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %d vectors to %s" % (len(vectors), path))


if __name__ == "__main__":
    main()
