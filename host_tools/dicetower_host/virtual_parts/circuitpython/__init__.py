"""Virtual CircuitPython modules: `board`, `microcontroller`, `digitalio`, `busio`, `neopixel_write`,
`pwmio`, `storage`, `supervisor`, `watchdog`, wired to the same bench (../devices.py) as the virtual
`machine`. With these installed under their names (virtual_parts.install("circuitpython")) and Adafruit's
libraries (.venv/circuitpython-lib), the firmware's CircuitPython backend, with the real neopixel library,
drives the virtual SSD1306 and strip.
CPython only: the MicroPython VM runs the MicroPython path.
"""
