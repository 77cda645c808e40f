"""The scoreboard's web server (firmware/dicetower/web/server.py, microdot) against the simulated tower,
over loopback: what phones get, what they may press, and what a hostile or careless client cannot do.

Every wait is for a state (an event on the stream, a closed socket), bounded; none is a sleep.
"""

import json
import socket
import time
import urllib.error
import urllib.request

import pytest

from dicetower.web import server
from dicetower_host import cli, sim
from dicetower_host.sim import web

PIN = "2468"


@pytest.fixture
def served(tmp_path):
    tower = sim.boot("pico_w", seed=3, state_dir=str(tmp_path))
    with web.Served(tower, pin=PIN) as s:
        yield s


def get(s, path):
    with urllib.request.urlopen(s.url + path, timeout=30) as r:
        return r.status, r.headers, r.read()


def state(s):
    return json.loads(get(s, "/state")[2])


def post(s, body, raw=False, phone=None):
    """A press as a plain client sends it (JSON, no Origin), from 127.0.0.1 or from phone N (127.0.0.N)."""
    data = body if raw else json.dumps(body).encode()
    if phone is not None:
        sock = connect(s, phone)
        sock.sendall(
            b"POST /press HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(data), data)
        )
        head, _, text = read_all(sock).partition(b"\r\n\r\n")
        sock.close()
        return int(head.split()[1]), json.loads(text)
    request = urllib.request.Request(
        s.url + "/press", data=data, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def connect(s, phone=1):
    """A connection to the server from phone number `phone`: its own loopback address, 127.0.0.N (the
    server gives one address at most MAX_STREAMS_PER_CLIENT streams)."""
    sock = socket.socket()
    sock.settimeout(30)
    sock.bind(("127.0.0.%d" % phone, 0))
    sock.connect(("127.0.0.1", s.port))
    return sock


class Stream:
    """An /events subscriber (phone number `phone`): reads each document the server sends."""

    def __init__(self, s, phone=1):
        self.sock = connect(s, phone)
        self.sock.settimeout(30)  # a document that never comes fails the test, not the run
        self.sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.file = self.sock.makefile("rb")
        head = self.file.readline()
        assert head.startswith(b"HTTP/1.") and b" 200 " in head, head
        while self.file.readline() not in (b"\r\n", b"\n", b""):
            pass

    def next(self, seconds=30):
        """The next document (comment lines, the keep-alives, skipped), within `seconds`: the keep-alives
        come every KEEPALIVE_S, so the socket's timeout alone would wait for a missing document forever."""
        deadline = time.monotonic() + seconds
        while True:
            assert time.monotonic() < deadline, "no document within %d s (only keep-alives)" % seconds
            line = self.file.readline()
            assert line, "the stream ended"
            if line.startswith(b"data: "):
                return json.loads(line[6:])

    def until(self, check, documents=50):
        for _ in range(documents):
            d = self.next()
            if check(d):
                return d
        raise AssertionError("no document matched in %d" % documents)

    def close(self):
        self.file.close()
        self.sock.close()


def closed_by_server(sock, seconds=30):
    """True once the server has closed the connection (EOF or reset), within `seconds`."""
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def read_all(sock):
    """What the server sends until it closes."""
    out = b""
    try:
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            out += chunk
    except ConnectionResetError:
        pass
    return out


def raw(s, data, phone=None):
    """Send raw bytes (from phone N, 127.0.0.N, if given); the whole answer, once the server closes."""
    sock = connect(s, phone) if phone else socket.create_connection(("127.0.0.1", s.port), timeout=30)
    sock.sendall(data)
    out = read_all(sock)
    sock.close()
    return out


def clients(s):
    return s.call(lambda: s.server.clients)


def settled(s, seconds=30):
    """The number of connections the server holds once those that are ending have ended (bounded)."""
    deadline = time.monotonic() + seconds
    while clients(s) and time.monotonic() < deadline:
        s.call(lambda: s.tower.wait(20))
    return clients(s)


def test_the_page_is_one_file_that_needs_nothing_from_elsewhere(served):
    status, headers, body = get(served, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    page = body.decode()
    assert "<script" in page and "<style>" in page
    assert "src=" not in page and "<link" not in page and "http://" not in page and "https://" not in page
    assert 'name="viewport"' in page  # laid out for a phone


def test_the_state_is_the_towers_game(served):
    served.press("c")  # New Battlerealm
    served.press("a")
    served.press("a")  # two heroes
    served.press("c")  # start
    d = state(served)
    game = served.call(lambda: served.tower.app.game.state)
    assert d["kind"] == "battlerealm" and d["state"] == json.loads(json.dumps(game))
    assert [h["name"] for h in d["state"]["heroes"]] == ["Hulk", "Thor"]


def test_a_champions_game_serves_each_players_ally_and_the_minions_engaged_with_them(served):
    served.press("b")
    served.press("c")
    served.press("c")  # New Champions, two players (P1, P2)
    assert "allies" not in state(served)["state"]  # none played: the state as a save made before them
    phone = Stream(served)
    for keys in (
        "aaaaaccbc",  # Play ally (above The table): P1, Ally 1, 2 hit points
        "bbccbbbc",  # Minion engages: P1, Minion 1, 4 hit points
        "cbcbc",
    ):  # Minion engages: P2, Minion 2, 2 hit points
        served.call(lambda: served.tower.presses(keys))
    d = phone.until(lambda d: len(d["state"].get("minions", ())) == 2)
    assert d["state"]["allies"] == [[0, "Ally 1", 2]]
    assert d["state"]["minions"] == [[0, "Minion 1", 4], [1, "Minion 2", 2]]
    assert state(served)["state"]["minions"] == d["state"]["minions"]
    phone.close()


def test_a_press_on_the_tower_reaches_every_phone_on_the_stream(served):
    phones = [Stream(served, phone=10 + n) for n in range(3)]
    first = [p.next() for p in phones]
    assert {d["mode"] for d in first} == {"start"}
    served.press("c")  # New Battlerealm: the players' count
    for p in phones:
        assert p.until(lambda d: d["mode"] == "setup")["version"] > first[0]["version"]
    for p in phones:
        p.close()


def test_a_roll_reaches_the_phones_with_its_dice_locks_and_advice(served):
    phone = Stream(served)
    for key in "caaccc":  # New Battlerealm, two heroes, start; cut and play; Hulk rolls
        served.press(key)
    d = phone.until(lambda d: "roll" in d and "chance" in d["roll"], documents=200)
    roll = served.call(
        lambda: (
            list(served.tower.app.roll.symbols()),
            list(served.tower.app.roll.locked),
            served.tower.app.advice.percent(),
        )
    )
    assert (d["roll"]["faces"], d["roll"]["locked"], d["roll"]["chance"]) == roll
    phone.close()


def test_the_history_grows_with_the_game(served):
    for key in "caaccc":  # New Battlerealm, two heroes, start; cut and play; Hulk rolls
        served.press(key)
    served.call(lambda: served.tower.wait(2000))
    served.call(lambda: served.tower.presses("ac"))  # finalize
    while served.call(lambda: served.tower.app.mode) == "mark":
        served.call(lambda: served.tower.presses("ac"))
    lines = served.call(lambda: served.tower.app.game.history())
    assert lines, "the roll is in the history"
    history = json.loads(get(served, "/history")[2])
    assert history["lines"] == lines
    actions = served.call(lambda: served.tower.events("action"))
    assert history["at"] == [a.get("at") for a in actions]  # each line's throw's place
    assert json.loads(get(served, "/history?since=1")[2])["lines"] == lines[1:]
    assert get_status(served, "/history?since=x") == 400


def get_status(s, path):
    try:
        return get(s, path)[0]
    except urllib.error.HTTPError as e:
        return e.code


class FakeClock:
    """The PIN guard's clock, in ms, moved by the test: a wait is a state, not a length of time."""

    def __init__(self):
        self.now = 10**6

    def __call__(self):
        return self.now


def timed(s, clock):
    """The server's clock from now on: the test's, moved by hand (what it counted is kept)."""

    def use():
        table = s.server.table
        table.clock, table.raw = clock, clock()

    s.call(use)


def test_phones_press_only_with_the_pin(served):
    clock = FakeClock()
    timed(served, clock)
    assert post(served, {"button": "c", "pin": "1111"}) == (403, {"error": "wrong PIN: it is on the tower's screen"})
    # A wrong PIN costs a second before the next try is even looked at.
    assert post(served, {"button": "c", "pin": PIN}) == (
        429,
        {"error": "a wrong PIN was sent from this phone: wait 1 s before the next try"},
    )
    clock.now += 1000
    assert post(served, {"button": "c"})[0] == 400  # no PIN at all
    assert state(served)["mode"] == "start"  # nothing was pressed
    assert post(served, {"button": "c", "kind": "short", "pin": PIN}) == (200, {"ok": True})
    served.call(lambda: served.tower.wait(200))  # the device's loop takes the press in its turn
    assert served.call(lambda: served.tower.app.mode) == "setup"
    assert post(served, {"button": "z", "pin": PIN})[0] == 400
    assert post(served, {"button": "a", "kind": "triple", "pin": PIN})[0] == 400
    assert post(served, b"{not json", raw=True)[0] == 400


def test_without_a_pin_every_press_is_refused(tmp_path):
    tower = sim.boot("pico_w", seed=3, state_dir=str(tmp_path))
    with web.Served(tower) as s:
        status, answer = post(s, {"button": "c", "pin": ""})
        assert status == 403 and "no PIN is set" in answer["error"]
        assert s.call(lambda: s.tower.app.mode) == "start"


def test_malformed_requests_get_an_error_and_a_closed_socket(served):
    assert raw(served, b"NONSENSE\r\n\r\n").startswith(b"HTTP/1.0 400")
    assert raw(served, b"GET /" + b"x" * 1000 + b" HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.0 414")  # over-long URL
    assert raw(served, b"GET / HTTP/1.1\r\nX-Long: " + b"y" * 1000 + b"\r\n\r\n").startswith(b"HTTP/1.0 431")
    assert raw(served, b"GET / HTTP/1.1\r\nno colon here\r\n\r\n").startswith(b"HTTP/1.0 400")
    big = b"POST /press HTTP/1.1\r\nContent-Length: 100000\r\n\r\n" + b"{" * 300
    assert raw(served, big).startswith(b"HTTP/1.0 413")
    assert raw(served, b"GET /nowhere HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.0 404")
    assert state(served)["mode"] == "start"  # and the tower is unmoved
    assert settled(served) == 0


@pytest.mark.slow
def test_a_client_that_stalls_mid_request_is_dropped(served):
    sock = socket.create_connection(("127.0.0.1", served.port), timeout=30)
    sock.sendall(b"GET /state HTTP/1.1\r\nHost: tow")  # and nothing more
    assert closed_by_server(sock, seconds=server.REQUEST_S + 20)
    sock.close()
    assert settled(served) == 0
    served.press("c")
    assert state(served)["mode"] == "setup"  # the game went on meanwhile


def test_eight_phones_follow_live_and_a_ninth_is_told_to_read_instead(served):
    phones = [Stream(served, phone=10 + n) for n in range(server.MAX_STREAMS)]
    for p in phones:
        p.next()
    refused = raw(served, b"GET /events HTTP/1.1\r\n\r\n")
    assert refused.startswith(b"HTTP/1.0 503") and b"reads it every few seconds" in refused
    assert state(served)["mode"] == "start"  # the ninth phone's page reads the game instead
    served.press("c")
    for p in phones:
        assert p.until(lambda d: d["mode"] == "setup")
    phones.pop().close()
    deadline = time.monotonic() + 30
    while served.call(lambda: served.server.streams) >= server.MAX_STREAMS and time.monotonic() < deadline:
        served.press("b")  # a change: a document written to every stream; the closed one's write fails
    late = Stream(served, phone=30)
    assert late.next()["mode"] == "setup"
    for p in phones + [late]:
        p.close()


def test_connections_beyond_the_cap_are_told_to_wait(served):
    held = [connect(served, phone=10 + n) for n in range(server.MAX_CLIENTS)]
    deadline = time.monotonic() + 30
    while clients(served) < server.MAX_CLIENTS and time.monotonic() < deadline:
        served.call(lambda: served.tower.wait(20))
    assert raw(served, b"GET /state HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.0 503")
    for sock in held:
        sock.close()
    assert settled(served) == 0
    assert state(served)["mode"] == "start"


def test_a_flood_of_requests_leaves_the_game_and_the_buttons_as_they_were(served):
    served.press("c")
    before = state(served)
    for _ in range(200):
        assert get(served, "/state")[0] == 200
    handled = served.call(lambda: served.server.handled)
    for _ in range(50):  # requests cut after their first bytes, the client gone
        sock = socket.create_connection(("127.0.0.1", served.port), timeout=30)
        sock.sendall(b"GET /even")
        sock.close()
    deadline = time.monotonic() + 60  # each is accepted, answered 400 (or 503 while others held every place)
    while served.call(lambda: served.server.handled) < handled + 50 and time.monotonic() < deadline:
        served.call(lambda: served.tower.wait(20))
    assert served.call(lambda: served.server.handled) >= handled + 50
    assert settled(served) == 0
    served.press("a")
    after = state(served)
    assert after["mode"] == "setup" and after["version"] > before["version"]
    assert settled(served) == 0


@pytest.mark.slow
def test_phones_that_vanish_mid_stream_free_their_place(served):
    for _ in range(3 * server.MAX_CLIENTS):
        phone = Stream(served)
        phone.next()
        phone.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        phone.close()  # a reset, as a phone that walks out of range
        served.press("b")  # a change: the server writes to the vanished phone and lets it go
        assert settled(served) == 0
    assert Stream(served).next()["mode"] == "start"


def test_the_sim_refuses_web_options_that_cannot_work(capsys):
    assert cli.main(["sim", "--pin", "1234"]) == 2
    assert "--pin goes with --web" in capsys.readouterr().err
    assert cli.main(["sim", "--web", "8080", "--script", "-"]) == 2
    assert "leave out --script" in capsys.readouterr().err
    assert cli.main(["sim", "--web", "70000"]) == 2
    assert "port number" in capsys.readouterr().err
    taken = socket.socket()
    taken.bind(("0.0.0.0", 0))
    taken.listen()
    try:
        assert cli.main(["sim", "--web", str(taken.getsockname()[1])]) == 2
        assert "cannot serve on port" in capsys.readouterr().err
    finally:
        taken.close()


def test_a_pico_w_serves_once_its_radio_is_up_and_comes_back_after_a_loss(tmp_path, monkeypatch):
    """The device's own radio loop (web/radio.py) over a stand-in for MicroPython's `network`: the page is
    served once the link is up, the address leaves the Phones screen while the radio is gone (the game goes
    on), and comes back with it."""
    import asyncio
    import sys

    from test_wifi import FakeNetwork, FakeWLAN

    from dicetower.web import radio

    monkeypatch.setitem(sys.modules, "network", FakeNetwork)
    monkeypatch.setattr(radio, "RADIO_S", 0.02)
    monkeypatch.setattr(FakeWLAN, "fail", None)
    tower = sim.boot("pico_w", seed=3, state_dir=str(tmp_path))
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    tower.device.web_port = probe.getsockname()[1]
    probe.close()
    url = "http://192.168.4.1:%d/" % tower.device.web_port
    seen = {}

    async def until(check):
        for _ in range(3000):  # bounded: 30 s
            if check():
                return True
            await asyncio.sleep(0.01)
        return False

    def fetch():
        with urllib.request.urlopen("http://127.0.0.1:%d/state" % tower.device.web_port, timeout=30) as r:
            return json.loads(r.read())

    async def main():
        running = asyncio.create_task(radio.keep_up(tower.device))
        seen["up"] = await until(lambda: tower.app.phones["url"] == url)
        for _ in range(300):
            try:
                seen["state"] = await asyncio.get_running_loop().run_in_executor(None, fetch)
                break
            except OSError:
                await asyncio.sleep(0.05)
        FakeWLAN.fail = OSError(-1)  # the radio stops answering
        seen["lost"] = await until(lambda: tower.app.phones["url"] is None)
        tower.presses("c")  # the game goes on meanwhile
        seen["mode"] = tower.app.mode
        FakeWLAN.fail = None
        seen["back"] = await until(lambda: tower.app.phones["url"] == url)
        running.cancel()

    asyncio.run(main())
    assert seen["up"] and seen["state"]["mode"] == "start"
    assert seen["lost"] and seen["mode"] == "setup"
    assert seen["back"]
    assert [e["url"] for e in tower.events("phones")] == [url, None, url]
    assert any(e.get("text", "").startswith("Wi-Fi: ") for e in tower.events("log"))
