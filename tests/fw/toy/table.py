"""The toy game's table (ui/table.py): each player's points."""


def parts(state):
    return [("player", "%s: %d points." % (hero["name"], hero["points"])) for hero in state["heroes"]]
