"""Twenty quick taps while the advisor and the roll's animation run: every one is seen.

Shared by the MicroPython VM's virtual Pico (tests/test_flash.py) and the emulated RP2040
(tests/test_rp2040.py). A player taps 0.05 s, 0.05 s apart (issue: "presses 0.05 s taps 20
times in a row while the advisor and an animation run"). The board gets HEROES as its heroes.json:
a Hulk with Lucky and four cards, the advisor's heaviest kind of position. On the dice screen right
after a roll (the animation plays for about a second), A three times walks the cursor back from the
first die to the Aim, then C seventeen times changes the aim; each change starts the advisor again,
so it is busy through the whole burst. The aims go Any card and the four cards round, so 17 changes
end on the second card, World Breaker. A lost A leaves the C taps on another item (the location,
Finalize), a lost C another aim: both show on the screen.
"""

import json

TAP = {"ms": 50, "then": 50, "polls": 0}
M, S, K, T, C, Y = "Mutant", "Science", "Skill", "Tech", "Cosmic", "Mystic"
HEROES = json.dumps(
    {
        "heroes": [
            {
                "name": "Hulk",
                "abilities": ["Lucky"],
                "cards": [
                    {"name": "Thunderclap", "dice": [M, S, K, K]},
                    {"name": "World Breaker", "dice": [K, K, Y, Y]},
                    {"name": "Gamma Slam", "dice": [M, M, S, S]},
                    {"name": "Smash", "dice": [C, T, T]},
                ],
            },
            {"name": "Thor", "cards": [{"name": "Odin's Wrath", "dice": [M, M, S, S]}]},
        ]
    }
).encode()


def tap(board, button):
    board.ask(dict(TAP, press=button))


def twenty_taps_after_a_roll(board, settle):
    """From the first turn of a new two-hero Battlerealm game: the roll's tap, then the burst. `settle()`
    lets the board run a little (the check between two looks at its screen)."""
    assert board.screen()[0] == "R1 Hulk's turn"
    tap(board, "c")  # roll: the animation and the advisor start
    for button in "aaa" + "c" * 17:
        tap(board, button)
    # The last tap's aim on the screen and its advice worked out (its chance replaces "..."). Not just the
    # first screen without "...": the board answers a tap once it is released and the loop has polled, which
    # can be before the press's redraw, and a screen still showing the aim before it (its advice done, or a
    # line in its place) is not what the player ends up seeing. A lost tap never shows this aim at all.
    for _ in range(400):
        screen = board.screen()
        if screen[4] == "Aim: World Breaker" and not screen[5].endswith("..."):
            break
        settle()
    assert screen[4] == "Aim: World Breaker", screen
    assert screen[5].startswith("World Breaker") and screen[5].split()[2].endswith("%"), screen
    return screen
