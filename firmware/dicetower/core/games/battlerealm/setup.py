"""Battlerealm's set-up (ui/setup.py shows its rows): seat by seat, a hero of the roster (heroes.json or
the built-in one), none twice. Loaded while a game is set up, forgotten when it starts."""

from dicetower.core.games import players
from dicetower.core.games.battlerealm import CHECKS

PLAYERS = players("battlerealm")  # (fewest, most, default): its line in the registry


def _names(options):
    from dicetower.core.games.battlerealm.roster import heroes

    return [h["name"] for h in heroes(options)]


def setup_default(options):
    names = _names(options)[: PLAYERS[1]]
    return {"heroes": names + [""] * (PLAYERS[1] - len(names))}


def _seated(setup, names):
    """The seats' heroes: each a hero of the roster, none twice (a name gone from heroes.json, or seen
    before, gives way to the first hero not seated)."""
    seats = []
    for name in setup["heroes"]:
        seats.append(name if name in names and name not in seats else "")
    for i in range(len(seats)):
        if not seats[i]:
            for name in names:
                if name not in seats:
                    seats[i] = name
                    break
    setup["heroes"] = seats
    return seats


def setup_rows(setup, count, options):
    names = _names(options)
    seats = _seated(setup, names)
    rows = []
    for i in range(min(count, len(names))):
        others = seats[:i] + seats[i + 1 : count]
        rows.append(("Seat %d" % (i + 1), ("heroes", i), [(n, n) for n in names if n not in others]))
    return rows


def prepare(options):
    """The roster read now if the rows will read it from flash: True if it was (ui/setup.py)."""
    from dicetower.core.games.battlerealm.roster import read

    return read(options)


def most(options):
    """The most players the roster seats (a heroes.json of 3 heroes seats 3): the count screen's top."""
    from dicetower.core.games.battlerealm.roster import heroes

    return min(PLAYERS[1], len(heroes(options)))


def summary(setup, count):
    """What the count screen's C starts, in a line: "Hulk, Thor, Vision"."""
    return ", ".join(name for name in setup["heroes"][:count] if name)


def start(count, setup, options):
    """The arguments of `Battlerealm.setup`: its heroes, and the new state check.py's `new_state` (the
    tracker's own check) makes of them, before the form is forgotten."""
    from dicetower.core.game import Refused
    from dicetower.core.scope import once
    from dicetower.core.games.battlerealm.roster import heroes

    roster = heroes(options)
    if count > len(roster):
        raise Refused("The roster has %d heroes: %d players at most." % (len(roster), len(roster)))
    seats = _seated(setup, [h["name"] for h in roster])[:count]
    made = [dict(h) for name in seats for h in roster if h["name"] == name]
    return (made, once(CHECKS, "new_state", made))  # Battlerealm.setup's: the heroes, and their new state
