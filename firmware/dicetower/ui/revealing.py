"""A seal revealed (ui/sealing.py's moments): its seed told and kept with the game's history, at a game's
end, on a full record or by "Reveal the seed"; a seal read back from flash revealed as far as it can be
read (`checked`), never silently replaced. Loaded for the moment, with the seal's scope, forgotten after:
apart from ui/resealing.py (a new seal and its cut) so that the press that ends a game loads this alone.
"""

from dicetower.core.game import SEALS_KEPT, landed_at, plural
from dicetower.core.sealed import SEED_BYTES
from dicetower.ui.sealing import CUT_MOST, HEX, PHONE_DIGITS, short

SEALS_TEXT = 4000  # characters of revealed records a game keeps for its history (the last whole)


def reveal(sealing):
    """The seed told, kept with the game's history and saved; the game unsealed until it seals again.
    Its words for the OLED."""
    dice = sealing.dice
    dice.opened = True
    kept = dice.saved()
    app = sealing.app
    _keep(app.game, kept)
    sealing.dice = None
    sealing.screen = None
    app.game.seal = None
    app.dice = app.fair
    app.set_menu()
    app.emit(
        {
            "event": "reveal",
            "game": dice.kind,
            "commitment": dice.commitment,
            "seed": kept["seed"],
            "draws": kept["draws"],
            "throws": kept["throws"],
        }
    )
    app.save()
    return "Seal %s revealed: %s in %s. %s" % (
        short(dice.commitment),
        plural(kept["draws"], "draw"),
        plural(kept["throws"], "throw"),
        _seed_words(kept["seed"]),
    )


def saved(sealing, game, saved):
    """A seal read from flash, revealed as far as it can be read: kept, told, and said in words."""
    kept, problem = checked(saved)
    app = sealing.app
    if not kept.get("open"):
        kept["open"] = 1
        event = {"event": "reveal", "game": game.KIND, "commitment": kept.get("commitment", "")}
        for key in ("seed", "draws", "throws", "counter", "cut"):
            if key in kept:
                event[key] = kept[key]
        if problem:
            event["damaged"] = problem
        app.emit(event)
    _keep(game, kept)
    name = short(kept.get("commitment", "?"))
    if problem:
        return "The saved seal %s is damaged (%s): revealed as far as it goes. %s" % (
            name,
            problem,
            _seed_words(kept.get("seed")),
        )
    return "Read from flash, seal %s is revealed: %s in %s. %s" % (
        name,
        plural(kept.get("draws", 0), "draw"),
        plural(kept.get("throws", 0), "throw"),
        _seed_words(kept["seed"]),
    )


def checked(saved):
    """A seal as a save holds it (SealedDice.saved), checked for what the tower shows and serves of it:
    (the seal, None), or (what could be read of it, why the rest could not). A seal's seed and record
    are never trusted here, only shown: the players' verifier recomputes them."""
    if not isinstance(saved, dict):
        return {}, "the seal is not a record"
    kept = {}
    problem = None
    if saved.get("version") != 2:
        problem = "it is an earlier firmware's seal"
    for key, kind in (
        ("commitment", str),
        ("seed", str),
        ("record", str),
        ("dice", str),
        ("kind", str),
        ("counter", int),
        ("players", int),
        ("draws", int),
        ("throws", int),
        ("version", int),
        ("cut", list),
        ("open", int),
    ):
        value = saved.get(key)
        if isinstance(value, kind) and not isinstance(value, bool) and (kind is not str or len(value) <= 6000):
            kept[key] = value
        elif problem is None:
            problem = "its %s is damaged" % key
    seed = kept.get("seed", "")
    if len(seed) != 2 * SEED_BYTES or any(c not in HEX for c in seed):
        kept.pop("seed", None)
        problem = problem or "its seed is damaged"
    cut = kept.get("cut", [])
    if len(cut) > CUT_MOST or any(not isinstance(c, str) or len(c) > PHONE_DIGITS for c in cut):
        kept.pop("cut", None)
        problem = problem or "its cut is damaged"
    return kept, problem


def _keep(game, kept):
    """A revealed seal into the game's history: the last SEALS_KEPT, their records within SEALS_TEXT, but
    never one whose throws an undo can still reach (the history's lines show their faces)."""
    seals = game.seals
    seals.append(kept)
    reach = game.base.get("thrown", 0)
    while (
        len(seals) > 1
        and _last_place(seals[0]) < reach
        and (len(seals) > SEALS_KEPT or sum([len(s.get("record", "")) for s in seals]) > SEALS_TEXT)
    ):
        seals.pop(0)


def _last_place(seal):
    """The furthest position a revealed seal's record throws at (-1: none)."""
    record = seal.get("record", "")
    return max([landed_at(token) for token in record.split()]) if record else -1


def _seed_words(seed):
    """The seed on the OLED, in four groups of 16 hex digits."""
    if not seed:
        return "Its seed cannot be read."
    return "Seed: %s %s %s %s" % (seed[:16], seed[16:32], seed[32:48], seed[48:])
