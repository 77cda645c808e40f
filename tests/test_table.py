"""Everything on the table reachable on the OLED (issue 49): the play menu's "The table" pages through
every part of the game the four status lines have no room for, each page marked with its place.

Played on the simulated tower (the firmware on CPython, its virtual parts), as a player presses it.
"""

import pytest

from dicetower_host import sim


def boot(tmp_path, faces=None):
    return sim.boot("pico", 1, faces, str(tmp_path))


def play(tower, keys):
    tower.presses(keys)
    tower.wait(50)
    return tower.screen()


def to_action(tower, label):
    """The play menu's cursor on `label` (B through the menu), and C."""
    for _ in range(len(tower.app.menu)):
        if play(tower, "")[4] == label:
            return play(tower, "c")
        play(tower, "b")
    raise AssertionError("no %r in the play menu: %r" % (label, tower.screen()))


def pick(tower, wanted):
    """B through the picker's options until line 4 reads `wanted`, then C."""
    for _ in range(40):
        if play(tower, "")[4] == wanted:
            return play(tower, "c")
        play(tower, "b")
    raise AssertionError("no %r offered: %r" % (wanted, tower.screen()))


def table(tower):
    """Every page of The table: (its bottom line, its text), from its first page round to it again."""
    to_action(tower, "The table")
    pages = []
    while True:
        screen = tower.screen()
        page = (screen[7], " ".join(line for line in screen[:7] if line))
        if pages and page == pages[0]:
            return pages
        pages.append(page)
        play(tower, "b")


def battle(tower, hits, danger, thanostone=False):
    to_action(tower, "Thanostone battle" if thanostone else "New battle")
    pick(tower, "Hits to win: %d" % hits)
    pick(tower, "Target: 7")
    pick(tower, "Danger: %s" % danger)


@pytest.fixture
def battleworld(tmp_path):
    """Battleworld with three starting heroes (7 battles to win, 3 Thanostone Battle Cards of 13)."""
    tower = boot(tmp_path, faces="Moon")
    play(tower, "aac bbc")  # New Battleworld; 3 starting heroes; C starts, C cuts the seal
    assert tower.app.mode == "play", tower.screen()
    return tower


def test_battleworld_shows_every_open_battle_with_its_place(battleworld):
    # "a deck of 13 Battle Cards that has 3 Thanostone Battle Cards and 10 other Battle Cards": a
    # three-hero game draws 3 a turn, so more are open than the status has lines for.
    for hits, danger in ((1, "Energy"), (2, "Moon"), (3, "Energy"), (2, "Moon")):
        battle(battleworld, hits, danger)
    battle(battleworld, 3, "Moon", thanostone=True)
    screen = play(battleworld, "")
    assert screen[1:4] == ["Battle 1 h0/1 d0/3 E", "Battle 2 h0/2 d0/3 M", "+3 more: The table"]
    pages = table(battleworld)
    marks = [mark for mark, _ in pages]
    assert marks[:7] == ["A/B said 1/1  C back", "A/B game 1/1  C back"] + [
        "A/B battle %d/5  C back" % n for n in range(1, 6)
    ]
    # Last, the game's help: what its status lines' short forms mean (Help is a press away in a game).
    assert marks[7:] == ["A/B help 1/1  C back", "A/B help 1/1 p2  C back"]
    assert pages[7][1].startswith('Battleworld. "Won 1/5 Lost 0/3"')
    assert pages[1][1] == (
        "Battles won 0 of 7 to win, lost 0 of 3. Battle Cards drawn 5 of 13 (Thanostone 1). Thanostones: 3."
    )
    assert pages[5][1] == "Battle 4: hits 0 of 2, Attack Target 7, danger 0 of 3, Danger symbol Moon."
    assert pages[6][1] == ("Battle 5 (Thanostone): hits 0 of 3, Attack Target 7, danger 0 of 3, Danger symbol Moon.")
    play(battleworld, "c")
    assert battleworld.app.mode == "play"


def test_the_danger_coin_names_every_battle_it_touched(battleworld):
    # "The Danger Coin advances danger on every Battle whose Danger symbol matches the flip."
    for hits, danger in ((1, "Moon"), (2, "Energy"), (3, "Moon"), (2, "Moon")):
        battle(battleworld, hits, danger)
    screen = to_action(battleworld, "Flip Danger Coin")
    said = battleworld.snapshot()["history"][-1]
    assert said == ("Danger Coin: Moon. Battle 1: Danger 1 of 3. Battle 3: Danger 1 of 3. Battle 4: Danger 1 of 3.")
    assert screen[7].endswith(" >"), screen  # cut on the play screen, and marked
    assert table(battleworld)[0] == ("A/B said 1/1  C back", said)  # whole, a press away


def test_a_danger_coin_that_touches_nothing_says_so(battleworld):
    battle(battleworld, 1, "Energy")
    to_action(battleworld, "Flip Danger Coin")
    assert battleworld.snapshot()["history"][-1] == "Danger Coin: Moon. No open battle shows Moon."


@pytest.fixture
def champions(tmp_path):
    tower = boot(tmp_path)
    play(tower, "bc bc")  # New Champions, three players (P1, P2, P3), started as last set up
    assert tower.app.mode == "play", tower.screen()
    return tower


def test_kangs_game_areas_are_named_by_their_players(champions):
    # The Once and Future Kang: "each player creates their own game area" with Kang (II) and Stage 3A.
    to_action(champions, "Kang: own area")
    pick(champions, "Player: P2")
    assert play(champions, "")[1] == "Threat 3/10 st1 +1 areas"
    to_action(champions, "Hit villain")
    assert play(champions, "")[4] == "Area: 1 P1, P3"
    assert play(champions, "b")[4] == "Area: 2 P2"
    play(champions, "C")
    areas = [text for mark, text in table(champions) if mark.startswith("A/B area")]
    assert areas == [
        "Area 1: P1, P3. Villain, stage 1 of 2: 42 hp. Main Scheme, stage 1 of 2: threat 3 of 10.",
        "Area 2: P2. Kang (II), stage 1 of 1: 12 hp. Stage 3A, stage 1 of 1: threat 1 of 8.",
    ]


def test_a_new_villain_asks_before_it_replaces_one_still_standing(champions):
    to_action(champions, "New villain")
    pick(champions, "Area: 1 P1, P2, P3")
    play(champions, "c")  # Kang (III)'s hit points: 10 per player
    assert play(champions, "")[4] == "Replace: no, keep Villain"
    play(champions, "c")
    assert champions.app.mode == "play"
    assert play(champions, "")[5:7] == ["Villain stays in area 1.", ""]
    assert champions.snapshot()["state"]["areas"][0]["villain"]["name"] == "Villain"
    to_action(champions, "New villain")
    pick(champions, "Area: 1 P1, P2, P3")
    play(champions, "c")
    pick(champions, "Replace: yes, replace it")
    assert champions.snapshot()["state"]["areas"][0]["villain"]["name"] == "Kang (III)"
