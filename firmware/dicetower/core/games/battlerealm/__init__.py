"""Battlerealm (Marvel Battlerealm): six custom dice, PVP Points, the Crystal Prison.

Its descriptor: what the idle passes know of the game before its tracker is loaded
(core/games/__init__.py says what each name is; its players and count screen are its line there), and
the game's numbers its tracker and its checks (check.py, loaded without the tracker) share."""

# The roll's module among them: imported by the first roll's press, it kept the buttons waiting 45 ms on a Pico.
AHEAD = (
    "work_arrays",
    "triples",
    "cards",
    "roster",
    "dicetower.core.names",
    "tracker",
    "roll",
    "turn",
)
# Lucky's search (machine code, a block a function: 4 KB the largest) and the ranks it reads, when a hero
# with Lucky may play: after the work arrays and what the ranks import, while the heap is whole (`ahead_of`).
# Loaded as the game began, a Pico's heap just rid of the set-up had no block over 1.9 KB.
LUCKY_AHEAD = ("ranks", "lucky_tables")


def has_lucky(heroes):
    """Whether one of `heroes` (a roster's, or a game's seated heroes) has Lucky."""
    for hero in heroes:
        if "Lucky" in hero["abilities"]:
            return True
    return False


def ahead_of(options, game=None):
    """AHEAD for the app's options, or for `game` (this kind's, resumed or begun) once there is one: Lucky's
    search among the first when a hero who may play has Lucky: one seated in `game`, else one of the user's
    roster (the built-in heroes have none). A user's heroes.json is not read into the heap for it: the
    word anywhere in the file counts (a card named so only loads Lucky's search ahead for the set-up; the
    game lets it go as it begins without a Lucky hero seated)."""
    if game is not None:
        lucky = has_lucky(game.state["heroes"])
    elif options.get("heroes") or not options.get("heroes_file"):
        lucky = has_lucky(options.get("heroes") or ())
    else:
        lucky = False  # read a piece at a time: the file may be 16 KB, and the heap cut up
        try:
            with open(options["heroes_file"], "rb") as f:
                tail = b""
                while not lucky:
                    part = f.read(512)
                    if not part:
                        break
                    lucky = b"Lucky" in tail + part
                    tail = part[-4:]
        except OSError:
            pass
    if not lucky:
        return AHEAD
    at = AHEAD.index("cards") + 1  # after what the ranks import
    return AHEAD[:at] + LUCKY_AHEAD + AHEAD[at:]


PLAY_ONLY = ("work_arrays",)  # the advisor's 7.4 KB: launch.py's first at power-up, not held while another
# game is chosen
# What a game kept to resume forgets while another is chosen, in this order: the advice (Lucky's search and
# the ranks loaded ahead, or all of it), then the work arrays it holds. With a hero with Lucky seated in the
# saved game, launch.py loads all of it first at power-up, in import order (loaded at idle once a press at
# the start menu had resumed the game, a Pico's heap had no 1.5 KB block left for lucky.py); the save's read
# adopts what launch.py loaded (ui/flow.py).
set_aside = ("advisor", "lucky", "lucky_tables", "keeps", "ranks") + PLAY_ONLY
SCREENS = True  # ui/battlerealm.py, its dice screen: loaded at idle after what AHEAD names
CHECKS = "dicetower.core.games.battlerealm.check"  # loaded for each check, forgotten after (scope.once);
# a new game's set-up loads it at idle (App.think), its scope forgets it when the game starts

WIN_PVP = 21
DEFAULT_PVP = 10  # ASSUMPTION when a hero file gives none: the cards print it in red
MOST = 99  # the most PVP one action gives a hero (Gain PVP: 1 to 99)
ROUNDS = 9999  # the tracker's last round: a table plays tens; a save claiming more is damaged
ATTACK_MOST = 999  # an Attack's damage in one turn, over every piece of it (a table deals tens)
