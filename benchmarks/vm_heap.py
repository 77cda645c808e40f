"""The firmware's live heap on the MicroPython VM, from the files `dicetower flash` sends, against its budget.

    .venv/bin/python benchmarks/vm_heap.py

For a Pico and a Pico W (its scoreboard made: microdot, the server, the page, the game's document;
then with four phones following the game live and two reading it), and a Pico 2 W with the phones,
the device booted at its start menu, then each example game pressed step by step and each scripted
four-player game played through the core (what the emulated chip's heap probe plays): the most live
heap after a press's collection (gc.mem_alloc, beyond the VM's own), with the step it came after;
what that leaves free on the board (tests/heap_budget.py: the chip's free heap at boot less the VM's
figure, less the VM's own extra); the ceiling CI holds it to (tests/test_heap_budget.py) and the
budget the project's targets allow (a Pico keeping 100,000 B free in every game, a Pico W 64,000 B).
The VM is deterministic: the same files give the same bytes.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from heap_budget import BOARDS, CEILING, EXAMPLES, FREE_AT_BOOT, TARGET_FREE, VM_OVER, measure, target_budget  # noqa: E402


def main():
    print("MicroPython VM, the firmware as `dicetower flash` sends it: live heap (B) after each press's collection")
    print(
        "%-7s %-9s %-12s %9s %6s %14s %9s %9s"
        % ("board", "kind", "game", "peak", "after", "free on board", "ceiling", "target")
    )
    for board in BOARDS + ("pico2_w+phones",):  # a Pico 2 W's figures, from its heap size (heap_budget.py)
        boot = None
        for kind in ("examples", "games"):
            for name in EXAMPLES:
                got = measure(board, kind, name)
                if boot is None:
                    boot = got["boot"]
                    print(
                        "%-7s %-9s %-12s %9d %6s %14d %9s %9s"
                        % (
                            board,
                            "boot",
                            "start menu",
                            boot,
                            "-",
                            FREE_AT_BOOT[board] - boot + VM_OVER,
                            CEILING.get(board, {}).get("boot", "-"),
                            "-",
                        )
                    )
                ceiling = CEILING.get(board, {}).get(name, "-") if kind == "examples" else "-"
                print(
                    "%-7s %-9s %-12s %9d %6d %14d %9s %9d"
                    % (
                        board,
                        kind,
                        name,
                        got["peak"],
                        got["at"],
                        FREE_AT_BOOT[board] - got["peak"] + VM_OVER,
                        ceiling,
                        target_budget(board),
                    )
                )
        print(
            "%-7s target: %d B free in every game (VM live <= %d B)" % (board, TARGET_FREE[board], target_budget(board))
        )


if __name__ == "__main__":
    main()
