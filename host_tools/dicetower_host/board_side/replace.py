"""Put a file written beside its target in place (the manifest, config.json): a cut leaves the old
one or the new one, never half of either."""

import os


def replace(old, new):
    try:
        os.rename(old, new)
    except OSError:  # FAT cannot rename over a file: remove, then rename
        os.remove(new)
        os.rename(old, new)
