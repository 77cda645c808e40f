"""dicetower_host: the `dicetower` command and what it runs on the host (the firmware's
package, `dicetower`, is the other half: it runs on the board and, for the simulator, here).

Words that could be confused, and what each one means here:

- the VM: MicroPython's official WebAssembly port run by Node.js (npm
  @micropython/micropython-webassembly-pyscript). `vm/run.mjs` runs a Python file on it,
  `vm/pico.mjs` puts its REPL behind a serial port (the virtual Pico). The tests' "on the
  VM" (tests/test_on_micropython.py, conftest.run_on_vm) and the benchmarks/vm_* figures
  mean this VM.
- the emulated RP2040: MicroPython's real rp2 firmware on rp2040js (rp2040/emulator.mjs),
  `dicetower pico --emulator rp2040`. Figures from it are the chip's.
- virtual parts (`dicetower_host.virtual_parts`): the virtual `machine` module, SSD1306,
  WS2812 ring and buttons that the firmware's hw/ layer talks to without a board, on
  CPython (the simulator, the tests) and inside the VM alike.
- board-side code (`dicetower_host/board_side/*.py`): the small programs the host sends to
  a board's REPL (the flasher's probes, the dice test of `dicetower stats --port`).
- paths (`dicetower_host.paths`): where the firmware, the board profiles and the VM's
  programs are, in a checkout and in an installed wheel.
- commands (`dicetower_host.commands`): one module per `dicetower` subcommand.

The rooms, grouped by command, and which other rooms each may import (tests/test_layers.py reads this
table and checks every import): `commands/` is the thin CLI layer over them, and only `cli` imports it.

    room           imports
    errors         -
    paths          errors
    virtual_parts  errors paths
    board_side     -
    monitor        errors paths
    verify         errors
    generate       -
    sim            errors paths virtual_parts
    flash          errors paths monitor
    stats          errors paths flash
    hardware       errors paths
    pico           errors paths flash sim virtual_parts
    commands       errors paths flash hardware monitor pico sim stats verify virtual_parts
    cli            errors commands
    console        cli

sim/ the simulator (its Textual screen tui.py, its phones' server web.py, picture.py); pico/ the
virtual and emulated boards (view.py, their screen); flash/ `dicetower flash` (circuitpy.py for
CircuitPython); stats/ `dicetower stats` (maths.py, report.py); verify.py `dicetower verify`, from the published steps alone; hardware/ `dicetower hardware` (parts,
wiring, enclosure); generate/ the font's and icons' generators, run by hand.
"""
