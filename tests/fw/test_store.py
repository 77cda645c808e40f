"""Saved games: format, checks, migration, power cuts. Runs on CPython and the VM."""

import unittest

from fake_flash import FatFlash, Flash, LfsFlash, PowerCut

from dicetower.core.game import Refused
from dicetower.core.games.battlerealm.tracker import Battlerealm
from dicetower.core.games.united.tracker import United
from dicetower.core.save_reader import decode
from dicetower.core.savefile import SCHEMA, SaveError, checksum, encode
from dicetower.saves import SaveStore

PATH = "/game.sav"


def sealed(body, schema=SCHEMA):
    """A save around `body` (bytes, or a dict made JSON) with a checksum that holds: what a crafted or
    buggy file looks like once it passes the integrity check."""
    import json

    from dicetower.core.savefile import whole_checksum

    if isinstance(body, dict):
        body = json.dumps(body).encode()
    tail = (" %d\n" % len(body)).encode()
    if schema < 4:  # schemas 1 to 3: the checksum covers the body only
        return ("DICETOWER %d %08x" % (schema, checksum(body))).encode() + tail + body
    head = ("DICETOWER %d " % schema).encode()
    return head + ("%08x" % whole_checksum(head, tail, body)).encode() + tail + body


def small_game():
    game = Battlerealm.setup(
        [{"name": "Hulk", "pvp": 10, "abilities": ["Tough"]}, {"name": "Thor", "pvp": 12}, {"name": "Vision", "pvp": 8}]
    )
    game.do("roll", "YYKKTC", [1])
    game.do("attack", 1, 2, True)
    return game


class Format(unittest.TestCase):
    def test_round_trip_keeps_state_undo_and_redo(self):
        game = small_game()
        game.undo()
        again = decode(encode(game))
        self.assertEqual(again.state, game.state)
        self.assertEqual(again.history(), game.history())
        self.assertEqual(again.redo(), "Thor -2 PVP (Attack by Hulk).")
        again.undo()
        again.undo()
        self.assertEqual(again.state["heroes"][0]["pvp"], 10)

    def test_header(self):
        data = encode(small_game())
        header, body = data.split(b"\n", 1)
        words = header.split()
        self.assertEqual(words[0], b"DICETOWER")
        self.assertEqual(int(words[1]), SCHEMA)
        self.assertEqual(int(words[2], 16), checksum(data[:12] + data[20:]))  # all of it but its own digits
        self.assertEqual(int(words[3]), len(body))

    def test_crc32_is_the_zlib_one(self):
        from dicetower.core import savefile

        self.assertEqual(checksum(b"123456789"), 0xCBF43926)
        saved = savefile._crc32
        savefile._crc32 = None  # the pure-Python fallback gives the same
        try:
            self.assertEqual(checksum(b"123456789"), 0xCBF43926)
        finally:
            savefile._crc32 = saved

    def test_damage_is_refused_with_a_reason(self):
        data = encode(small_game())
        flipped = bytearray(data)
        flipped[-5] ^= 0x20
        cases = (
            (bytes(flipped), "checksum"),
            (data[:-3], "cut short"),
            (b"hello", "not a dicetower save"),
            (b"DICETOWER x y z\n{}", "header is damaged"),
            (
                data + b"  ",
                "longer than its header says (%d bytes, not %d)"
                % (len(data) + 2 - data.index(b"\n") - 1, len(data) - data.index(b"\n") - 1),
            ),
            (data.replace(data.split(b"\n")[0].split(b" ")[3], b"-5", 1), "header is damaged"),
        )
        for bad, words in cases:
            with self.assertRaises(SaveError) as caught:
                decode(bad)
            self.assertIn(words, str(caught.exception))

    def test_a_flipped_schema_digit_is_damage_not_a_newer_firmware(self):
        """The checksum is checked before the schema: a save whose schema digit changed on the flash is
        kept aside as damaged, not as one a later firmware would read."""
        from dicetower.core.savefile import NewerSave

        bad = encode(small_game()).replace(("DICETOWER %d" % SCHEMA).encode(), b"DICETOWER 9", 1)
        with self.assertRaises(SaveError) as caught:
            decode(bad)
        self.assertFalse(isinstance(caught.exception, NewerSave))
        self.assertEqual(str(caught.exception), "the checksum does not match")
        flash = Flash({PATH: bad})
        self.assertEqual(
            SaveStore(PATH, flash).load()[1],
            "The saved game could not be loaded: the checksum does not match. It is kept as game.sav.bad1.",
        )

    def test_a_scheme_with_no_stages_is_said_in_a_sentence(self):
        from dicetower.core.games.champions.tracker import new_game

        game = new_game(2, {})
        game.base["areas"][0]["scheme"]["stages"] = []
        with self.assertRaises(SaveError) as caught:
            decode(encode(game))
        self.assertFalse("0 to -1" in str(caught.exception), str(caught.exception))
        self.assertTrue(str(caught.exception).endswith("stages."), str(caught.exception))
        from dicetower.core.game import number

        with self.assertRaises(Refused) as caught:  # whatever asks for one of none
            number(0, 0, -1, "A stage")
        self.assertEqual(str(caught.exception), "A stage must be one of those set, and none are.")

    def test_a_checksummed_impossible_game_is_refused(self):
        game = small_game()
        game.actions.append(["attack", 7, 2, True])  # there is no hero 8
        with self.assertRaises(SaveError) as caught:
            decode(encode(game))
        self.assertIn("does not replay", str(caught.exception))

    def test_schema_1_is_migrated(self):
        import json

        game = small_game()
        content = game.to_dict()
        del content["redo"]
        for hero in content["base"]["heroes"]:
            del hero["place"]  # schema 1 kept no place and no Warehouse purchases (schema 3 added them)
        del content["base"]["bought"]
        del content["base"]["dice"]  # nor the dice left for damage (schema 5)
        body = json.dumps(content).encode()
        old = ("DICETOWER 1 %08x %d\n" % (checksum(body), len(body))).encode() + body
        self.assertEqual(decode(old).state, game.state)

    def test_schema_2_is_migrated_with_every_hero_at_no_location(self):
        import json

        from dicetower.core.savefile import DEPTH, KEYS, MARKS, WORDS, _table, renamed

        game = small_game()
        content = game.to_dict()
        for hero in content["base"]["heroes"]:
            del hero["place"]  # schema 2 kept no place and no Warehouse purchases
        del content["base"]["bought"]
        del content["base"]["dice"]  # nor the dice left for damage (schema 5)
        words = _table(WORDS[:50])  # the codes schema 2 knew
        content["base"] = renamed(content["base"], _table(KEYS[:57]), words, DEPTH, MARKS)
        content["actions"] = renamed(content["actions"], {}, words, DEPTH, MARKS)
        content["redo"] = []
        body = json.dumps(content).encode()
        old = decode(("DICETOWER 2 %08x %d\n" % (checksum(body), len(body))).encode() + body)
        self.assertEqual(old.state, game.state)
        self.assertEqual(old.history(), game.history())
        old.do("move", 3)  # and the loaded game goes on to the Warehouse
        self.assertEqual(old.do("buy", 1), "Hulk buys 1 result at the Warehouse: -1 PVP.")

    def test_the_location_and_the_warehouse_charge_survive_a_power_cut(self):
        """Rulebook: "Heroes at the Collector's Cosmic Warehouse may spend up to 3 PVP points to gain additional dice results of their choosing. One PVP point for each additional die result." """
        game = Battlerealm.setup([{"name": "Hulk", "pvp": 10}, {"name": "Thor", "pvp": 12}])
        game.do("move", 3)
        game.do("roll", "KTCCTT")
        game.do("buy", 3)
        flash = Flash()
        SaveStore(PATH, flash).write(game)
        game.do("end_turn")
        flash.cut_after(20)  # the power goes 20 bytes into saving the next action
        with self.assertRaises(PowerCut):
            SaveStore(PATH, flash).write(game)
        flash.budget = None
        loaded, message = SaveStore(PATH, flash).load()
        self.assertIsNone(message)
        self.assertEqual(loaded.state["heroes"][0]["place"], 3)
        self.assertEqual(loaded.state["heroes"][0]["pvp"], 7)
        with self.assertRaises(Refused):
            loaded.do("buy", 1)  # the turn's three results are bought
        self.assertEqual(loaded.undo(), "Undone: Hulk buys 3 results at the Warehouse: -3 PVP.")
        self.assertEqual(loaded.state["heroes"][0]["pvp"], 10)
        loaded.undo()
        loaded.undo()
        self.assertEqual(loaded.state["heroes"][0]["place"], 0)


