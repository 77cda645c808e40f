"""Runs on the MicroPython VM (benchmarks/vm_web.py): the heap the scoreboard takes on top of a booted
tower. Prints one line a figure: name bytes."""

import gc
import sys

sys.path.append("/virtual")  # the bench (Tower) for a booted tower


def free():
    gc.collect()
    return gc.mem_free()


def main():
    from table import Table

    t = Table(seed=3)
    for key in "caaacc":  # New Battlerealm, two heroes, start, the seal's cut
        t.press(key)
    t.wait(2500)
    before = free()
    board = t.device.share()
    board.update(t.app)
    print("document_kept", before - free())
    gc.collect()
    allocated = gc.mem_alloc()
    board.update(t.app)
    print("document_made", gc.mem_alloc() - allocated)
    print("document_bytes", len(board.latest))
    with open("/fw/dicetower/web/page.html", "rb") as f:
        print("page_bytes", f.seek(0, 2))
    before = free()
    import microdot  # noqa: F401

    print("microdot_imported", before - free())
    before = free()
    from dicetower.web import server

    print("server_module", before - free())
    before = free()
    _held = server.Server(t.device, "2468")
    print("server_made", before - free())


main()
