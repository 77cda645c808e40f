"""The virtual Pico's `os`: the VM's own, listing its files as a Pico's littlefs does.

The VM's filesystem (Emscripten's, under MicroPython's VfsPosix) lists entries without their
sizes, and has folders of its own at the root (tmp, home, dev, proc, and the bridge's mounts),
so `mpremote ls` showed every file as 0 bytes and `mpremote df` folders no Pico has.
vm/pico.mjs puts this module in sys.modules["os"] before anything runs: `import os` gives it,
at the REPL, to mpremote and to main.py alike. Only the listings change; every other function
is the VM's own.
"""

import os as _vm_os
from os import *  # noqa: F401,F403 (all of the VM's os, then the two listings below)

HIDDEN = ()  # the VM's own folders at the root (vm/pico.mjs sets them)
_DIR = 0x4000


def _absolute(path):
    if isinstance(path, bytes):
        path = path.decode()
    if not path or path == ".":
        return _vm_os.getcwd()
    if path[0] != "/":
        return _vm_os.getcwd().rstrip("/") + "/" + path
    return path


def ilistdir(path="."):
    """(name, type, inode, size) for each entry, as a Pico's littlefs gives them (folders 0 bytes)."""
    where = _absolute(path).rstrip("/")
    for entry in _vm_os.ilistdir(path):
        name = entry[0]
        text = name.decode() if isinstance(name, bytes) else name
        if not where and text in HIDDEN:
            continue
        size = 0
        if not entry[1] & _DIR:
            try:
                size = _vm_os.stat(where + "/" + text)[6]
            except OSError:
                pass
        yield (name, entry[1], 0, size)


def listdir(path="."):
    return [entry[0] for entry in ilistdir(path)]