# Saves written by the firmware before each game moved into a module of its own (core/games/), one per
# game: a Battlerealm game with a move, a Warehouse buy and a redo, and one of each other game.
OLD_SAVES = (
    b'DICETOWER 3 d60eb5da 474\n{"game":"battlerealm","base":{"~a":[{"~b":"Hulk","~c":10,"~d":["=j","=g"],"~e":0,'
    b'"~f":0,"~g":0,"~h":-1,"~i":0,"~j":0,"~k":-1,"~5":0},{"~b":"Thor","~c":12,"~d":["=a"],"~e":0,"~f":0,"~g":0,'
    b'"~h":-1,"~i":0,"~j":0,"~k":-1,"~5":0},{"~b":"Vision","~c":10,"~d":[],"~e":0,"~f":0,"~g":0,"~h":-1,"~i":0,'
    b'"~j":0,"~k":-1,"~5":0}],"~l":0,"~m":1,"~n":0,"~o":[],"~6":0,"~p":null},"actions":[["=Y",3],["=k","SSSKTC",'
    b'[1]],["=Z",1],["=l",2,3,true],["=r",1],["=u"],["=s",0]],"redo":[["=q",1,2]]}',
    b'DICETOWER 3 96cfdef5 390\n{"game":"champions","base":{"~a":[{"~b":"P1","~C":10,"~D":10,"~i":0},{"~b":"P2",'
    b'"~C":10,"~D":10,"~i":0}],"~q":0,"~m":1,"~r":"=N","~s":[{"~t":[0,1],"~u":{"~b":"Main Scheme","~v":[[10,1,3],'
    b'[12,1,0]],"~w":0,"~x":3},"~y":{"~b":"Villain","~v":[14,15],"~w":0,"~C":28},"~z":[],"~A":0,"~B":0}],"~p":null},'
    b'"actions":[["=y",0,"Side 1",3,1,1,0],["=x",0,0,2],["=B",0,3,1,1],["=E"]],"redo":[["=A",0,5]]}',
    b'DICETOWER 3 20441731 200\n{"game":"united","base":{"~a":[{"~b":"Medusa","~H":0,"~I":0},{"~b":"Karnak","~H":0,'
    b'"~I":0}],"~J":1,"~K":6,"~L":0,"~M":0,"~N":6,"~O":3,"~p":null},"actions":[["=I",1],["=K","=S"],["=L","=V"]],'
    b'"redo":[]}',
    b'DICETOWER 3 938b03da 205\n{"game":"battleworld","base":{"~P":2,"~Q":2,"~R":9,"~S":5,"~T":[],"~U":0,"~V":0,'
    b'"~W":["=Q","2","3","4","5","=R"],"~p":null},"actions":[["=M","Battle 1",2,7,"=P"],["=l",0,"=Q",0],'
    b'["danger","=P"]],"redo":[]}',
)

# A Marvel Champions game with allies and minions in its state and its actions: the codes of their keys
# ("~7", "~8") and actions ("=0" to "=3") are fixed from here on.
ALLY_SAVE = (
    b'DICETOWER 3 55492b9f 342\n{"game":"champions","base":{"~a":[{"~b":"You","~C":10,"~D":10,"~i":0}],"~q":0,'
    b'"~m":1,"~r":"=N","~s":[{"~t":[0],"~u":{"~b":"S","~v":[[10,1,3]],"~w":0,"~x":3},"~y":{"~b":"V","~v":[14],'
    b'"~w":0,"~C":14},"~z":[],"~A":0,"~B":0}],"~p":null,"~7":[[0,"Ally 1",2]],"~8":[[0,"Minion 1",3]]},'
    b'"actions":[["=0",0,"Ally 2",1],["=1",0,1]],"redo":[["=3",0,2]]}'
)


