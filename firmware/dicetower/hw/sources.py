"""Which entropy sources a chip has, best first: what the device's boot asks once (hw/platform.py's
`entropy_sources`), then forgets (Device.__init__'s boot scope). The sources themselves are
hw/entropy.py's (hw/trng.py's on an RP2350), which the dice keep."""

from dicetower.hw.entropy import RoscBits, Urandom, random_bytes


def chip_of(machine_name):
    """'RP2040' or 'RP2350' from `os.uname().machine`, else None.

    MicroPython names the board then the chip: "Raspberry Pi Pico with
    RP2040", "Raspberry Pi Pico2 with RP2350" (or "... RP2350-RISCV").
    """
    for chip in ("RP2350", "RP2040"):
        if chip in machine_name:
            return chip
    return None


def sources_for(machine_name, mem32=None, sleep_us=None, urandom=None):
    """The chip's own noise source, then `os.urandom` behind it: the sources `FairDice` takes.

    RP2040: the raw ROSC bit. RP2350: the TRNG. The dice move to the second
    source if the first fails its start-up test or a health test later.
    `mem32`, `sleep_us` and `urandom` stand in for the hardware in tests.
    """
    chip = chip_of(machine_name)
    if urandom is None:
        import os

        urandom = getattr(os, "urandom", None)
    if urandom is None:
        # MicroPython's WebAssembly port (the virtual Pico) has no os.urandom: its `random`
        # module, seeded by the browser's or node's crypto, stands in. Named so in every event.
        fallback = Urandom(random_bytes, name="VM random module (no hardware noise)")
    else:
        fallback = Urandom(urandom, name="%s os.urandom" % (chip or "host"))
    if chip == "RP2350":
        from dicetower.hw.trng import Rp2350Trng  # an RP2040's heap and table of names never hold it

        return Rp2350Trng(mem32), fallback
    if chip == "RP2040":
        return RoscBits(chip, mem32, sleep_us), fallback
    return (fallback,)
