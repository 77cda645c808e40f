"""What the dice's entropy path costs on the MicroPython VM or the emulated RP2040: the start-up test, the conditioner, the DRBG, a face.

    .venv/bin/python benchmarks/vm_entropy.py [--rp2040]

Runs benchmarks/vm/entropy_probe.py on the MicroPython 1.27 VM (WebAssembly, Node.js) over two
stand-in sources (bytes as os.urandom gives them; bits as the RP2040's ROSC register gives them, read
through RoscBits, both made by sfc16 in Python, which a Pico's C reads do not cost) and prints: the
whole start-up test (2**16 + 128 samples) and its cost per sample; one conditioned seed block
(samples carrying 512 claimed bits through the health tests and SHA-256); the longest prime() pass
(what the loop's buttons wait for, by what the loop is doing: the start-up test's rest after boot;
blocks and reseeds while rolling; paused dice tried again, the whole start-up test from its first
sample; the VM's collector kept out of the passes: the device's loop collects in passes of its own)
and the most raw samples any pass read (the bound: one buffer of 32); one 32-byte HMAC_DRBG block and
the heap it allocates; and, per face, the DRBG's bytes, the raw samples and the heap, with the
bytes made ahead at idle as the loop does (primed) and without.

The VM runs on this machine's CPU and its clock counts whole milliseconds: its times are not a
Pico's (the bytes and samples are the same code's). The chip's times come from --rp2040.

--rp2040 runs the same probe on MicroPython 1.27's own RPI_PICO firmware on an emulated RP2040 at
125 MHz (rp2040/, as benchmarks/rp2040_pico.py does), the firmware flashed as .mpy, over the chip's
own sources (os.urandom; the ROSC's random bit through machine.mem32, 1 us apart): the chip's times,
measured, not estimated (the emulator is optimistic: no flash wait states, nominal instruction timings).
"""

import argparse

from vmprobe import run_on_rp2040, run_probe


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rp2040", action="store_true", help="on the emulated RP2040 at 125 MHz, not the VM")
    args = parser.parse_args(argv)
    figures = {}
    stdout = run_on_rp2040("entropy_probe.py") if args.rp2040 else run_probe("entropy_probe.py")
    for line in stdout.splitlines():
        name, value, unit = line.split()
        figures[name] = (value, unit)
    if args.rp2040:
        print(
            "MicroPython 1.27 rp2 on an emulated RP2040 at 125 MHz: the dice's entropy path (sources: the "
            "chip's os.urandom bytes; its ROSC random bit, 1 us apart)"
        )
    else:
        print(
            "MicroPython VM: the dice's entropy path (sources: os.urandom-like bytes; ROSC-like bits); its clock "
            "counts whole ms: the chip's times are --rp2040's"
        )
    for name, label in (
        ("startup_%s", "whole start-up test"),
        ("startup_sample_%s", "  per sample"),
        ("health_sample_%s", "  health tests alone"),
        ("period_sample_%s", "  period test alone"),
        ("condition_%s", "one conditioned seed block"),
        ("longest_prime_%s", "longest prime() pass"),
        ("longest_prime_startup_%s", "  the start-up test's rest"),
        ("longest_prime_rolling_%s", "  while rolling (blocks, reseeds)"),
        ("longest_prime_retry_%s", "  paused dice tried again"),
        ("longest_reading_prime_%s", "  of those that read noise"),
    ):
        for source in ("bytes", "rosc_bits"):
            value, unit = figures[name % source]
            shown = (
                "%s %s" % (value, unit) if unit != "us" or float(value) < 10000 else "%.0f ms" % (float(value) / 1000)
            )
            print("%-44s %12s" % ("%s (%s)" % (label, source), shown))
    print(
        "%-34s %14s"
        % (
            "most samples a prime() pass reads",
            "%s (bytes), %s (rosc_bits)" % (figures["samples_prime_bytes"][0], figures["samples_prime_rosc_bits"][0]),
        )
    )
    print("%-34s %14s" % ("HMAC_DRBG, one 32-byte block", figures["drbg_block"][0] + " us"))
    print("%-34s %14s" % ("  heap it allocates", figures["drbg_block_heap"][0] + " bytes"))
    for tag in ("primed", "unprimed"):
        print("%-34s %14s" % ("per face (%s): DRBG bytes" % tag, figures["bytes_per_face_" + tag][0]))
        print("%-34s %14s" % ("  raw noise samples", figures["noise_per_face_" + tag][0]))
        print("%-34s %14s" % ("  heap bytes", figures["face_heap_" + tag][0]))
    print("%-34s %14s" % ("a game's seal (ui/sealing.py)", figures["seal"][0] + " us"))
    print("%-34s %14s" % ("  its cut: two parts, the DRBG made", figures["cut"][0] + " us"))
    print("%-34s %14s" % ("  heap in play: modules, 1,000 faces", figures["seal_heap"][0] + " bytes"))
    print("%-34s %14s" % ("  heap its moments add (a cut open)", figures["moments_heap"][0] + " bytes"))
    print("%-34s %14s" % ("  in a save, at 1,000 faces", figures["seal_save"][0] + " us"))
    print("%-34s %14s" % ("six dice, the tower's dice", figures["roll_tower"][0] + " us"))
    print("%-34s %14s" % ("six dice, a sealed game's", figures["roll_sealed"][0] + " us"))
    print("%-34s %14s" % ("a press's six dice, the tower's", figures["press_tower"][0] + " us"))
    print("%-34s %14s" % ("a press's six dice, a sealed game's", figures["press_sealed"][0] + " us"))
    print("target: at most 0.40 bytes of DRBG output per face; log2(6)/8 = 0.3231")
    print("target: a seal with its cut within 50 ms, a press's six sealed dice within 830 us (af7d291's)")


if __name__ == "__main__":
    main()