class SavesFromBefore(unittest.TestCase):
    def test_a_save_written_before_loads_and_is_written_back_in_the_same_codes(self):
        import json

        for data in OLD_SAVES:
            again = encode(decode(data))
            # The same codes for every key and word (compared as JSON: MicroPython's dicts keep no order);
            # a Battlerealm game's base gains schema 5's dice left for damage ("~9"), none.
            body = json.loads(data.split(b"\n", 1)[1])
            if body["game"] == "battlerealm":
                body["base"]["~9"] = [0, 0]
            self.assertEqual(json.loads(again.split(b"\n", 1)[1]), body)
        hulk = decode(OLD_SAVES[0])
        self.assertEqual(hulk.state["heroes"][0]["pvp"], 9)  # the result bought at the Warehouse
        self.assertEqual(hulk.redo(), "Thor Blocks 2 until their next turn.")
        self.assertEqual(decode(OLD_SAVES[1]).redo(), "Villain -5 hit points (23 left).")

    def test_allies_and_minions_load_with_their_undo_and_keep_their_codes(self):
        import json

        game = decode(ALLY_SAVE)
        self.assertEqual(game.state["allies"], [[0, "Ally 1", 1], [0, "Ally 2", 1]])
        self.assertEqual(game.state["minions"], [[0, "Minion 1", 3]])
        self.assertEqual(json.loads(encode(game).split(b"\n", 1)[1]), json.loads(ALLY_SAVE.split(b"\n", 1)[1]))
        self.assertEqual(game.redo(), "Minion 1 -2 hit points (1 left).")
        self.assertEqual(game.undo(), "Undone: Minion 1 -2 hit points (1 left).")
        self.assertEqual(game.undo(), "Undone: Ally 1 -1 hit point (1 left).")
        self.assertEqual(game.state["allies"], [[0, "Ally 1", 2], [0, "Ally 2", 1]])
        game.undo()
        self.assertEqual(game.state["allies"], [[0, "Ally 1", 2]])  # the state the save began from

    def test_a_games_own_new_names_are_coded_after_the_shared_tables(self):
        from dicetower.core import savefile

        class Game5:  # what a fifth game's module could add
            KEYS = ("lanes",)
            WORDS = ("Lane",)

        keys, words = savefile._codes(Game5)
        coded = savefile.renamed({"lanes": "Lane"}, keys, words, savefile.DEPTH, savefile.MARKS)
        self.assertEqual(coded, {savefile.code(len(savefile.KEYS), "~"): savefile.code(len(savefile.WORDS), "=")})
        for name in savefile.KEYS:
            self.assertEqual(keys[name], savefile.shared_codes()[0][name])  # the shared codes unchanged
        table = savefile._table(tuple("k%d" % n for n in range(80)))
        self.assertEqual(len(set(savefile.code(n, "~") for n in table.values())), 80)


