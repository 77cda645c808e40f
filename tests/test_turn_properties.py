"""Random Battlerealm turns driven through core/games/battlerealm/turn.py: the rules of paying and recording hold.

Each example sets up two to four heroes, the acting hero's power cards and
where they stand, rolls scripted dice, presses the dice screen's requests
at random (pick, re-roll, Lucky, aim, move), marks heroes for an Explosion
and records the roll. Whatever happens: a refused request changes nothing,
the Warehouse charges only results the paid cards use (at most 3, in the
Warehouse, never the last point before the Crystal Prison), a refused roll
leaves nothing bought, and undoing the turn brings its finalized faces back, with the re-rolls
and the locks they had.
"""

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from dicetower.core.dice import SYMBOLS
from dicetower.core.game import Refused, clone
from dicetower.core.games.battlerealm.cards import LOCATIONS, WAREHOUSE, WAREHOUSE_BUYS
from dicetower.core.games.battlerealm.roll import RollRefused
from dicetower.core.games.battlerealm.tracker import Battlerealm
from dicetower.core.games.battlerealm.turn import Turn
from dicetower.core.replay import ScriptedFaces

symbol = st.sampled_from(SYMBOLS)
# Mutant often (the Prison), few PVP often (the last point), the Warehouse often: where the rules bite.
face = st.one_of(symbol, symbol, symbol, st.just("Mutant"))
hero = st.fixed_dictionaries(
    {
        "pvp": st.one_of(st.integers(1, 3), st.integers(1, 20)),
        "abilities": st.lists(
            st.sampled_from(["Lucky", "Careful", "Honest", "Gifted", "Peaceful", "Survivor"]), unique=True, max_size=2
        ),
    }
)
card = st.lists(symbol, min_size=1, max_size=4)
request = st.one_of(
    st.tuples(st.just("pick"), st.integers(0, 5)),
    st.tuples(st.just("reroll")),
    st.tuples(st.just("lucky")),
    st.tuples(st.just("aim")),
    st.tuples(st.just("move")),
)


def new_turn(data):
    heroes = data.draw(st.lists(hero, min_size=2, max_size=4))
    for n, h in enumerate(heroes):
        h["name"] = "Hero %d" % (n + 1)
    game = Battlerealm.setup(heroes)
    if len(heroes) > 2 and data.draw(st.booleans()):
        game.do("roll", "MMMMTC")  # the first hero to the Crystal Prison: a hero who shares no location
    for _ in range(data.draw(st.integers(0, len(heroes) - 1))):
        game.do("end_turn")  # someone else's turn, sometimes
    done = []
    changed = []
    turn = Turn(lambda name, values, line: done.append((name, clone(values))), lambda: changed.append(1))
    turn.game = game
    cards = [{"name": "Card %d" % n, "dice": dice} for n, dice in enumerate(data.draw(st.lists(card, max_size=3)))]
    turn.heroes = [{"name": turn.active_name(), "cards": cards}]
    return turn, done, changed


def roll_state(roll):
    return bytes(roll.faces), bytes(roll.locked), roll.rerolls_left, roll.lucky_left


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # the profile's count: 1,000 in CI, 50 in --fast
@given(data=st.data())
def test_random_turns_pay_and_record_by_the_rules(data):
    turn, done, changed = new_turn(data)
    game = turn.game
    for _ in range(data.draw(st.sampled_from((0, 1, 2, 3, 3, 3)))):
        turn.move()  # where the hero stands before rolling
    turn.start(ScriptedFaces(data.draw(st.lists(face, min_size=30, max_size=30))))
    for req in data.draw(st.lists(request, max_size=8)):
        before = roll_state(turn.roll)
        try:
            if req[0] == "pick":
                turn.pick(req[1])
            else:
                getattr(turn, req[0])()
        except (Refused, RollRefused):
            assert roll_state(turn.roll) == before, "a refused %s changed the dice" % (req,)
        turn.think()  # the advice's work in slices goes on meanwhile; it never changes the dice
    turn.needs_marks()
    # Heroes marked as at the roller's location (the screen asks for an Explosion; the game refuses a
    # hero who is not there, such as one in the Prison while the roller is not).
    for i in data.draw(st.lists(st.sampled_from(turn.mark_items()), max_size=3, unique=True)):
        turn.mark(i)
    roller = game.state["turn"]
    state = clone(game.state)
    at_warehouse = LOCATIONS[state["heroes"][roller]["place"]] == WAREHOUSE
    pvp = state["heroes"][roller]["pvp"]
    actions = len(game.actions)
    done.clear()
    left = (turn.roll.rerolls_left, turn.roll.lucky_left, bytes(turn.roll.locked))
    outcome = turn.finalize()
    recorded = turn.record(outcome)
    event("recorded" if recorded else "refused")
    event("prison" if outcome.prison else "explosion" if outcome.explosion else "no triple")
    names = [name for name, _ in done]
    charged = sum(values[0] for name, values in done if name == "buy")
    if not recorded:
        assert game.state == state, "a refused roll left something behind"
        assert len(game.actions) == actions
        assert turn.message and names.count("roll") == 0
        return
    event("bought %d" % charged)
    assert names.count("roll") == 1
    assert charged <= WAREHOUSE_BUYS and (at_warehouse or not charged)
    if charged:
        # Sent to the Prison, the hero pays before the roll ends the turn; else after the roll.
        assert names == (["buy", "roll"] if outcome.prison else ["roll", "buy"])
    if outcome.prison:
        assert charged < pvp, "the Warehouse took the last point before the Prison"
        assert not game.state["heroes"][roller]["out"]
    hero = game.state["heroes"][roller]
    if not any(h["out"] for h in game.state["heroes"]) and not game.over():
        assert hero["pvp"] == pvp + outcome.pvp - charged
    # Undone, the turn's finalized faces come back when the hero rolls again (the dice as they landed),
    # with the re-rolls they had not used ("up to two times" a turn) and their locks.
    faces = turn.roll.symbols()
    for _ in done:
        game.undo()
    assert game.state == state
    turn.start(ScriptedFaces([]))  # no fresh faces are drawn
    assert turn.message.startswith("The dice as they landed.")
    assert turn.roll.symbols() == faces
    assert (turn.roll.rerolls_left, turn.roll.lucky_left, bytes(turn.roll.locked)) == left


@settings(max_examples=100, deadline=None)
@given(data=st.data(), moves=st.integers(1, 12))
def test_moving_leaves_at_most_one_move_and_goes_round_the_locations(data, moves):
    turn, done, changed = new_turn(data)
    game = turn.game
    mover = game.state["heroes"][game.state["turn"]]
    assume(not mover["prison"])  # a hero in the Crystal Prison cannot move (tests/fw/test_turn.py)
    start = mover["place"]
    history = list(game.actions)
    for _ in range(moves):
        turn.move()
    assert turn.place() == LOCATIONS[(start + moves) % len(LOCATIONS)]
    added = game.actions[len(history) :]
    assert game.actions[: len(history)] == history
    assert added == ([] if moves % len(LOCATIONS) == 0 else [["move", (start + moves) % len(LOCATIONS)]])
    assert not game.redo_actions, "a change of place left a move to redo"
