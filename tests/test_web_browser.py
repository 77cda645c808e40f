"""The scoreboard's page in a real browser: Debian's Chromium, headless, driven by Playwright, against the
simulated tower's server (host_tools/web.py). Presses on the tower change every open page; a tenth
page, beyond the tower's live streams, still follows the game; the PIN lets a page press the tower.

Screenshots of the page go to docs/web/ (the README shows them) when DICETOWER_SCREENSHOTS is set.
"""

import hashlib
import os
import re
import shutil
import time

import hostile_phones
import pytest

from conftest import ROOT
from dicetower.web import server
from dicetower_host import sim
from dicetower_host.sim import web

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
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
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
    served.press("c")  # cut and play (the game sealed at its start)
    assert served.call(lambda: served.tower.app.mode) == "play"
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
def test_a_champions_page_lists_each_heros_allies_and_the_minions_engaged_with_them(browser, served):
    """Rulebook: "Minions enter play engaged with the player who revealed them." """
    page = phone(browser, served)
    for key in "bcc":  # New Champions, two players (P1, P2)
        served.press(key)
    expect(page.locator("#title")).to_have_text("Marvel Champions")
    expect(page.locator("#scores .row").last).to_contain_text("P2")
    expect(page.locator("#scores .cards")).to_have_count(0)  # none in play (a save from before them: the same)
    served.call(lambda: served.tower.presses("aaaaaccbc"))  # Play ally (above The table): P1, Ally 1, 2 hit points
    served.call(lambda: served.tower.presses("bbccbbbc"))  # Minion engages: P1, Minion 1, 4 hit points
    served.call(lambda: served.tower.presses("cbcbc"))  # Minion engages: P2, Minion 2, 2 hit points
    expect(page.locator("#scores .minions")).to_have_count(2)
    p1 = page.locator("#scores .row", has_text="P1")
    expect(p1.locator("+ .allies")).to_have_text("Allies: Ally 1 (2 hp)")
    expect(p1.locator("+ .allies + .minions")).to_have_text("Engaged minions: Minion 1 (4 hp)")
    p2 = page.locator("#scores .row", has_text="P2")
    expect(p2.locator("+ .minions")).to_have_text("Engaged minions: Minion 2 (2 hp)")
    expect(page.locator("#scores .allies")).to_have_count(1)  # P2 has no ally: nothing said
    snap(page, "champions")


@pytest.mark.slow
def test_a_game_added_through_the_registry_shows_its_title_and_its_oled_lines(browser, tmp_path):
    """A new game is one module and one line (tests/fw/toy_game.py): the page names it by the module's TITLE
    and, having no view of its own for it, shows the game's status lines, as they change."""
    import toy_game

    from dicetower.core import games

    before = toy_game.register()
    try:
        tower = sim.boot("pico_w", seed=3, state_dir=str(tmp_path))
        with web.Served(tower, pin=PIN) as served:
            page = phone(browser, served)
            expect(page.locator("#live")).to_have_text("live")
            for key in "b" * (len(games.GAMES) - 1) + "cc":  # New Toy, two players
                served.press(key)
            expect(page.locator("#title")).to_have_text("The Toy Game")
            expect(page.locator("#scores .status").first).to_have_text("P1:0 P2:0")
            served.call(lambda: served.tower.presses("cbcbc"))  # Score: P2, 2 points
            expect(page.locator("#scores .status").first).to_have_text("P1:0 P2:2")
            expect(page.locator("#scores .status").nth(1)).to_have_text("First to 5")
    finally:
        toy_game.unregister(before)


@pytest.mark.slow
def test_an_answer_older_than_what_the_page_shows_does_not_undo_it(browser, served):
    """The page asks for /state and opens its stream at once: /state's answer can come after the stream's
    newer document (a CI run under load once left a page on the start menu for good, the game on). The
    page keeps the newest; a stream's first document after it opens is shown whatever its version (a
    tower that restarted counts from 0 again)."""
    page = phone(browser, served)
    expect(page.locator("#live")).to_have_text("live")
    older = page.evaluate("() => fetch('/state').then(r => r.json())")  # the start menu's document
    for key in "bcc":  # New Champions, two players
        served.press(key)
    expect(page.locator("#title")).to_have_text("Marvel Champions")
    page.evaluate("d => show(d)", older)  # as /state's answer arriving late
    assert page.locator("#title").text_content() == "Marvel Champions"
    page.evaluate("d => show(d, true)", older)  # as a restarted tower's first document on a new stream
    assert page.locator("#title").text_content() == "dicetower"


