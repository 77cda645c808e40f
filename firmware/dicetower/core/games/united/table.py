"""United's table (ui/table.py): each hero with their team and KO tokens, then the tokens and the duel."""

from dicetower.core.game import plural


def parts(state):
    heroes = state["heroes"]
    out = []
    for hero in heroes:
        team = " (team %d)" % (hero["team"] + 1) if state["teams"] == 2 else ""
        out.append(("hero", "%s%s: %s." % (hero["name"], team, plural(hero["ko"], "KO token"))))
    if state["teams"] == 2:
        for team in range(2):
            names = [h["name"] for h in heroes if h["team"] == team]
            ko = sum(h["ko"] for h in heroes if h["team"] == team)
            out.append(
                ("team", "Team %d: %s. KO tokens %d of %d." % (team + 1, ", ".join(names), ko, state["threshold"]))
            )
    else:
        ko = sum(h["ko"] for h in heroes)
        out.append(("team", "All heroes: KO tokens %d of %d." % (ko, state["threshold"])))
    if state.get("villain", "gladiator") == "gladiator":
        duel = "Duels won: Gladiator %d, the heroes %d." % (state["gladiator"], state["heroes_duel"])
    else:
        duel = "Vulcan: no Duels."
    out.append(("tokens", "%s Terrigen Mist %d, Water %d." % (duel, state["mist"], state["water"])))
    return out
