"""Battlerealm's table (ui/table.py): each hero (PVP, where they stand, what holds them), then the round."""

from dicetower.core.games.battlerealm import WIN_PVP
from dicetower.core.games.battlerealm.cards import SHORT_NAMES


def parts(state):
    heroes = state["heroes"]
    out = []
    for i in range(len(heroes)):
        hero = heroes[i]
        if hero["out"]:
            where = " Out of the game."
        elif hero["prison"]:
            where = " In the Crystal Prison."
        else:
            where = " At %s." % SHORT_NAMES[hero["place"]]
        text = "%s%s: %d of %d PVP.%s" % (
            hero["name"],
            " (their turn)" if i == state["turn"] else "",
            hero["pvp"],
            WIN_PVP,
            where,
        )
        if hero["disorientated"]:
            text += " Disorientated."
        if hero["block"]:
            text += " Block %d." % hero["block"]
        if hero["negated_by"] >= 0:
            text += " Negated by %s." % heroes[hero["negated_by"]]["name"]
        out.append(("hero", text))
    out.append(("round", "Round %d: %s's turn." % (state["round"], heroes[state["turn"]]["name"])))
    return out
