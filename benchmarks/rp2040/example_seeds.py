"""Seals the chip's games with SEEDS (set before this code: the seeds the simulator sealed an example's
games with, in hex, in order), so that its faces, and so its path through the example, are the
simulator's: the chip's own noise would take another (a Prison, an early win, other menus), and its
figures would differ from run to run. benchmarks/rp2040_pico.py puts it before example_device.py, and at
the head of main.py on the boards whose buttons it presses at the pins."""

if SEEDS:  # noqa: F821 (set before; an example that seals nothing leaves the dice their own)
    from binascii import unhexlify

    from dicetower.core import entropy

    _seeds = [unhexlify(seed) for seed in SEEDS]  # noqa: F821
    entropy.FairDice.secret = lambda self, n: _seeds.pop(0)
    del entropy, unhexlify
