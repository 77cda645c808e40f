"""dicetower: boots the dice tower. Wiring only: board profile -> drivers -> app -> asyncio tasks.

On a Pico MicroPython runs this file at boot. Tests and the simulator call
`boot(platform)` with a virtual platform and step the device themselves.
"""

from dicetower.device import Device


def boot(platform=None):
    if platform is None:
        from dicetower.hw.platform import Platform

        platform = Platform()
    return Device(platform)


def run():
    import asyncio

    asyncio.run(boot().serve())


if __name__ == "__main__":
    run()
