"""mip: the repository as a MicroPython package. `package.json`'s `urls` install the firmware (as source)
and the board profiles with `mpremote mip install`, as micropython-lib's packages install."""

import json
import os
import shutil
import subprocess

import pytest

from conftest import ROOT, tool


def test_package_json_lists_what_a_board_needs():
    from dicetower_host import flash

    with open(os.path.join(ROOT, "package.json")) as f:
        urls = json.load(f)["urls"]
    # every firmware module and board profile, none stale (`python3 tasks.py package` writes them)
    assert urls == flash.mip_urls()
    assert ["main.py", "firmware/main.py"] in urls and ["boards/pico.json", "boards/pico.json"] in urls


@pytest.mark.slow
def test_mip_installs_the_firmware_from_the_repository_onto_a_virtual_pico(tmp_path):
    files = tmp_path / "flash"
    bridge = subprocess.Popen(
        [shutil.which("node"), os.path.join(ROOT, "vm", "pico.mjs"), "--files", str(files)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        line = bridge.stdout.readline()
        assert line.startswith("listening "), bridge.stderr.read()
        port = "socket://127.0.0.1:%s" % line.split()[1]

        def mpremote(*args):
            return subprocess.run(
                [tool("mpremote"), "connect", port, *args], capture_output=True, text=True, timeout=300
            )

        # A local path to package.json is mip's offline index: its relative URLs are files beside it.
        done = mpremote("mip", "install", "--target", "/", os.path.join(ROOT, "package.json"))
        assert done.returncode == 0, done.stdout + done.stderr
        for rel in ("main.py", "dicetower/core/games/battlerealm/advisor.py", "boards/pico.json"):
            with open(os.path.join(ROOT, "firmware" if not rel.startswith("boards") else "", rel), "rb") as f:
                assert (files / rel).read_bytes() == f.read(), rel
        done = mpremote("exec", "import main\nprint(main.check())")
        assert done.stdout.split() == ["None"], done.stdout + done.stderr  # installed by hand: nothing to check
    finally:
        bridge.terminate()
        bridge.wait(timeout=10)
