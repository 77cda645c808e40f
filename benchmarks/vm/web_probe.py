"""Runs on the MicroPython VM (benchmarks/vm_web.py): the heap the scoreboard takes on top of a booted
tower. Prints one line a figure: name bytes.

Each part is made in a VM step of its own and measured in the next (vm/run.mjs: the VM's collector frees
only what earlier steps left), so a figure is what the part keeps, not the garbage its making left (the
server's making hashes the page a piece at a time: web/policy.py)."""

import gc
import sys

sys.path.append("/virtual")  # the bench (Tower) for a booted tower


def free():
    gc.collect()
    return gc.mem_free()


from table import Table  # noqa: E402

t = Table(seed=3)
for key in "caaacc":  # New Battlerealm, two heroes, start, the seal's cut
    t.press(key)
t.wait(2500)
# --- vm step ---
before = free()
board = t.device.share()
board.update(t.app)
# --- vm step ---
print("document_kept", before - free())
gc.collect()
allocated = gc.mem_alloc()
board.update(t.app)
print("document_made", gc.mem_alloc() - allocated)
print("document_bytes", len(board.latest))
with open("/fw/dicetower/web/page.html", "rb") as f:
    print("page_bytes", f.seek(0, 2))
# --- vm step ---
before = free()
import microdot  # noqa: E402, F401

# --- vm step ---
print("microdot_imported", before - free())
before = free()
from dicetower.web import server  # noqa: E402

# --- vm step ---
print("server_module", before - free())
before = free()
_held = server.Server(t.device, "2468")
# --- vm step ---
print("server_made", before - free())
