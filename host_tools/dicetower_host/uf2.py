"""`dicetower uf2`: the tower as one file to install, MicroPython with the firmware frozen in.

A maker holds BOOTSEL, plugs the Pico in and drops the `.uf2` on the RPI-RP2 drive: it boots
straight into the game. Frozen modules run from flash, so the firmware's bytecode leaves the
heap to the game, and the advisor is frozen as native Thumb code (about 1.7x quicker; in flash it
costs no heap, which as a loaded .mpy it would).

The build is MicroPython v1.27.0's own (`make -C ports/rp2 BOARD=... FROZEN_MANIFEST=...`), with
Debian's gcc-arm-none-eabi, from the pinned upstream sources kept compressed in rp2040/sources/
(sources.json: each one's repository, commit, SHA-256 and licence). What it makes is cached
outside the checkout, under a key of the sources and the toolchain: a cold build unpacks the
sources and builds picotool, mpy-cross and the firmware; a rebuild after a change of the
firmware's Python recompiles the frozen modules and links (seconds).

The manifest (written beside the build, MicroPython's own format) freezes the port's usual
modules, `firmware/main.py`, `firmware/dicetower` and `dicetower/built_in.py`: every profile
in boards/ and the board this UF2 is for, so it boots without a boards/ folder. The player's
files on the flash (saves, heroes.json, config.json, a profile of their own) survive a new UF2.
"""

import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile

from dicetower_host import paths

SOURCES = os.path.join(paths.RP2040, "sources")
PROFILES = paths.BOARDS
# dicetower's board profile -> MicroPython's board, and the native code of its core for mpy-cross.
BOARDS = {
    "pico": ("RPI_PICO", "armv6m"),
    "rp2040_zero": ("RPI_PICO", "armv6m"),  # the Pico's build, with the Zero's profile
    "pico_w": ("RPI_PICO_W", "armv6m"),
    "pico2": ("RPI_PICO2", "armv7emsp"),
    "pico2_w": ("RPI_PICO2_W", "armv7emsp"),
}
# Frozen as machine code: the advisor's loops (its four modules).
NATIVE = ("dicetower/core/ranks.py", "dicetower/core/keeps.py", "dicetower/core/lucky.py", "dicetower/core/advisor.py")
APT = "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake make g++"
NEEDS = (("arm-none-eabi-gcc", APT), ("cmake", APT), ("make", APT), ("g++", APT))
# One change to the upstream tree: v1.27.0's mpy-tool aligns frozen Thumb native code to 2 bytes, but
# the code reads 32-bit words at offsets from its start, which a Cortex-M0+ cannot do unaligned (it
# faults: seen on the emulated RP2040, a word read at 0x1003e53a importing the frozen advisor).
# Loaded from .mpy the code sits on the heap, 16-byte aligned; frozen, it gets 4, as ARMv6's does.
PATCHES = ((("micropython", "tools", "mpy-tool.py"), ' __attribute__ ((aligned (2)))"',
            ' __attribute__ ((aligned (4)))"'),)
SOURCE_DATE_EPOCH = "1765291456"  # v1.27.0's commit time: the banner's date, so a build is repeatable


class UF2Error(Exception):
    """A build that cannot go on, in one line a maker can act on."""


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dicetower", "uf2")


def sources():
    with open(os.path.join(SOURCES, "sources.json")) as f:
        return json.load(f)["sources"]


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_sources(wanted=None):
    """The archives, checked against sources.json; UF2Error names a missing or damaged one."""
    found = []
    for source in sources():
        if wanted is not None and source["name"] not in wanted:
            continue
        path = os.path.join(SOURCES, source["archive"])
        if not os.path.exists(path):
            raise UF2Error("source archive missing: %s (%s at %s)" % (path, source["repository"], source["commit"]))
        digest = _sha256(path)
        if digest != source["sha256"]:
            raise UF2Error("source archive damaged: %s has SHA-256 %s, sources.json says %s"
                           % (path, digest, source["sha256"]))
        found.append(source)
    return found


def toolchain():
    """The compilers' versions (part of the cache key); UF2Error names what to install if one is missing."""
    versions = []
    for tool, hint in NEEDS:
        if shutil.which(tool) is None:
            raise UF2Error("%s not found: install the build tools (Debian/Ubuntu: %s)" % (tool, hint))
        out = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
        versions.append(out.splitlines()[0] if out else tool)
    return versions


