"""The firmware's written protocols, and every class that implements one offering all of it.

Three protocols are written down once, each in a module docstring of the lowest layer that needs
it: the entropy source and the dice (core/entropy.py), the platform, the runtime seam
(hw/platform.py). This test reads the members from those docstrings, finds the implementations
(every class with a `fill(buf)` or a `draw(die)`, in the firmware, the host tools and the
firmware's tests; every platform), makes one of each and checks it has them all.
"""

import ast
import os
import re
import time

from conftest import FIRMWARE, ROOT

ENTROPY = os.path.join(FIRMWARE, "dicetower", "core", "entropy.py")
PLATFORM = os.path.join(FIRMWARE, "dicetower", "hw", "platform.py")
MEMBER = re.compile(r"^    (\w+)(\([^)]*\))?\s{2,}\S")


def protocol(path, heading):
    """[(member, is a call)] of the protocol whose paragraph in `path`'s docstring starts with `heading`."""
    with open(path) as f:
        doc = ast.get_docstring(ast.parse(f.read()))
    lines = doc.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    while not lines[start].endswith(":"):  # the heading may run over lines
        start += 1
    members = []
    for line in lines[start + 1 :]:
        found = MEMBER.match(line)
        if not found:
            break
        members.append((found.group(1), found.group(2) is not None))
    assert len(members) >= 2, "no members under %r in %s" % (heading, path)
    return members


SOURCE = protocol(ENTROPY, "An entropy source")
DICE = protocol(ENTROPY, "Dice give faces")
RUNTIME = protocol(PLATFORM, "A platform, the runtime seam")


def implementations(method, parameter):
    """{(file relative to the repository, class name)} of module-level classes with `method(self, parameter)`."""
    found = set()
    for top in ("firmware", "host_tools", os.path.join("tests", "fw")):
        for folder, dirs, names in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in names:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                with open(path) as f:
                    tree = ast.parse(f.read())
                for node in tree.body:
                    if not isinstance(node, ast.ClassDef):
                        continue
                    for item in node.body:
                        if (
                            isinstance(item, ast.FunctionDef)
                            and item.name == method
                            and [a.arg for a in item.args.args[1:2]] == [parameter]
                        ):
                            found.add((os.path.relpath(path, ROOT).replace(os.sep, "/"), node.name))
    return found


class Registers(dict):
    """mem32 for the chip's noise sources: a register not written reads 1 (a random bit of 1; the
    TRNG's "data valid" with no error flags)."""

    def __missing__(self, address):
        return 1


def sources():
    from sources import BiasedBits, Counter, Cycle, FairBits, Noise, Pattern

    from dicetower.core.replay import SeededSource
    from dicetower.hw.entropy import RoscBits, Urandom
    from dicetower.hw.trng import Rp2350Trng

    return {
        ("firmware/dicetower/hw/entropy.py", "Urandom"): Urandom(lambda n: bytes(range(n))),
        ("firmware/dicetower/hw/entropy.py", "RoscBits"): RoscBits("RP2040", Registers(), lambda us: None),
        ("firmware/dicetower/hw/trng.py", "Rp2350Trng"): Rp2350Trng(Registers()),
        ("firmware/dicetower/core/replay.py", "SeededSource"): SeededSource(7),
        ("tests/fw/sources.py", "Pattern"): Pattern(b"\x01\x02"),
        ("tests/fw/sources.py", "BiasedBits"): BiasedBits(0.8),
        ("tests/fw/sources.py", "FairBits"): FairBits(),
        ("tests/fw/sources.py", "Noise"): Noise(),
        ("tests/fw/sources.py", "Cycle"): Cycle(300),
        ("tests/fw/sources.py", "Counter"): Counter(binary=True),
    }


def dice():
    from dicetower.core.entropy import FairDice
    from dicetower.core.replay import ScriptedFaces, SeededSource
    from dicetower_host.sim import TeachingFaces

    return {
        ("firmware/dicetower/core/entropy.py", "FairDice"): FairDice(SeededSource(7)),
        ("firmware/dicetower/core/replay.py", "ScriptedFaces"): ScriptedFaces(["Mutant"]),
        ("host_tools/dicetower_host/sim/__init__.py", "TeachingFaces"): TeachingFaces(
            ["Mutant"], FairDice(SeededSource(7))
        ),
        ("firmware/dicetower/core/sealed.py", "SealedDice"): sealed(FairDice(SeededSource(7))),
    }


