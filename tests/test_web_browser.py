"""The scoreboard's page in a real browser: Debian's Chromium, headless, driven by Playwright, against the
simulated tower's server (host_tools/web.py). Presses on the tower change every open page; a tenth
page, beyond the tower's live streams, still follows the game; the PIN lets a page press the tower.

Screenshots of the page go to docs/web/ (the README shows them) when DICETOWER_SCREENSHOTS is set.
"""

import os
import shutil

import pytest

from conftest import ROOT
from dicetower_host import sim, web
from dicetower.web import server

PIN = "2468"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

if CHROMIUM is None:
    if os.environ.get("CI"):
        pytest.fail("Debian's chromium is not installed (.ci/run installs it)", pytrace=False)
    pytest.skip("no chromium on this machine (apt-get install chromium)", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
expect.set_options(timeout=30000)  # a state, waited for: a loaded machine's browser may take its time


@pytest.fixture
def served(tmp_path):
    tower = sim.boot("pico_w", seed=3, state_dir=str(tmp_path))
    with web.Served(tower, pin=PIN) as s:
        yield s


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=["--no-sandbox", "--disable-gpu"])
        yield chromium
        chromium.close()


def phone(browser, served):
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone's screen, held upright
    page.set_default_timeout(30000)
    page.goto(served.url + "/")
    return page


def snap(page, name):
    if os.environ.get("DICETOWER_SCREENSHOTS"):
        os.makedirs(os.path.join(ROOT, "docs", "web"), exist_ok=True)
        page.screenshot(path=os.path.join(ROOT, "docs", "web", name + ".png"), full_page=True)


@pytest.mark.slow
def test_a_press_on_the_tower_changes_every_page(browser, served):
    first = phone(browser, served)
    expect(first.locator("#live")).to_have_text("live")
    expect(first.locator("#where")).to_have_text("No game yet")
    second = phone(browser, served)
    for key in "caac":  # New Battlerealm, two heroes, start
        served.press(key)
    for page in (first, second):
        expect(page.locator("#title")).to_have_text("Battlerealm")
        expect(page.locator("#where")).to_have_text("Round 1 \u00b7 Hulk's turn")
        expect(page.locator("#scores .row")).to_have_count(2)
        expect(page.locator("#scores .row").first).to_contain_text("Hulk")
    served.press("c")  # Hulk rolls
    faces = served.call(lambda: list(served.tower.app.roll.symbols()))
    for page in (first, second):
        expect(page.locator("#dice .die")).to_have_count(6)
        for die, face in enumerate(faces):
            expect(page.locator("#dice .die").nth(die)).to_have_attribute("title", face)
        expect(page.locator("#chance")).to_contain_text("advice:")
    percent = served.call(lambda: served.tower.app.advice.percent())
    expect(first.locator("#chance")).to_contain_text("advice: %d%% to pay" % percent)
    snap(first, "roll")


@pytest.mark.slow
def test_a_tenth_page_beyond_the_live_streams_still_follows_the_game(browser, served):
    pages = [phone(browser, served) for _ in range(10)]
    live = sum(1 for page in pages if page.locator("#live").inner_text() == "live")
    assert live <= server.MAX_STREAMS
    served.press("c")  # New Battlerealm: the players' count
    served.press("c")
    for page in pages:  # the live ones at once, the others at their next read (every 2 s)
        expect(page.locator("#title")).to_have_text("Battlerealm")
    expect(pages[9].locator("#live")).to_have_text("every 2 s")


def test_with_the_pin_a_page_presses_the_towers_buttons(browser, served):
    page = phone(browser, served)
    page.click("#key-c-short")
    expect(page.locator("#said")).to_have_text("wrong PIN: it is on the tower's screen")
    assert served.call(lambda: served.tower.app.mode) == "start"
    page.fill("#pin", PIN)
    page.click("#key-c-short")  # New Battlerealm
    expect(page.locator("#said")).to_have_text("Pressed C")
    page.click("#key-c-short")  # start, with the four heroes offered first
    expect(page.locator("#title")).to_have_text("Battlerealm")
    expect(page.locator("#scores .row")).to_have_count(4)
    assert served.call(lambda: served.tower.app.game.KIND) == "battlerealm"
    snap(page, "scores")
