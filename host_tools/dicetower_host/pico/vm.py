"""The virtual Pico: the MicroPython WebAssembly VM behind a serial port (vm/pico.mjs), its flash a
host folder, its clock the host's."""

from dicetower_host import paths
from dicetower_host.pico.board import _Board, profile_path


class VirtualPico(_Board):
    """The MicroPython VM behind a serial port: its flash is a host folder, its clock the host's."""

    # It runs main.py until main.py's first wait before it prints its ports: the firmware takes about a
    # second there; a loaded machine many times that.
    START_SECONDS = 60

    def __init__(self, files, board="pico", capacity=None):
        self.files = files
        self.board = board
        args = [
            "--files",
            files,
            "--mount",
            paths.VIRTUAL_PARTS + ":/virtual",
            "--board",
            profile_path(board),
            "--control",
        ]
        if capacity:
            args += ["--capacity", str(capacity)]
        self._start("vm/pico.mjs", args)