class Store(unittest.TestCase):
    def test_save_then_load(self):
        flash = Flash()
        store = SaveStore(PATH, flash)
        game = small_game()
        written = store.write(game)
        self.assertEqual(bytes(flash.files[PATH]), encode(game))
        self.assertEqual(written, len(encode(game)))
        self.assertFalse(flash.exists(PATH + ".tmp"))
        loaded, message = SaveStore(PATH, flash).load()
        self.assertIsNone(message)
        self.assertEqual(loaded.state, game.state)

    def test_no_save_yet(self):
        self.assertEqual(SaveStore(PATH, Flash()).load(), (None, None))

    def cut_everywhere(self, flash, old, new):
        """Cut the power at every byte of saving `new` over `old`; returns what each cut left."""
        size = len(encode(new))
        outcomes = []
        for cut in range(size + 3):
            trial = flash.copy()
            trial.cut_after(cut)
            try:
                SaveStore(PATH, trial).write(new)
            except PowerCut:
                pass
            trial.budget = None  # power back on
            written = bytes(trial.files.get(PATH + ".tmp", b""))
            loaded, message = SaveStore(PATH, trial).load()
            if old is None and loaded is None and written:
                # The first save, cut short: no other save to stand, so what was written is kept, and said
                # as what it is (the new game's first moment lost), not as a damaged save.
                self.assertEqual(
                    message,
                    "The new game's first save was cut short: start it again. It is kept as game.sav.bad1.",
                    "cut after %d bytes" % cut,
                )
                self.assertEqual(bytes(trial.files[PATH + ".bad1"]), written)
            else:
                self.assertIsNone(message, "cut after %d bytes" % cut)
            if old is not None and loaded is not None and loaded.to_dict() == old.to_dict():
                outcomes.append("old")
                self.assertEqual(bytes(trial.files[PATH]), encode(old))
            elif loaded is None:
                outcomes.append("none")
            else:
                self.assertEqual(loaded.to_dict(), new.to_dict(), "cut after %d bytes" % cut)
                self.assertEqual(loaded.history(), new.history())
                outcomes.append("new")
            self.assertFalse(trial.exists(PATH + ".tmp"))
        return outcomes, size

    def test_power_cut_at_every_byte_leaves_old_or_new(self):
        self.cut_a_save_over_a_game_everywhere(Flash())

    def cut_a_save_over_a_game_everywhere(self, flash):
        old = small_game()
        SaveStore(PATH, flash).write(old)
        new = decode(encode(old))
        new.do("end_turn")
        new.undo()  # the save carries a redo too
        outcomes, size = self.cut_everywhere(flash, old, new)
        self.assertEqual(outcomes, ["old"] * (size + 1) + ["new"] * 2)

    def test_power_cut_during_the_first_save(self):
        outcomes, size = self.cut_everywhere(Flash(), None, small_game())
        # Once every byte is written, the complete temporary file is the game.
        self.assertEqual(outcomes, ["none"] * size + ["new"] * 3)

    def test_power_cut_on_littlefs_at_every_byte_leaves_old_or_new(self):
        # LittleFS (a Pico's) keeps a file's old bytes until its close commits the new: the save is written
        # over the old in place, a cut anywhere before the commit leaves the old game, after it the new.
        self.cut_a_save_over_a_game_everywhere(LfsFlash())

    def test_on_littlefs_a_save_over_a_game_is_one_write_and_one_pass_less(self):
        # The throw's save comes before its faces, a step a pass: no temporary file and no rename there.
        game = small_game()
        passes = {}
        for flash in (Flash(), LfsFlash()):
            SaveStore(PATH, flash).write(game)
            renames = []
            rename = flash.rename
            flash.rename = lambda old, new: renames.append((old, new)) or rename(old, new)
            steps = list(SaveStore(PATH, flash).saving(game))
            self.assertEqual(steps[-1], len(encode(game)))
            self.assertEqual(bytes(flash.files[PATH]), encode(game))
            passes[type(flash).__name__] = (len(steps), renames)
        self.assertEqual(passes["Flash"][1], [(PATH + ".tmp", PATH)])
        self.assertEqual(passes["LfsFlash"], (passes["Flash"][0] - 1, []))

    def test_which_filesystem_is_asked_of_micropythons_vfs_and_a_mount_that_cannot_say_means_a_rename(self):
        from dicetower.hw.storage import _littlefs_root as mounted_littlefs

        class Lfs:
            pass

        class Fat:
            pass

        class Vfs:
            VfsLfs2 = Lfs

            def __init__(self, mounts):
                self.mounts = mounts

            def mount(self):
                return self.mounts

        self.assertTrue(mounted_littlefs(Vfs([(Lfs(), "/")])))
        self.assertFalse(mounted_littlefs(Vfs([(Fat(), "/"), (Lfs(), "/sd")])))
        self.assertFalse(mounted_littlefs(Vfs([])))

        class Before125(Vfs):
            def mount(self, fs, at):  # MicroPython 1.23 and 1.24: no listing without arguments
                raise TypeError("function missing 2 required positional arguments")

        import sys

        from dicetower.hw.storage import OsFiles

        kept = sys.modules.get("vfs")
        sys.modules["vfs"] = Before125([])
        try:
            import vfs

            if not isinstance(vfs, Before125):
                self.skipTest("this MicroPython's own vfs comes before sys.modules")
            self.assertFalse(OsFiles().atomic)  # a temporary file and a rename, and the tower boots
        finally:
            if kept is None:
                del sys.modules["vfs"]
            else:
                sys.modules["vfs"] = kept

    def test_power_cut_during_the_first_save_on_littlefs(self):
        # Its open makes a file, empty, before a byte is written: the first save goes through a temporary
        # file, which a cut leaves empty (or whole, once committed), never as an empty game.sav.
        outcomes, size = self.cut_everywhere(LfsFlash(), None, small_game())
        self.assertEqual(outcomes, ["none"] * (size + 1) + ["new"] * 2)

    def test_power_cut_on_fat_where_rename_cannot_replace(self):
        old = small_game()
        flash = FatFlash()
        SaveStore(PATH, flash).write(old)
        new = decode(encode(old))
        new.do("end_turn")
        outcomes, size = self.cut_everywhere(flash, old, new)
        # Cut before the old file is removed: old; after (only the new temp file left): new.
        self.assertEqual(outcomes, ["old"] * (size + 1) + ["new"] * 2)

    def test_a_new_games_first_save_cut_short_is_said_as_such_and_the_game_it_replaced_stays(self):
        """A new game keeps the one it replaces aside, so its first save has no save under it: a cut there
        loses the new game's start only. The player hears that, not that a save is damaged."""
        old = small_game()
        flash = Flash()
        store = SaveStore(PATH, flash)
        store.write(old)
        store.keep_replaced()  # what App.begin does before a new game's first save
        new = United.setup([{"name": "Medusa"}])
        size = len(encode(new))
        for cut in range(1, size):
            trial = flash.copy()
            trial.cut_after(cut)
            with self.assertRaises(PowerCut):
                SaveStore(PATH, trial).write(new)
            trial.budget = None
            again = SaveStore(PATH, trial)
            game, message = again.load()
            self.assertIsNone(game)
            self.assertEqual(
                message,
                "The new game's first save was cut short: start it again. It is kept as game.sav.bad1.",
                "cut after %d bytes" % cut,
            )
            self.assertEqual(bytes(trial.files[PATH + ".old1"]), encode(old))  # the replaced game, untouched
            self.assertEqual(again.kept_kind(), "battlerealm")  # and the start menu offers it back
            self.assertFalse(trial.exists(PATH + ".tmp"))

    def test_a_broken_body_with_a_good_checksum_is_refused(self):
        import json

        for body in (
            b"[1, 2]",
            b'{"game": "united", "base": {}, "actions": [], "redo": []}',
            b'{"game": "united", "base": {"~a": []}, "actions": [], "redo": [["ko", 5]]}',
        ):
            for schema in range(1, SCHEMA + 1):
                with self.assertRaises(SaveError):
                    decode(sealed(body, schema))
        game = United.setup([{"name": "Medusa"}])
        content = game.to_dict()
        content["redo"] = [["ko", 7]]
        body = json.dumps(content).encode()
        with self.assertRaises(SaveError):
            decode(("DICETOWER %d %08x %d\n" % (SCHEMA, checksum(body), len(body))).encode() + body)

    def test_damaged_file_is_moved_aside_and_kept(self):
        flash = Flash()
        SaveStore(PATH, flash).write(small_game())
        flash.files[PATH][40] ^= 1
        damaged = bytes(flash.files[PATH])
        game, message = SaveStore(PATH, flash).load()
        self.assertIsNone(game)
        self.assertIn("checksum", message)
        self.assertIn("It is kept as game.sav.bad1.", message)
        self.assertEqual(bytes(flash.files[PATH + ".bad1"]), damaged)
        self.assertFalse(flash.exists(PATH))
        flash.files[PATH] = bytearray(b"hello")
        game, message = SaveStore(PATH, flash).load()
        self.assertIn("game.sav.bad2", message)
        self.assertIn("not a dicetower save", message)

    def test_full_flash_keeps_the_game_in_memory_and_the_old_save(self):
        self.full_flash_keeps_the_old_save(Flash())

    def test_full_flash_on_littlefs_keeps_the_old_save_it_writes_over_in_place(self):
        self.full_flash_keeps_the_old_save(LfsFlash())

    def full_flash_keeps_the_old_save(self, flash):
        store = SaveStore(PATH, flash)
        game = small_game()
        game.do("end_turn")
        store.write(game)
        saved = bytes(flash.files[PATH])
        flash.full_at = flash.written + 10
        self.assertEqual(game.do("land", 2), "Thor lands: +2 PVP.")
        with self.assertRaises(OSError):
            store.write(game)  # the device says "Saves are off" and plays on
        self.assertEqual(game.state["heroes"][1]["pvp"], 12 - 2 + 2)
        self.assertEqual(bytes(flash.files[PATH]), saved)
        flash.full_at = None
        game.undo()
        store.write(game)
        self.assertEqual(SaveStore(PATH, flash).load()[0].state, game.state)

    def test_every_game_kind_saves(self):
        game = United.setup([{"name": "Medusa"}, {"name": "Black Bolt"}])
        game.do("ko", 1)
        self.assertEqual(decode(encode(game)).state, game.state)


