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
    served.call(lambda: served.tower.presses("aaaaccbc"))  # Play ally: P1, Ally 1, 2 hit points
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
def test_a_phone_that_behaves_gets_the_game_while_hostile_phones_attack(browser, served):
    """With the hostile run's attacks going on from other phones (each bounded in count and time): HEAD
    streams, headers trickled, header floods, a body that stops short, PIN guesses, a stream that never
    reads. A page opened meanwhile shows the game, and a press on the tower reaches it within 5 s."""
    import socket
    import threading
    import time

    stop = threading.Event()
    until = time.monotonic() + 120

    def phone_socket(n):
        sock = socket.socket()
        sock.settimeout(5)
        sock.bind(("127.0.0.%d" % n, 0))
        sock.connect(("127.0.0.1", served.port))
        return sock

    def attack(n, send, rounds=400):
        for _ in range(rounds):
            if stop.is_set() or time.monotonic() > until:
                return
            try:
                sock = phone_socket(n)
                send(sock)
                sock.close()
            except OSError:
                pass  # refused, reset or timed out: the server defends itself

    def head(sock):
        sock.sendall(b"HEAD /events HTTP/1.1\r\n\r\n")
        sock.recv(256)

    def trickle(sock):
        sock.sendall(b"GET /state HTTP/1.1\r\n")
        for n in range(20):
            if stop.is_set():
                return
            sock.sendall(b"X-%d: 1\r\n" % n)
            time.sleep(0.5)  # the attacker's own pace, not a wait for the test's sake

    def flood(sock):
        sock.sendall(b"GET /state HTTP/1.1\r\n")
        for _ in range(200):
            sock.sendall(b"X: " + b"y" * 480 + b"\r\n")

    def short_body(sock):
        sock.sendall(b"POST /press HTTP/1.1\r\nContent-Length: 100\r\n\r\n0123456789")
        sock.recv(256)

    def guess(sock):
        body = b'{"button": "c", "pin": "0000"}'
        sock.sendall(b"POST /press HTTP/1.1\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        sock.recv(256)

    def never_reads(sock):
        sock.sendall(b"GET /events HTTP/1.1\r\n\r\n")
        stop.wait(10)

    attackers = [
        threading.Thread(target=attack, args=(2 + i, how), daemon=True)
        for i, how in enumerate((head, trickle, trickle, flood, short_body, guess, never_reads))
    ]
    for t in attackers:
        t.start()
    try:
        page = phone(browser, served)
        expect(page.locator("#where")).to_have_text("No game yet")
        served.press("c")  # New Battlerealm
        served.press("c")  # start
        expect(page.locator("#title")).to_have_text("Battlerealm", timeout=5000)
        expect(page.locator("#scores .row")).to_have_count(4, timeout=5000)
    finally:
        stop.set()
        for t in attackers:
            t.join(30)


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
