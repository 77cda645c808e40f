"""Host tools for dicetower: the `dicetower` command."""

import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # firmware/, boards/, vm/ live here
# The pinned Adafruit libraries for CircuitPython (pyproject.toml's [tool.dicetower]), put here by tasks.py.
CIRCUITPY_LIB = os.path.join(REPO, ".venv", "circuitpython-lib")
