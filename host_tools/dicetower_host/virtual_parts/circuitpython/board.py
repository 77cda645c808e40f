"""A virtual `board` for a Raspberry Pi Pico: GP0 to GP29 (the same objects as microcontroller.pin)."""

import microcontroller

board_id = "raspberry_pi_pico"
for _n in range(30):
    globals()["GP%d" % _n] = getattr(microcontroller.pin, "GPIO%d" % _n)
LED = globals()["GP25"]
