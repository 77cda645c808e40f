"""The firmware's modules put back as a test found them (CPython and the VM). A module of its own, not the
bench's table.py: tests/heap_probe.py counts table.py's code in the VM's heap."""

import sys


def firmware_modules():
    """The firmware's modules as they are now, by name."""
    return {name: sys.modules[name] for name in sys.modules if name.startswith("dicetower.")}


def put_back(kept, among=None):
    """The firmware's modules (those named in `among`, else all) as `kept` (firmware_modules) had them: what
    came since is forgotten, what went is back, each package's attribute its module again. A test that
    loads modules afresh leaves the others the ones they imported: a mix of two loads of the advice (an old
    plan, a new ranks.py whose tables the old one's first plan never filled) answers wrongly or raises
    (tests/fw/test_advisor.py after tests/fw/test_device_cards.py's Lucky tower, in one process)."""
    names = [name for name in sys.modules if name.startswith("dicetower.")] if among is None else among
    for name in [name for name in names if name in sys.modules and name not in kept]:
        del sys.modules[name]
        parent, leaf = name.rsplit(".", 1)
        package = sys.modules.get(parent)
        if package is not None and package.__dict__.get(leaf) is not None:
            delattr(package, leaf)
    for name in kept:
        if among is None or name in among:
            sys.modules[name] = kept[name]
            parent, leaf = name.rsplit(".", 1)
            package = sys.modules.get(parent)
            if package is not None:
                setattr(package, leaf, kept[name])
