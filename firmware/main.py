"""dicetower: boots the dice tower. MicroPython runs this file at boot (CircuitPython runs it as code.py)
and compiles it from source every time, so it only calls the compiled launch (dicetower/launch.py: the
check of the flashed files, the device's boot) and forgets it once the device is up."""


def boot(platform=None):
    """The device on `platform` (the board's own when None), the launch forgotten once it is up (the check's
    and the boot's code are not a game's heap): the loop's, the simulator's and the bench's way in."""
    from dicetower.core.scope import Scope

    launching = Scope("launch")
    device = launching.load("dicetower.launch").boot(platform)
    launching.adopt("dicetower.launch")  # `run`'s check may have loaded it first: it goes all the same
    launching.close()
    return device


def check(root="/"):
    """What is wrong with the flashed files, or None: what `dicetower flash` asks once after a copy."""
    from dicetower.launch import check

    return check(root)


def run():
    try:
        from dicetower import launch
    except ImportError as e:  # files copied by hand without it: nothing to check or boot with
        print('{"event": "error", "error": "Reflash needed: dicetower/launch is missing. Run dicetower flash again."}')
        print(repr(e))
        return
    found = launch.check()
    if found:
        launch.reflash_needed(*found)
        return
    del launch
    device = boot()
    device.platform.run(device)


if __name__ == "__main__":
    run()
