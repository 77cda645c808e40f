"""Virtual peripherals: what the firmware's hw/ layer talks to when there is no board.

These files run on CPython and on the MicroPython VM alike. Put this folder
on sys.path and `import machine` / `import neopixel` find the virtual ones;
`devices.py` holds the devices behind them (an SSD1306 that decodes the bytes
it is sent, a WS2812 strip, buttons) and a clock the test moves.
"""
