"""The check of a flash at boot (dicetower/launch.py, which main.py calls), and "reflash needed" on the OLED. CPython and the VM."""

import json
import os
import unittest

import devices

from dicetower import launch
from dicetower.startup import show_on_oled
from table import _root
from tower import read_line

try:
    from hashlib import sha256
except ImportError:  # pragma: no cover - every port these tests run on has it
    sha256 = None
from binascii import hexlify


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def hex_of(data):
    return hexlify(sha256(data).digest()).decode()


class Flashed(unittest.TestCase):
    """A root with two firmware files and the manifest a flash writes last."""

    def setUp(self):
        self.root = _root()
        try:
            os.mkdir(self.root + "fwcheck")
        except OSError:
            pass
        self.files = {"fwcheck/a.mpy": b"M\x06\x00\x1f" + bytes(range(200)), "fwcheck/b.mpy": b"M\x06" + b"x" * 700}
        for path, data in self.files.items():
            write(self.root + path, data)
        self.manifest({p: hex_of(d) for p, d in self.files.items()})

    def tearDown(self):
        for name in ("fwcheck/a.mpy", "fwcheck/b.mpy", launch.MANIFEST):
            try:
                os.remove(self.root + name)
            except OSError:
                pass
        os.rmdir(self.root + "fwcheck")

    def manifest(self, files, complete=True, was=None, checked=False):
        manifest = {"version": "0.1.0", "complete": complete, "files": files}
        if was is not None:
            manifest["was"] = was
        if checked:
            manifest["checked"] = True
        write(self.root + launch.MANIFEST, json.dumps(manifest).encode())

    def test_a_whole_flash_boots(self):
        self.assertIsNone(launch.check(self.root))

    def test_no_manifest_is_a_copy_by_hand_and_is_not_checked(self):
        os.remove(self.root + launch.MANIFEST)
        self.assertIsNone(launch.check(self.root))

    def test_a_damaged_file_is_named(self):
        with open(self.root + "fwcheck/b.mpy", "r+b") as f:
            f.seek(300)
            f.write(b"\xff")  # one byte flipped in flash
        problem, damaged = launch.check(self.root)
        self.assertEqual(damaged, ["fwcheck/b.mpy"])
        self.assertEqual(problem, "1 file damaged: fwcheck/b.mpy")

    def test_a_flash_the_board_checked_is_trusted_at_boot_without_hashing(self):
        """`dicetower flash` has the board run this check once, then marks the manifest "checked": boots
        skip the hashing (a third of a second on a Pico). A flash cut short is still refused."""
        self.manifest({p: hex_of(d) for p, d in self.files.items()}, checked=True)
        with open(self.root + "fwcheck/b.mpy", "r+b") as f:
            f.seek(300)
            f.write(b"\xff")  # changed after the check: not hashed again
        self.assertIsNone(launch.check(self.root))
        self.manifest({p: hex_of(d) for p, d in self.files.items()}, complete=False, checked=True)
        self.assertEqual(launch.check(self.root)[0], "the last flash did not finish")

    def test_a_missing_file_is_named(self):
        os.remove(self.root + "fwcheck/a.mpy")
        problem, damaged = launch.check(self.root)
        self.assertEqual(damaged, ["fwcheck/a.mpy"])
        write(self.root + "fwcheck/a.mpy", b"")  # for tearDown

    def test_an_interrupted_flash_says_so(self):
        self.manifest({p: hex_of(d) for p, d in self.files.items()}, complete=False)
        self.assertEqual(launch.check(self.root), ("the last flash did not finish", []))
        os.remove(self.root + "fwcheck/b.mpy")  # not copied yet when the cable came out
        self.assertEqual(launch.check(self.root), ("the last flash did not finish", ["fwcheck/b.mpy"]))
        write(self.root + "fwcheck/b.mpy", b"")  # for tearDown

    def test_mid_flash_a_whole_file_of_the_release_being_replaced_is_not_damaged(self):
        """The incomplete manifest keeps the hashes of the files the flash replaces ("was"): a cut leaves each
        of main.py and the notice's modules whole, old or new, and the notice may load them; a file cut in
        the middle of its copy is neither, and is named."""
        new = {"fwcheck/a.mpy": hex_of(b"the new a"), "fwcheck/b.mpy": hex_of(b"the new b")}
        write(self.root + "fwcheck/a.mpy", b"the new a")  # copied; b.mpy is still the old release's
        self.manifest(new, complete=False, was={"fwcheck/b.mpy": hex_of(self.files["fwcheck/b.mpy"])})
        self.assertEqual(launch.check(self.root), ("the last flash did not finish", []))
        write(self.root + "fwcheck/b.mpy", b"the ne")  # the cable came out in the middle of b.mpy
        self.assertEqual(launch.check(self.root), ("the last flash did not finish", ["fwcheck/b.mpy"]))
        write(self.root + "fwcheck/b.mpy", self.files["fwcheck/b.mpy"])
        self.manifest(new, was={"fwcheck/b.mpy": hex_of(self.files["fwcheck/b.mpy"])})  # complete: no old file
        self.assertEqual(launch.check(self.root), ("1 file damaged: fwcheck/b.mpy", ["fwcheck/b.mpy"]))

    def test_a_new_main_py_or_launch_under_the_last_flashs_manifest_is_a_flash_cut_short(self):
        """A flash puts dicetower/launch and main.py in place first: cut right after either, the old manifest
        is still complete."""
        made = "dicetower" not in os.listdir(self.root)
        if made:
            os.mkdir(self.root + "dicetower")
        for path in ("main.py", "dicetower/launch.mpy"):
            self.manifest(dict([(path, hex_of(b"the old one"))] + [(p, hex_of(d)) for p, d in self.files.items()]))
            write(self.root + path, b"the new one")
            try:
                self.assertEqual(launch.check(self.root), ("the last flash did not finish", [path]))
            finally:
                os.remove(self.root + path)
        if made:
            os.rmdir(self.root + "dicetower")

    def test_a_garbled_manifest_is_not_trusted(self):
        write(self.root + launch.MANIFEST, b'{"files": {"fwcheck/a.mpy": ')
        self.assertEqual(launch.check(self.root)[0], "the manifest is damaged")

    def test_a_manifest_of_the_wrong_shape_or_bytes_is_not_trusted(self):
        for text in (
            b'{"complete": true, "files": ["fwcheck/a.mpy"]}',
            b'{"complete": true, "files": 7}',
            b'{"complete": true, "files": {"fwcheck/a.mpy": 7}}',
            b'{"files": {}, "complete": \xff}',
            b'{"complete": false, "files": {}, "was": ["fwcheck/a.mpy"]}',
            b"\xff\xfe\x00garbage",
        ):
            write(self.root + launch.MANIFEST, text)
            self.assertEqual(launch.check(self.root), ("the manifest is damaged", ()))

    def test_a_huge_or_deeply_nested_manifest_is_not_read_whole_and_not_trusted(self):
        """Bounded before it is parsed: a file of hundreds of KB would take a Pico's heap at boot."""
        huge = b'{"complete": true, "files": {' + b" " * (launch.MANIFEST_MOST + 10) + b"}}"
        for text in (huge, b'{"complete": true, "files": ' + b"[" * 5000 + b"]" * 5000 + b"}"):
            write(self.root + launch.MANIFEST, text)
            self.assertEqual(launch.check(self.root), ("the manifest is damaged", ()))


