"""Pure rules: dice, entropy, rolls. No machine, no time, no I/O."""


def release(name):
    """Forget an imported module, as if never imported: its code and data are garbage for the next
    collection, once nothing else holds them (heap a Pico's game needs; docs/architecture.md)."""
    import sys

    if sys.modules.pop(name, None) is None:
        return
    parent, _, child = name.rpartition(".")
    package = sys.modules.get(parent)
    if package is not None and hasattr(package, child):
        delattr(package, child)  # an import also names the module in its package, which would keep it
