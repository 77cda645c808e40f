"""The firmware on MicroPython's real rp2 port, measured on an emulated RP2040 at 125 MHz.

    .venv/bin/python benchmarks/rp2040_pico.py [--games battlerealm,united,...] [--no-advisor]
    .venv/bin/python benchmarks/rp2040_pico.py --board pico_w

MicroPython's own RPI_PICO v1.27.0 firmware (the file MicroPython publishes, named in the
environment as DICETOWER_RP2_FIRMWARE=FILE: the repository holds none) runs on rp2040js
(rp2040/emulator.mjs). The figures are the chip's: heap from `gc.mem_free()` on the rp2 port,
times in emulated microseconds at 125 MHz (`time.ticks_us` on the chip, or the emulator's clock
at the pins). The emulator is optimistic: flash reads have no wait states (no XIP cache misses),
flash erases and programs take no time, and its instruction timings are the Cortex-M0+'s nominal
ones. Wall times are this machine's, for the rig itself.

It prints: heap free at boot, after importing the firmware from .mpy, with the device booted,
and the lowest during a full four-player game of each mode (played through the core beside the
booted device at its start menu, each game after a soft reset of its own), and while each example is
played through the device itself (its press handling and its loop, 1.1 s of it after each press; the chip
seals the example's games with the seeds the simulator sealed them with, so it follows the example's path:
the menus, the dice's screen, the advisor and the seal are in these); per tap, emulated time from the
release to the OLED being updated (p50, p99) while the example games are played by GPIO (their games
sealed with the same seeds: the same path in every run), stage by
stage, and the five slowest taps (each with its pick-up, the work to its first byte and its bus time) and
app's works with their example's line; one redraw, one LED frame, a roll with its animation; the
advisor's hardest case and its Lucky case; the longest the main loop went without polling the buttons;
and the rig's wall times (boot, flash).

The firmware is installed as every player installs it: MicroPython's own firmware, then
`dicetower flash` (.mpy files on the flash).

With --board pico_w: MicroPython's own RPI_PICO_W v1.27.0 firmware (DICETOWER_RP2_W_FIRMWARE=FILE), the
pico_w profile flashed, and the heap only: free at boot, with the device booted, with the phones'
scoreboard made (its radio a stand-in: the emulator has no CYW43), and the lowest during each full game
with the scoreboard made. The times are the same chip's as a Pico's, above.

With --heap-map: what holds the Pico's heap, read from `micropython.mem_info(1)` (the kind of each
object's first word: B a function, D a dict, S a string or bytes, T a tuple, L a list, A an array or
bytearray, M a module, h anything else: bytecode, instances, the table of names' parts, the frame buffer),
at the start menu and at the lowest point of each full game (the scripted game of the other figures):
bytes by kind, the "h" pieces by size, the largest pieces, the free pieces, the table of names, and the
firmware's modules loaded, with the bytes of their .mpy files (their code's share of "h": what holds it).

With --imports: where a module's import and the boot go on a new board: the flash's file system asked
for a file at each depth of folders, and the four lookups an import makes at each depth (the folder, the
.py, the .mpy, then opens it), a .mpy read whole; a Battlerealm game's modules imported one an idle pass
in its descriptor's order, each timed (a pass the buttons wait through), and what an import costs beyond
its lookups and its read, per KB of .mpy; each module the boot loads imported alone (in the order of
their names: one a module imports is in its time), the boot's own work with its modules in, and a
collection at the start menu and with a Battlerealm game's modules in (the length of an idle pass that
collects).

With --install py: the firmware as `mpremote mip install` puts it on a board (every file of package.json's
"urls", as source, compiled onto the heap at each import), power-on to the start menu, each example
played by GPIO (played to its end: no error the device caught, each of which goes to errors.log, and its
last screen), and the lowest heap in each full game.
"""

import argparse
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

from vmprobe import chip_firmware  # noqa: E402

from dicetower_host import flash, paths  # noqa: E402
from dicetower_host.pico import EmulatedPico  # noqa: E402

ADVISOR_CASES = ("hardest:6free,2rerolls,any-of-4-cards", "6free,2rerolls,any-of-4,Lucky")


def ms(ns):
    return "%.1f ms" % (ns / 1e6)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def keys_of(path):
    """Every press of the example as (button, kind, its line in the .sim file)."""
    from dicetower_host.sim import use_virtual_parts

    use_virtual_parts()
    from dicetower_host.virtual_parts.script import parse, presses

    with open(path) as f:
        steps = parse(f.read())
    return [(button, kind, step[0]) for step in steps for button, kind in presses([step])]


def _board_of(image, name):
    """A copy of the flashed board's image for one example: each plays on a board of its own."""
    board = os.path.join(os.path.dirname(image), name + ".img")
    with open(image, "rb") as src, open(board, "wb") as dst:
        dst.write(src.read())
    return board


