"""Battlerealm's power cards and locations on the score: PVP spent, the Warehouse, moves, Block, Negate,
Disorientate, Escape. A part of its tracker, mixed into core/games/battlerealm.py's Battlerealm (whose
`_hero`, `_lose`, `_line` and `_finish_turn` it uses); the rule choices are in that module's docstring."""

from dicetower.core.cards import LOCATIONS, WAREHOUSE, WAREHOUSE_BUYS
from dicetower.core.game import Refused, number, plural


class Powers:
    """The tracker's actions that power cards and locations bring."""

    def act_spend(self, state, amount):
        """The acting hero spends PVP (a power's cost)."""
        hero = self._pay_pvp(state, number(amount, 1, 99, "PVP to spend"))
        return self._line(state, "%s spends %d PVP." % (hero["name"], amount))

    def _pay_pvp(self, state, amount):
        """The acting hero pays `amount` PVP; spending the last point can eliminate them."""
        i = state["turn"]
        hero = state["heroes"][i]
        if amount > hero["pvp"]:
            raise Refused("%s has only %d PVP." % (hero["name"], hero["pvp"]))
        self._lose(state, i, amount, -1)
        if hero["out"]:
            self._finish_turn(state)
        return hero

    def act_move(self, state, place):
        """The acting hero stands at location `place` (an index in cards.LOCATIONS) to pay cards."""
        hero = state["heroes"][state["turn"]]
        number(place, 0, len(LOCATIONS) - 1, "A location")
        if hero["prison"]:
            raise Refused("%s is in the Crystal Prison and cannot move." % hero["name"])
        if place == hero["place"]:
            raise Refused("%s is at %s already." % (hero["name"], LOCATIONS[place]))
        hero["place"] = place
        if place == 0:
            return "%s moves elsewhere." % hero["name"]
        return "%s moves to %s." % (hero["name"], LOCATIONS[place])

    def act_buy(self, state, results):
        """The acting hero buys dice results at the Collector's Cosmic Warehouse, 1 PVP each.

        Rulebook: "Heroes at the Collector's Cosmic Warehouse may spend up to
        3 PVP points to gain additional dice results of their choosing."
        """
        hero = state["heroes"][state["turn"]]
        number(results, 1, WAREHOUSE_BUYS, "Results to buy")
        if hero["prison"] or LOCATIONS[hero["place"]] != WAREHOUSE:
            raise Refused("%s is not at the %s." % (hero["name"], WAREHOUSE))
        if state["bought"] + results > WAREHOUSE_BUYS:
            raise Refused(
                "The Warehouse sells up to %d results a turn; %s has bought %d."
                % (WAREHOUSE_BUYS, hero["name"], state["bought"])
            )
        state["bought"] += results  # before paying: a last point spent ends the turn, which resets it
        self._pay_pvp(state, results)
        return self._line(
            state, "%s buys %s at the Warehouse: -%d PVP." % (hero["name"], plural(results, "result"), results)
        )

    def act_block(self, state, target, amount):
        """`target` takes `amount` off each Attack until the start of their next turn."""
        hero = self._hero(state, target)
        number(amount, 1, 9, "Block")
        hero["block"] = amount
        return "%s Blocks %d until their next turn." % (hero["name"], amount)

    def act_negate(self, state, target):
        """The acting hero Negates `target`'s powers until the acting hero's next turn."""
        i = state["turn"]
        hero = self._hero(state, target)
        if target == i:
            raise Refused("Negate another hero.")
        hero["negated_by"] = i
        return "%s Negates %s." % (state["heroes"][i]["name"], hero["name"])

    def act_disorientate(self, state, target):
        """`target` has one re-roll, not two, on their next turn."""
        hero = self._hero(state, target)
        # Counted in the hero's turn ends: their next turn is the one it affects.
        hero["disorientated"] = 2 if target == state["turn"] else 1
        return "%s is Disorientated." % hero["name"]

    def act_escape(self, state):
        """The acting hero uses an Escape power to leave the Crystal Prison."""
        hero = state["heroes"][state["turn"]]
        if not hero["prison"]:
            raise Refused("%s is not in the Crystal Prison." % hero["name"])
        hero["prison"] = 0
        return "%s Escapes the Crystal Prison." % hero["name"]
