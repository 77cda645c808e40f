"""Saved games: format, checks, migration, power cuts. Runs on CPython and the VM."""

import unittest

from dicetower.core.game import Refused
from dicetower.core.games.battlerealm import Battlerealm
from dicetower.core.games.united import United
from dicetower.core.store import SCHEMA, SaveError, checksum, decode, encode
from dicetower.saves import SaveStore
from fake_flash import FatFlash, Flash, PowerCut

PATH = "/game.sav"


def small_game():
    game = Battlerealm.setup([{"name": "Hulk", "pvp": 10, "abilities": ["Tough"]},
                              {"name": "Thor", "pvp": 12}, {"name": "Vision", "pvp": 8}])
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
        self.assertEqual(int(words[2], 16), checksum(body))
        self.assertEqual(int(words[3]), len(body))

    def test_crc32_is_the_zlib_one(self):
        from dicetower.core import store

        self.assertEqual(checksum(b"123456789"), 0xCBF43926)
        saved = store._crc32
        store._crc32 = None  # the pure-Python fallback gives the same
        try:
            self.assertEqual(checksum(b"123456789"), 0xCBF43926)
        finally:
            store._crc32 = saved

    def test_damage_is_refused_with_a_reason(self):
        data = encode(small_game())
        flipped = bytearray(data)
        flipped[-5] ^= 0x20
        cases = ((bytes(flipped), "checksum"), (data[:-3], "cut short"), (b"hello", "not a dicetower save"),
                 (data.replace(("DICETOWER %d" % SCHEMA).encode(), b"DICETOWER 9", 1), "save format 9"),
                 (b"DICETOWER x y z\n{}", "header is damaged"))
        for bad, words in cases:
            with self.assertRaises(SaveError) as caught:
                decode(bad)
            self.assertIn(words, str(caught.exception))

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
        body = json.dumps(content).encode()
        old = ("DICETOWER 1 %08x %d\n" % (checksum(body), len(body))).encode() + body
        self.assertEqual(decode(old).state, game.state)

    def test_schema_2_is_migrated_with_every_hero_at_no_location(self):
        import json

        from dicetower.core.store import KEYS, WORDS, _rename, _table

        game = small_game()
        content = game.to_dict()
        for hero in content["base"]["heroes"]:
            del hero["place"]  # schema 2 kept no place and no Warehouse purchases
        del content["base"]["bought"]
        words = _table(WORDS[:50], "=")  # the codes schema 2 knew
        content["base"] = _rename(content["base"], _table(KEYS[:57], "~"), words)
        content["actions"] = _rename(content["actions"], {}, words)
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
        SaveStore(PATH, flash).save(game)
        game.do("end_turn")
        flash.cut_after(20)  # the power goes 20 bytes into saving the next action
        with self.assertRaises(PowerCut):
            SaveStore(PATH, flash).save(game)
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
    b'"actions":[["=0",0,"Ally 2",1],["=1",0,1]],"redo":[["=3",0,2]]}')


class SavesFromBefore(unittest.TestCase):
    def test_a_save_written_before_loads_and_is_written_back_in_the_same_codes(self):
        import json

        for data in OLD_SAVES:
            again = encode(decode(data))
            # The same codes for every key and word (compared as JSON: MicroPython's dicts keep no order).
            self.assertEqual(json.loads(again.split(b"\n", 1)[1]), json.loads(data.split(b"\n", 1)[1]))
            self.assertEqual(len(again), len(data))
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
        from dicetower.core import store

        class Game5:  # what a fifth game's module could add
            KEYS = ("lanes",)
            WORDS = ("Lane",)

        keys, words = store._codes(Game5)
        self.assertEqual(keys["lanes"], store._code(len(store.KEYS), "~"))
        self.assertEqual(words["Lane"], store._code(len(store.WORDS), "="))
        for name in store.KEYS:
            self.assertEqual(keys[name], store._KEY_CODES[name])  # the shared codes unchanged
        self.assertEqual(len(set(store._table(tuple("k%d" % n for n in range(80)), "~").values())), 80)


