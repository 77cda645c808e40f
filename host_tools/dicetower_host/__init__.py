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
- `micropython` on the host: micropython.py (const, native, viper), which `import micropython`
  gives in any process that has imported this package (the finder below), as the firmware's
  modules import it on a board.

The rooms, grouped by command, and which other rooms each may import (tests/test_layers.py reads this
table and checks every import): `commands/` is the thin CLI layer over them, and only `cli` imports it.

    room           imports
    errors         -
    micropython    -
    paths          errors
    virtual_parts  errors paths
    board_side     -
    monitor        errors paths
    verify         errors
    dice           errors
    generate       -
    sim            errors paths virtual_parts
    flash          errors paths monitor
    stats          errors paths flash
    hardware       errors paths
    pico           errors paths flash sim virtual_parts
    commands       errors paths dice flash hardware monitor pico sim stats verify virtual_parts
    cli            errors commands
    console        cli

sim/ the simulator (its Textual screen tui.py, its phones' server web.py, picture.py); pico/ the
virtual and emulated boards (board.py, vm.py, rp2040.py) and `dicetower pico` (session.py, launch.py,
script_runner.py, its screen view.py); flash/ `dicetower flash` (board.py, build.py, plan.py,
transfer.py, connection.py, messages.py, run.py, progress.py; circuitpy.py for CircuitPython); stats/
`dicetower stats` (maths.py, report.py, fairness.py); verify/ `dicetower verify`, from the published
steps alone (stream.py, game.py, read.py); dice.py `dicetower roll` and `throw`; hardware/ `dicetower
hardware` (parts, wiring, enclosure, documents.py); monitor.py `dicetower monitor`; generate/ the
font's and icons' generators, run by hand. A commands/ module parses its arguments (which flags go
together included) and makes one call into its room; no host module is over 400 lines
(tests/test_host_layout.py).
"""

import sys


class _MicroPython:
    """The finder of `import micropython` on CPython: this package's micropython.py, one module under both
    names. Last on sys.meta_path, so a real one on sys.path would come first; imports nothing until asked."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "micropython":
            return None
        import importlib.util

        return importlib.util.spec_from_loader(name, _MicroPython)

    @staticmethod
    def create_module(spec):
        import importlib

        return importlib.import_module(__name__ + ".micropython")

    @staticmethod
    def exec_module(module):
        pass  # run once already, under its package name


if _MicroPython not in sys.meta_path:
    sys.meta_path.append(_MicroPython)
