"""Champions' table (ui/table.py): each game area (its players, villain, main scheme and side schemes),
then each hero (hit points, allies, engaged minions), then the round."""


def area_players(state, i):
    """Who plays in game area `i`, by name: areas are told apart by their players ("no players" for
    one they left, which keeps its scheme). The table's alone: the tracker, held in play, need not."""
    heroes = state["heroes"]
    return ", ".join(heroes[p]["name"] for p in state["areas"][i]["players"]) or "no players"


def parts(state):
    heroes = state["heroes"]
    out = []
    for i in range(len(state["areas"])):
        area = state["areas"][i]
        villain = area["villain"]
        scheme = area["scheme"]
        text = "Area %d: %s. %s, stage %d of %d: %d hp%s. %s, stage %d of %d: threat %d of %d." % (
            i + 1,
            area_players(state, i),
            villain["name"],
            villain["stage"] + 1,
            len(villain["stages"]),
            villain["hp"],
            " (defeated)" if area["done"] else "",
            scheme["name"],
            scheme["stage"] + 1,
            len(scheme["stages"]),
            scheme["threat"],
            scheme["stages"][scheme["stage"]][0],
        )
        for side in area["sides"]:
            text += " %s: threat %d%s." % (side["name"], side["threat"], ", crisis" if side["crisis"] else "")
        out.append(("area", text))
    for i in range(len(heroes)):
        hero = heroes[i]
        text = "%s: %d of %d hp%s." % (hero["name"], hero["hp"], hero["max"], " (out)" if hero["out"] else "")
        for key, word in (("allies", "Allies"), ("minions", "Minions engaged")):
            cards = ["%s %d hp" % (name, hp) for owner, name, hp in state.get(key, ()) if owner == i]
            if cards:
                text += " %s: %s." % (word, ", ".join(cards))
        out.append(("hero", text))
    out.append(
        (
            "round",
            "Round %d, %s phase; first player %s." % (state["round"], state["phase"], heroes[state["first"]]["name"]),
        )
    )
    return out