# A save written by the firmware just before the checksum covered the header (schema 3): a Battlerealm
# game at the Warehouse with two results bought and an Attack undone (to redo).
SAVED_BEFORE_SCHEMA_4 = (
    b'DICETOWER 3 1ba92db4 428\n{"game":"battlerealm","base":{"~a":[{"~b":"Hulk","~c":10,"~d":["=j"],"~e":0,'
    b'"~f":0,"~g":0,"~h":-1,"~i":0,"~j":0,"~k":-1,"~5":0},{"~b":"Thor","~c":12,"~d":[],"~e":0,"~f":0,"~g":0,'
    b'"~h":-1,"~i":0,"~j":0,"~k":-1,"~5":0},{"~b":"Vision","~c":8,"~d":[],"~e":0,"~f":0,"~g":0,"~h":-1,"~i":0,'
    b'"~j":0,"~k":-1,"~5":0}],"~l":0,"~m":1,"~n":0,"~o":[],"~6":0,"~p":null},"actions":[["=Y",3],'
    b'["=k","YYKKTC",[1]],["=Z",2]],"redo":[["=l",1,2,true]]}'
)

# A save written by the firmware before it counted the dice left for damage (schema 4): Hulk rolled two
# Skill and two Tech, Attacked Thor for 2 by a power from the same location, then undid a Blast of 1.
SAVED_AT_SCHEMA_4 = (
    b'DICETOWER 4 bffd3b6c 337\n{"game":"battlerealm","base":{"~a":[{"~b":"Hulk","~c":10,"~d":["=j"],"~e":0,'
    b'"~f":0,"~g":0,"~h":-1,"~i":0,"~j":0,"~k":-1,"~5":0},{"~b":"Thor","~c":12,"~d":[],"~e":0,"~f":0,"~g":0,'
    b'"~h":-1,"~i":0,"~j":0,"~k":-1,"~5":0}],"~l":0,"~m":1,"~n":0,"~o":[],"~6":0,"~p":null},"actions":'
    b'[["=k","KKTTCY",[]],["=l",1,2,true]],"redo":[["=l",1,1,false]]}'
)


def good_content():
    return small_game().to_dict()


def coded(content):
    """The body `encode` would write for `content` (a game's to_dict(), perhaps changed)."""
    import json

    from dicetower.core.savefile import DEPTH, MARKS, renamed, shared_codes

    keys, words = shared_codes()
    out = dict(content)
    for key, names in (("base", keys), ("actions", {}), ("redo", {})):
        if key in content:  # a test may have taken it out
            out[key] = renamed(content[key], names, words, DEPTH, MARKS)
    return json.dumps(out).encode()


class Integrity(unittest.TestCase):
    def test_the_checksum_covers_the_header_too(self):
        """A flipped schema digit used to migrate a current save as schema 2: every hero's location and
        the turn's purchases reset, silently."""
        data = encode(small_game())
        for schema in (1, 2, 3):
            with self.assertRaises(SaveError) as caught:
                decode(data.replace(("DICETOWER %d" % SCHEMA).encode(), ("DICETOWER %d" % schema).encode(), 1))
            self.assertIn("checksum", str(caught.exception))

    def test_any_flipped_bit_anywhere_is_refused(self):
        data = encode(small_game())
        for at in range(len(data)):
            for bit in (1, 4, 32):
                flipped = bytearray(data)
                flipped[at] ^= bit
                with self.assertRaises(SaveError):
                    decode(bytes(flipped))

    def test_a_save_from_before_schema_4_still_loads(self):
        game = decode(SAVED_BEFORE_SCHEMA_4)
        self.assertEqual(game.state["heroes"][0]["place"], 3)
        self.assertEqual(game.state["bought"], 2)
        self.assertEqual(game.redo(), "Thor -2 PVP (Attack by Hulk).")
        again = encode(game)
        self.assertTrue(again.startswith(("DICETOWER %d " % SCHEMA).encode()))
        self.assertEqual(decode(again).to_dict(), game.to_dict())

    def test_a_save_from_before_schema_5_keeps_its_turn_and_counts_the_dice_it_rolled(self):
        """Rulebook: "For each Skill rolled, the Hero can do one PVP Point of damage to another Hero in the
        same location as the rolling Hero." Schema 4 did not count the dice left for damage: Hulk's
        roll (two Skill, two Tech) is replayed from the save, the Attack by a power from the same
        location spent none of them, and the Attack undone is still there to redo."""
        game = decode(SAVED_AT_SCHEMA_4)
        self.assertEqual(game.state["heroes"][1]["pvp"], 10)
        self.assertEqual(game.state["dice"], [2, 2])
        self.assertEqual(game.redo(), "Thor -1 PVP (Attack by Hulk).")
        self.assertEqual(game.do("attack", 1, 2, "Tech"), "Thor -2 PVP (Attack by Hulk).")
        self.assertEqual(game.state["dice"], [2, 0])
        self.assertEqual(decode(encode(game)).to_dict(), game.to_dict())

    def test_a_schema_4_body_with_the_dice_already_counted_is_refused(self):
        body = SAVED_AT_SCHEMA_4.split(b"\n", 1)[1].replace(b'"~p":null}', b'"~p":null,"~9":[0,0]}', 1)
        with self.assertRaises(SaveError):
            decode(sealed(body, 4))

    def test_a_schema_3_body_under_a_flipped_older_schema_digit_is_refused(self):
        """Saves of schema 3 have no checksum over the header: the migrations refuse a body that
        already has what they would add."""
        for schema in (1, 2):
            with self.assertRaises(SaveError):
                decode(SAVED_BEFORE_SCHEMA_4.replace(b"DICETOWER 3", ("DICETOWER %d" % schema).encode(), 1))


