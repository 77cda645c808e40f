"""Marvel United's set-up (ui/setup.py shows its rows): the mode, the villain, each seat's hero (of the
War of Kings box, or a hero of another), the KO threshold. Loaded while a game is set up, forgotten when
it starts."""

from dicetower.core.game import Refused, number, refused_at
from dicetower.core.games import players
from dicetower.core.games.united.tracker import HEROES, seated

PLAYERS = players("united")  # (fewest, most, default): its line in the registry

VILLAINS = [("Gladiator", "gladiator"), ("Vulcan", "vulcan")]


def _other(i):
    return "Hero %d" % (i + 1)  # a hero from another box, named as seated


def setup_default(options):
    return {"teams": 1, "villain": "gladiator", "heroes": list(HEROES[: PLAYERS[1]]), "threshold": 6}


def setup_rows(setup, count, options):
    seated = _apart(setup["heroes"], count)
    rows = [
        ("Mode", ("teams",), [("co-operative", 1), ("Team vs Team", 2)]),
        # "Gladiator CANNOT be used as the Villain in Team vs Team mode."
        ("Villain", ("villain",), VILLAINS if setup["teams"] == 1 else VILLAINS[1:]),
    ]
    for i in range(count):
        rows.append(
            (
                "Seat %d" % (i + 1),
                ("heroes", i),
                [(n, n) for n in HEROES if n == seated[i] or n not in seated] + [(_other(i), _other(i))],
            )
        )
    rows.append(("KO threshold", ("threshold",), (1, 99)))
    return rows


def _apart(heroes, count):
    """The first `count` seats, each a hero of its own: a seat whose hero an earlier seat has (a set-up
    remembered with fewer players, Triton moved up to seat 3 while seat 6 kept its default Triton) takes
    the first hero no seat has. Returns the seated heroes."""
    for i in range(count):
        if heroes[i] in heroes[:i]:
            free = [n for n in HEROES if n not in heroes[:count]]
            heroes[i] = free[0] if free else _other(i)
    return heroes[:count]


def setup_changed(setup, path, options):
    if setup["teams"] == 2:
        setup["villain"] = "vulcan"


def _at(path, reason):
    refused = Refused(reason)
    refused.path = path  # the row to change (ui/setup.py chooses it)
    return refused


def summary(setup, count):
    """What the count screen's C starts, in a line: "Team vs Team, Vulcan: Black Bolt, Medusa"."""
    mode = "Team vs Team" if setup["teams"] == 2 else "Co-op"
    villain = "Vulcan" if setup["villain"] == "vulcan" else "Gladiator"
    return "%s, %s: %s" % (mode, villain, ", ".join(_apart(list(setup["heroes"]), count)))


def start(count, setup, options):
    """The arguments of `United.setup`, checked as it checks them (`seated`), a refusal naming its row;
    Refused too for what the rulebook forbids: Team vs Team with one player, or with Gladiator."""
    teams, villain = setup["teams"], setup["villain"]
    if teams == 2 and count < 2:
        raise _at(("teams",), "Team vs Team needs 2 players or more.")
    if teams == 2 and villain == "gladiator":
        raise _at(("villain",), "Gladiator CANNOT be used as the Villain in Team vs Team mode.")
    if villain not in ("gladiator", "vulcan"):
        raise _at(("villain",), "The villain is Gladiator or Vulcan.")
    refused_at(("threshold",), number, setup["threshold"], 1, 99, "The KO threshold")
    heroes = []
    _apart(setup["heroes"], count)  # the one-press start too: a count raised on the count screen
    for i in range(count):
        spec = {"name": setup["heroes"][i], "team": i % 2 if teams == 2 else 0}
        refused_at(("heroes", i), seated, spec, teams, heroes)
        heroes.append(spec)
    return (heroes, teams, setup["threshold"], villain)
