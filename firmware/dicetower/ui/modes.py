"""The app's modes (which screen is up) and the dice screen's cursor stops, shared by the ui's classes."""

from dicetower.core.dice import DICE  # not core/games/battlerealm/roll.py: Battlerealm's rules stay out of other games

START = "start"
SETUP = "setup"
FORM = "form"  # the set-up's rows: heroes, villain, scheme, mode (ui/setup.py)
PLAY = "play"
ARGS = "args"
DICE_MODE = "dice"
MARK = "mark"
OVER = "over"
RESULT = "result"
SETTINGS = "settings"
PHONES = "phones"
HEROES = "heroes"
HERO = "hero"
NOTICE = "notice"
HELP = "help"  # what the status lines' short forms mean (ui/help.py)
REPLACE = "replace"  # asked before a new game replaces the saved one
SEED = "seed"  # a revealed seed (ui/sealing.py)
CUT = "cut"  # a new seal's cut (ui/resealing.py, through ui/sealing.py)

# Each mode's screen, four items a mode: the mode; the App's attribute that holds its screen (None: the
# App itself); its method for a press; its method that draws it. App.press and screens.draw both read
# this one table (screen(mode)); one flat tuple, not a dict of tuples: it is on every board's heap.
SCREENS = (
    START,
    "menus",
    "on_start",
    "draw_start",
    REPLACE,
    "menus",
    "on_replace",
    "draw_replace",
    SETUP,
    "menus",
    "on_setup",
    "draw_setup",
    SETTINGS,
    "menus",
    "on_settings",
    "draw_settings",
    HEROES,
    "menus",
    "on_heroes",
    "draw_heroes",
    HERO,
    "menus",
    "on_hero",
    "draw_hero",
    PHONES,
    "menus",
    "on_phones",
    "draw_phones",
    NOTICE,
    "menus",
    "on_notice",
    "draw_text",
    HELP,
    "menus",
    "on_help",
    "draw_text",
    FORM,
    "form",
    "on_form",
    "draw",
    ARGS,
    "picker",
    "on_args",
    "draw",
    DICE_MODE,
    "dice_screen",
    "on_dice",
    "draw",
    MARK,
    "dice_screen",
    "on_mark",
    "draw",
    RESULT,
    "dice_screen",
    "on_result",
    "draw_result",
    SEED,
    "sealing",
    "on_seed",
    "draw_seed",
    CUT,
    "sealing",
    "on_cut",
    "draw_cut",
    PLAY,
    None,
    "on_play",
    None,
    OVER,
    None,
    "on_over",
    None,
)


def screen(mode):
    """Where `mode` is in SCREENS: its owner, handler and drawer are the three items after."""
    for i in range(0, len(SCREENS), 4):
        if SCREENS[i] is mode or SCREENS[i] == mode:
            return i
    raise KeyError(mode)


# The dice screen's cursor: dice 0-5, then these (Finalize last: A from die 1 reaches it).
REROLL = DICE
LUCKY = DICE + 1
TARGET = DICE + 2
PLACE = DICE + 3
FINALIZE = DICE + 4
