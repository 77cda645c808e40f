"""dicetower firmware: fair dice and score keeping for Marvel tabletop games."""

VERSION = "0.1.0"
