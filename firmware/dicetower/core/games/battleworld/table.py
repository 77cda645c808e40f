"""Battleworld's table (ui/table.py): the game's count, every open battle whole, then the battles done."""

from dicetower.core.games.battleworld.tracker import DANGER_TRACK, LOSSES


def parts(state):
    battles = state["battles"]
    stones = sum(b["thanostone"] for b in battles)
    out = [
        (
            "game",
            "Battles won %d of %d to win, lost %d of %d. Battle Cards drawn %d of %d (Thanostone %d). Thanostones: %d."
            % (
                state["won"],
                state["wins_needed"],
                state["lost"],
                LOSSES,
                len(battles),
                state["deck"],
                stones,
                state["thanostones"],
            ),
        )
    ]
    for b in battles:
        if not b["result"]:
            out.append(
                (
                    "battle",
                    "%s%s: hits %d of %d, Attack Target %d, danger %d of %d, Danger symbol %s."
                    % (
                        b["name"],
                        " (Thanostone)" if b["thanostone"] else "",
                        b["hits"],
                        b["hits_needed"],
                        b["target"],
                        b["danger"],
                        DANGER_TRACK,
                        b["symbol"],
                    ),
                )
            )
    done = ["%s%s %s" % (b["name"], "*" if b["thanostone"] else "", b["result"]) for b in battles if b["result"]]
    if done:
        out.append(("done", "Done: %s." % ", ".join(done)))
    return out