class Notice(unittest.TestCase):
    def test_reflash_needed_is_shown_on_the_oled_and_the_console(self):
        bench = devices.reset()
        root = _root()
        with open(root + "boards/pico.json") as f:
            panel, strip = devices.wire(bench, json.loads(f.read()))
        platform = devices.Platform(bench, root)
        show_on_oled(platform, "REFLASH NEEDED", "Reflash needed: 1 file damaged: dicetower/ui/flow.mpy.")
        screen = [read_line(panel.ram, page) for page in range(8)]
        self.assertEqual(screen[0], "REFLASH NEEDED")
        self.assertIn("dicetower/ui/flow.mpy.", " ".join(screen))
        self.assertTrue(panel.on)

    def test_without_an_oled_nothing_breaks(self):
        bench = devices.reset()
        root = _root()
        with open(root + "boards/pico.json") as f:
            panel, strip = devices.wire(bench, json.loads(f.read()))
        panel.present = False
        platform = devices.Platform(bench, root)
        show_on_oled(platform, "REFLASH NEEDED", "Reflash needed: the last flash did not finish.")
        self.assertEqual(panel.bytes_received, 0)  # nothing answered, nothing raised


class SavedBattlerealm(unittest.TestCase):
    """launch.boot() makes the advisor's work arrays first, while the heap is whole, only when the game saved
    on flash is a Battlerealm one (core/games/battlerealm/work_arrays.py): told by the save's "game" key, wherever the body has it.
    With a Lucky hero seated, all of the advice too: Lucky's search loaded after a quick press had resumed
    the game found no block for its code on a Pico (tests/test_rp2040.py)."""

    def setUp(self):
        self.root = _root()

    def saved(self, data):
        write(self.root + "game.sav", data)
        return launch._saved_battlerealm(self.root)

    def test_a_saved_battlerealm_game_is_told_by_its_game_key(self):
        from dicetower.core import savefile
        from dicetower.core.games.battlerealm import tracker as battlerealm
        from dicetower.core.games.champions import tracker as champions

        self.assertEqual(self.saved(savefile.encode(battlerealm.new_game(4, {}))), ("work_arrays",))
        self.assertEqual(self.saved(savefile.encode(champions.new_game(2, {}))), ())

    def test_a_saved_game_with_a_lucky_hero_seated_loads_the_whole_advice_first(self):
        from dicetower.core import savefile
        from dicetower.core.games.battlerealm import tracker as battlerealm

        lucky = {"name": "Hulk", "pvp": 10, "abilities": ["Lucky"], "primary": "", "cards": []}
        thor = {"name": "Thor", "pvp": 10, "abilities": ["Tough"], "primary": "", "cards": []}
        storm = {"name": "Storm", "pvp": 10, "abilities": ["Flight"], "primary": "", "cards": []}
        plain = savefile.encode(battlerealm.new_game(2, {}))  # the built-in heroes: none has Lucky
        self.assertEqual(self.saved(plain), ("work_arrays",))
        seated = savefile.encode(battlerealm.new_game(2, {"heroes": [thor, lucky]}))
        self.assertEqual(self.saved(seated), ("work_arrays", "ranks", "keeps", "lucky_tables", "lucky", "advisor"))
        # Lucky in the roster but not at the table: the game's own heroes decide.
        self.assertEqual(
            self.saved(savefile.encode(battlerealm.new_game(2, {"heroes": [thor, storm, lucky]}))), ("work_arrays",)
        )

    def test_no_save_or_a_damaged_one_makes_no_work_arrays(self):
        self.assertEqual(self.saved(b""), ())
        self.assertEqual(self.saved(b"\xff" * 300), ())
        os.remove(self.root + "game.sav")
        self.assertEqual(launch._saved_battlerealm(self.root), ())
