"""Random button sequences through every game: the save the device would write after any press loads
back to the same game, undo and redo included. A game is never lost by the firmware's own save.

Each example picks a game on the start menu, then presses A, B and C (short, long, double) at random,
among them the undos and redos of long A and B. After every press the game in play is encoded as the
device saves it and decoded as the next boot loads it: the base, the actions, the actions undone and
the state come back as they were, with nothing dropped (a save's redo list that did not replay is
dropped at load, and said: that must never be needed for a save the firmware wrote itself).
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicetower.core import save_reader, savefile
from dicetower.core.entropy import FairDice
from dicetower.core.games import GAMES
from dicetower.core.replay import SeededSource
from dicetower.ui.flow import App

PRESS = st.sampled_from(
    [("a", "short")] * 3
    + [("b", "short")] * 3
    + [("c", "short")] * 4
    + [("a", "long"), ("b", "long"), ("a", "double"), ("b", "double"), ("c", "long")]
)


class Saves:
    """The store the App saves through; nothing saved yet (a new tower), each save counted."""

    def __init__(self):
        self.saved = 0

    def save(self, game):
        self.saved += 1

    def flush(self):
        pass  # each save is taken whole at once: none is ever under way

    def resume(self, scope=None):
        return None, None

    def kept_kind(self):
        return None

    def keep_replaced(self):
        pass

    def bring_back(self):
        return None


def loads_back(game, after):
    loaded = save_reader.decode(savefile.encode(game))
    assert loaded.note is None, "%s: %s" % (after, loaded.note)
    assert (loaded.base, loaded.actions, loaded.redo_actions, loaded.state) == (
        game.base,
        game.actions,
        game.redo_actions,
        game.state,
    ), after


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # the profile's count: 1,000 in CI
@given(seed=st.integers(0, 2**16), game=st.integers(0, len(GAMES) - 1), presses=st.lists(PRESS, max_size=80))
def test_every_press_leaves_a_save_that_loads_back_to_the_same_game(seed, game, presses):
    app = App(FairDice(SeededSource(seed)), saves=Saves())
    for button, kind in [("b", "short")] * game + [("c", "short")] * 3 + presses:
        app.press(button, kind)
        while app.think():
            pass
        if app.game is not None:
            loads_back(app.game, "after %s %s" % (button, kind))


def test_the_lost_game_of_the_warehouse_loads_back():
    """The hostile run's 14 presses: a roll at the Collector's Cosmic Warehouse records move, roll, buy;
    two undos put buy and roll in the redo list; rolling again and cycling "At:" back "as before" took
    back the move but left the buy that needed it to redo, and the next boot refused the whole game."""
    app = App(FairDice(SeededSource(5)), saves=Saves())
    # New Battlerealm, two heroes, start, cut; move, roll, buy; two undos; roll, "At:" cycled back.
    stages = (  # the keys, and the actions done and to redo after them: the hostile run's path, not another
        ("caacc", "short", [], []),
        ("caacccbcc", "short", ["move", "roll", "buy"], []),
        ("aa", "long", ["move"], ["buy", "roll"]),
        ("caac", "short", [], []),
    )
    for keys, kind, done, to_redo in stages:
        for key in keys:
            app.press(key, kind)
            loads_back(app.game, "after %s" % key) if app.game is not None else None
        assert app.game is not None and app.mode in ("play", "dice"), (keys, app.mode)
        assert [a[0] for a in app.game.actions] == done
        assert [a[0] for a in app.game.redo_actions] == to_redo
    assert app.game.redo_actions == []  # the move taken back for good: what was redone after it goes too


def test_a_redo_list_that_does_not_replay_is_dropped_and_the_game_kept():
    """Loading is forgiving where it cannot hurt: a save whose actions undone no longer replay keeps its
    game, drops the redo list, and says so (the OLED shows it at boot)."""
    from dicetower.core.games.battlerealm.tracker import Battlerealm

    game = Battlerealm.setup([{"name": "Hulk"}, {"name": "Thor"}])
    game.do("move", 3)
    game.do("end_turn")
    game.undo()
    game.undo()
    game.redo_actions.insert(0, ["buy", 2])  # redone last, after the move: Thor is not at the Warehouse
    loaded = save_reader.decode(savefile.encode(game))
    assert loaded.state == Battlerealm.setup([{"name": "Hulk"}, {"name": "Thor"}]).state
    assert loaded.redo_actions == []
    assert loaded.note.startswith("The saved game's redo list did not replay (")
    assert loaded.note.endswith("): it was dropped, the game is kept.")


def _renamed_value_by_value(value, names, words, depth):
    """A save's coding as it was written before (a call a value): the bytes of every save, old saves'
    among them, must not change with how it is computed."""
    if depth < 0:
        raise savefile.SaveError(savefile.DEEPER)
    if isinstance(value, dict):
        return {names.get(k, k): _renamed_value_by_value(v, names, words, depth - 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed_value_by_value(v, names, words, depth - 1) for v in value]
    return words.get(value, value) if words is not None and isinstance(value, str) else value


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(["Hulk", "place", "Skill", "x", ""]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["place", "pvp", "k"]), inner, max_size=3)
    ),
    max_leaves=30,
)


@given(value=JSON, depth=st.integers(-1, 5), with_words=st.booleans())
def test_a_saves_coding_is_the_same_as_a_call_a_value_nested_too_deep_included(value, depth, with_words):
    # The encoder's tables give numbers, coded with MARKS; the reader's give names: both as before.
    names, words = {"place": "~a", "pvp": "~b"}, ({"Hulk": "=a", "Skill": "=b"} if with_words else None)
    numbers = ({"place": 0, "pvp": 1}, ({"Hulk": 0, "Skill": 1} if with_words else None))
    try:
        expected = _renamed_value_by_value(value, names, words, depth)
    except savefile.SaveError as e:
        expected = e
    for got_by in (
        lambda: savefile.renamed(value, names, words, depth),
        lambda: savefile.renamed(value, numbers[0], numbers[1], depth, savefile.MARKS),
    ):
        try:
            got = got_by()
        except savefile.SaveError as e:
            got = e
        if isinstance(expected, savefile.SaveError):
            assert isinstance(got, savefile.SaveError) and str(got) == "it is nested deeper than any game"
        else:
            assert got == expected
