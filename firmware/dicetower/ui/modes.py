"""The app's modes (which screen is up) and the dice screen's cursor stops, shared by the ui's classes."""

from dicetower.core.dice import DICE  # not core/roll.py: Battlerealm's rules stay out of other games

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

# The dice screen's cursor: dice 0-5, then these (Finalize last: A from die 1 reaches it).
REROLL = DICE
LUCKY = DICE + 1
TARGET = DICE + 2
PLACE = DICE + 3
FINALIZE = DICE + 4
