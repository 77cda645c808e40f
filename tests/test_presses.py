"""A press means one thing on each screen, and the screen's bottom line says what (issue 49).

Played on the simulated tower (the firmware on CPython, its virtual parts): the keys a player presses,
the OLED's lines and the game's history they see.
"""

import pytest

from dicetower_host import sim


@pytest.fixture
def tower(tmp_path):
    return sim.boot("pico", 1, None, str(tmp_path))


def play(tower, keys):
    tower.presses(keys)
    tower.wait(50)
    return tower.screen()


CHAMPIONS_TWO = "bc c"  # New Champions, two players (P1, P2), started as last set up
VILLAIN_ATTACKS = "bbbc"  # the play menu's fourth action, its hero picked next


def test_a_hurried_villain_attack_records_no_boost_and_no_defence(tower):
    # "Then, the villain's attack is resolved: ... flip a boost card for each boost icon" (Champions'
    # rules): a picker that started at 1 recorded a boost icon and a defence no one had when C was
    # pressed through. Every number starts at the value that records nothing.
    play(tower, CHAMPIONS_TWO + " " + VILLAIN_ATTACKS + " c")  # the hero: P1
    for label in ("ATK", "Boost icons", "Defense"):
        assert play(tower, "")[4] == "%s: 0" % label
        play(tower, "c")
    history = tower.snapshot()["history"]
    assert history[-1].startswith("Villain attacks P1: 0 + 0 boost - 0 defense.")
    assert tower.snapshot()["state"]["heroes"][0]["hp"] == 10


def to_action(tower, label):
    """The play menu's cursor on `label` (B through the menu), its picker opened with C."""
    for _ in range(len(tower.app.menu)):
        if play(tower, "")[4] == label:
            return play(tower, "c")
        play(tower, "b")
    raise AssertionError("no %r in the play menu" % label)


def test_every_number_picker_starts_at_its_lowest(tower):
    # Champions' "Hit villain" at 1 damage (its lowest, no hit is 0); Battlerealm's "Land on location" at
    # 0 PVP (a location that gives none).
    play(tower, CHAMPIONS_TWO)
    to_action(tower, "Hit villain")
    assert play(tower, "c")[4] == "Damage: 1"  # area 1 picked


def test_battlerealms_location_starts_at_no_pvp(tower):
    play(tower, "caac c")  # New Battlerealm, two heroes, started; its seal cut
    assert tower.app.mode == "play", tower.screen()
    assert to_action(tower, "Land on location")[4] == "Location PVP: 0"


def test_a_hold_in_a_picker_steps_ten_and_never_redoes(tower):
    play(tower, CHAMPIONS_TWO + " bbc c c")  # Hit villain, area 1, 1 damage
    before = tower.snapshot()
    assert before["history"][-1].startswith("Villain -1")
    play(tower, "A")  # hold A on the play menu: undo
    undone = tower.snapshot()
    assert len(undone["history"]) == len(before["history"]) - 1
    # The same hit picked again: a hold of B in the picker is +10, not the redo it is on the play menu.
    assert play(tower, "c")[4] == "Area: 1 P1, P2"
    play(tower, "c")
    screen = play(tower, "B")
    assert tower.app.mode == "args" and screen[4] == "Damage: 11"
    assert tower.snapshot()["history"] == undone["history"]  # nothing redone
    assert play(tower, "B")[4] == "Damage: 20"  # to the end, not round
    assert play(tower, "A")[4] == "Damage: 10"
    play(tower, "c")
    assert tower.snapshot()["history"][-1].startswith("Villain -10")


def test_each_pickers_bottom_line_says_what_its_presses_do(tower):
    play(tower, CHAMPIONS_TWO + " " + VILLAIN_ATTACKS)
    assert play(tower, "")[7] == "A/B pick  C ok/back"  # a hero: one of a list
    assert play(tower, "c")[7] == "A- B+ hold:10 C ok/back"  # a number
    assert play(tower, "C")[7] == "Hold A undo B redo C back"  # hold C: back to the play menu, where holds undo
    assert tower.app.mode == "play"


def test_an_attack_or_an_effect_never_offers_the_acting_hero_as_its_target(tower):
    # "A hero can never cause damage to themself" (the tracker refused it; the picker offered it).
    play(tower, "cab c c")  # New Battlerealm, four heroes (Hulk, Thor, Vision, Black Panther), started; cut
    assert tower.app.mode == "play", tower.screen()
    for action in ("Attack", "Effect damage", "Negate"):
        to_action(tower, action)
        offered = set()
        for _ in range(5):
            offered.add(play(tower, "")[4])
            play(tower, "b")
        assert offered == {"Target: Thor", "Target: Vision", "Target: Black Panther"}, (action, offered)
        play(tower, "C")


def test_a_duel_against_vulcan_is_refused_before_its_winner_is_asked(tower):
    # "Vulcan ... has no Duels" (United's rules): the picker asked who won one, then refused it.
    from dicetower.core.games import game

    rules = game("united")
    play(tower, "bbc")  # New United's count screen: its tracker comes in at idle
    tower.app.begin(rules.TRACKER.setup([{"name": "Black Bolt"}, {"name": "Medusa"}], villain="vulcan"), new=True)
    play(tower, "")
    to_action(tower, "Duel won by")
    assert tower.app.mode == "play"
    assert " ".join(play(tower, "")[5:7]) == "Duels are Gladiator's: the villain is Vulcan."
    assert tower.snapshot()["history"] == []