@pytest.mark.slow
def test_a_page_beyond_the_live_streams_still_follows_the_game(browser, served):
    # All from this laptop's one address, which the tower gives MAX_STREAMS_PER_CLIENT live streams.
    pages = [phone(browser, served) for _ in range(server.MAX_STREAMS_PER_CLIENT + 1)]
    for page in pages[:-1]:
        expect(page.locator("#live")).to_have_text("live")
    served.press("c")  # New Battlerealm: the players' count
    served.press("c")
    for page in pages:  # the live ones at once, the other at its next read (every 2 s)
        expect(page.locator("#title")).to_have_text("Battlerealm")
    expect(pages[-1].locator("#live")).to_have_text("every 2 s")


@pytest.mark.slow
def test_a_page_whose_stream_ends_at_its_lease_comes_back_for_another(browser, served):
    """The tower ends every stream after LEASE_S (so that a phone that stopped reading frees its place):
    the page asks for the next by itself and follows the game on it."""
    from test_web import FakeClock, timed

    clock = FakeClock()
    timed(served, clock)
    page = phone(browser, served)
    expect(page.locator("#live")).to_have_text("live")
    assert until(served, lambda: served.server.streams == served.server.clients == 1)  # the stream alone
    opened = served.call(lambda: served.server.handled)
    clock.now += 1000 * server.LEASE_S  # the lease is over: the stream ends at its next look
    assert until(served, lambda: served.server.handled > opened)  # its connection closed
    assert until(served, lambda: served.server.streams == 1)  # and the page's next one open
    served.press("c")  # New Battlerealm: the players' count
    served.press("c")  # start
    expect(page.locator("#title")).to_have_text("Battlerealm")
    expect(page.locator("#live")).to_have_text("live")


@pytest.mark.slow
def test_with_the_pin_a_page_presses_the_towers_buttons(browser, served):
    from test_web import FakeClock, timed

    clock = FakeClock()
    timed(served, clock)
    page = phone(browser, served)
    page.click("#key-c-short")
    expect(page.locator("#said")).to_have_text("wrong PIN: it is on the tower's screen")
    assert served.call(lambda: served.tower.app.mode) == "start"
    page.fill("#pin", PIN)
    page.click("#key-c-short")  # too soon after a wrong PIN: not even looked at
    expect(page.locator("#said")).to_have_text("a wrong PIN was sent from this phone: wait 1 s before the next try")
    clock.now += 1000
    page.click("#key-c-short")  # New Battlerealm
    expect(page.locator("#said")).to_have_text("Pressed C")
    page.click("#key-c-short")  # start, with the four heroes offered first
    expect(page.locator("#title")).to_have_text("Battlerealm")
    expect(page.locator("#scores .row")).to_have_count(4)
    assert served.call(lambda: served.tower.app.game.KIND) == "battlerealm"
    snap(page, "scores")


@pytest.mark.slow
def test_a_phone_that_behaves_gets_the_game_and_its_undo_while_one_address_attacks(browser, served):
    """One laptop (127.0.0.66) holding connections and reopening them when dropped, idle, trickling its
    headers and flooding /state at once: the page opened meanwhile (from 127.0.0.1) shows the game, and
    follows an undo. (benchmarks/web_scoreboard.py measures how soon: docs/playing.md quotes it.)"""
    attacks = [
        hostile_phones.Attack(served.port, how, "127.0.0.66", threads=6, seconds=120) for how in hostile_phones.HOWS
    ]
    for attack in attacks:
        attack.start()
    try:
        page = phone(browser, served)
        expect(page.locator("#where")).to_have_text("No game yet", timeout=5000)
        served.call(lambda: served.tower.presses("bcc"))  # New Champions, two players
        expect(page.locator("#title")).to_have_text("Marvel Champions", timeout=5000)
        served.call(lambda: served.tower.presses("aaaaaccbc"))  # Play ally (above The table): P1, Ally 1, 2 hit points
        expect(page.locator("#scores .allies")).to_have_count(1, timeout=5000)
        served.call(lambda: served.tower.presses("A"))  # undo
        expect(page.locator("#scores .allies")).to_have_count(0, timeout=5000)
        expect(page.locator("#live")).to_have_text("live")
    finally:
        for attack in attacks:
            attack.join()
    assert all(attack.connections > 0 for attack in attacks)


