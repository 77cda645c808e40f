"""Thousands of random action sequences per game: the trackers' invariants hold.

A thousand per test in the full suite: the count is the hypothesis profile's (tests/conftest.py), so
`tasks.py test --fast` runs a sample of each instead.

For every game: no count goes negative, the rulebooks' caps hold (three allies
per player, the Battleworld chart's two counts), a refused action changes
nothing, undo then redo gives back the same state and history, a finished
game refuses every new action, and save then load is the identity.
"""

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from dicetower.core import games
from dicetower.core.game import Refused, clone
from dicetower.core.games.battlerealm.tracker import Battlerealm
from dicetower.core.games.battleworld.tracker import Battleworld
from dicetower.core.games.champions.tracker import Champions
from dicetower.core.games.united.tracker import United
from dicetower.core.save_reader import decode
from dicetower.core.savefile import encode

# Mostly values the rules accept, sometimes ones they refuse.
small = st.one_of(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.sampled_from([-1, 7]))
amount = st.one_of(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6), st.sampled_from([-1, 0, 40]))
letters = st.text(alphabet="MSKTCY", min_size=6, max_size=6)

REALM_ACTIONS = st.one_of(
    st.tuples(st.just("roll"), letters, st.lists(small, max_size=3)),
    st.tuples(st.just("attack"), small, amount, st.booleans()),
    st.tuples(st.just("effect"), small, amount),
    st.tuples(st.just("land"), st.integers(-1, 4)),
    st.tuples(st.just("gain"), small, amount),
    st.tuples(st.just("spend"), amount),
    st.tuples(st.just("block"), small, st.integers(0, 3)),
    st.tuples(st.just("negate"), small),
    st.tuples(st.just("disorientate"), small),
    st.tuples(st.just("escape")),
    st.tuples(st.just("move"), st.integers(-1, 4)),
    st.tuples(st.just("buy"), st.integers(0, 4)),
    st.tuples(st.just("end_turn")),
)
CHAMPIONS_ACTIONS = st.one_of(
    st.tuples(st.just("threat"), st.integers(-1, 1), amount),
    st.tuples(st.just("incite"), st.integers(0, 1), amount),
    st.tuples(st.just("thwart"), st.integers(0, 1), st.integers(-1, 1), amount),
    st.tuples(st.just("thwart"), st.integers(-1, 1), st.integers(-2, 2), amount),
    st.tuples(
        st.just("side"),
        st.integers(0, 1),
        st.sampled_from(["Side", ""]),
        amount,
        st.booleans(),
        st.integers(0, 2),
        st.integers(0, 2),
    ),
    st.tuples(st.just("side_threat"), st.integers(0, 1), st.integers(-1, 2), amount),
    st.tuples(st.just("hit"), st.integers(-1, 1), st.integers(-1, 40)),
    st.tuples(st.just("villain_attack"), small, amount, st.integers(0, 3), amount),
    st.tuples(st.just("damage"), small, amount),
    st.tuples(st.just("heal"), small, amount),
    st.tuples(st.just("end_phase")),
    st.tuples(
        st.just("separate"),
        small,
        st.just({"name": "3A", "stages": [[8, 1, 1]]}),
        st.just({"name": "Kang (II)", "stages": [6]}),
    ),
    st.tuples(st.just("join"), st.integers(-1, 2), st.integers(-1, 2)),
    st.tuples(st.just("villain"), st.integers(-1, 2), st.just("Kang (III)"), st.just([5])),
    st.tuples(st.just("ally"), small, st.sampled_from(["Ally", ""]), amount),
    st.tuples(st.just("ally"), small, st.just("Ally"), amount, st.integers(-1, 12)),
    st.tuples(st.just("ally_damage"), st.integers(-1, 12), amount),
    st.tuples(st.just("minion"), small, st.sampled_from(["Minion", ""]), amount),
    st.tuples(st.just("hit_minion"), st.integers(-1, 8), amount),
)
UNITED_ACTIONS = st.one_of(
    st.tuples(st.just("ko"), small),
    st.tuples(st.just("remove_ko"), small),
    st.tuples(st.just("duel"), st.sampled_from(["gladiator", "hero", "x"])),
    st.tuples(st.just("token"), st.sampled_from(["mist", "water", "gold"])),
)
BATTLEWORLD_ACTIONS = st.one_of(
    st.tuples(
        st.just("battle"),
        st.sampled_from(["A", "B", ""]),
        st.integers(0, 4),
        st.integers(0, 12),
        st.sampled_from(["Energy", "Moon", "Sun"]),
        st.sampled_from([0, 1, 2]),
    ),
    st.tuples(
        st.just("battle"),
        st.just("C"),
        st.integers(1, 3),
        st.integers(4, 10),
        st.sampled_from(["Energy", "Moon"]),
        st.just(0),
    ),
    st.tuples(
        st.just("attack"), small, st.sampled_from(["Star", "Blank", "2", "3", "4", "5", "9"]), st.integers(-1, 6)
    ),
    st.tuples(st.just("danger"), st.sampled_from(["Energy", "Moon"])),
    st.tuples(
        st.just("battle"),
        st.just("T"),
        st.integers(1, 3),
        st.integers(4, 10),
        st.sampled_from(["Energy", "Moon"]),
        st.just(1),
    ),
)


def new_realm():
    return Battlerealm.setup(
        [
            {"name": "Hulk", "pvp": 10, "abilities": ["Tough", "Cunning", "Peaceful"]},
            {"name": "Thor", "pvp": 12, "abilities": ["Lucky"]},
            {"name": "Falcon", "pvp": 6, "abilities": ["Survivor", "Elusive"]},
            {"name": "Vision", "pvp": 8, "abilities": ["Gifted", "Honest", "Careful"]},
        ]
    )