def _sealing_board(image, name, kw):
    """A copy of the flashed board's image for examples/NAME.sim pressed at the pins, its main.py headed by
    rp2040/example_seeds.py: at power-on it plays the example's path, as the probes' boards do."""
    board = _board_of(image, name)
    with open(os.path.join(HERE, "rp2040", "example_seeds.py")) as f:
        head = "SEEDS = %r\n" % example_seeds(_example(name)) + f.read()
    with open(os.path.join(ROOT, "firmware", "main.py")) as f:
        code = head + "\n" + f.read()
    with EmulatedPico(board, **kw) as pico:
        pico.put("main.py", code.encode())
    return board


def _start_menu(pico, checks=200):
    if pico.until_screen("DICETOWER", checks=checks) is None:
        sys.exit("the board never showed its start menu: %r" % pico.screen())


def _press_line(path, n):
    with open(path) as f:
        return f.read().split("\n")[n - 1].strip()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        default=",".join(sorted(name for _, name in paths.games())),
        help="the example games to play by GPIO (examples/NAME.sim; default: every game of the registry)",
    )
    parser.add_argument("--no-advisor", action="store_true", help="skip the advisor's cases (the slowest part)")
    parser.add_argument("--board", choices=("pico", "pico_w"), default="pico")
    parser.add_argument(
        "--heap-map",
        action="store_true",
        help="what holds the heap: at the start menu and at each game's lowest point (Pico)",
    )
    parser.add_argument(
        "--imports",
        action="store_true",
        help="where a module's import and the boot go: the flash's file lookups, each module's import, "
        "the boot's own work, a collection (Pico)",
    )
    parser.add_argument(
        "--install",
        choices=("mpy", "py"),
        default="mpy",
        help="py: the firmware as mip installs it (package.json's files, as source), then "
        "each example played by GPIO and each full game's lowest heap",
    )
    args = parser.parse_args(argv)
    if args.board == "pico_w":
        return pico_w()
    if args.install == "py":
        return py_install(args.games)
    if args.heap_map:
        return heap_maps(args.games)
    if args.imports:
        return imports()
    kw = {"firmware": chip_firmware()}
    rows = []
    tmp = tempfile.mkdtemp(prefix="dicetower-rp2040-")
    image = os.path.join(tmp, "flash.img")

    # 1. A new board: the stock firmware on an empty flash, then `dicetower flash`.
    started = time.time()
    with EmulatedPico(image, **kw) as pico:
        usb = time.time() - started
        stock = int(pico.run("import gc\ngc.collect()\nprint(gc.mem_free())").split()[-1])
        started = time.time()
        import io

        sent = flash.flash(pico.url, "pico", out=io.StringIO(), ready_seconds=pico.READY_SECONDS)
        flashed = time.time() - started
    rows.append(("heap free at boot, stock MicroPython (gc.mem_free after gc.collect)", "%d B" % stock))
    rows.append(("rig: power-on to USB serial (wall)", "%.1f s" % usb))
    rows.append(
        (
            "rig: dicetower flash onto an empty board, to the ready line (wall; %d files, %d B)"
            % (sent["files"], sent["bytes"]),
            "%.1f s" % flashed,
        )
    )

    # 2. Power on with the firmware: to the start menu on the OLED.
    started = time.time()
    with EmulatedPico(image, **kw) as pico:
        _start_menu(pico, checks=400)
        rows.append(("rig: power-on to the start menu on the OLED (wall)", "%.1f s" % (time.time() - started)))
        rows.append(("power-on to the start menu on the OLED (emulated, +-50 ms)", ms(pico.stats()["ns"])))

    # 3. The example games, pressed on the GPIO pins.
    taps = []
    stages = []  # each tap at the pins: ([to the first poll, to the first I2C transfer, to its last byte] ns,
    # bits), the example, the line of its press
    gaps = []  # (ns long, the example, the line of the press it followed) of each pass over 20 ms
    paths_of = {}
    longest = 0
    steps = 0
    wall = 0.0
    for name in args.games.split(","):
        path = os.path.join(ROOT, "examples", name + ".sim")
        with EmulatedPico(_sealing_board(image, name, kw), **kw) as pico:
            _start_menu(pico)
            pico.ask({"reset_stats": True})
            started = time.time()
            pressed = []  # (emulated ns at the press, its line)
            found = []  # the emulator's passes over 20 ms: (ns at their end, ns long)
            last = 0  # the line of the press before: each press is answered before the next (1.2 s after it)
            for button, kind, line in keys_of(path):
                stats = pico.stats()  # read as the presses go: a read hands over what it returns
                taps += stats["press_to_oled_ns"]
                stages += [(tap, name, last) for tap in stats["taps"]]
                found += stats["poll_gaps_ns"]
                pressed.append((stats["ns"], line))
                pico.press(button, kind)
                last = line
                steps += 1
            wall += time.time() - started
            stats = pico.stats()
            taps += stats["press_to_oled_ns"]
            stages += [(tap, name, last) for tap in stats["taps"]]
            found += stats["poll_gaps_ns"]
            longest = max(longest, stats["poll_longest_ns"])
            for end, ns in found:  # each named by the press it followed: the last before it began
                gaps.append((ns, name, ([n for at, n in pressed if at <= end - ns] or [0])[-1]))
            paths_of[name] = path
    rows.append(
        (
            "tap released -> OLED's first new data, p50 (%d taps of the example games; debounce included)" % len(taps),
            ms(percentile(taps, 50)),
        )
    )
    rows.append(("tap released -> OLED's first new data, p99", ms(percentile(taps, 99))))
    rows += tap_breakdown(
        stages, [tap_stages(_board_of(image, "taps-" + name), name, kw) for name in args.games.split(",")]
    )
    rows.append(("longest the main loop went without polling the buttons (example games)", ms(longest)))
    rows.append(("  passes over 20 ms without polling the buttons (example games)", str(len(gaps))))
    for ns, game, line in sorted(gaps, reverse=True)[:5]:
        after = "line %d: %s" % (line, _press_line(paths_of[game], line)[:60]) if line else "before the first press"
        rows.append(("    %.1f ms in %s, after %s" % (ns / 1e6, game, after), ""))
    rows.append(
        (
            "rig: wall time per press, example games (a 100 ms tap or 900 ms hold, then 1.2 s, emulated)",
            "%.2f s" % (wall / max(1, steps)),
        )
    )

    # 3b. The same examples played through the device on the chip (its own press handling, its loop run
    # between presses), the heap after each press's collection: the whole device in play.
    for name in args.games.split(","):
        item = device_heap(_board_of(image, "device-" + name), name, kw)
        rows.append(
            (
                "lowest heap free playing examples/%s.sim through the device (%d presses, after press %d%s%s)"
                % (
                    name,
                    item["presses"],
                    item["after_press"],
                    "; sealed" if item["sealed"] else "",
                    "" if item["over"] else "; NOT played to its end",
                ),
                "%d B" % item["lowest_free"],
            )
        )

    # 4. On the chip itself: heap, redraw, LED frame, a roll, the full four-player games, the advisor.
    with EmulatedPico(image, **kw) as pico:
        with open(os.path.join(ROOT, "tests", "fw", "scripted_games.py"), "rb") as f:
            pico.put("scripted_games.py", f.read())
        with open(os.path.join(HERE, "rp2040", "chip_probe.py")) as f:
            found = [json.loads(line) for line in pico.run(f.read()).splitlines() if line.startswith("{")]
        found = [item for item in found if "event" not in item]  # the device's own console events aside
        found += game_heaps(pico, scoreboard=False)
        with open(os.path.join(HERE, "vm", "loop_probe.py"), "rb") as f:
            pico.put("loop_probe.py", f.read())
        for lucky in (False, True):  # each on a board of its own (a soft reset), without the last one's game
            found += [
                item
                for item in map(
                    json.loads,
                    (
                        line
                        for line in pico.run(
                            "import os, main, loop_probe\n"
                            "if 'game.sav' in os.listdir():\n    os.remove('game.sav')  # the last probe's game\n"
                            "loop_probe.run(main.boot(), lucky=%r)" % lucky
                        ).splitlines()
                        if line.startswith("{")
                    ),
                )
                if "advice" in item
            ]
        advice = []
        if not args.no_advisor:
            with open(os.path.join(HERE, "vm", "advisor_probe.py")) as f:
                probe = "PROBE_ARGS = ['1', %r]\n" % "|".join(ADVISOR_CASES) + f.read()
            advice = [line.split() for line in pico.run(probe).splitlines() if line.strip()]
    facts = {}
    for item in found:
        if "lowest_free" in item:
            rows.append(
                (
                    "lowest heap free during a full 4-player %s game (%d actions, after a collect each)"
                    % (item["game"], item["actions"]),
                    "%d B" % item["lowest_free"],
                )
            )
            rows.append(
                (
                    "  the smallest of its largest free pieces, after each action (each roll among them)",
                    "%d B" % item["largest_piece"],
                )
            )
        elif "advice" not in item:
            facts.update(item)
    rows[1:1] = [
        ("heap free after importing the firmware (from .mpy)", "%d B" % facts["free_after_import"]),
        ("heap free with the device booted (drivers, canvas, app)", "%d B" % facts["free_with_device"]),
    ]
    rows.append(("one redraw: a full frame (1,024 bytes over I2C at 400 kHz)", ms(facts["redraw_full_us"] * 1000)))
    rows.append(("one redraw: a menu step", ms(facts["redraw_menu_step_us"] * 1000)))
    rows.append(("one redraw: the cursor over the dice (median of 6)", ms(facts["redraw_dice_step_us"] * 1000)))
    rows.append(("one LED frame (12 LEDs, median of 20)", ms(facts["led_frame_us"] * 1000)))
    rows.append(
        (
            "a roll: the press (six dice, their entropy made ahead at idle; the advice follows in slices) + its redraw",
            "%s + %s" % (ms(facts["roll_press_us"] * 1000), ms(facts["roll_redraw_us"] * 1000)),
        )
    )
    rows.append(
        (
            "a roll's animation: %d frames, their compute (33 ms apart)" % facts["roll_animation_frames"],
            ms(facts["roll_animation_compute_us"] * 1000),
        )
    )
    for item in found:
        if "advice" in item:
            rows.append(
                (
                    "advice shown after the dice, in the device's loop: %s (%d%% chance; %d passes)"
                    % (item["advice"], item["percent"], item["passes"]),
                    ms(item["ready_us"] * 1000),
                )
            )
            rows.append(
                (
                    "  the longest pass of the loop meanwhile (the longest a press waits)",
                    ms(item["longest_pass_us"] * 1000),
                )
            )
    for name, fastest, _median, heap, percent, *slices in advice:
        rows.append(("advisor %s (%s%% chance; %s B of heap)" % (name, percent, heap), ms(int(fastest) * 1000)))
        if slices:
            rows.append(("  its longest slice (one next() of advisor.plan)", ms(int(slices[0]) * 1000)))

    print(
        "%s on an emulated RP2040 at 125 MHz (rp2040js %s), the firmware as .mpy files from dicetower flash; "
        "emulated time unless marked wall" % (os.path.basename(kw["firmware"]), rp2040js_version())
    )
    width = max(len(r[0]) for r in rows)
    for label, value in rows:
        print("%-*s  %s" % (width, label, value))


