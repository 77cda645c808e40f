"""The only code that touches machine / rp2 / neopixel."""