def new_champions():
    return Champions.setup(
        [{"name": "A", "hp": 10}, {"name": "B", "hp": 11}, {"name": "C", "hp": 9}, {"name": "D", "hp": 12}],
        {"name": "Scheme", "stages": [[10, 1, 3], [12, 2, 0]]},
        {"name": "Villain", "stages": [4, 5]},
    )


def new_united():
    return United.setup(
        [{"name": "A", "team": 0}, {"name": "B", "team": 0}, {"name": "C", "team": 1}, {"name": "D", "team": 1}],
        teams=2,
    )


def new_battleworld():
    return Battleworld.setup(4)


def non_negative(value, where="state"):
    """Every count in the state is 0 or more (ids -1 mean 'nobody')."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("negated_by", "last_hit_by"):
                non_negative(item, where + "." + key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            non_negative(item, "%s[%d]" % (where, i))
    elif isinstance(value, int) and not isinstance(value, bool):
        assert value >= 0, "%s is %d" % (where, value)


def within_the_rulebooks_caps(state):
    """At most three allies per player ("You may control at most three allies"); each of the Battleworld
    chart's two counts ("3 Thanostone Battle Cards and 10 other Battle Cards")."""
    from dicetower.core.games.battleworld.tracker import CHART

    owners = [ally[0] for ally in state.get("allies", [])]
    assert all(owners.count(p) <= 3 for p in owners), "more than three allies: %r" % (state["allies"],)
    if "battles" in state:
        stones = sum(b["thanostone"] for b in state["battles"])
        assert stones <= CHART[state["starting"]][1], "%d Thanostone Battle Cards" % stones
        assert len(state["battles"]) - stones <= CHART[state["starting"]][2], "too many other Battle Cards"


def play(game, actions):
    accepted = 0
    for action in actions:
        before = clone(game.state)  # a copy: a refused action must leave the live state as it was
        history = game.history()
        was_over = game.over()
        try:
            game.do(*action)
        except Refused:
            assert game.state == before, "a refused %r changed the state" % (action,)
            assert game.history() == history
            continue
        assert not was_over, "a finished game accepted %r" % (action,)
        accepted += 1
        non_negative(game.state)
        within_the_rulebooks_caps(game.state)
        after, lines = clone(game.state), game.history()
        game.undo()
        assert game.state == before, "undo of %r did not restore the state" % (action,)
        game.redo()
        assert game.state == after and game.history() == lines, "redo of %r differs" % (action,)
    event(
        "accepted actions: %s"
        % ("0" if not accepted else "1-9" if accepted < 10 else "10-19" if accepted < 20 else "20+")
    )
    event("game over: %s" % bool(game.over()))
    again = decode(encode(game))
    assert again.state == game.state
    assert again.history() == game.history()
    assert again.redo_actions == game.redo_actions
    assert again.to_dict() == game.to_dict()


SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


GAMES = (
    (new_realm, REALM_ACTIONS),
    (new_champions, CHAMPIONS_ACTIONS),
    (new_united, UNITED_ACTIONS),
    (new_battleworld, BATTLEWORLD_ACTIONS),
)


@pytest.mark.parametrize("new_game,actions", GAMES, ids=[kind for _, kind, *_ in games.GAMES])
@SETTINGS
@given(data=st.data())
def test_random_sequences_keep_the_invariants(new_game, actions, data):
    play(new_game(), data.draw(st.lists(actions, min_size=20, max_size=60)))


JUNK = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(0, 3),
        st.integers(-3, 30),
        st.text(max_size=8),
        st.sampled_from(["Energy", "Moon", "Star", "hero", "mist", "YYKKTC"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["name", "stages", "hp", "x"]), inner, max_size=3)
    ),
    max_leaves=6,
)


def act_names(game):
    return sorted(n[4:] for n in dir(game) if n.startswith("act_")) + ["undo", "__init__", "nothing"]


@st.composite
def fuzzed_game(draw):
    """A game and a list of presses: its own action names, with junk arguments."""
    game = draw(st.sampled_from([new_realm, new_champions, new_united, new_battleworld]))()
    names = act_names(game)
    args = st.lists(st.one_of(st.integers(0, 3), JUNK), max_size=6)
    presses = draw(st.lists(st.tuples(st.sampled_from(names), args), max_size=12))
    return game, presses


@settings(deadline=None)
@given(fuzzed_game())
def test_any_input_is_done_or_refused_never_a_crash(fuzzed):
    """Malformed buttons or serial lines: every request is carried out or refused with a reason."""
    game, presses = fuzzed
    for name, args in presses:
        before = clone(game.state)
        try:
            game.do(name, *args)
        except Refused as e:
            assert str(e)
            assert game.state == before
        non_negative(game.state)
    assert decode(encode(game)).state == game.state


SETUPS = {
    "battlerealm": lambda data: Battlerealm.setup(data.draw(JUNK)),
    "champions": lambda data: Champions.setup(data.draw(JUNK), data.draw(JUNK), data.draw(JUNK)),
    "united": lambda data: United.setup(
        data.draw(JUNK), data.draw(st.one_of(st.integers(0, 3), JUNK)), data.draw(st.one_of(st.integers(0, 9), JUNK))
    ),
    "battleworld": lambda data: Battleworld.setup(data.draw(st.one_of(st.integers(0, 6), JUNK)), data.draw(JUNK)),
}


@pytest.mark.parametrize("kind", sorted(SETUPS))
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_any_setup_is_a_game_or_refused(kind, data):
    try:
        game = SETUPS[kind](data)
    except Refused as e:
        assert str(e)
        return
    assert decode(encode(game)).state == game.state