def example_seeds(path):
    """The seeds `dicetower sim` seals the example's games with, in order (hex): the chip seals its
    own with them, so that it plays the example's path (benchmarks/rp2040/app_heap_probe.py)."""
    from dicetower_host import sim

    sim.use_virtual_parts()
    from dicetower_host.virtual_parts.script import parse, play, setting

    with open(path) as f:
        steps = parse(f.read())
    with tempfile.TemporaryDirectory() as folder:
        tower = sim.boot("pico", setting(steps, "seed"), None, os.path.join(folder, "flash"))
        play(tower, steps)
        lines = tower.platform.lines
    return [event["seed"] for event in map(json.loads, lines) if event.get("event") == "reveal"]


I2C_HZ = 400000  # the board's OLED clock (boards/pico.json "freq"): the emulator's I2C takes no bus time


def tap_stages(board, name, kw):
    """Each press of examples/NAME.sim through the device on the chip, its firmware stages in us
    (benchmarks/rp2040/tap_probe.py): [wait for the loop, work, save before the screen, draw, send,
    bytes, press to the send's end, the example, the press's line]."""
    stages = example_probe(board, name, kw, "tap_probe.py", "stages", "tap probe")["stages"]
    lines = [line for _button, _kind, line in keys_of(_example(name))]
    return [stage[:7] + [name, lines[stage[7]]] for stage in stages]


