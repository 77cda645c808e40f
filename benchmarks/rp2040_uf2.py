"""One file to install: the firmware frozen in a UF2, beside .mpy and .py files on a stock MicroPython,
measured on the emulated RP2040 (MicroPython 1.27.0's rp2 port at 125 MHz) in one run.

    .venv/bin/python benchmarks/rp2040_uf2.py [--boards pico,pico_w,pico2,pico2_w]

It prints, for each way of installing: power-on to the start menu (emulated ms), the heap free at boot,
with the device booted, and at the lowest point of a full four-player game of each mode (after a
collection following each action); then the size of each UF2 (the stock one, and `dicetower uf2`'s
for the boards asked for, built from rp2040/sources/ or taken from the cache; a UF2 carries 256 bytes
of image per 512-byte block).

Its heap figures are higher than rp2040_pico.py's: there the games are played on the device the probe
has just used for a roll and its advice (the advisor's work arrays kept, the canvas's caches full),
here on a device just booted.
"""

import argparse
import io
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

from dicetower_host import flash, uf2  # noqa: E402
from dicetower_host.pico import EmulatedPico  # noqa: E402

STOCK = os.path.join(ROOT, "rp2040", "firmware", "RPI_PICO-v1.27.0.uf2")


def as_source(pico):
    """The flashed .mpy files replaced by their .py sources (and no flash manifest: copied by hand)."""
    from mpremote.transport_serial import SerialTransport

    transport = SerialTransport(pico.url)
    try:
        transport.enter_raw_repl(soft_reset=True)
        for path, data in flash.sources(profile=flash.profiles()["pico"]).items():  # what dicetower flash put there
            if path != "main.py":
                transport.fs_writefile(path, data)
                transport.exec("import os\nos.remove(%r)" % (path[:-3] + ".mpy"))
        transport.exec("import os\nos.remove('dicetower.manifest')")
        transport.exit_raw_repl()
    finally:
        transport.close()


def measure(image, uf2_path=None):
    with EmulatedPico(image, uf2=uf2_path) as pico:
        if pico.until_screen("DICETOWER", checks=400) is None:
            sys.exit("no start menu: %r" % pico.screen())
        boot_ms = pico.stats()["ns"] / 1e6
        with open(os.path.join(ROOT, "tests", "fw", "scripted_games.py"), "rb") as f:
            pico.put("scripted_games.py", f.read())
        with open(os.path.join(HERE, "rp2040", "heap_probe.py")) as f:
            found = [json.loads(line) for line in pico.run(f.read()).splitlines() if line.startswith("{")]
    facts = {"boot_ms": boot_ms}
    for item in found:
        if "lowest_free" in item:  # told by its keys: MicroPython's dicts keep no order, and events name games too
            facts["lowest_" + item["game"]] = item["lowest_free"]
        elif "event" not in item:
            facts.update(item)
    return facts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", default="pico", help="the UF2s to build and size (default: pico)")
    args = parser.parse_args(argv)
    boards = args.boards.split(",")
    if "pico" not in boards:
        boards.insert(0, "pico")  # the one measured on the emulated RP2040
    try:
        built = {board: uf2.build(board, os.path.join(ROOT, "build", "dicetower-%s.uf2" % board)) for board in boards}
    except uf2.UF2Error as e:
        sys.exit("rp2040_uf2: %s" % e)
    tmp = tempfile.mkdtemp(prefix="dicetower-uf2-")
    ways = {}
    ways["frozen in a UF2 (dicetower uf2)"] = measure(os.path.join(tmp, "frozen.img"), built["pico"])
    mpy = os.path.join(tmp, "mpy.img")
    with EmulatedPico(mpy) as pico:
        flash.flash(pico.url, "pico", out=io.StringIO(), ready_seconds=pico.READY_SECONDS)
    source = os.path.join(tmp, "py.img")
    shutil.copyfile(mpy, source)
    ways[".mpy files (dicetower flash)"] = measure(mpy)
    with EmulatedPico(source) as pico:
        as_source(pico)
    ways[".py files (source copied by hand)"] = measure(source)
    rows = [("power-on to the start menu (emulated ms)", "boot_ms", "%.0f"),
            ("heap free at boot, nothing imported (B)", "free_at_boot", "%d"),
            ("heap free with the device booted (B)", "free_with_device", "%d")]
    rows += [("lowest heap free, full 4-player %s game (B)" % g, "lowest_" + g, "%d")
             for g in ("battlerealm", "champions", "united", "battleworld")]
    names = list(ways)
    width = max(len(r[0]) for r in rows)
    print("MicroPython 1.27.0 rp2 (RPI_PICO) on an emulated RP2040 at 125 MHz: the firmware installed three ways")
    print("%-*s  %s" % (width, "", "  ".join("%-34s" % n for n in names)))
    for label, key, form in rows:
        cells = [form % ways[n][key] if key in ways[n] else ways[n].get("error", "-")[:34] for n in names]
        print("%-*s  %s" % (width, label, "  ".join("%-34s" % c for c in cells)))
    frozen, mpy_way = ways[names[0]], ways[names[1]]
    games = ("battlerealm", "champions", "united", "battleworld")
    gain = min(frozen["lowest_" + g] - mpy_way["lowest_" + g] for g in games)
    print("%-*s  %d B" % (width, "frozen vs .mpy: the least extra heap during a game", gain))
    print("UF2 sizes: stock RPI_PICO %d B; %s" % (os.path.getsize(STOCK), "; ".join(
        "dicetower %s %d B" % (board, os.path.getsize(path)) for board, path in built.items())))


if __name__ == "__main__":
    main()
