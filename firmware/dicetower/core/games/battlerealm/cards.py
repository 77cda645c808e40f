"""Power cards: what a card needs, where the hero stands, and which cards the finalized dice pay.

A card is data (`core/games/battlerealm/roster.py`, the device's heroes.json): {"name":
"Thunderclap", "dice": ["Mutant", "Science", "Skill", "Skill"]}; "dice":
null marks a card whose requirement is still to be filled in (never paid,
never advised). In code a requirement is a bytearray of counts in SYMBOLS
order.

Rulebook: the cards "must be activated by rolling a specific set of dice
symbols and "expending" those dice results", each "once per turn". Dice
spent by an escape, an Explosion or the Crystal Prison pay nothing
(`battlerealm.resolve`). Locations that change the price:
- The Ghost Orchid: each card for one die fewer, of the player's choice.
- Avengers Tower: one card a turn for any dice, as many as it shows, if at
  least one of them is a symbol the card shows.
- Collector's Cosmic Warehouse: up to 3 results of the player's choice, 1
  PVP each, shared by all the cards paid that turn.
Choices where the rulebook is silent: the Ghost Orchid's discount applies
to every card paid there; the Warehouse buys no more results than the hero
has PVP.
"""

from dicetower.core.games.battlerealm.triples import (
    EXPLODED,
    IMPRISONED,
    escapes,
    explosion_threshold,
    prison_threshold,
    resolve,
)
from dicetower.core.dice import SYMBOLS

ELSEWHERE = "Elsewhere"
GHOST_ORCHID = "The Ghost Orchid"
AVENGERS_TOWER = "Avengers Tower"
WAREHOUSE = "Collector's Cosmic Warehouse"
LOCATIONS = (ELSEWHERE, GHOST_ORCHID, AVENGERS_TOWER, WAREHOUSE)
SHORT_NAMES = ("Elsewhere", "Ghost Orchid", "Avengers Tower", "Warehouse")
WAREHOUSE_BUYS = 3
MAX_CARDS = 4

# What the advisor's goal reports for one finalized roll, as bits.
PAYS = 1
RISK = 2  # the roll lands the hero in the Crystal Prison or causes an Explosion


def need(dice):
    """A requirement (list of symbol names) as counts; ValueError names a bad symbol."""
    if not isinstance(dice, list) or not 1 <= len(dice) <= 6:
        raise ValueError('"dice" must be a list of 1 to 6 symbols, or null to fill in later')
    counts = bytearray(len(SYMBOLS))
    for symbol in dice:
        if symbol not in SYMBOLS:
            raise ValueError('"dice" has %r, which is not a symbol (%s)' % (symbol, ", ".join(SYMBOLS)))
        counts[SYMBOLS.index(symbol)] += 1
    return counts


def check_card(card):
    """A card from heroes.json as {"name", "dice"}; ValueError naming the field."""
    if not isinstance(card, dict) or not isinstance(card.get("name"), str) or not card["name"]:
        raise ValueError('"name" is missing')
    dice = card.get("dice")
    if dice is not None:
        need(dice)
    out = {"name": card["name"][:20], "dice": None if dice is None else list(dice)}
    for key in card:
        if key.startswith("_"):
            out[key] = card[key]  # notes stay in the file when the device writes it back
    return out


def pairs(needs):
    """A requirement's nonzero counts as ((symbol index, count), ...): what the advisor loops over."""
    return tuple((s, needs[s]) for s in range(len(needs)) if needs[s])


def can_pay(have, wants, location, buys=0):
    """Whether dice with counts `have` pay one card wanting `wants` (`pairs`) at `location`."""
    short = 0
    wanted = 0
    match = False
    for s, k in wants:
        h = have[s]
        if k > h:
            short += k - h
        wanted += k
        if h:
            match = True
    if short == 0:
        return True
    if location == GHOST_ORCHID:
        return short <= 1
    if location == WAREHOUSE:
        return short <= buys
    if location == AVENGERS_TOWER:
        return match and sum(have) >= wanted
    return False


class Goal:
    """What the advisor aims at: any of `needs` paid, for this hero, at this location.

    `check(counts)` takes the six finalized dice as counts and returns PAYS
    and RISK bits. In the Prison the hero names the triple to escape with:
    the goal takes the first that lets a card be paid, else the default.
    """

    def __init__(self, needs, abilities=(), in_prison=False, location=ELSEWHERE, pvp=0):
        if location not in LOCATIONS:
            raise ValueError("unknown location %r" % (location,))
        self.wants = tuple(pairs(n) for n in needs if n is not None)
        self.prison_at = prison_threshold(abilities)
        self.explosion_at = explosion_threshold(abilities)
        self.in_prison = in_prison
        self.location = location
        self.plain = location == ELSEWHERE
        self.buys = min(WAREHOUSE_BUYS, pvp) if location == WAREHOUSE else 0
        self._left = bytearray(len(SYMBOLS))

    def _try(self, counts, escape):
        # Runs for each of the 462 rolls of six dice: no allocation, early exits.
        left = self._left
        left[:] = counts
        bits = RISK if resolve(left, self.prison_at, self.explosion_at, escape) & (EXPLODED | IMPRISONED) else 0
        if self.plain:
            for wants in self.wants:
                for s, k in wants:
                    if left[s] < k:
                        break
                else:
                    return bits | PAYS
            return bits
        for wants in self.wants:
            if can_pay(left, wants, self.location, self.buys):
                return bits | PAYS
        return bits

    def check(self, counts):
        if not self.in_prison or max(counts) < 3:
            return self._try(counts, -1)
        options = escapes(counts)
        first = -1
        for escape in options:
            bits = self._try(counts, escape)
            if bits & PAYS:
                return bits
            if first < 0:
                first = bits
        return first


