"""Marvel Champions' allies and minions: a part of its tracker (core/games/champions_rules.py's Champions).

Rules quoted in core/games/champions.py: at most three allies a player ("If you already have three and
play a fourth, you immediately discard one of the previous ones"); damage on allies and minions "defeats
them at zero hit points"; "Minions enter play engaged with the player who revealed them."
"""

from dicetower.core.game import Refused, number, text

MAX_ALLIES = 3  # per player: "You may control at most three allies."
MAX_MINIONS = 8  # in play at once, over all players; keeps a save small
OWNER, NAME, HP = 0, 1, 2  # an ally or a minion: [player, name, hit points]


def _hit_points_of(n):
    return "%d hit point%s" % (n, "" if n == 1 else "s")


class Allies:
    """The tracker's actions on allies and minions; mixed into Champions (whose `_hero` they use)."""

    def act_ally(self, state, player, name, hp, discard=None):
        """`player` plays an ally with `hp` hit points. With three allies in play they "immediately
        discard one of the previous ones": `discard`, its index among the allies."""
        hero = self._hero(state, player)
        text(name, "An ally's name")
        number(hp, 1, 20, "An ally's hit points")
        allies = state.get("allies", [])
        own = len([a for a in allies if a[OWNER] == player])
        gone = ""
        if own >= MAX_ALLIES:
            if discard is None:
                raise Refused("%s controls %d allies: pick the one to discard." % (hero["name"], own))
            number(discard, 0, len(allies) - 1, "The ally to discard")
            if allies[discard][OWNER] != player:
                raise Refused("%s is not %s's ally." % (allies[discard][NAME], hero["name"]))
            gone = " %s is discarded." % allies.pop(discard)[NAME]
        elif discard is not None:
            raise Refused("%s controls fewer than three allies: nothing to discard." % hero["name"])
        allies.append([player, name, hp])
        state["allies"] = allies
        return "%s plays %s (%s).%s" % (hero["name"], name, _hit_points_of(hp), gone)

    def act_ally_damage(self, state, ally, amount):
        """Damage to an ally: the consequential damage printed under the value it used, or an attack
        it defended ("a defending ally takes all of it")."""
        return self._wound(state, "allies", "Ally", ally, amount)

    def act_minion(self, state, player, name, hp):
        """A minion enters play engaged with `player`."""
        hero = self._hero(state, player)
        text(name, "A minion's name")
        number(hp, 1, 30, "A minion's hit points")
        minions = state.get("minions", [])
        if len(minions) >= MAX_MINIONS:
            raise Refused("%d minions are in play: the tracker holds no more." % MAX_MINIONS)
        minions.append([player, name, hp])
        state["minions"] = minions
        return "%s enters play engaged with %s (%s)." % (name, hero["name"], _hit_points_of(hp))

    def act_hit_minion(self, state, minion, amount):
        """Damage to a minion."""
        return self._wound(state, "minions", "Minion", minion, amount)

    def _wound(self, state, key, what, i, amount):
        """Damage on an ally or a minion; "defeats them at zero hit points" (it leaves play)."""
        cards = state.get(key)
        if not cards:
            raise Refused("No %s in play." % what.lower())
        number(i, 0, len(cards) - 1, what)
        number(amount, 1, 99, "Damage")
        card = cards[i]
        taken = min(amount, card[HP])
        card[HP] -= taken
        if card[HP]:
            return "%s -%s (%d left)." % (card[NAME], _hit_points_of(taken), card[HP])
        cards.pop(i)
        return "%s -%s: defeated." % (card[NAME], _hit_points_of(taken))
