"""What the dice's entropy path costs on the MicroPython VM or the emulated RP2040: the start-up test, the conditioner, the DRBG, a face.

    .venv/bin/python benchmarks/vm_entropy.py [--rp2040]

Runs benchmarks/vm/entropy_probe.py on the MicroPython 1.27 VM (WebAssembly, Node.js) over two
stand-in sources (bytes as os.urandom gives them; bits as the RP2040's ROSC register gives them, read
through RoscBits, both made by sfc16 in Python, which a Pico's C reads do not cost) and prints: the
whole start-up test (2**16 + 128 samples) and its cost per sample; one conditioned seed block
(samples carrying 512 claimed bits through the health tests and SHA-256); the longest prime() pass
(what the loop's buttons wait for, by what the loop is doing: the start-up test's rest after boot; blocks
and reseeds while rolling; paused dice tried again, the start-up test's module imported anew; the
VM's collector kept out of the passes: the device's loop collects in passes of its own) and the most
raw samples any pass read (the bound: one buffer of 32); one 32-byte HMAC_DRBG block and the heap it
allocates; and, per face, the DRBG's bytes, the raw samples and the heap, with the
bytes made ahead at idle as the loop does (primed) and without.

The VM runs on this machine's CPU. The column "125 MHz est." scales the VM's times by the ratio of
the emulated RP2040's to the VM's medians for the same advisor cases in docs/performance.md
(benchmarks/vm_advisor.py and its --rp2040 run): an estimate, not a measurement. On a Pico the ROSC
is read 1 us apart (time.sleep_us(1)), which the VM's stand-in does not wait, so its start-up test
is longer by at least 1 us a sample.

--rp2040 runs the same probe on MicroPython 1.27's own RPI_PICO firmware on an emulated RP2040 at
125 MHz (rp2040/, as benchmarks/rp2040_pico.py does), the firmware flashed as .mpy, over the chip's
own sources (os.urandom; the ROSC's random bit through machine.mem32, 1 us apart): the chip's times,
measured, not estimated (the emulator is optimistic: no flash wait states, nominal instruction timings).
"""

import argparse
import os
import re

from vmprobe import ROOT, run_on_rp2040, run_probe


def advisor_ratio():
    """Median time on the emulated RP2040 / on the VM, over the advisor cases both ran (None if absent)."""
    try:
        with open(os.path.join(ROOT, "docs", "performance.md")) as f:
            text = f.read()
    except OSError:
        return None
    tables = {}
    for chunk in text.split("<!-- bench: ")[1:]:
        command = chunk.split(" -->", 1)[0]
        if "vm_advisor.py" not in command:
            continue
        rows = {}
        for line in chunk.split("<!-- end -->")[0].splitlines():
            found = re.match(r"^(\S+)\s+[\d.]+ ms\s+([\d.]+) ms", line)
            if found:
                rows[found.group(1)] = float(found.group(2))
        tables["rp2040" if "--rp2040" in command else "vm"] = rows
    vm, chip = tables.get("vm", {}), tables.get("rp2040", {})
    ratios = [chip[case] / vm[case] for case in vm if case in chip and vm[case] >= 10]
    return sum(ratios) / len(ratios) if ratios else None


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
        ratio = None  # the chip's own times: nothing to estimate
        print("MicroPython 1.27 rp2 on an emulated RP2040 at 125 MHz: the dice's entropy path (sources: the "
              "chip's os.urandom bytes; its ROSC random bit, 1 us apart)")
        print("%-34s %14s" % ("", "125 MHz"))
    else:
        ratio = advisor_ratio()
        print("MicroPython VM: the dice's entropy path (sources: os.urandom-like bytes; ROSC-like bits)")
        print("125 MHz est.: the VM's time x %s (the advisor's emulated-RP2040/VM ratio)" % (
            "%.1f" % ratio if ratio else "?"))
        print("%-34s %14s %14s" % ("", "VM", "125 MHz est."))
    for name, label in (("startup_%s", "whole start-up test"),
                        ("startup_sample_%s", "  per sample"), ("health_sample_%s", "  health tests alone"),
                        ("period_sample_%s", "  period test alone"), ("condition_%s", "one conditioned seed block"),
                        ("longest_prime_%s", "longest prime() pass"),
                        ("longest_prime_startup_%s", "  the start-up test's rest"),
                        ("longest_prime_rolling_%s", "  while rolling (blocks, reseeds)"),
                        ("longest_prime_retry_%s", "  paused dice tried again"),
                        ("longest_reading_prime_%s", "  of those that read noise")):
        for source in ("bytes", "rosc_bits"):
            value, unit = figures[name % source]
            est = ""
            if unit == "us" and ratio:
                ms = float(value) * ratio / 1000
                est = "%.1f ms" % ms if ms < 1000 else "%.2f s" % (ms / 1000)
            shown = "%s %s" % (value, unit) if unit != "us" or float(value) < 10000 else "%.0f ms" % (float(value) / 1000)
            if unit == "us" and ratio and float(value) * ratio < 1000:
                est = "%.0f us" % (float(value) * ratio)
            print("%-34s %14s %14s" % ("%s (%s)" % (label, source), shown, est))
    print("%-34s %14s" % ("most samples a prime() pass reads", "%s (bytes), %s (rosc_bits)" % (
        figures["samples_prime_bytes"][0], figures["samples_prime_rosc_bits"][0])))
    value, _ = figures["drbg_block"]
    print("%-34s %14s %14s" % ("HMAC_DRBG, one 32-byte block", value + " us",
                               "%.1f ms" % (float(value) * ratio / 1000) if ratio else ""))
    print("%-34s %14s" % ("  heap it allocates", figures["drbg_block_heap"][0] + " bytes"))
    for tag in ("primed", "unprimed"):
        print("%-34s %14s" % ("per face (%s): DRBG bytes" % tag, figures["bytes_per_face_" + tag][0]))
        print("%-34s %14s" % ("  raw noise samples", figures["noise_per_face_" + tag][0]))
        print("%-34s %14s" % ("  heap bytes", figures["face_heap_" + tag][0]))
    print("target: at most 0.40 bytes of DRBG output per face; log2(6)/8 = 0.3231")


if __name__ == "__main__":
    main()
