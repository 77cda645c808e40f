"""A heap budget CI keeps without a chip: every example game on the MicroPython VM, from the .mpy files
`dicetower flash` sends a Pico and a Pico W (the scoreboard made on the W), its live heap after each
press's collection against its ceiling (tests/heap_budget.py says how the VM's figures stand for a
board's free heap, and where the ceilings go next)."""

import pytest
from heap_budget import BOARDS, CEILING, EXAMPLES, FREE_AT_BOOT, VM_OVER, measure, target_budget
from test_game_imports import BATTLEREALM_ONLY

GAMES = {"dicetower.core.games.%s.tracker" % name for name in EXAMPLES}
SET_UPS = {"dicetower.ui.setup"} | {
    "dicetower.core.games.%s.setup" % name for name in EXAMPLES if name != "battleworld"
}
# Power-up's, the help's and the QR code's: released once done.
DONE = {
    "dicetower.startup",
    "dicetower.wiring",
    "dicetower.core.board_check",
    "dicetower.core.save_reader",
    "dicetower.core.entropy_startup",
    "dicetower.ui.help",
    "dicetower.ui.qr",
    "dicetower.ui.revealing",
    "dicetower.core.games.battlerealm.check",
}
LUCKY = {"dicetower.core.games.battlerealm.lucky", "dicetower.core.games.battlerealm.lucky_tables"}
ADVISING = BATTLEREALM_ONLY | {
    "dicetower.core.games.battlerealm.work_arrays",
    "dicetower.core.games.battlerealm.ranks",
    "dicetower.core.games.battlerealm.keeps",
    "dicetower.core.games.battlerealm.lucky",
    "dicetower.core.games.battlerealm.lucky_tables",
}


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("name", EXAMPLES)
def test_an_example_game_stays_under_its_heap_ceiling(board, name):
    got = measure(board, "examples", name)
    assert got["steps"] > 5  # the example was played, press by press, not stopped at its start
    assert got["kind"] == name  # and as written: its presses ended in its own game on this board too
    ceiling = CEILING[board]
    assert got["boot"] <= ceiling["boot"], "%s at its start menu holds %d B on the VM (ceiling %d)" % (
        board,
        got["boot"],
        ceiling["boot"],
    )
    assert got["peak"] <= ceiling[name], (
        "%s, examples/%s.sim: %d B live on the VM after step %d (ceiling %d B): about %d B free on the board"
        % (board, name, got["peak"], got["at"], ceiling[name], FREE_AT_BOOT[board] - got["peak"] + VM_OVER)
    )


def test_the_probe_counts_the_firmwares_heap():
    """The figure moves with what the firmware holds: a game's peak is above the start menu's, and a Pico
    W's start menu, holding the scoreboard's server and microdot, is above a Pico's."""
    pico = measure("pico", "examples", "united")
    pico_w = measure("pico_w", "examples", "united")
    assert pico["peak"] > pico["boot"] > 100000
    assert pico_w["boot"] > pico["boot"] + 20000


def test_the_ceilings_name_every_example_and_the_targets_are_below_them():
    for board in BOARDS:
        assert set(CEILING[board]) == {"boot"} | set(EXAMPLES)
        assert 0 < target_budget(board) < FREE_AT_BOOT[board]


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("name", EXAMPLES)
def test_on_the_vm_a_game_holds_its_own_modules_and_nothing_done_with(board, name):
    """tests/test_game_imports.py's promises, on the MicroPython VM from the files a board is flashed with:
    the start menu holds no game, no set-up, nothing of power-up's; an example ends holding its own game's
    module and no other's, and Battlerealm's dice rules, heroes' turn and advisor only in Battlerealm (the
    search with Lucky in none: no built-in hero has Lucky)."""
    got = measure(board, "examples", name)
    assert "dicetower.device" in got["held_boot"] and "dicetower.ui.menus" in got["held_boot"]
    assert not got["held_boot"] & (GAMES | SET_UPS | DONE | ADVISING)
    own = "dicetower.core.games.%s.tracker" % name
    assert own in got["held_end"]
    assert not got["held_end"] & ((GAMES - {own}) | SET_UPS | DONE | LUCKY | {"dicetower.ui.menus"})
    if name == "battlerealm":
        assert {
            "dicetower.core.games.battlerealm.advisor",
            "dicetower.core.games.battlerealm.work_arrays",
            "dicetower.core.games.battlerealm.turn",
        } <= got["held_end"]
    else:
        assert not got["held_end"] & ADVISING