HOSTILE = """<!doctype html><html><head><title>cats</title></head><body>
<iframe id="framed" src="TOWER/"></iframe>
<iframe name="sink" id="sink"></iframe>
<form id="form" method="POST" action="TOWER/press" enctype="text/plain" target="sink">
<input name='{"button": "c", "kind": "short", "pin": "PIN", "x": "' value='"}'></form>
<script>
const T = "TOWER", said = [];
async function attack() {
  // Wrong PINs to lock the players out, and the right one, as no-cors fetches (text/plain: no preflight).
  for (const pin of ["0000", "1111", "2222", "PIN"])
    await fetch(T + "/press", {method: "POST", mode: "no-cors", body: JSON.stringify({button: "c", pin: pin})})
      .then(() => said.push("no-cors sent"), () => said.push("no-cors failed"));
  // As the page itself would press: JSON, so the browser asks first (a preflight the tower refuses).
  await fetch(T + "/press", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({button: "c", pin: "PIN"})}).then(() => said.push("cors read"), () => said.push("cors refused"));
  // A stream, to take a phone's place.
  await new Promise(done => { const es = new EventSource(T + "/events");
    es.onopen = () => { said.push("stream open"); es.close(); done() };
    es.onerror = () => { said.push("stream refused"); es.close(); done() } });
  // A plain form: the old way round every check but the Content-Type and the Origin.
  document.getElementById("sink").onload = () => { document.title = "done" };
  document.getElementById("form").submit();
}
attack();
</script></body></html>"""


def hostile_site(html):
    """A page of another origin on loopback (127.0.0.2): (its url, its server)."""
    import http.server
    import threading

    body = html.encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.2", 0), Page)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    return "http://127.0.0.2:%d/" % site.server_address[1], site


@pytest.mark.slow
def test_a_page_from_another_origin_can_neither_press_nor_count_wrong_pins_nor_frame_the_page(browser, served):
    """Another web page on the table's network (here 127.0.0.2) knows the PIN: it tries no-cors fetches,
    a JSON fetch, a stream and a plain form, and frames the tower's page. The tower refuses each before
    looking at a PIN: nothing pressed, no wrong PIN counted, no place taken, no frame shown."""
    handled = served.call(lambda: served.server.handled)
    url, site = hostile_site(HOSTILE.replace("TOWER", served.url).replace("PIN", PIN))
    try:
        page = browser.new_page()
        page.goto(url)
        expect(page).to_have_title("done")
        said = page.evaluate("said")
    finally:
        site.shutdown()
    assert said == ["no-cors sent"] * 4 + ["cors refused", "stream refused"], said
    served.call(lambda: served.tower.wait(500))  # a press that got through would have been taken by now
    assert served.call(lambda: served.tower.app.mode) == "start"  # nothing pressed
    assert served.call(lambda: [row[3] for row in served.server.table.rows]) == [0]  # no wrong PIN counted
    assert served.call(lambda: served.server.table.left) is None  # the PIN was never looked at
    assert served.call(lambda: served.server.streams) == 0
    assert served.call(lambda: served.server.handled) >= handled + 8  # each did reach the tower
    framed = page.frame_locator("#framed")
    expect(framed.locator("#live")).to_have_count(0)  # refused by the browser: the tower says DENY
    assert [f.url for f in page.frames if f.name != "sink"][1].startswith("chrome-error://"), page.frames


