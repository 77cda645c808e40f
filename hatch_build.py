"""The wheel's package data: what the `dicetower` commands read besides Python modules.

A built wheel carries these files in dicetower_host/data/, where dicetower_host.paths finds
them once installed. An editable install (tasks.py's `pip install -e`) gets none of them: it
reads the checkout's own folders, so an edit to firmware/ is what the next flash sends.
"""

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

DATA = ("firmware", "boards", "vm", "package.json", "package-lock.json", "hardware/parts.json",
        "hardware/enclosure/tower.scad", "pyproject.toml",
        # `dicetower pico --emulator rp2040`: the emulator, the RP2040's bootrom and MicroPython's own UF2
        # with their licences (not rp2040/sources: `dicetower uf2` builds in a checkout).
        "rp2040/emulator.mjs", "rp2040/README.md", "rp2040/bootrom", "rp2040/firmware/RPI_PICO-v1.27.0.uf2",
        "rp2040/firmware/SHA256SUMS", "rp2040/firmware/LICENSE-micropython", "rp2040/firmware/LICENSE-pico-sdk",
        "rp2040/firmware/LICENSE-tinyusb", "rp2040/firmware/README.md")


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version, build_data):
        if version == "editable":
            return
        for path in DATA:
            build_data["force_include"][path] = "dicetower_host/data/" + path
