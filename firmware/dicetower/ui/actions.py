"""Every tracker action as a menu entry: its label and the values the player picks.

An action is (label, action name, args); each arg is (label, kind, detail):
  ("Target", HERO, None)        a hero by name, from the game's state
  ("Damage", NUMBER, (1, 12))   a number with A/B, confirmed with C
  ("Where", CHOICE, (("same", True), ("other", False)))
  ("Area", AREA, None) / ("Battle", BATTLE, None) / ("Scheme", SCHEME, None)
  ("Face", ROLL_ATTACK, None) / ("Coin", FLIP_COIN, None): the box rolls it
  ("Name", FIXED, value)        a value the player does not pick
With these three buttons reach every action of every game.
"""

from dicetower.core import roster

HERO = "hero"
NUMBER = "number"
CHOICE = "choice"
AREA = "area"
BATTLE = "battle"
SCHEME = "scheme"
ROLL_ATTACK = "attack die"
FLIP_COIN = "danger coin"
FIXED = "fixed"
SIDE_NAME = "side name"
BATTLE_NAME = "battle name"

SAME_OTHER = (("same location", True), ("other location", False))

BATTLEREALM = (
    ("Roll the dice", "roll", ()),  # handled by the dice screen
    ("Attack", "attack", (("Target", HERO, None), ("Damage", NUMBER, (1, 12)), ("From", CHOICE, SAME_OTHER))),
    ("Land on location", "land", (("Location PVP", NUMBER, (0, 3)),)),
    ("Effect damage", "effect", (("Target", HERO, None), ("Damage", NUMBER, (1, 12)))),
    ("Gain PVP", "gain", (("Hero", HERO, None), ("PVP", NUMBER, (1, 12)))),
    ("Spend PVP", "spend", (("PVP", NUMBER, (1, 12)),)),
    ("Block", "block", (("Hero", HERO, None), ("Block", NUMBER, (1, 5)))),
    ("Negate", "negate", (("Target", HERO, None),)),
    ("Disorientate", "disorientate", (("Target", HERO, None),)),
    ("Escape", "escape", ()),
    ("End turn", "end_turn", ()),
    # Results bought for anything but a power card (the dice screen charges a card's purchase itself).
    ("Buy results (Warehouse)", "buy", (("Results", NUMBER, (1, 3)),)),
)
CHAMPIONS = (
    ("Thwart main scheme", "thwart", (("Area", AREA, None), ("Scheme", FIXED, -1), ("Threat", NUMBER, (1, 12)))),
    ("Thwart side scheme", "thwart", (("Area", AREA, None), ("Side scheme", SCHEME, None),
                                      ("Threat", NUMBER, (1, 12)))),
    ("Hit villain", "hit", (("Area", AREA, None), ("Damage", NUMBER, (1, 20)))),
    ("Villain attacks", "villain_attack", (("Hero", HERO, None), ("ATK", NUMBER, (0, 9)),
                                           ("Boost icons", NUMBER, (0, 5)), ("Defense", NUMBER, (0, 9)))),
    ("Damage hero", "damage", (("Hero", HERO, None), ("Damage", NUMBER, (1, 20)))),
    ("Heal hero", "heal", (("Hero", HERO, None), ("Hit points", NUMBER, (1, 20)))),
    ("Threat on main", "threat", (("Area", AREA, None), ("Threat", NUMBER, (1, 12)))),
    ("Incite X", "incite", (("Area", AREA, None), ("X", NUMBER, (1, 9)))),
    ("Side scheme in play", "side", (("Area", AREA, None), ("Name", SIDE_NAME, None), ("Threat", NUMBER, (1, 12)),
                                     ("Crisis", CHOICE, (("no", 0), ("yes", 1))), ("Acceleration", NUMBER, (0, 3)),
                                     ("Hazard", NUMBER, (0, 3)))),
    ("Threat on side", "side_threat", (("Area", AREA, None), ("Side scheme", SCHEME, None),
                                       ("Threat", NUMBER, (1, 12)))),
    ("End phase", "end_phase", ()),
    ("Kang: own area", "separate", (("Player", HERO, None), ("Scheme", FIXED, roster.KANG_AREA_SCHEME),
                                    ("Villain", FIXED, roster.KANG_II))),
    ("Kang: join area", "join", (("From area", AREA, None), ("To area", AREA, None))),
    ("New villain", "villain", (("Area", AREA, None), ("Name", FIXED, "Kang (III)"), ("Hit points", CHOICE,
                                tuple(("%d per player" % n, [n]) for n in (10, 12, 14, 16, 18, 20))))),
)
UNITED = (
    ("KO token", "ko", (("Hero", HERO, None),)),
    ("Remove KO token", "remove_ko", (("Hero", HERO, None),)),
    ("Duel won by", "duel", (("Winner", CHOICE, (("Gladiator", "gladiator"), ("the hero", "hero"))),)),
    ("Use a token", "token", (("Token", CHOICE, (("Terrigen Mist", "mist"), ("Water", "water"))),)),
)
BATTLEWORLD = (
    ("Attack a battle", "attack", (("Battle", BATTLE, None), ("Face", ROLL_ATTACK, None),
                                   ("Bonus", NUMBER, (0, 9)))),
    ("Flip Danger Coin", "danger", (("Coin", FLIP_COIN, None),)),
    ("New battle", "battle", (("Name", BATTLE_NAME, None), ("Hits to win", NUMBER, (1, 3)),
                              ("Target", NUMBER, (2, 15)), ("Danger", CHOICE, (("Energy", "Energy"),
                                                                               ("Moon", "Moon"))))),
)

MENUS = {"battlerealm": BATTLEREALM, "champions": CHAMPIONS, "united": UNITED, "battleworld": BATTLEWORLD}