def sealed(tower):
    """The tower's dice sealed as a game throws them: the cut made (an empty one), a throw open (a sealed
    face is drawn in a throw only)."""
    from dicetower.core.dice import BATTLEREALM
    from dicetower.core.game import NO_HERO
    from dicetower.core.sealed import SealedDice
    from dicetower.ui.resealing import dice_text

    seal = SealedDice(tower, bytes(32), "battlerealm", 4, 1, dice_text([BATTLEREALM]))
    seal.close()
    seal.throw(0, NO_HERO, 0)
    return seal


def platforms(monkeypatch):
    """A platform of each kind: MicroPython's and CircuitPython's own (over the virtual `machine` and
    CircuitPython modules), and the virtual boards the tests and the simulator run."""
    from dicetower_host import sim

    sim.use_virtual_parts("circuitpython")
    import devices
    import onbench

    from dicetower.hw import circuitpy, platform

    # MicroPython's time, which CPython's lacks.
    monkeypatch.setattr(time, "ticks_ms", lambda: 0, raising=False)
    monkeypatch.setattr(time, "ticks_us", lambda: 0, raising=False)
    monkeypatch.setattr(time, "ticks_diff", lambda a, b: a - b, raising=False)
    monkeypatch.setattr(time, "sleep_us", lambda us: None, raising=False)
    root = sim.prepare_root(None)
    bench = devices.reset()
    return {
        "MicroPython (hw/platform.Platform)": platform.Platform(),
        "CircuitPython (hw/circuitpy.Platform)": circuitpy.Platform(),
        "virtual MicroPython board (dicetower_host/virtual_parts/devices.Platform)": devices.Platform(bench, root),
        "virtual CircuitPython board (dicetower_host/virtual_parts/circuitpython/onbench.Platform)": onbench.Platform(
            bench, root
        ),
    }


def missing(thing, members):
    out = []
    for name, call in members:
        if not hasattr(thing, name):
            out.append(name)
        elif call and not callable(getattr(thing, name)):
            out.append(name + " (not callable)")
    return out


def test_the_protocols_are_written_down():
    assert SOURCE == [("name", False), ("binary", False), ("min_entropy", False), ("fill", True)]
    assert DICE == [("name", False), ("failure", False), ("draw", True), ("recover", True)]
    assert [m for m, _ in RUNTIME][:3] == ["root", "machine_name", "files"]
    assert ("entropy_sources", True) in RUNTIME and ("ticks_diff", True) in RUNTIME


def test_every_entropy_source_is_checked_and_offers_the_protocol():
    made = sources()
    assert implementations("fill", "buf") == set(made), "a source this test does not make: add it to sources()"
    for where, source in made.items():
        assert not missing(source, SOURCE), (where, missing(source, SOURCE))
        buf = bytearray(16)
        source.fill(buf)
        assert all(b < 2 for b in buf) if source.binary else any(buf), where


def test_every_kind_of_dice_is_checked_and_offers_the_protocol():
    from dicetower.core.dice import BATTLEREALM

    made = dice()
    assert implementations("draw", "die") == set(made), "dice this test does not make: add them to dice()"
    for where, faces in made.items():
        assert not missing(faces, DICE), (where, missing(faces, DICE))
        assert faces.failure is None and isinstance(faces.name, str)
        assert 0 <= faces.draw(BATTLEREALM) < 6, where


def test_every_platform_offers_the_runtime_seam(monkeypatch):
    made = platforms(monkeypatch)
    for kind, board in made.items():
        assert not missing(board, RUNTIME), (kind, missing(board, RUNTIME))
        assert board.ticks_diff(5, 3) == 2, kind
        assert all(hasattr(s, "fill") for s in board.entropy_sources()), kind


def test_a_class_short_of_a_protocol_is_reported():
    """The checks above can fail: a source without `min_entropy` is missing it."""

    class Unsure:
        name = "no claim"
        binary = False

        def fill(self, buf):
            pass

    assert missing(Unsure(), SOURCE) == ["min_entropy"]