def _run(cmd, log, cwd=None, env=None):
    with open(log, "a") as f:
        f.write("$ %s\n" % " ".join(cmd))
        f.flush()
        done = subprocess.run(cmd, cwd=cwd, env=env, stdout=f, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        with open(log) as f:
            tail = f.read()[-3000:]
        raise UF2Error("%s failed (exit %d); the end of %s:\n%s" % (cmd[0], done.returncode, log, tail))


def _unpack(found, tree, log):
    """The sources, unpacked once under the cache key (a stamp says the tree is whole)."""
    stamp = os.path.join(tree, ".unpacked")
    if os.path.exists(stamp):
        return
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    for source in found:
        with tarfile.open(os.path.join(SOURCES, source["archive"])) as archive:
            archive.extractall(os.path.join(tree, source["path"]), filter="data")
    for parts, old, new in PATCHES:
        path = os.path.join(tree, *parts)
        with open(path) as f:
            text = f.read()
        if text.count(old) != 1:
            raise UF2Error("%s is not the pinned one: cannot patch it" % path)
        with open(path, "w") as f:
            f.write(text.replace(old, new))
    with open(stamp, "w") as f:
        f.write("\n".join("%s %s" % (s["name"], s["commit"]) for s in found))
    with open(log, "a") as f:
        f.write("unpacked %d sources into %s\n" % (len(found), tree))


def _tools(root, tree, jobs, log):
    """picotool (the SDK's UF2 maker, built here so the SDK does not download it) and mpy-cross."""
    install = os.path.join(root, "picotool-install")
    if not os.path.exists(os.path.join(install, ".built")):
        build = os.path.join(root, "picotool-build")
        shutil.rmtree(build, ignore_errors=True)
        _run(["cmake", "-S", os.path.join(tree, "picotool"), "-B", build,
              "-DPICO_SDK_PATH=" + os.path.join(tree, "micropython", "lib", "pico-sdk"), "-DPICOTOOL_NO_LIBUSB=1",
              "-DPICOTOOL_FLAT_INSTALL=1", "-DCMAKE_INSTALL_PREFIX=" + install], log)
        _run(["cmake", "--build", build, "-j", str(jobs)], log)
        _run(["cmake", "--install", build], log)
        open(os.path.join(install, ".built"), "w").close()
    mpy_cross = os.path.join(tree, "micropython", "mpy-cross", "build", "mpy-cross")
    if not os.path.exists(mpy_cross):
        _run(["make", "-C", os.path.join(tree, "micropython", "mpy-cross"), "-j", str(jobs)], log)
    return install, mpy_cross


def _write(path, data):
    """Write only what changed: an unchanged file keeps its time, so make leaves it alone."""
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def built_in(board):
    """dicetower/built_in.py: every profile in boards/ (their JSON text) and this UF2's own board."""
    names = sorted(n[:-5] for n in os.listdir(PROFILES) if n.endswith(".json"))
    if board not in names:
        raise UF2Error(str(paths.unknown_board(board)))
    texts = {}
    for name in names:
        with open(os.path.join(PROFILES, name + ".json")) as f:
            texts[name] = f.read()
    return ('"""Made by `dicetower uf2`: the board profiles frozen into this UF2, and its own board."""\n\n'
            "BOARD = %r\nPROFILES = %r\n" % (board, texts))


def stage(board, folder, mpy_cross, arch, port_manifest):
    """The frozen modules' folder and its manifest.py; returns the manifest's path."""
    from dicetower_host import flash

    wanted = flash.sources(profile=flash.profiles()[board])
    wanted["dicetower/built_in.py"] = built_in(board).encode()
    wanted.update(flash.libraries(flash.profiles()[board]))  # microdot, on a board with Wi-Fi
    for name in NATIVE:  # compiled here as native code; the manifest freezes the .mpy as it is
        source = wanted.pop(name)
        out = os.path.join(folder, name[:-3] + ".mpy")
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, os.path.basename(name))
            with open(src, "wb") as f:
                f.write(source)
            done = subprocess.run([mpy_cross, "-march=" + arch, "-X", "emit=native", "-s", name, "-o",
                                   os.path.join(tmp, "out.mpy"), src], capture_output=True, text=True)
            if done.returncode != 0:
                raise UF2Error("mpy-cross could not compile %s: %s" % (name, done.stderr.strip()))
            with open(os.path.join(tmp, "out.mpy"), "rb") as f:
                _write(out, f.read())
    for name, data in wanted.items():
        _write(os.path.join(folder, name), data)
    for base, _dirs, files in os.walk(folder):  # what an older build staged and the firmware no longer has
        for name in files:
            rel = os.path.relpath(os.path.join(base, name), folder)
            if rel not in wanted and rel[:-4] + ".py" not in NATIVE and rel != "manifest.py":
                os.remove(os.path.join(base, name))
    manifest = os.path.join(folder, "manifest.py")
    _write(manifest, ('# dicetower %s: the board\'s own modules, then the firmware (see dicetower_host/uf2.py)\n'
                      'include(%r)\n'
                      'freeze(%r, "main.py")\n'
                      'freeze(%r, "dicetower")\n' % (board, port_manifest, folder, folder)
                      + ('freeze(%r, "microdot")\n' % folder if "microdot/__init__.py" in wanted else "")).encode())
    return manifest


