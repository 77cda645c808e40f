"""What the board is: runtime, version, .mpy version, machine name, free flash, port (dicetower flash)."""

import os
import sys


def probe():
    try:
        s = os.statvfs("/")
        free = s[0] * s[3]
    except Exception:  # noqa: BLE001 (a port without statvfs: the size is unknown)
        free = -1
    print(
        repr(
            (
                sys.implementation.name,
                tuple(sys.implementation.version[:3]),
                getattr(sys.implementation, "_mpy", 0),
                getattr(sys.implementation, "_machine", ""),
                free,
                sys.platform,
            )
        )
    )