class Store(unittest.TestCase):
    def test_save_then_load(self):
        flash = Flash()
        store = SaveStore(PATH, flash)
        game = small_game()
        written = store.save(game)
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
                SaveStore(PATH, trial).save(new)
            except PowerCut:
                pass
            trial.budget = None  # power back on
            loaded, message = SaveStore(PATH, trial).load()
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
        old = small_game()
        flash = Flash()
        SaveStore(PATH, flash).save(old)
        new = decode(encode(old))
        new.do("end_turn")
        new.undo()  # the save carries a redo too
        outcomes, size = self.cut_everywhere(flash, old, new)
        self.assertEqual(outcomes, ["old"] * (size + 1) + ["new"] * 2)

    def test_power_cut_during_the_first_save(self):
        outcomes, size = self.cut_everywhere(Flash(), None, small_game())
        # Once every byte is written, the complete temporary file is the game.
        self.assertEqual(outcomes, ["none"] * size + ["new"] * 3)

    def test_power_cut_on_fat_where_rename_cannot_replace(self):
        old = small_game()
        flash = FatFlash()
        SaveStore(PATH, flash).save(old)
        new = decode(encode(old))
        new.do("end_turn")
        outcomes, size = self.cut_everywhere(flash, old, new)
        # Cut before the old file is removed: old; after (only the new temp file left): new.
        self.assertEqual(outcomes, ["old"] * (size + 1) + ["new"] * 2)

    def test_a_broken_body_with_a_good_checksum_is_refused(self):
        import json

        for body in (b"[1, 2]", b'{"game": "united", "base": {}, "actions": [], "redo": []}',
                     b'{"game": "united", "base": {"~a": []}, "actions": [], "redo": [["ko", 5]]}'):
            for schema in range(1, SCHEMA + 1):
                data = ("DICETOWER %d %08x %d\n" % (schema, checksum(body), len(body))).encode() + body
                with self.assertRaises(SaveError):
                    decode(data)
        game = United.setup([{"name": "Medusa"}])
        content = game.to_dict()
        content["redo"] = [["ko", 7]]
        body = json.dumps(content).encode()
        with self.assertRaises(SaveError):
            decode(("DICETOWER %d %08x %d\n" % (SCHEMA, checksum(body), len(body))).encode() + body)

    def test_damaged_file_is_moved_aside_and_kept(self):
        flash = Flash()
        SaveStore(PATH, flash).save(small_game())
        flash.files[PATH][40] ^= 1
        damaged = bytes(flash.files[PATH])
        game, message = SaveStore(PATH, flash).load()
        self.assertIsNone(game)
        self.assertIn("checksum", message)
        self.assertIn(PATH + ".bad1", message)
        self.assertEqual(bytes(flash.files[PATH + ".bad1"]), damaged)
        self.assertFalse(flash.exists(PATH))
        flash.files[PATH] = bytearray(b"DICETOWER 7 0 0\n")
        game, message = SaveStore(PATH, flash).load()
        self.assertIn(".bad2", message)
        self.assertIn("save format 7", message)

    def test_full_flash_keeps_the_game_in_memory_and_the_old_save(self):
        flash = Flash()
        store = SaveStore(PATH, flash)
        game = small_game()
        game.do("end_turn")
        store.save(game)
        saved = bytes(flash.files[PATH])
        flash.full_at = flash.written + 10
        self.assertEqual(game.do("land", 2), "Thor lands: +2 PVP.")
        with self.assertRaises(OSError):
            store.save(game)  # the device says "Saves are off" and plays on
        self.assertEqual(game.state["heroes"][1]["pvp"], 12 - 2 + 2)
        self.assertEqual(bytes(flash.files[PATH]), saved)
        flash.full_at = None
        game.undo()
        store.save(game)
        self.assertEqual(SaveStore(PATH, flash).load()[0].state, game.state)

    def test_every_game_kind_saves(self):
        game = United.setup([{"name": "Medusa"}, {"name": "Black Bolt"}])
        game.do("ko", 1)
        self.assertEqual(decode(encode(game)).state, game.state)