class DamagedBodies(unittest.TestCase):
    """Past the checksum, whatever the body holds is a game or "damaged": never another exception."""

    def bodies(self):
        good = good_content()

        def changed(change):
            content = good_content()
            change(content)
            return coded(content)

        deep = b"[" * 600 + b"]" * 600
        yield "no actions", changed(lambda c: c.pop("actions"))
        yield "no redo", changed(lambda c: c.pop("redo"))
        yield "actions not a list", changed(lambda c: c.update(actions=5))
        yield "redo not a list", changed(lambda c: c.update(redo={"a": 1}))
        yield "game a number", changed(lambda c: c.update(game=5))
        yield "game a list", changed(lambda c: c.update(game=["battlerealm"]))
        yield "game missing", changed(lambda c: c.pop("game"))
        no_actions = good_content()
        no_actions["actions"] = []
        yield "actions nested 600 deep", coded(no_actions).replace(b'"actions": []', b'"actions": ' + deep)
        yield "base nested 600 deep", coded(good).replace(b'"~o": []', b'"~o": ' + deep)
        yield "heroes not a list", changed(lambda c: c["base"].update(heroes="Hulk"))
        yield "a hero not fields", changed(lambda c: c["base"]["heroes"].append(7))
        yield "no heroes", changed(lambda c: c["base"].update(heroes=[]))
        yield "whose turn beyond the heroes", changed(lambda c: c["base"].update(turn=3))
        yield "whose turn negative", changed(lambda c: c["base"].update(turn=-1))
        yield "place out of range", changed(lambda c: c["base"]["heroes"][0].update(place=99))
        yield "negative PVP", changed(lambda c: c["base"]["heroes"][1].update(pvp=-4))
        yield "PVP as text", changed(lambda c: c["base"]["heroes"][1].update(pvp="12"))
        yield "PVP true", changed(lambda c: c["base"]["heroes"][1].update(pvp=True))
        yield "an unknown ability", changed(lambda c: c["base"]["heroes"][0].update(abilities=["Flying"]))
        yield "negated by hero 9", changed(lambda c: c["base"]["heroes"][0].update(negated_by=9))
        yield "an Attack on hero 9", changed(lambda c: c["base"].update(attacks=[[9, 1, 0, 0, 0, 0, 0]]))
        yield "an Attack of text", changed(lambda c: c["base"].update(attacks=["x"]))
        yield "round missing", changed(lambda c: c["base"].pop("round"))
        yield "an action of nothing", changed(lambda c: c.update(actions=[[]]))
        yield "an action with a dict", changed(lambda c: c.update(actions=[["attack", {}, 2, True]]))

    def test_each_is_refused_as_damaged(self):
        for what, body in self.bodies():
            for schema in (3, SCHEMA):
                try:
                    decode(sealed(body, schema))
                except SaveError:
                    continue
                self.fail("%s (schema %d) was loaded" % (what, schema))

    def test_an_impossible_game_of_each_kind_is_refused(self):
        from dicetower.core.games.battleworld.tracker import Battleworld
        from dicetower.core.games.champions.tracker import new_game as champions

        def bad(game, change):
            content = game.to_dict()
            change(content["base"])
            return sealed(coded(content))

        cases = (
            ("no players", bad(champions(2, {}), lambda b: b.update(heroes=[]))),
            ("first player beyond", bad(champions(2, {}), lambda b: b.update(first=5))),
            ("a stage beyond", bad(champions(2, {}), lambda b: b["areas"][0]["scheme"].update(stage=7))),
            ("negative threat", bad(champions(2, {}), lambda b: b["areas"][0]["scheme"].update(threat=-3))),
            ("a team beyond", bad(United.setup([{"name": "Medusa"}]), lambda b: b["heroes"][0].update(team=1))),
            ("negative KO", bad(United.setup([{"name": "Medusa"}]), lambda b: b["heroes"][0].update(ko=-1))),
            ("a row off the chart", bad(Battleworld.setup(2), lambda b: b.update(starting=9))),
            ("a battle of text", bad(Battleworld.setup(2), lambda b: b.update(battles=["Battle 1"]))),
        )
        for what, data in cases:
            try:
                decode(data)
            except SaveError:
                continue
            self.fail("%s was loaded" % what)

    def test_a_too_big_save_is_refused_before_it_is_read(self):
        from dicetower.core.savefile import LARGEST

        flash = Unreadable()
        big = b"DICETOWER 4 00000000 1\n" + b" " * 300000
        flash.files[PATH] = bytearray(big)
        game, message = SaveStore(PATH, flash).load()
        self.assertIsNone(game)
        self.assertIn("game.sav is %d bytes; the tower reads at most %d" % (len(big), LARGEST), message)
        self.assertIn("It is kept as game.sav.bad1.", message)
        self.assertEqual(bytes(flash.files[PATH + ".bad1"]), big)

    def test_the_store_loads_or_keeps_aside_whatever_is_on_flash(self):
        for what, body in self.bodies():
            flash = Flash({PATH: sealed(body)})
            game, message = SaveStore(PATH, flash).load()
            self.assertIsNone(game, what)
            self.assertIn("It is kept as game.sav.bad1.", message)
            self.assertEqual(bytes(flash.files[PATH + ".bad1"]), sealed(body))

    def test_the_same_with_only_the_temporary_file(self):
        # The only save there is, damaged: kept aside and said, not deleted without a word.
        for what, body in self.bodies():
            flash = Flash({PATH + ".tmp": sealed(body)})
            game, message = SaveStore(PATH, flash).load()
            self.assertIsNone(game, what)
            self.assertTrue(message.startswith("The last save could not be loaded: "), message)
            self.assertTrue(message.endswith(". It is kept as game.sav.bad1."), message)
            self.assertEqual(list(flash.files), [PATH + ".bad1"])
            self.assertEqual(bytes(flash.files[PATH + ".bad1"]), sealed(body))


