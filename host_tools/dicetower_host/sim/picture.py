"""A PNG of the tower: the OLED as the panel shows it, scaled, with the LED ring beside it."""

import math

from PIL import Image, ImageDraw

SCALE = 4
OLED_ON = (120, 200, 255)
OLED_OFF = (8, 10, 16)


def render(tower, scale=SCALE):
    panel = tower.panel
    width, height = panel.width * scale, panel.pages * 8 * scale
    ring = height  # a square beside the screen
    image = Image.new("RGB", (width + ring + 3 * scale, height + 2 * scale), (0, 0, 0))
    pixels = Image.new("RGB", (panel.width, panel.pages * 8), OLED_OFF)
    for y in range(panel.pages * 8):
        for x in range(panel.width):
            if panel.pixel(x, y):
                pixels.putpixel((x, y), OLED_ON)
    image.paste(pixels.resize((width, height), Image.NEAREST), (scale, scale))
    draw = ImageDraw.Draw(image)
    strip = tower.strip
    count = len(strip.data) // len(strip.order)
    cx, cy = width + 2 * scale + ring / 2, scale + height / 2
    radius = ring / 2 - 5 * scale
    dot = max(3, int(ring / (count + 4) / 1.6))
    for i in range(count):
        angle = 2 * math.pi * i / count - math.pi / 2
        x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
        r, g, b = strip.rgb(i)
        # Scale up what the capped ring sends so a dim LED still shows its colour.
        peak = max(r, g, b, 1)
        colour = (r * 255 // peak, g * 255 // peak, b * 255 // peak) if peak > 1 else (25, 25, 25)
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=colour, outline=(60, 60, 60))
    return image


def save(tower, path):
    render(tower).save(path)