def build(board="pico", output=None, jobs=None, out=None):
    """Build the UF2 for `board` (a profile's name); returns its path. Nothing half-written at `output`."""
    if board not in BOARDS:
        raise UF2Error("unknown board %r; a UF2 is built for: %s" % (board, ", ".join(sorted(BOARDS))))
    micropython_board, arch = BOARDS[board]
    try:
        paths.checkout_only(SOURCES, "dicetower uf2")
    except RuntimeError as e:
        raise UF2Error(str(e))
    jobs = jobs or os.cpu_count() or 2
    versions = toolchain()
    found = check_sources()
    key = hashlib.sha256(json.dumps([[s["name"], s["sha256"]] for s in found] + versions + [PATCHES]).encode())
    key = key.hexdigest()[:16]
    root = os.path.join(cache_root(), key)
    os.makedirs(root, exist_ok=True)
    log = os.path.join(root, "build.log")
    say = (lambda text: out.write(text + "\n")) if out is not None else (lambda text: None)
    tree = os.path.join(root, "src")
    say("sources: %s" % tree)
    _unpack(found, tree, log)
    install, mpy_cross = _tools(root, tree, jobs, log)
    port = os.path.join(tree, "micropython", "ports", "rp2")
    own = os.path.join(port, "boards", micropython_board, "manifest.py")  # the W boards' networking
    # One build folder per MicroPython board: the Zero's UF2 after the Pico's only re-freezes (its
    # manifest's path is the one the folder was configured with).
    manifest = stage(board, os.path.join(root, "frozen-" + micropython_board), mpy_cross, arch,
                     own if os.path.exists(own) else os.path.join(port, "boards", "manifest.py"))
    build_dir = os.path.join(root, "build-" + micropython_board)
    env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, PICOTOOL_FETCH_FROM_GIT_PATH=install,
               picotool_DIR=os.path.join(install, "picotool"))
    say("building MicroPython for %s with the firmware frozen in (log: %s)" % (micropython_board, log))
    _run(["make", "-C", os.path.join(tree, "micropython", "ports", "rp2"), "BOARD=" + micropython_board,
          "BUILD=" + build_dir, "FROZEN_MANIFEST=" + manifest, "-j", str(jobs)], log, env=env)
    made = os.path.join(build_dir, "firmware.uf2")
    output = output or os.path.join(paths.ROOT, "build", "dicetower-%s.uf2" % board)
    folder = os.path.dirname(os.path.abspath(output))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".dicetower-", suffix=".uf2", dir=folder)
    os.close(fd)
    try:
        shutil.copyfile(made, tmp)
        os.replace(tmp, output)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    say("frozen: %s" % " ".join(n for n in frozen_names(output) if n == "main.py" or n.startswith("dicetower")))
    return output


UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)