def _spend(free, symbol, count, used):
    """Take up to `count` dice showing `symbol` from `free` (die indices per symbol) into `used`."""
    taken = free[symbol][:count]
    del free[symbol][:count]
    used.extend(taken)
    return len(taken)


def _allocate(free, cards, location, buys, tower):
    """Dice for each of `cards` [(name, needs)], no die twice, or None. `tower`: the card Avengers Tower pays."""
    free = [list(f) for f in free]
    plan = []
    for i in range(len(cards)):
        if i == tower:
            continue
        name, needs = cards[i]
        used = []
        missing = []
        for s in range(len(SYMBOLS)):
            got = _spend(free, s, needs[s], used)
            missing += [SYMBOLS[s]] * (needs[s] - got)
        if missing:
            if location != WAREHOUSE or len(missing) > buys:
                return None
            buys -= len(missing)
        plan.append((name, sorted(used), missing))
    if tower >= 0:
        name, needs = cards[tower]
        used = []
        for s in range(len(SYMBOLS)):  # the dice it shows first, then any
            _spend(free, s, needs[s], used)
        if not used:
            return None
        for s in range(len(SYMBOLS)):
            _spend(free, s, sum(needs) - len(used), used)
        if len(used) < sum(needs):
            return None
        plan.append((name, sorted(used), []))
    return plan


def _variants(cards, location):
    """The ways the location lets `cards` be priced: (cards with their needs, tower index)."""
    if location == AVENGERS_TOWER:
        for tower in range(-1, len(cards)):
            yield cards, tower
    elif location == GHOST_ORCHID:
        # Each card drops one die of the player's choice: try every choice.
        choices = [[s for s in range(len(SYMBOLS)) if needs[s]] for _, needs in cards]
        total = 1
        for c in choices:
            total *= len(c)
        for n in range(total):
            priced = []
            for i in range(len(cards)):
                needs = bytearray(cards[i][1])
                needs[choices[i][n % len(choices[i])]] -= 1
                n //= len(choices[i])
                priced.append((cards[i][0], needs))
            yield priced, -1
    else:
        yield cards, -1


def _payable(free, cards, location, buys):
    for priced, tower in _variants(cards, location):
        plan = _allocate(free, priced, location, buys, tower)
        if plan is not None:
            return plan
    return None


def pay(symbols, spent, cards, location=ELSEWHERE, pvp=0):
    """Which cards the finalized dice pay, together, and with which dice.

    symbols  the six faces; spent: per die None or why it cannot pay (Outcome.spent)
    cards    the hero's cards [{"name", "dice"}]; those to fill in are skipped
    Returns (paid, alone): paid is the largest set of cards payable at once
    (the first such set in card order), as (name, die indices, results
    bought at the Warehouse); alone names the other cards the dice could pay
    instead. No die pays two cards.
    """
    free = [[] for _ in SYMBOLS]
    for i in range(len(symbols)):
        if spent[i] is None:
            free[SYMBOLS.index(symbols[i])].append(i)
    known = [(c["name"], need(c["dice"])) for c in cards if c.get("dice") is not None]
    buys = min(WAREHOUSE_BUYS, pvp) if location == WAREHOUSE else 0
    # A card the dice cannot pay alone they cannot pay beside others either (others only take dice and
    # buys away), so no set with such a card is tried: on a Pico that was most of a finalize's time.
    plans = [_payable(free, [card], location, buys) for card in known]
    best = []
    for mask in range(1, 1 << len(known)):
        members = [i for i in range(len(known)) if mask & (1 << i)]
        if len(members) <= len(best) or any(plans[i] is None for i in members):
            continue
        if len(members) == 1:
            best = plans[members[0]]
        else:
            best = _payable(free, [known[i] for i in members], location, buys) or best
    paid = [name for name, _, _ in best]
    return best, [known[i][0] for i in range(len(known)) if plans[i] is not None and known[i][0] not in paid]


def describe(paid, alone):
    """The payment as a sentence for the result screen (dice numbered 1-6)."""
    if not paid:
        return "No power card can be paid."
    parts = []
    for name, dice, bought in paid:
        text = name + " (" + ("dice " + " ".join(str(d + 1) for d in dice) if dice else "no dice")
        if bought:
            text += ", buy %s: %d PVP" % (" ".join(bought), len(bought))
        parts.append(text + ")")
    line = "Pays " + " + ".join(parts) + "."
    if alone:
        line += " Or instead: %s." % ", ".join(alone)
    return line