@pytest.mark.slow
def test_the_page_backs_off_when_the_tower_refuses_every_read(browser, served):
    """The page asked /history again every 300 ms while the tower answered 503 (101 times in 40 s). Now
    each read it repeats (/history, /state, /events) waits twice as long after each failure, less a random
    part of at most half: the gaps between its tries are at least 0.5, 1, 2 s (/state: 1, 2 s)."""
    import json

    asked = {"/history": [], "/state": [], "/events": []}
    game = json.dumps({"version": 1, "mode": "start", "message": "", "moves": 3})

    def refuse(route):
        path = route.request.url.split(served.url, 1)[1].split("?")[0]
        asked[path].append(time.monotonic())
        if path == "/state" and len(asked[path]) == 1:  # the first read: a game with three lines
            route.fulfill(status=200, content_type="application/json", body=game)
        else:
            route.fulfill(status=503, content_type="text/plain", body="busy\n")

    page = browser.new_page()
    page.route(re.compile(r".*/(history|state|events).*"), refuse)
    page.goto(served.url + "/")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (
        len(asked["/history"]) >= 4 and len(asked["/events"]) >= 4 and len(asked["/state"]) >= 4
    ):
        page.wait_for_timeout(100)  # the page's own timers run meanwhile; polled, bounded
    for path, least in (("/history", [0.5, 1, 2]), ("/events", [0.5, 1, 2]), ("/state", [None, 1, 2])):
        times = asked[path]
        assert len(times) >= 4, (path, len(times))
        gaps = [b - a for a, b in zip(times, times[1:])]
        for gap, low in zip(gaps, least):
            assert low is None or gap >= low * 0.99, (path, gaps)
    expect(page.locator("#live")).to_have_text("offline")


def until(served, check, seconds=30):
    """check()'s value on the tower's loop once it is true (bounded: the tower's loop runs meanwhile)."""
    deadline = time.monotonic() + seconds
    while not served.call(check) and time.monotonic() < deadline:
        served.call(lambda: served.tower.wait(20))
    return served.call(check)


@pytest.mark.slow
def test_a_phone_cuts_the_seal_finds_its_part_and_verifies_after_the_reveal(browser, served):
    """Dice any player can check: while a new game's seal waits for its cut, the page sends its own part
    (128 random bits) by itself; once the players cut on the tower, it finds its part in the cut; after
    the seed is revealed, it recomputes every face of the game from the seed and the cut. (Doctored
    histories, through the page and the CLI alike: tests/test_verify_vectors.py.)"""
    tower = served.tower
    page = phone(browser, served)
    expect(page.locator("#live")).to_have_text("live")
    expect(page.locator("#verify")).to_be_hidden()
    # New Battlerealm, four heroes (no roll of the first turn can end their game), start: the game sealed.
    served.call(lambda: tower.presses("cc"))
    assert served.call(lambda: tower.app.mode) == "cut"
    seal = served.call(lambda: tower.app.sealing.dice.commitment)[:16]  # as the OLED and the page show it
    expect(page.locator("#said")).to_contain_text("Your part of the cut: ")  # the tower took it
    cut = until(served, lambda: list(tower.app.sealing.dice.cut))
    assert len(cut) == 1 and re.fullmatch("[0-9a-f]{32}", cut[0]), cut
    assert page.locator("#said").text_content() == "Your part of the cut: %s\u2026" % cut[0][:8]
    expect(page.locator("#seal")).to_have_text("Seal %s. Cut: 1 contribution so far, yours among them." % seal)
    assert until(served, lambda: tower.screen()[2] == "phones: 1")  # on the tower's screen too
    served.call(lambda: tower.presses("c"))  # Cut and play
    assert served.call(lambda: tower.app.message).startswith("Seal %s, cut by 1 phone: " % seal)
    expect(page.locator("#seal")).to_have_text("Seal %s. Cut by 1 phone. Your part is in it." % seal)

    served.call(lambda: tower.presses("c ac"))  # Hulk rolls; to Finalize, finalize
    while served.call(lambda: tower.app.mode) == "mark":
        served.call(lambda: tower.presses("ac"))  # the dice exploded: nobody marked (Done)
    served.call(lambda: tower.presses("c a c"))  # past the result; round the menu to "Reveal the seed"
    assert served.call(lambda: tower.app.mode) == "seed"
    assert served.call(lambda: tower.app.message).startswith("Seal %s revealed: 6 draws in 1 throw." % seal)
    expect(page.locator("#verify")).to_be_visible()
    page.locator("#verify").click()
    verdict = "seal %s: 6 draws in 1 throw, cut by 1 phone: every face matches, commitment matches" % seal
    expect(page.locator("#verdict .good").first).to_have_text(verdict)
    expect(page.locator("#verdict .good").last).to_have_text("game: 1 line shows the record's faces")
    expect(page.locator("#verdict .bad")).to_have_count(0)
    assert page.evaluate("() => hex(sha256js(enc('abc')))") == hashlib.sha256(b"abc").hexdigest()
    long = "x" * 200  # several blocks: the page's own SHA-256 against CPython's
    assert page.evaluate("() => hex(sha256js(enc('%s')))" % long) == hashlib.sha256(long.encode()).hexdigest()
