"""A game's actions as a menu, as data: what the player picks for each, and what the box fills in.

A game module (core/games/) lists its actions as MENU: (label, action name,
args); each arg is (label, kind, detail), with kind one of:
  ("Target", HERO, None)        a hero still in the game, by name
  ("Target", OTHER, None)       the same, another than the acting hero first
  ("Target", FOE, None)         another hero than the acting one (never themself: an Attack's target)
  ("Damage", NUMBER, (1, 12))   a number with A/B (held: 10 at a time), confirmed with C; the picker
                                starts at the lowest, the value that records least (0 boosts, 0 defence)
  ("Where", CHOICE, (("same", True), ("other", False)))
  ("Area", PICK, areas)         one of the (label, value) pairs `areas(state, values)` gives, from
                                the game's state and the values picked before it; where there is
                                nothing to pick, `areas` raises Refused saying so ("No open battle.")
  ("Discard", PICK_IF, allies)  the same, asked only when `allies(state, values)` offers any pair;
                                else the value is None (a fourth ally makes its player discard one)
  ("Name", FIXED, value)        a value the player does not pick
  ("Name", NAMED, next_name)    a value the game makes from its state: `next_name(state)`, which may
                                raise Refused when the action cannot be taken now ("No other
                                Battle Card is left"), before anything is asked
  ("Face", ROLL_ATTACK, None) / ("Coin", FLIP_COIN, None): the box rolls it, after the player's picks
  ("Dice", SIX_DICE, None)      the six Battlerealm dice: the dice screen takes the action over (core/games/battlerealm/turn.py)
With three buttons this reaches every action of every game. `choices` and
`first_choice` are what the ui's picker shows; it only draws and picks.
"""

HERO = "hero"
OTHER = "other hero"
FOE = "another hero"
NUMBER = "number"
CHOICE = "choice"
PICK = "pick"
PICK_IF = "pick if any"
FIXED = "fixed"
NAMED = "named"
ROLL_ATTACK = "attack die"
FLIP_COIN = "danger coin"
SIX_DICE = "six dice"


def choices(state, arg, values):
    """The (label, value) pairs an argument offers, from the game's state and the values picked so far."""
    label, kind, detail = arg
    if kind == NUMBER:
        return [(str(n), n) for n in range(detail[0], detail[1] + 1)]
    if kind == CHOICE:
        return list(detail)
    if kind == HERO or kind == OTHER or kind == FOE:
        heroes = state["heroes"]
        mine = state.get("turn") if kind == FOE else None
        return [(heroes[i]["name"], i) for i in range(len(heroes)) if not heroes[i].get("out") and i != mine]
    if kind == PICK or kind == PICK_IF:
        return detail(state, values)
    return [("?", None)]


def first_choice(state, arg, options):
    """Where the picker starts among `options` (see `choices`): a number at its lowest (a hurried C
    records nothing that did not happen), another hero than the acting one, else the first."""
    kind = arg[1]
    if kind == OTHER:
        turn = state["turn"]
        for n in range(len(options)):
            if options[n][1] != turn:
                return n
    return 0


def asks(kind):
    """Whether the player picks an argument of this kind (the others the game or the box fill in)."""
    return kind not in (FIXED, NAMED, ROLL_ATTACK, FLIP_COIN, SIX_DICE)


def draws_dice(menu):
    """Whether a game's menu has the box roll dice (the six dice, the Attack Die, the Danger Coin): only
    such a game has dice to seal (ui/sealing.py)."""
    for action in menu:
        for arg in action[2]:
            if arg[1] in (ROLL_ATTACK, FLIP_COIN, SIX_DICE):
                return True
    return False
