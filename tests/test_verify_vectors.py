"""One file of test vectors (tests/vectors/seals.json: honest games' /history documents, and the same
doctored as a cheat would), through both verifiers: `dicetower verify` (CPython's hmac and hashlib) and
the phones' page (its own JavaScript, in Chromium, with WebCrypto and with its own SHA-256). Each gives
the verdict the vector names, and both give the same words, line for line.

The vectors are made by tests/vectors/make_seals.py from games played on the simulator.
"""

import io
import json
import os
import shutil
from contextlib import redirect_stderr, redirect_stdout

import pytest

from conftest import ROOT
from dicetower_host import cli

VECTORS = json.load(open(os.path.join(ROOT, "tests", "vectors", "seals.json")))["vectors"]
IDS = [v["name"] for v in VECTORS]


def through_cli(vector, tmp_path):
    """(exit status, the lines printed) of `dicetower verify HISTORY --seal ...`."""
    path = tmp_path / "history.json"
    path.write_text(json.dumps(vector["history"]))
    args = ["verify", str(path)]
    for told in vector["announced"]:
        args += ["--seal", told]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = cli.main(args)
    if status == 2:
        lines = err.getvalue().splitlines()
        assert len(lines) == 1 and lines[0].startswith("dicetower: "), lines  # one line, no traceback
        return 2, [lines[0][len("dicetower: ") :]]
    return status, out.getvalue().splitlines()


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_the_cli_gives_each_vector_its_verdict(vector, tmp_path):
    status, lines = through_cli(vector, tmp_path)
    assert status == vector["status"], lines
    if vector["status"] == 0:
        assert all(": every face matches, commitment matches" in line or "no die drawn" in line for line in lines[:-1])
        assert lines[-1].startswith("game: ")
        assert " show the record's faces" in lines[-1] or "1 line shows the record's faces" in lines[-1]
    else:
        assert len(lines) == 1 and vector["says"] in lines[0], lines  # the first thing that does not hold


def test_the_vectors_cover_what_a_cheat_would_try():
    names = set(IDS)
    for wanted in (
        "an emptied record",
        "the seed read as coins",
        "a history line with another face",
        "an invented seal",
        "a re-throw with new faces",
        "a face written 0x9",
        "a face written +3",
        "a face written 3e0",
        "a record short of its last throw",
        "dice given back as other faces",
    ):
        assert wanted in names
    honest = [v for v in VECTORS if v["status"] == 0]
    records = " ".join(s["record"] for v in honest for s in v["history"]["seals"])
    assert "=" in records and "@" in records  # dice given back after undos; a Battlerealm re-roll
    assert any("#" in c for v in honest for s in v["history"]["seals"] for c in s["cut"])  # a number cut
    assert any(len(c) == 32 for v in honest for s in v["history"]["seals"] for c in s["cut"])  # a phone's


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.slow
@pytest.mark.parametrize("subtle", [True, False], ids=["webcrypto", "the page's own sha-256"])
def test_the_page_gives_every_vector_the_clis_verdict_in_the_same_words(tmp_path, subtle):
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is not installed (.ci/run installs it)", pytrace=False)
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    from dicetower_host import sim
    from dicetower_host.sim import web

    tower = sim.boot("pico_w", seed=3, state_dir=str(tmp_path / "tower"))
    with web.Served(tower) as served, sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = chromium.new_page()
            if not subtle:
                page.add_init_script("window.noSubtle = true")  # as on a tower's plain-HTTP network
            page.goto(served.url + "/")
            for vector in VECTORS:
                expected = through_cli(vector, tmp_path)
                got = page.evaluate(
                    """async ([doc, announced]) => {
                        try { return await checkHistory(doc, announced) }
                        catch (e) { if (e instanceof Bad) return [2, [e.message]]; throw e }
                    }""",
                    [vector["history"], vector["announced"]],
                )
                assert (got[0], got[1]) == expected, vector["name"]
        finally:
            chromium.close()