def image(path):
    """The bytes a UF2 puts in flash, from its first address on (gaps as 0xFF)."""
    import struct

    with open(path, "rb") as f:
        data = f.read()
    blocks = []
    for at in range(0, len(data) - 511, 512):
        magic0, magic1, _flags, address, size, _n, _total, _family = struct.unpack_from("<8I", data, at)
        end = struct.unpack_from("<I", data, at + 508)[0]
        if (magic0, magic1, end) != UF2_MAGIC or size > 476:
            raise UF2Error("%s is not a UF2 (block %d)" % (path, at // 512))
        blocks.append((address, data[at + 32:at + 32 + size]))
    if not blocks:
        raise UF2Error("%s is not a UF2 (no blocks)" % path)
    base = min(a for a, _ in blocks)
    out = bytearray(b"\xff" * (max(a + len(d) for a, d in blocks) - base))
    for address, payload in blocks:
        out[address - base:address - base + len(payload)] = payload
    return bytes(out)


def frozen_names(path):
    """The frozen modules a UF2 carries, read from its flash image: MicroPython keeps their names as
    one run of NUL-terminated paths (mp_frozen_names). The longest such run holding the firmware's
    package is the table (its names also lie elsewhere, among the strings)."""
    data = image(path)
    best = []
    at = data.find(b"dicetower/__init__.py\0")
    while at >= 0:
        start = at  # back over the paths before it
        while start > 1 and data[start - 1] == 0:
            prev = start - 1
            while prev > 0 and 32 < data[prev - 1] < 127:
                prev -= 1
            if prev == start - 1 or not data[prev:start - 1].endswith((b".py", b".mpy")):
                break
            start = prev
        names = []
        for name in data[start:].split(b"\0"):
            if not name.endswith((b".py", b".mpy")) or not all(32 < c < 127 for c in name):
                break
            names.append(name.decode("ascii"))
        if len(names) > len(best):
            best = names
        at = data.find(b"dicetower/__init__.py\0", at + 1)
    return best


# What of each upstream tree a build reads (the rest, tests and docs and other ports, is left out).
# name, GitHub repository, commit (v1.27.0's submodule pins; picotool 2.1.1), place in the tree, paths.
PINS = (
    ("micropython", "micropython/micropython", "78ff170de9e32c79db6e64d3e33d2bd60002bdcd", "micropython",
     ("LICENSE", "py", "extmod", "shared", "drivers", "lib", "tools", "mpy-cross", "ports/rp2")),
    ("pico-sdk", "raspberrypi/pico-sdk", "9a4113fbbae65ee82d8cd6537963bc3d3b14bcca", "micropython/lib/pico-sdk",
     (".", ":!test", ":!src/rp2350/hardware_regs/RP2350.svd")),  # (the .svd, for debuggers, is not read)
    ("tinyusb", "hathach/tinyusb", "aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf", "micropython/lib/tinyusb",
     ("LICENSE", "src", "hw/bsp/family_support.cmake", "hw/bsp/rp2040", "hw/bsp/board_api.h", "hw/bsp/board.c",
      "hw/bsp/ansi_escape.h")),
    ("micropython-lib", "micropython/micropython-lib", "6ae440a8a144233e6e703f6759b7e7a0afaa37a4",
     "micropython/lib/micropython-lib", ("LICENSE", "README.md", "micropython", "python-stdlib", "python-ecosys",
                                         "unix-ffi")),
    ("mbedtls", "Mbed-TLS/mbedtls", "107ea89daaefb9867ea9121002fbbdf926780e98", "micropython/lib/mbedtls",
     ("LICENSE", "include", "library")),
    ("picotool", "raspberrypi/picotool", "de8ae5ac334e1126993f72a5c67949712fd1e1a4", "picotool", (".",)),
    # The W boards' Wi-Fi and Bluetooth.
    ("cyw43-driver", "georgerobotics/cyw43-driver", "dd7568229f3bf7a37737b9e1ef250c26efe75b23",
     "micropython/lib/cyw43-driver", (".", ":!tests")),
    ("lwip", "lwip-tcpip/lwip", "77dcd25a72509eb83f72b033d219b1d40cd8eb95", "micropython/lib/lwip",
     ("COPYING", "README", "CMakeLists.txt", "src")),
    ("btstack", "bluekitchen/btstack", "77e752abd6a0992334047a48038a5a3960e5c6bc", "micropython/lib/btstack",
     ("LICENSE", "README.md", "src", "3rd-party", "platform", "chipset/bcm")),
)
LICENCES = {"micropython": "MIT", "pico-sdk": "BSD-3-Clause", "tinyusb": "MIT", "micropython-lib": "MIT",
            "mbedtls": "Apache-2.0 OR GPL-2.0-or-later", "picotool": "BSD-3-Clause",
            "cyw43-driver": "cyw43-driver's own (LICENSE; free on Raspberry Pi's RP-series boards: LICENSE.RP)",
            "lwip": "BSD-3-Clause", "btstack": "BlueKitchen's own (LICENSE; Raspberry Pi's RP-series boards are covered)"}


def pack(mirrors):
    """Maintainers: make rp2040/sources/ from local git mirrors (MIRRORS/<owner>+<name>/repo) of the pins."""
    entries = []
    for name, repository, commit, place, folders in PINS:
        git_dir = os.path.join(mirrors, repository.replace("/", "+"), "repo")
        archive = "%s-%s.tar.xz" % (name, commit[:12])
        tar = subprocess.run(["git", "--git-dir", git_dir, "archive", "--format=tar", commit, "--"] + list(folders),
                             capture_output=True, check=True).stdout
        packed = subprocess.run(["xz", "-9e", "-T1", "-c"], input=tar, capture_output=True, check=True).stdout
        with open(os.path.join(SOURCES, archive), "wb") as f:
            f.write(packed)
        entries.append({"name": name, "repository": "github.com/" + repository, "commit": commit, "path": place,
                        "paths": list(folders), "archive": archive, "sha256": hashlib.sha256(packed).hexdigest(),
                        "licence": LICENCES[name]})
    with open(os.path.join(SOURCES, "sources.json"), "w") as f:
        json.dump({"micropython": "v1.27.0", "sources": entries}, f, indent=1)
        f.write("\n")
