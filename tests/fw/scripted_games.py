"""A full four-player game of each mode, as the table would play it.

Used by tests/fw/test_scripted_games.py (each game ends as it should) and
benchmarks/vm_trackers.py (heap and flash bytes per game).
"""


# Each game imports its own tracker: a device holds one game, and the heap probes (benchmarks/rp2040/
# game_heap_probe.py, tests/heap_probe.py) measure one game's heap, not the four trackers'.
def battlerealm():
    from dicetower.core.games.battlerealm.tracker import Battlerealm

    game = Battlerealm.setup(
        [
            {"name": "Hulk", "pvp": 10, "abilities": ["Cunning", "Peaceful", "Tough"]},
            {"name": "Thor", "pvp": 12, "abilities": ["Lucky", "Flight"]},
            {"name": "Vision", "pvp": 8, "abilities": ["Gifted", "Elusive"]},
            {"name": "Falcon", "pvp": 9, "abilities": ["Survivor", "Flight"]},
        ]
    )
    rolls = ["YKKTCC", "KKSTYC", "YYCKTM", "SSSKKY", "KTTCYM", "MMKKTY", "YYKKCC", "KKKTYS"]
    actions = []
    for turn in range(40):
        actions.append(["roll", rolls[turn % len(rolls)], [(turn + 1) % 4]])
        actions.append(["attack", (turn + 2) % 4, 1 + turn % 3, turn % 2 == 0])
        actions.append(["land", turn % 4])
        actions.append(["end_turn"])
    return game, "wins", actions


def champions():
    from dicetower.core.games.champions.tracker import Champions

    game = Champions.setup(
        [
            {"name": "Spider-Man", "hp": 10},
            {"name": "She-Hulk", "hp": 15},
            {"name": "Iron Man", "hp": 9},
            {"name": "Black Panther", "hp": 11},
        ],
        {"name": "The Break-In", "stages": [[12, 1, 3], [16, 2, 0]]},
        {"name": "Rhino", "stages": [14, 15]},
    )

    def rounds():
        for rnd in range(12):
            yield ["side", 0, "Breakout", 2, rnd % 3 == 0, rnd % 2, 0]
            # An ally a round, for the first two players in turn: their fourth discards their first.
            allies = game.state.get("allies", [])
            own = [i for i in range(len(allies)) if allies[i][0] == rnd % 2]
            yield ["ally", rnd % 2, "Ally %d" % (rnd + 1), 3] + ([own[0]] if len(own) == 3 else [])
            yield ["thwart", 0, 0, 2]
            yield ["ally_damage", 0, 1]  # its consequential damage
            yield ["thwart", 0, -1, 2]
            yield ["minion", rnd % 4, "Minion %d" % (rnd + 1), 4]  # engaged, then hit twice: defeated
            for player in range(4):
                yield ["hit", 0, 3 + player]
            yield ["hit_minion", 0, 2]
            yield ["end_phase"]
            for player in range(4):
                yield ["villain_attack", player, 2, rnd % 2, 1]
                yield ["heal", player, 1]
            yield ["incite", 0, 1]
            yield ["end_phase"]

    return game, "the players win", rounds()


def united():
    from dicetower.core.games.united.tracker import United

    game = United.setup(
        [
            {"name": "Black Bolt", "team": 0},
            {"name": "Medusa", "team": 0},
            {"name": "Crystal", "team": 1},
            {"name": "Karnak", "team": 1},
        ],
        teams=2,
    )
    actions = []
    for turn in range(12):
        actions.append(
            ["token", "mist"]
            if turn < 6
            else ["remove_ko", 1]
            if turn == 7
            else ["token", "water"]
            if turn == 8
            else ["ko", (turn + 1) % 4]
        )
        if turn % 2:
            actions.append(["ko", turn % 4])
        if turn == 3:
            actions.append(["token", "water"])
    return game, "the heroes lose", actions


def battleworld():
    from dicetower.core.games.battleworld.tracker import Battleworld

    game = Battleworld.setup(4)

    def turns():
        # Each turn: a Battle Card per hero while the deck lasts, every hero
        # attacks the first open Battle, then the Danger Coin.
        faces = ["Star", "5", "3", "Blank", "4", "2", "5"]
        roll = 0
        for turn in range(20):
            for hero in range(4):
                if len(game.state["battles"]) < game.state["deck"] and turn * 4 + hero < 8 + turn:
                    n = len(game.state["battles"])
                    yield ["battle", "Battle %d" % (n + 1), 1 + n % 3, 7, "Energy" if n % 2 else "Moon"]
            for _hero in range(4):
                open_battles = [b for b in range(len(game.state["battles"])) if not game.state["battles"][b]["result"]]
                if open_battles:
                    yield ["attack", open_battles[0], faces[roll % len(faces)], 4]
                    roll += 1
            yield ["danger", "Moon" if turn % 3 else "Energy"]

    return game, "defeat Thanos", turns()


GAMES = (battlerealm, champions, united, battleworld)  # each named as its module (tests/fw/test_scripted_games.py)


def play(maker, after_each=None):
    """Play a scripted game to its end; returns (game, expected ending, actions done).

    A maker gives the new game, words its ending must contain, and its
    actions (a list, or a generator that reads the game as it goes).
    """
    game, ending, actions = maker()
    done = 0
    for action in actions:
        if game.over():
            break
        try:
            game.do(*action)
        except Exception as e:  # noqa: BLE001 (said as the test's failure)
            raise AssertionError("%s: %r refused: %s" % (maker.__name__, action, e))
        done += 1
        if after_each:
            after_each(game)
    return game, ending, done


def largest_block(most):
    """The largest bytearray the heap can give now, to 16 bytes (its blocks), found by trying: at most
    `most` bytes (gc.mem_free(): no piece is larger)."""
    low, high = 0, most // 16
    while low < high:
        mid = (low + high + 1) // 2
        try:
            piece = bytearray(mid * 16)
            del piece
            low = mid
        except MemoryError:
            high = mid - 1
    return low * 16


def lowest_free(maker):
    """Play a scripted game to its end on MicroPython, collecting after each action; returns (game,
    actions done, the lowest gc.mem_free() seen, the smallest of the largest free pieces seen). The heap
    benchmarks' measure on the emulated RP2040."""
    import gc

    lowest = [1 << 30, 1 << 30]

    def after(game):
        gc.collect()
        free = gc.mem_free()
        lowest[0] = min(lowest[0], free)
        lowest[1] = min(lowest[1], largest_block(free))
        gc.collect()

    game, ending, done = play(maker, after)
    return game, done, lowest[0], lowest[1]