def tap_breakdown(pins, chips):
    """The rows of a tap's time, stage by stage (p50 / p99 each): at the pins, from the emulator (the
    release to the loop's first poll, the loop's work to the first byte on the bus, the bus at the
    emulator's speed and at the board's I2C clock from the bits sent), and inside the firmware, from the
    tap probe (the wait for the loop to take it, the app's work, a save before the screen, the drawing,
    the driver's send). The tap's time to the OLED is the pins' figure with the bus at its real clock.
    `pins`: (the tap's figures at the pins, the example, the line of its press) each; the five slowest taps
    are named, then the five slowest app's works."""
    per = [x for found in chips for x in found]
    named = pins
    pins = [tap for tap, _, _ in named]

    def row(label, values, unit):
        if not values:
            return (label, "none")
        scale = 1e6 if unit == "ns" else 1e3
        return (label, "%.1f / %.1f ms" % (percentile(values, 50) / scale, percentile(values, 99) / scale))

    bus = [bits / I2C_HZ * 1e9 for _, _, _, bits in pins]
    whole = [first + bits / I2C_HZ * 1e9 for _, first, _, bits in pins]
    return (
        [
            (
                "a tap, stage by stage (p50 / p99; %d taps at the pins, %d presses in the firmware)"
                % (len(pins), len(per)),
                "",
            ),
            row("  debounce: none after the release (it counts at its first edge)", [], "ns"),
            row("  release -> the loop's first poll of the buttons (pick-up)", [p for p, _, _, _ in pins], "ns"),
            row(
                "  first poll -> first byte to the OLED (the app's work, a save, the drawing)",
                [f - p for p, f, _, _ in pins],
                "ns",
            ),
            row("    in the firmware: the wait for the loop to take the press", [s[0] for s in per], "us"),
            row("    in the firmware: the app's work (App.press)", [s[1] for s in per], "us"),
            row("    in the firmware: a save before the screen (a throw's)", [s[2] for s in per], "us"),
            row("    in the firmware: the drawing (screens.draw)", [s[3] for s in per], "us"),
            row("    in the firmware: the driver's send (Oled.show, the emulated bus)", [s[4] for s in per], "us"),
            row("  the bus, emulated (no I2C bus time)", [last - first for _, first, last, _ in pins], "ns"),
            row("  the bus at %d kHz, from the bits sent" % (I2C_HZ // 1000), bus, "ns"),
            row("tap released -> OLED updated (its last byte, the bus at %d kHz)" % (I2C_HZ // 1000), whole, "ns"),
        ]
        + [
            (
                "    tap %.1f ms (pick-up %.1f, work %.1f, bus %.1f) in %s, line %d: %s"
                % (ns / 1e6, up / 1e6, work / 1e6, bus / 1e6, name, line, _press_line(_example(name), line)[:40]),
                "",
            )
            for ns, up, work, bus, name, line in sorted(
                (
                    (first + bits / I2C_HZ * 1e9, up, first - up, bits / I2C_HZ * 1e9, name, line)
                    for (up, first, _, bits), name, line in named
                ),
                key=lambda t: -t[0],
            )[:5]
        ]
        + [
            (
                "    app's work %.1f ms in %s, line %d: %s"
                % (s[1] / 1e3, s[7], s[8], _press_line(_example(s[7]), s[8])[:48]),
                "",
            )
            for s in sorted(per, key=lambda s: -s[1])[:5]
        ]
    )


def _example(name):
    return os.path.join(ROOT, "examples", name + ".sim")


def device_heap(board, name, kw):
    """The lowest heap free while examples/NAME.sim is played through the device on a board of its own
    (benchmarks/rp2040/app_heap_probe.py), as its JSON object."""
    return example_probe(board, name, kw, "app_heap_probe.py", "lowest_free", "device heap probe")


def example_probe(board, name, kw, probe, field, what):
    """The JSON object with `field` that benchmarks/rp2040/PROBE printed, run after example_device.py's
    start on a board of its own with examples/NAME.sim's presses and seeds."""
    path = _example(name)
    keys = [[button, kind] for button, kind, _line in keys_of(path)]
    code = "KEYS = %r\nNAME = %r\nSEEDS = %r\n" % (keys, name, example_seeds(path))
    for part in ("example_seeds.py", "example_device.py", probe):
        with open(os.path.join(HERE, "rp2040", part)) as f:
            code += f.read() + "\n"
    with EmulatedPico(board, **kw) as pico:
        found = [json.loads(line) for line in pico.run(code).splitlines() if line.startswith('{"')]
    found = [item for item in found if field in item]
    if len(found) != 1:
        sys.exit("rp2040_pico: the %s example's %s printed no figure" % (name, what))
    return found[0]


def game_heaps(pico, scoreboard):
    """The heap probe's figures for each full game (benchmarks/rp2040/game_heap_probe.py), each in a fresh
    heap, on a board with scripted_games.py (and radio_standin.py) put beside the firmware."""
    with open(os.path.join(HERE, "rp2040", "game_heap_probe.py")) as f:
        probe = f.read()
    found = []
    for _, name in paths.games():
        # Its line told by its keys, not by its first one: MicroPython's dicts keep no order.
        heap = [
            item
            for item in map(
                json.loads,
                (
                    line
                    for line in pico.run(
                        "GAME = %r\nSCOREBOARD = %r\n" % (name, scoreboard)
                        # a fresh device: the chip probe's roll is saved before it shows (no game to resume)
                        + "import os\nif 'game.sav' in os.listdir():\n    os.remove('game.sav')\n"
                        + probe
                    ).splitlines()
                    if line.startswith("{")
                ),
            )
            if "lowest_free" in item
        ]
        if len(heap) != 1:
            sys.exit("rp2040_pico: the %s game's heap probe printed no figure" % name)
        found += heap
    return found


def pico_w():
    firmware = os.environ.get("DICETOWER_RP2_W_FIRMWARE")
    if not firmware or not os.path.isfile(firmware):
        sys.exit(
            "rp2040_pico --board pico_w: set DICETOWER_RP2_W_FIRMWARE to MicroPython's RPI_PICO_W v1.27.0 "
            "UF2 file (the repository holds none)"
        )
    image = os.path.join(tempfile.mkdtemp(prefix="dicetower-rp2040-w-"), "flash.img")
    with EmulatedPico(image, board="pico_w", firmware=firmware) as pico:
        stock = int(pico.run("import gc\ngc.collect()\nprint(gc.mem_free())").split()[-1])
        import io

        flash.flash(pico.url, "pico_w", out=io.StringIO(), ready_seconds=pico.READY_SECONDS)
    with EmulatedPico(image, board="pico_w", firmware=firmware) as pico:
        for name in ("scripted_games.py", "radio_standin.py"):
            with open(os.path.join(ROOT, "tests", "fw", name), "rb") as f:
                pico.put(name, f.read())
        found = game_heaps(pico, scoreboard=True)
    rows = [
        ("heap free at boot, stock MicroPython (gc.mem_free after gc.collect)", "%d B" % stock),
        (
            "heap free with the device booted (drivers, canvas, app; at its start menu)",
            "%d B" % found[0]["free_with_device"],
        ),
        (
            "heap free with the phones' scoreboard made too (microdot, server, link, document)",
            "%d B" % found[0]["free_with_scoreboard"],
        ),
    ]
    for item in found:
        rows.append(
            (
                "lowest heap free during a full 4-player %s game, the scoreboard made (%d actions)"
                % (item["game"], item["actions"]),
                "%d B" % item["lowest_free"],
            )
        )
        rows.append(("  the smallest of its largest free pieces, after each action", "%d B" % item["largest_piece"]))
    print(
        "%s on an emulated RP2040 at 125 MHz (rp2040js %s), the pico_w profile as .mpy files from dicetower "
        "flash; heap only" % (os.path.basename(firmware), rp2040js_version())
    )
    width = max(len(r[0]) for r in rows)
    for label, value in rows:
        print("%-*s  %s" % (width, label, value))


def py_install(games):
    """A board given the firmware as `mpremote mip install` gives it (every file of package.json's "urls",
    as source: MicroPython compiles each module onto the heap at its import): does each example play
    to its end (no error in errors.log, whose every line is an error the device caught), and how low
    does the heap go in each full game?"""
    import contextlib
    import io

    from mpremote.transport_serial import SerialTransport

    kw = {"firmware": chip_firmware()}
    tmp = tempfile.mkdtemp(prefix="dicetower-rp2040-py-")
    image = os.path.join(tmp, "flash.img")
    files = {}
    for rel, src in flash.mip_urls():
        with open(os.path.join(ROOT, src), "rb") as f:
            files[rel] = f.read()

    def install(transport):
        folders = {rel.rsplit("/", 1)[0] for rel in files if "/" in rel}
        for folder in sorted(folders | {f.rsplit("/", 1)[0] for f in folders if "/" in f}, key=len):
            try:
                transport.fs_mkdir(folder)
            except Exception:  # noqa: BLE001 (there already)
                pass
        for rel, data in files.items():
            transport.fs_writefile(rel, data)

    with EmulatedPico(image, **kw) as pico:
        pico._repl(install)
    rows = [
        (
            "a .py install: mip's files (package.json's urls)",
            "%d files, %d B" % (len(files), sum(map(len, files.values()))),
        )
    ]
    with EmulatedPico(image, **kw) as pico:
        _start_menu(pico, checks=400)
        rows.append(("power-on to the start menu on the OLED (emulated, +-50 ms)", ms(pico.stats()["ns"])))
    for name in games.split(","):
        with EmulatedPico(_board_of(image, name), **kw) as pico:
            _start_menu(pico)
            presses = keys_of(os.path.join(ROOT, "examples", name + ".sim"))
            for button, kind, _line in presses:
                pico.press(button, kind)
            last = pico.screen()
            transport = SerialTransport(pico.url)  # into the REPL with no reset: the board as the game left it
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    transport.enter_raw_repl(soft_reset=False, timeout_overall=60)
                log = transport.exec("try:\n print(open('errors.log').read())\nexcept OSError:\n pass\n")
            finally:
                transport.close()
        errors = log.decode("utf-8", "replace").strip()
        rows.append(
            (
                "example %s by GPIO (%d presses): %s"
                % (
                    name,
                    len(presses),
                    "played to its end" if not errors else "errors.log: " + errors.splitlines()[0][:60],
                ),
                " / ".join(line.strip() for line in last if line.strip())[:60],
            )
        )
    with EmulatedPico(image, **kw) as pico:
        with open(os.path.join(ROOT, "tests", "fw", "scripted_games.py"), "rb") as f:
            pico.put("scripted_games.py", f.read())
        for item in game_heaps(pico, scoreboard=False):
            rows.append(
                (
                    "lowest heap free during a full 4-player %s game (%d actions, after a collect each)"
                    % (item["game"], item["actions"]),
                    "%d B" % item["lowest_free"],
                )
            )
            rows.append(
                ("  the smallest of its largest free pieces, after each action", "%d B" % item["largest_piece"])
            )
    print(
        "%s on an emulated RP2040 at 125 MHz (rp2040js %s), the firmware as .py files as mip installs them; "
        "emulated time" % (os.path.basename(kw["firmware"]), rp2040js_version())
    )
    width = max(len(r[0]) for r in rows)
    for label, value in rows:
        print("%-*s  %s" % (width, label, value))


KINDS = (
    ("B", "function objects"),
    ("D", "dicts"),
    ("S", "strings and bytes"),
    ("T", "tuples"),
    ("L", "lists"),
    ("A", "arrays, bytearrays"),
    ("M", "modules"),
    ("F", "floats"),
    ("h", "other: bytecode, instances, names' table, buffers"),
)


def read_heap_map(text):
    """{kind: bytes}, the pieces [(bytes, kind)], the free pieces [bytes] and the qstr line, from the
    output of micropython.mem_info(1) + qstr_info() (16-byte blocks, 64 a line)."""
    blocks = []
    names = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("(") and line.endswith("lines all free)"):
            blocks.append("." * 64 * int(line[1:].split()[0]))
        elif len(line) > 10 and line[8:10] == ": " and all(c in "0123456789abcdef" for c in line[:8]):
            blocks.append(line[10:])
        elif line.startswith("qstr pool:"):
            names = line[len("qstr pool:") :].strip()
    blocks = "".join(blocks)
    pieces, free = [], []
    i = 0
    while i < len(blocks):
        j = i + 1
        if blocks[i] == ".":
            while j < len(blocks) and blocks[j] == ".":
                j += 1
            free.append((j - i) * 16)
        else:
            while j < len(blocks) and blocks[j] == "=":
                j += 1
            pieces.append(((j - i) * 16, blocks[i]))
        i = j
    by_kind = {}
    for size, kind in pieces:
        by_kind[kind] = by_kind.get(kind, 0) + size
    return by_kind, pieces, free, names


def flashed_pico(probe):
    """A new Pico's flash image with the firmware as dicetower flash puts it, benchmarks/rp2040/PROBE's
    code, and the bytes of each module's .mpy as flashed by its dotted name (what its code holds on the
    heap, near enough): (the emulator's arguments, the image, the probe, the sizes)."""
    kw = {"firmware": chip_firmware()}
    image = os.path.join(tempfile.mkdtemp(prefix="dicetower-rp2040-probe-"), "flash.img")
    with EmulatedPico(image, **kw) as pico:
        import io

        flash.flash(pico.url, "pico", out=io.StringIO(), ready_seconds=pico.READY_SECONDS)
    with open(os.path.join(HERE, "rp2040", probe)) as f:
        code = f.read()
    sizes = {}
    for rel, data in flash.compile_firmware("armv6m", profile=flash.profiles()["pico"]).items():
        if rel.endswith(".mpy"):
            sizes[rel[:-4].replace("/", ".").replace(".__init__", "")] = len(data)
    return kw, image, code, sizes


def heap_maps(games):
    kw, image, probe, code = flashed_pico("heap_map_probe.py")
    maps = []  # (where, its text)
    with EmulatedPico(image, **kw) as pico:
        with open(os.path.join(ROOT, "tests", "fw", "scripted_games.py"), "rb") as f:
            pico.put("scripted_games.py", f.read())
        for name in games.split(","):
            out = pico.run("GAME = %r\n" % name + probe).replace("\r\n", "\n").split("MAP ")
            if not out[-1].startswith("end"):
                sys.exit("rp2040_pico --heap-map: the %s game did not end: %s" % (name, out[-1][-300:]))
            found = dict(part.split("\n", 1) for part in out[1:-1])
            if not maps:
                maps.append(("start menu", found["start menu"]))
            low = [where for where in found if where.startswith("low ")][-1]
            maps.append((low, found[low]))
    print(
        "%s on an emulated RP2040 at 125 MHz (rp2040js %s), the firmware as .mpy files from dicetower flash: "
        "what holds the heap (micropython.mem_info(1), after a collection)"
        % (os.path.basename(kw["firmware"]), rp2040js_version())
    )
    for where, text in maps:
        by_kind, pieces, free, names = read_heap_map(text)
        held = sum(by_kind.values())
        print(
            "\n%s: %d B held in %d pieces, %d B free in %d pieces (largest %d B)"
            % (where, held, len(pieces), sum(free), len(free), max(free or [0]))
        )
        for kind, label in KINDS:
            if kind in by_kind:
                print("  %s %-50s %7d B  %3d%%" % (kind, label, by_kind[kind], 100 * by_kind[kind] // held))
        h = [size for size, kind in pieces if kind == "h"]
        for low, high in ((0, 64), (64, 1024), (1024, 1 << 30)):
            some = [size for size in h if low <= size < high]
            print(
                "    h pieces of %s: %d, %d B"
                % ("%d-%d B" % (low, high - 1) if high < 1 << 30 else ">= %d B" % low, len(some), sum(some))
            )
        print("  the largest pieces: " + ", ".join("%s %d" % (kind, size) for size, kind in sorted(pieces)[::-1][:10]))
        print("  table of names: " + names)
        loaded = [line.split()[1:] for line in text.splitlines() if line.startswith("MODULES")]
        if loaded:
            sizes = sorted(((code.get(m, 0), m) for m in loaded[0]), reverse=True)
            print(
                "  modules held: %d, %d B of .mpy; the largest %s"
                % (
                    len(sizes),
                    sum(size for size, _ in sizes),
                    ", ".join("%s %d" % (m[len("dicetower.") :], size) for size, m in sizes[:5]),
                )
            )


def imports():
    kw, image, probe, code = flashed_pico("imports_probe.py")

    def run(pico, head):
        return [json.loads(line) for line in pico.run(head + probe).splitlines() if line.startswith("{")]

    with EmulatedPico(image, **kw) as pico:
        booted = run(pico, "STEP = 'boot'\n")
        lookups = run(pico, "STEP = 'lookups'\n")
        modules = [item["boot_modules"] for item in booted if "boot_modules" in item][0]  # noqa: RUF015
        timed = run(pico, "STEP = 'imports'\nMODULES = %r\n" % modules)
    figures = {}
    for item in booted + timed:
        figures.update(item)
    print(
        "%s on an emulated RP2040 at 125 MHz (rp2040js %s), the firmware as .mpy files from dicetower flash, a "
        "new board: where an import and the boot go (time.ticks_us on the chip)"
        % (os.path.basename(kw["firmware"]), rp2040js_version())
    )
    rows = []
    for item in lookups:
        if "lookup" in item:
            rows.append(
                (
                    "a file found on the flash (os.stat), %d folder%s deep: %s"
                    % (item["depth"] - 1, "" if item["depth"] == 2 else "s", item["lookup"]),
                    "%.1f ms" % (item["found_us"] / 1000),
                )
            )
            rows.append(("  the same path, not there", "%.1f ms" % (item["missing_us"] / 1000)))
        elif "import_lookups" in item:
            rows.append(
                (
                    "an import's own lookups, %d folder%s deep (a folder of its name, its .py, its .mpy, opened): %s"
                    % (item["depth"] - 1, "" if item["depth"] == 2 else "s", item["import_lookups"]),
                    ms(item["us"] * 1000),
                )
            )
        else:
            rows.append(("%s opened and read whole (%d B)" % (item["read"], item["bytes"]), ms(item["us"] * 1000)))
    rows += game_import_rows(lookups, figures["game_imports"], code)
    each = figures["imports"]
    total = sum(t for _, t in each)
    rows.append(
        (
            "the boot's firmware modules imported from .mpy, %d imports in the order of their names (%d B; "
            "what one imports first is in its time)" % (len(each), sum(code.get(name, 0) for name, _ in each)),
            ms(total * 1000),
        )
    )
    small = [t for name, t in each if code.get(name, 0) < 1024]
    rows.append(("  the median of those under 1 KB of .mpy (%d)" % len(small), ms(percentile(small, 50) * 1000)))
    for name, t in sorted(each, key=lambda item: -item[1])[:8]:
        rows.append(("  %s (%d B)" % (name, code.get(name, 0)), ms(t * 1000)))
    rows.append(("main.boot() with those modules in: the boot's own work", ms(figures["boot_work_us"] * 1000)))
    rows.append(
        (
            "a collection at the start menu (%d B free)" % figures["free_start_menu"],
            ms(figures["collect_start_menu_us"] * 1000),
        )
    )
    rows.append(
        (
            "a collection with a Battlerealm game's modules in (%d B free)" % figures["free_in_play"],
            ms(figures["collect_in_play_us"] * 1000),
        )
    )
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print("%s  %s" % (label.ljust(width), value))


def game_import_rows(lookups, game, code):
    """A Battlerealm game's imports, each an idle pass the buttons wait through, and what one costs beyond
    the file system's part: each import's time less its lookups (at its depth of folders) and its read
    (the .mpy read whole's time per byte), per KB of .mpy. The lookups are the part of a pass that no
    smaller module brings down: they depend on the folders, not on the file."""
    at_depth = {item["depth"]: item["us"] for item in lookups if "import_lookups" in item}
    read = [item for item in lookups if "read" in item][0]  # noqa: RUF015
    per_byte = read["us"] / read["bytes"]
    rows = [
        (
            "a Battlerealm game's modules imported one an idle pass, in its descriptor's order (%d imports, %d B; "
            "each after a collection, what one imports first in its time)"
            % (len(game), sum(code.get(name, 0) for name, _ in game)),
            ms(sum(t for _, t in game) * 1000),
        )
    ]
    beyond = []
    for name, t in game:
        size = code.get(name, 0)
        rows.append(("  %s (%d B)" % (name, size), ms(t * 1000)))
        depth = name.count(".") + 1
        if size and depth in at_depth:
            beyond.append((t - at_depth[depth] - per_byte * size) / (size / 1024))
    rows.append(
        (
            "  beyond its lookups and its read, an import's load and run per KB of .mpy (the median of %d)"
            % len(beyond),
            ms(percentile(beyond, 50) * 1000),
        )
    )
    return rows


def rp2040js_version():
    with open(os.path.join(ROOT, "node_modules", "rp2040js", "package.json")) as f:
        return json.load(f)["version"]


if __name__ == "__main__":
    main()
