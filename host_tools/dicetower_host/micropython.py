"""MicroPython's built-in `micropython` module, as far as the firmware uses it, for CPython.

On a board and on the VM `micropython` is built in; on the host the package's finder
(dicetower_host/__init__.py) makes `import micropython` give this module, so that a firmware
module's `from micropython import const` means on CPython what it means on the chip. It is the one
stand-in on the host: nothing else there defines `const` (tests/test_host_layout.py).
"""


def const(value):
    """A constant is its value (MicroPython's compiler folds it into the bytecode)."""
    return value


def native(function):
    """The native code emitter's decorator: on CPython the function as it is."""
    return function


def viper(function):
    """The Viper code emitter's decorator: on CPython the function as it is."""
    return function


def ptr8(obj):
    """Viper's cast to bytes: on CPython the buffer itself (see ptr16)."""
    return obj


def ptr16(obj):
    """Viper's cast to 16-bit words, which a Viper function's parameter may be annotated with: on
    CPython (and as bytecode) the buffer itself, indexed by its items."""
    return obj


def ptr32(obj):
    """Viper's cast to 32-bit words: on CPython the buffer itself (see ptr16)."""
    return obj
