"""The scoreboard's heap on the MicroPython VM: what a Pico W's web server costs beside the game.

    .venv/bin/python benchmarks/vm_web.py

Runs benchmarks/vm/web_probe.py on the MicroPython 1.27 VM with what `dicetower flash` sends a Pico W
(the firmware and microdot, the version installed beside these tools, as .mpy files; the page as a
file), and prints the heap each part takes (gc.mem_free after a collection, before and after) on a
booted tower in a Battlerealm game with a roll on the table. The code itself is on the heap, as on a
board (stock rp2 builds have no place for code outside the heap).
"""

import os
import subprocess
import sys

from dicetower_host import paths

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from heap_budget import flashed  # noqa: E402
from vmprobe import HERE, ROOT


def main():
    done = subprocess.run(
        paths.vm_command(
            os.path.join(HERE, "vm", "web_probe.py"),
            mounts=[
                (flashed("pico_w"), "/fw"),
                (os.path.join(ROOT, "tests", "fw"), "/tests"),
                (paths.VIRTUAL_PARTS, "/virtual"),
                (paths.BOARDS, "/boards"),
            ],
        ),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        sys.exit("the VM run failed:\n" + done.stderr[-3000:])
    figures = dict(line.split() for line in done.stdout.splitlines() if len(line.split()) == 2)
    rows = [
        ("the JSON document, kept (a two-hero Battlerealm game, a roll on the table)", "document_kept"),
        ("... made once per change (allocated, then garbage)", "document_made"),
        ("... its size", "document_bytes"),
        ("the page's size (web/page.html, sent from the file: none of it kept)", "page_bytes"),
        ("microdot imported (.mpy)", "microdot_imported"),
        ("web/server.py imported (.mpy)", "server_module"),
        ("the server made (its routes)", "server_made"),
    ]
    print("MicroPython 1.27 VM: the scoreboard's heap beside a booted tower (bytes)")
    for label, key in rows:
        print("%-78s %8s" % (label, figures.get(key, "?")))


if __name__ == "__main__":
    main()
