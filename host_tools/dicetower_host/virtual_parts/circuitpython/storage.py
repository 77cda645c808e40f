"""A virtual `storage`: the drive is read-only to code until remount("/", readonly=False), as at power-up."""

import devices


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    if mount_path != "/":
        raise OSError(22, "Invalid argument")
    devices.BENCH.drive_writable = not readonly