class Unreadable(Flash):
    """A flash whose big files cannot be read: as a Pico's heap could not hold them."""

    def open(self, path, mode):
        from dicetower.core.savefile import LARGEST

        if "r" in mode and len(self.files.get(path, b"")) > LARGEST:
            raise MemoryError("read %s whole" % path)
        return Flash.open(self, path, mode)


def saved(game):
    flash = Flash()
    SaveStore(PATH, flash).write(game)
    return flash


class KeptGames(unittest.TestCase):
    def test_a_newer_save_is_kept_and_offered_again_after_an_upgrade(self):

        game = small_game()
        newer = encode(game).replace(("DICETOWER %d " % SCHEMA).encode(), ("DICETOWER %d " % (SCHEMA + 1)).encode(), 1)
        flash = Flash({PATH: sealed(newer.split(b"\n", 1)[1], SCHEMA + 1)})
        loaded, message = SaveStore(PATH, flash).load()
        self.assertIsNone(loaded)
        self.assertIn(
            "saved by a newer firmware (save format %d; this one reads 1 to %d)" % (SCHEMA + 1, SCHEMA), message
        )
        self.assertIn("It is kept as game.sav.newer1", message)
        self.assertIsNone(SaveStore(PATH, flash).find_kept())  # not offered: this firmware cannot read it
        SaveStore(PATH, flash).write(United.setup([{"name": "Medusa"}]))  # the older firmware plays on
        from dicetower import saves
        from dicetower.core import save_reader

        reader = saves.SaveStore._reader
        schema, migrations = save_reader.SCHEMA, save_reader.MIGRATIONS
        save_reader.SCHEMA = SCHEMA + 1  # the update: a firmware that reads the next save format
        save_reader.MIGRATIONS = dict(migrations)
        save_reader.MIGRATIONS[SCHEMA] = lambda body: body
        saves.SaveStore._reader = lambda self: (
            save_reader
        )  # that reader, each time (saves.py forgets the module after use)
        try:
            again = SaveStore(PATH, flash)
            resumed, message = again.load()
            self.assertIsNone(message)
            self.assertEqual(resumed.KIND, "united")
            self.assertEqual(again.kept, (PATH + ".newer1", "battlerealm"))
            self.assertEqual(again.bring_back().to_dict(), game.to_dict())
            self.assertEqual(SaveStore(PATH, flash).load()[0].to_dict(), game.to_dict())
            self.assertEqual(again.kept, (PATH + ".old1", "united"))  # the game it replaced is kept in turn
        finally:
            save_reader.SCHEMA, save_reader.MIGRATIONS = schema, migrations
            saves.SaveStore._reader = reader

    def test_a_replaced_game_is_kept_and_brought_back(self):
        first = small_game()
        flash = saved(first)
        store = SaveStore(PATH, flash)
        store.keep_replaced()
        self.assertFalse(flash.exists(PATH))
        self.assertEqual(bytes(flash.files[PATH + ".old1"]), encode(first))
        self.assertEqual(store.kept, (PATH + ".old1", "battlerealm"))
        second = United.setup([{"name": "Medusa"}])
        store.write(second)
        self.assertEqual(store.bring_back().to_dict(), first.to_dict())
        self.assertEqual(SaveStore(PATH, flash).load()[0].to_dict(), first.to_dict())
        self.assertEqual(bytes(flash.files[PATH + ".old1"]), encode(second))  # swapped, nothing lost

    def test_a_damaged_kept_game_is_set_aside_with_its_reason_before_it_is_offered(self):
        """At power-up each kept game is replayed and checked as a game to resume is: one that fails is
        kept as damaged, said with its reason, and the next one is offered instead."""
        games = [United.setup([{"name": "Hero%d" % n}]) for n in range(3)]
        flash = Flash()
        for n, game in enumerate(games):
            flash.files[PATH + ".old%d" % (n + 1)] = bytearray(encode(game))
        impossible = games[2].to_dict()
        impossible["base"]["heroes"][0]["ko"] = -4  # checksum-valid, yet no game holds it
        flash.files[PATH + ".old3"] = bytearray(sealed(coded(impossible)))
        flash.files[PATH] = bytearray(encode(small_game()))
        store = SaveStore(PATH, flash)
        game, message = store.load()
        self.assertEqual(game.KIND, "battlerealm")
        self.assertTrue(message.startswith("The kept game game.sav.old3 could not be brought back: "), message)
        self.assertTrue(message.endswith(". It is kept as game.sav.bad1."), message)
        self.assertEqual(bytes(flash.files[PATH + ".bad1"]), sealed(coded(impossible)))
        self.assertEqual(store.kept, (PATH + ".old2", "united"))  # the next newest, which replays
        self.assertEqual(store.bring_back().to_dict(), games[1].to_dict())

    def test_only_the_last_three_replaced_games_are_kept(self):
        flash = Flash()
        store = SaveStore(PATH, flash)
        games = []
        for n in range(5):
            game = United.setup([{"name": "Hero%d" % n}])
            games.append(game)
            store.keep_replaced()
            store.write(game)
        store.keep_replaced()
        self.assertEqual(sorted(k for k in flash.files), [PATH + ".old1", PATH + ".old2", PATH + ".old3"])
        for n in range(3):
            self.assertEqual(bytes(flash.files[PATH + ".old%d" % (n + 1)]), encode(games[n + 2]))
        self.assertEqual(store.kept[0], PATH + ".old3")  # the newest is offered
        store.write(United.setup([{"name": "Now"}]))
        self.assertEqual(store.bring_back().to_dict(), games[4].to_dict())
        self.assertEqual(len([k for k in flash.files if k.startswith(PATH + ".old")]), 3)
        self.assertEqual(store.kept[0], PATH + ".old3")  # swapped: "Now" is offered in turn
        self.assertEqual(bytes(flash.files[PATH + ".old3"]), encode(United.setup([{"name": "Now"}])))

    def test_a_power_cut_while_a_game_comes_back_loses_neither(self):
        first, second = small_game(), United.setup([{"name": "Medusa"}])
        flash = saved(first)
        store = SaveStore(PATH, flash)
        store.keep_replaced()
        store.write(second)
        for renames in range(3):
            trial = flash.copy()
            trial.cut_after(0)
            trial.renames_left = renames  # the power goes after this many of bring_back's renames
            again = SaveStore(PATH, trial)
            again.find_kept()
            try:
                again.bring_back()
            except PowerCut:
                pass
            trial.budget = None
            trial.renames_left = None
            loaded, message = SaveStore(PATH, trial).load()
            self.assertIsNone(message)
            kinds = [loaded.KIND, SaveStore(PATH, trial).find_kept()[1]]
            self.assertEqual(sorted(kinds), ["battlerealm", "united"], renames)
            self.assertEqual(sorted(trial.files), [PATH, PATH + ".old1"])


