"""The scoreboard's heap on the MicroPython VM: what a Pico W's web server costs beside the game.

    .venv/bin/python benchmarks/vm_web.py

Runs benchmarks/vm/web_probe.py on the MicroPython 1.27 VM with the firmware, the bench and microdot
(the version installed beside these tools) imported from source, and prints the heap each part
takes (gc.mem_free after a collection, before and after) on a booted tower in a Battlerealm game
with a roll on the table. Imported from source the code itself is on the heap, as with `.mpy`
files (stock rp2 builds have no place for code outside the heap).
"""

import os

import microdot

import subprocess
import sys

from dicetower_host import paths
from vmprobe import HERE, ROOT


def main():
    import shutil
    import tempfile

    libs = tempfile.mkdtemp(prefix="dicetower-vm-web-")  # microdot alone, as a package (the VM copies a mount whole)
    shutil.copytree(os.path.dirname(microdot.__file__), os.path.join(libs, "microdot"))
    done = subprocess.run(paths.vm_command(os.path.join(HERE, "vm", "web_probe.py"), mounts=[
                               (paths.FIRMWARE, "/fw"), (os.path.join(ROOT, "tests", "fw"), "/tests"),
                               (paths.VIRTUAL_PARTS, "/virtual"), (paths.BOARDS, "/boards"), (libs, "/libs")]),
                          capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        sys.exit("the VM run failed:\n" + done.stderr[-3000:])
    figures = dict(line.split() for line in done.stdout.splitlines() if len(line.split()) == 2)
    rows = [("the JSON document, kept (a two-hero Battlerealm game, a roll on the table)", "document_kept"),
            ("... made once per change (allocated, then garbage)", "document_made"),
            ("... its size", "document_bytes"),
            ("the page module (web/page.py, from source)", "page_module"),
            ("... the page's size", "page_bytes"),
            ("microdot imported (from source)", "microdot_imported"),
            ("web/server.py imported (from source)", "server_module"),
            ("the server made (its routes)", "server_made")]
    print("MicroPython 1.27 VM: the scoreboard's heap beside a booted tower (bytes)")
    for label, key in rows:
        print("%-78s %8s" % (label, figures.get(key, "?")))


if __name__ == "__main__":
    main()
