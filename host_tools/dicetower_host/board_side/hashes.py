"""The SHA-256 and size of the files a flash would write, and the tree of the firmware's folder, so
that dicetower flash copies only what differs."""

import os

try:
    import binascii
    import hashlib
except ImportError:
    hashlib = None


def _hash(p):
    if hashlib is None:
        return ""
    h = hashlib.sha256()
    b = bytearray(256)
    try:
        with open(p, "rb") as f:
            while True:
                n = f.readinto(b)
                if not n:
                    break
                h.update(b[:n])
    except OSError:
        return None
    return binascii.hexlify(h.digest()).decode()


def _walk(d, out):
    try:
        entries = list(os.ilistdir(d))
    except OSError:
        return
    for e in entries:
        p = d + "/" + e[0]
        if e[1] & 0x4000:
            out.append(p + "/")
            _walk(p, out)
        else:
            out.append(p)


def _size(p):
    try:
        return os.stat(p)[6]
    except OSError:
        return None


def hashes(top, paths):
    """Print ({path: sha256 hex or None}, the tree under `top`, {path: size or None}) as a literal."""
    tree = []
    _walk(top, tree)
    paths = paths + [t for t in tree if not t.endswith("/")]
    print(repr(({p: _hash(p) for p in paths}, tree, {p: _size(p) for p in paths})))