class FullFlash(Flash):
    def open(self, path, mode):
        if "w" in mode:
            raise OSError(28, "No space left on device")
        return Flash.open(self, path, mode)


class SaysWhenOff(unittest.TestCase):
    def test_a_save_that_fails_while_flushed_before_a_new_game_is_said_to_the_players(self):
        """keep_replaced writes the save under way first: if the flash refuses, the players are told, as
        when the loop's own step fails (it was dropped silently once the queue moved into the store)."""
        store = SaveStore(PATH, FullFlash())
        said = []
        store.say = said.append
        store.save(small_game())
        store.keep_replaced()
        self.assertFalse(store.pending())
        self.assertEqual(len(said), 1)
        self.assertTrue(said[0].startswith("Saves are off ("), said)


class Sweep(unittest.TestCase):
    """The settings files (config.json, heroes.json, setup.json) are written whole through
    hw/storage.replace: a cut leaves `<name>.tmp`, which boot sweeps (startup.sweep)."""

    def cut_everywhere(self, flash, name, text):
        """Cut the power at every byte of writing `text` to `name`, boot's sweep after each: what is
        left under the name (None: no file), and never a temporary file."""
        from dicetower.hw.storage import replace
        from dicetower.startup import sweep

        left = []
        for cut in range(len(text) + 3):
            trial = flash.copy()
            trial.cut_after(cut)
            try:
                replace(trial, "/" + name, text)
            except PowerCut:
                pass
            trial.budget = None  # power back on
            sweep(trial, "/", lambda line: None)
            self.assertEqual([p for p in trial.files if p.endswith(".tmp")], [], "cut after %d bytes" % cut)
            found = trial.files.get("/" + name)
            left.append(None if found is None else bytes(found).decode())
        return left

    def test_a_cut_while_setup_json_is_first_written_leaves_nothing(self):
        text = '{"champions": {"count": 2}}'
        left = self.cut_everywhere(Flash(), "setup.json", text)
        # Every byte written, the rename cut: the whole file, alone under its temporary name, is taken.
        self.assertEqual(left, [None] * len(text) + [text] * 3)

    def test_a_cut_while_config_json_is_rewritten_leaves_the_old_or_the_new(self):
        old, new = '{"brightness": 100}', '{"brightness": 70, "sounds": false}'
        left = self.cut_everywhere(Flash({"/config.json": old.encode()}), "config.json", new)
        self.assertEqual(left, [old] * (len(new) + 1) + [new] * 2)

    def test_on_littlefs_config_json_is_written_over_in_place_and_a_cut_leaves_the_old_or_the_new(self):
        old, new = '{"brightness": 100}', '{"brightness": 70, "sounds": false}'
        left = self.cut_everywhere(LfsFlash({"/config.json": old.encode()}), "config.json", new)
        self.assertEqual(left, [old] * (len(new) + 1) + [new] * 2)

    def test_on_fat_a_whole_file_left_alone_by_the_cut_is_the_file(self):
        # FAT cannot rename over a file: the old one is removed first, and a cut there leaves the new one
        # whole under its temporary name only.
        old, new = '{"heroes": []}', '{"heroes": [{"name": "Wasp", "pvp": 11}]}'
        left = self.cut_everywhere(FatFlash({"/heroes.json": old.encode()}), "heroes.json", new)
        self.assertEqual(left, [old] * (len(new) + 1) + [new] * 2)

    def test_only_the_firmwares_own_temporary_files_go(self):
        from dicetower.startup import sweep

        flash = Flash({"/notes.txt.tmp": b"a maker's", "/game.sav.tmp": b"DICE", "/setup.json.tmp": b"{"})
        sweep(flash, "/", lambda line: None)
        self.assertEqual(sorted(flash.files), ["/game.sav.tmp", "/notes.txt.tmp"])  # game.sav's is the store's
