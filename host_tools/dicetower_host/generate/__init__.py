"""Generators of firmware data, run by hand: the OLED's font (font.py) and its icons (icons.py)."""
