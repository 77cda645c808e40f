"""The device imports only the game being played: a fresh interpreter boots the bench's tower, plays
one game, and lists the firmware modules it loaded."""

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from dicetower.core import games
from dicetower.core.actions import draws_dice

PLAY = r"""
import json, sys
from dicetower_host import virtual_parts
virtual_parts.install()  # the bench's parts (machine, devices, tower) by their top-level names
from table import Table
t = Table()
t.presses(%r)
assert t.app.mode == "play", (t.app.mode, t.screen())
%s
print(json.dumps(sorted(m for m in sys.modules if m.startswith("dicetower."))))
"""
BATTLEREALM_ONLY = {
    "dicetower.core.games.battlerealm.tracker",
    "dicetower.core.games.battlerealm.turn",
    "dicetower.ui.battlerealm",
    "dicetower.core.games.battlerealm.roster",
    "dicetower.core.games.battlerealm.cards",
    "dicetower.core.games.battlerealm.advisor",
    "dicetower.core.games.battlerealm.roll",
    "dicetower.core.games.battlerealm.triples",
}
GAMES = tuple(kind for _, kind, *_ in games.GAMES)  # the registry's, in the start menu's order
# The games whose box rolls dice: the tower seals each at its start, and its cut screen takes one C.
SEALED = tuple(kind for kind in GAMES if draws_dice(games.game(kind).MENU))


def loaded(presses, then=""):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run(
        [sys.executable, "-c", PLAY % (presses, then)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return set(json.loads(done.stdout.splitlines()[-1]))


def after_boot(script):
    """The JSON `script` prints last, run on the bench's tower after it boots (PLAY's first lines)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run(
        [sys.executable, "-c", PLAY.split("t.presses(%r)")[0] + script],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("kind", GAMES[1:])
def test_a_game_without_the_custom_dice_loads_neither_them_nor_the_other_games(kind):
    modules = loaded("b" * GAMES.index(kind) + "c c" + (" c" if kind in SEALED else ""))  # New <kind>, start (cut)
    assert "dicetower.core.games." + kind in modules
    assert not modules & BATTLEREALM_ONLY
    assert "dicetower.core.games.battlerealm.work_arrays" not in modules
    assert not modules & {"dicetower.core.games." + other for other in GAMES if other != kind}


def test_battlerealm_loads_its_turn_when_played_and_keeps_only_its_seated_heroes():
    """The built-in roster (heroes.json, read from flash: no module holds it) is read at the start and
    released: the game keeps the seated
    heroes' entries (their power cards, for the advice), not the thirteen; the advice comes without the
    advisor's search with Lucky, which none of them has."""
    then = (
        "t.presses('c'); t.wait(300)\n"  # roll; the advice
        "kept = [h['name'] for h in t.app.turn.heroes]\n"
        "assert kept == [h['name'] for h in t.app.game.state['heroes']] and len(kept) == 4, kept\n"
        "assert t.app.turn.hero_cards(), 'Hulk has his power cards'\n"
    )
    modules = loaded("c c c", then)  # New Battlerealm, four heroes; cut and play
    assert BATTLEREALM_ONLY <= modules
    assert not modules & {
        "dicetower.core.games.battlerealm.lucky",
        "dicetower.core.games.battlerealm.lucky_tables",
    }  # no built-in hero has Lucky
    assert "dicetower.core.games.battlerealm.check" not in modules  # let go once the game is set up
    assert not modules & {"dicetower.core.games." + other for other in GAMES[1:]}


def test_the_presses_that_start_a_battlerealm_game_and_roll_its_dice_import_nothing():
    """Its modules (the heroes, the roster, the rules, the roll, the turn, the dice screen, the sealed dice,
    the seal's moments) are imported while the set-up screen waits, one a loop pass: on a Pico, importing
    them at the press kept the buttons waiting (the seal's moments 49 ms, the roll 45 ms at the first
    roll); so are its checks (check.py, 40 ms), which go with the set-up's modules when it starts. The seal's
    moments (ui/resealing.py: the seal made, its cut's screen) are the seal's once it starts, and go once
    the cut is made."""
    script = (
        "t.wait(1000)\n"  # the set-up screen, idle
        "assert 'dicetower.core.games.battlerealm.check' in sys.modules\n"
        "assert 'dicetower.ui.resealing' in sys.modules\n"
        "import builtins\n"
        "imported = []\n"  # every module imported in a press, those forgotten before it ends too
        "real, press = builtins.__import__, t.app.press\n"
        "def watch(name, *args):\n"
        "    had = set(sys.modules)\n"
        "    try:\n"
        "        return real(name, *args)\n"
        "    finally:\n"
        "        imported.extend(m for m in sys.modules if m not in had and m.startswith('dicetower.'))\n"
        "def pressed(*args):\n"  # the press's work alone, not the idle passes' after it
        "    builtins.__import__ = watch\n"
        "    try:\n"
        "        return press(*args)\n"
        "    finally:\n"
        "        builtins.__import__ = real\n"
        "t.app.press = pressed\n"
        "t.presses('c')\n"  # start: four heroes, the game sealed
        "assert t.app.mode == 'cut', t.screen()\n"
        "assert 'dicetower.core.games.battlerealm.check' not in sys.modules\n"
        "t.presses('c')\n"  # cut and play
        "assert t.app.mode == 'play', t.screen()\n"
        "assert 'dicetower.ui.resealing' not in sys.modules\n"
        "t.presses('c')\n"  # the first hero rolls
        "assert t.app.mode == 'dice' and len(t.app.roll.faces) == 6, t.screen()\n"
        "print(json.dumps(sorted(imported)))\n"
        "sys.exit(0)"
    )
    assert after_boot("t.presses('c')\n" + script) == []


def test_the_press_that_starts_a_champions_game_is_answered_before_its_rules_are_imported():
    """Champions' rules (its tracker and its play menu, 8.4 and 3.7 KB of .mpy) are not imported while it is
    set up: they would share the heap with the set-up's. Imported by the press that starts it, they kept the
    buttons waiting 111 ms on a Pico; in one pass after it, 97 ms. The OLED says the game is starting first;
    the play menu is imported in a loop pass of its own, then the tracker in another, then the game begins;
    a press made meanwhile waits for it, and is the game's."""
    script = (
        "t.presses('bc')\n"  # New Champions: its count screen
        "t.wait(1000)\n"  # its set-up made ready at idle
        "rules = 'dicetower.core.games.champions.tracker'\n"
        "menu = 'dicetower.core.games.champions.menu'\n"
        "assert rules not in sys.modules and menu not in sys.modules and t.app.mode == 'setup', t.screen()\n"
        "t.device.press('c', 'short')\n"  # start, with the defaults
        "t.device.press('b', 'short')\n"  # and at once B: the play menu's next action
        "seen = []\n"
        "for _ in range(40):\n"
        "    t.device.tick(t.clock.now)\n"
        "    seen.append([' '.join(t.screen()).split(), rules in sys.modules, t.app.mode, menu in sys.modules])\n"
        "print(json.dumps([seen, t.app.cursor, t.app.kind]))\n"
        "sys.exit(0)"
    )
    seen, cursor, kind = after_boot(script)
    starting = [loaded for words, loaded, _mode, _menu in seen if words[:2] == ["Starting", "Champions..."]]
    assert starting and not starting[0], seen  # on the OLED before the import
    loads = [(menu, loaded) for _words, loaded, _mode, menu in seen]
    assert (True, False) in loads, loads  # the play menu in a pass of its own, before the tracker
    assert seen[-1][1:] == [True, "play", True] and kind == "champions"
    assert cursor == 1  # the B made while it started moved the game's menu, not the notice's pages


def test_the_press_that_starts_a_game_of_a_count_only_is_answered_before_the_game_is_made():
    """Battleworld sets up nothing but its count: its start press made the game, began it and sealed its
    dice before the OLED changed (28 ms of app's work on a Pico). It starts as every game does: the OLED
    says the game is starting, then the game is made in the passes after it, and its seal is cut."""
    script = (
        "t.presses('bbbc')\n"  # New Battleworld: its count screen
        "t.wait(1000)\n"
        "t.device.press('c', 'short')\n"  # start: one hero
        "seen = []\n"
        "for _ in range(40):\n"
        "    t.device.tick(t.clock.now)\n"
        "    seen.append([' '.join(t.screen()).split(), t.app.game is not None, t.app.mode])\n"
        "print(json.dumps([seen, t.app.kind]))\n"
        "sys.exit(0)"
    )
    seen, kind = after_boot(script)
    starting = [made for words, made, _mode in seen if words[:2] == ["Starting", "Battleworld..."]]
    assert starting and not starting[0], seen  # on the OLED before the game is made
    assert seen[-1][1:] == [True, "cut"] and kind == "battleworld"


def test_the_press_that_ends_a_sealed_game_shows_its_end_before_the_seal_is_revealed():
    """The seal's reveal (ui/revealing.py) is imported after the press that ends the game, in a pass of
    its own, once the OLED shows the game's end; then the seed is said. examples/battlerealm.sim's
    second last press is Hulk's winning Gain PVP."""
    script = (
        "from dicetower_host.virtual_parts.script import parse, presses\n"
        "keys = presses(parse(open(%r).read()))\n"
        % os.path.join(ROOT, "examples", "battlerealm.sim")
        + "for button, kind in keys[:-2]:\n"
        "    t.press(button, kind)\n"
        "    t.wait(1200)\n"
        "assert not t.app.game.over(), t.screen()\n"
        "reveals = 'dicetower.ui.revealing'\n"
        "t.device.press(*keys[-2])\n"
        "seen = []\n"
        "for _ in range(40):\n"
        "    t.device.tick(t.clock.now)\n"
        "    seen.append([t.app.mode, reveals in sys.modules, ' '.join(t.screen())])\n"
        "print(json.dumps(seen))\n"
        "sys.exit(0)"
    )
    seen = after_boot(script)
    ended = [i for i, (mode, _, words) in enumerate(seen) if mode == "over" and "GAME OVER" in words]
    assert ended and not seen[ended[0]][1], seen  # the game's end on the OLED, the reveal not imported yet
    assert seen[-1][0] == "seed" and "Hulk reaches 23 PVP and wins!" in seen[-1][2] + " " + seen[-1][2], seen[-1]
    assert "revealed" in seen[-1][2] and not seen[-1][1]  # the seed said; its module forgotten


def test_the_seal_moments_the_flow_loads_ahead_are_the_seals():
    from dicetower.ui import flow, sealing

    assert flow.SEAL_MOMENTS == sealing.STEPS


def test_a_kept_game_of_another_kind_is_named_on_the_start_menu_without_its_modules():
    """A Battlerealm game kept aside (replaced by a Battleworld one) is offered as "Bring back Battlerealm"
    after a power cut: read for its kind only, its heroes and turn stay out of the Battleworld game's heap."""
    then = (
        "t.wait(200)\n"  # its first save
        "t.presses('C bbbb c b c c c')\n"  # New Battleworld: yes, replace it (kept); one starting hero; cut
        "t.wait(200)\n"
        "for m in [m for m in sys.modules if m.startswith('dicetower.')]:\n"
        "    del sys.modules[m]\n"  # a power cut: the next boot starts with none of them
        "t = Table(root=t.root, keep_files=True)\n"
        "assert 'Bring back Battlerealm' in [label for label, _ in t.app.menus.start_items(t.app)]\n"
        "t.presses('c')\n"  # Resume Battleworld: its seal, read from flash, revealed
        "assert t.app.kind == 'battleworld' and t.app.mode == 'seed', t.screen()\n"
        "t.presses('c c')\n"  # past the seed; the new seal's cut
        "assert t.app.mode == 'play', t.screen()"
    )
    modules = loaded("c a a c c", then)  # New Battlerealm, two heroes, start; cut and play
    assert "dicetower.core.games.battleworld.tracker" in modules
    assert not modules & BATTLEREALM_ONLY


def test_a_game_set_up_on_the_tower_lets_go_of_the_set_ups_rows_and_presets():
    """Hold B's rows (ui/setup.py) and Champions' set-up (its presets too) are set-up only: released at the start."""
    modules = loaded("bc B bb c bbb c aa c")  # New Champions, hold B, P1 hero: She-Hulk, start
    assert "dicetower.core.games.champions.tracker" in modules
    assert not modules & {"dicetower.ui.setup", "dicetower.core.games.champions.setup"}


def test_champions_set_up_and_its_module_are_never_held_together():
    """Champions' set-up (26 KB with its module on the MicroPython VM) does not import the game's module:
    it comes at the press that starts the game, once the set-up's modules are let go."""
    script = (
        "t.wait(1000)\n"  # the count screen, idle: the set-up made ready
        "t.presses('B')\n"  # its rows
        "t.wait(1000)\n"
        "held = set(m for m in sys.modules if m.startswith('dicetower.'))\n"
        "assert t.screen()[1].startswith('Start the game'), t.screen()\n"
        "assert 'dicetower.core.games.champions.setup' in held and 'dicetower.ui.setup' in held, held\n"
        "assert 'dicetower.core.games.champions.tracker' not in held, held\n"
        "t.presses('c')\n"  # Start the game
        "assert t.app.mode == 'play' and t.app.kind == 'champions', t.screen()\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('dicetower.'))))\n"
        "sys.exit(0)"
    )
    modules = set(after_boot("t.presses('bc')\n" + script))
    assert "dicetower.core.games.champions.tracker" in modules
    assert not modules & {"dicetower.core.games.champions.setup", "dicetower.ui.setup"}


def test_the_start_menu_holds_the_board_read_but_not_the_checks_that_read_it():
    """Power-up's chain is let go once the device is up: the profile's checks (core/board_check.py) with
    startup.py and wiring.py; what stays is the Board the checks gave, with the board's own name."""
    held = after_boot(
        "print(json.dumps([sorted(m for m in sys.modules if m.startswith('dicetower.')), t.device.board.name]))"
    )
    modules, name = set(held[0]), held[1]
    assert "dicetower.core.board" in modules and name == "Raspberry Pi Pico"
    assert not modules & {"dicetower.core.board_check", "dicetower.startup", "dicetower.wiring"}, modules


def test_the_start_menus_screens_and_setup_json_reader_are_held_only_while_it_shows():
    """ui/menus.py and setup_files.py go once a game is played (setup.json written first) and come back with
    the start menu, which reads the last set-up's count at the press that chooses a game."""
    then = (
        "t.wait(500)\n"  # setup.json written at idle, then its reader let go
        "held = set(m for m in sys.modules if m.startswith('dicetower.'))\n"
        "assert not held & {'dicetower.ui.menus', 'dicetower.setup_files'}, held\n"
        "with open(t.root + 'setup.json') as f:\n"
        "    assert json.load(f)['united']['count'] == 3\n"
        "t.presses('C')\n"  # back to the start menu
        "assert t.screen()[0] == 'DICETOWER', t.screen()\n"
        "t.presses('bbb c b c')\n"  # New United (after Resume United): yes, replace it; the count it had
        "assert t.screen()[0] == 'New United' and t.app.count == 3, (t.screen(), t.app.count)\n"
        "t.presses('c')\n"
    )
    modules = loaded("bb c a c", then)  # New United, 4 players down to 3 (hold B's rows not opened), start
    assert "dicetower.core.games.united.tracker" in modules


def test_a_saved_battlerealm_games_modules_come_ahead_and_go_when_another_game_is_chosen():
    """Found saved at power-up, a Battlerealm game's modules are imported at idle (Resume is quick); a new
    game of another kind lets them go again."""
    then = (
        "t.presses('c')\n"  # Hulk rolls: the game is saved
        "t.wait(2000)\n"
        "for m in [m for m in sys.modules if m.startswith('dicetower.')]:\n"
        "    del sys.modules[m]\n"  # a power cut
        "t = Table(root=t.root, keep_files=True)\n"
        "t.wait(2000)\n"  # the start menu, idle: Resume Battlerealm offered
        "order = t.app.scopes['battlerealm'].held\n"
        "assert 'dicetower.core.games.battlerealm.turn' in order and 'dicetower.ui.battlerealm' in order, order\n"
        "t.presses('bb c b c c')\n"  # New Champions (after Resume, New Battlerealm): yes, replace it; start
        "assert t.app.kind == 'champions', t.app.kind"
    )
    modules = loaded("c a a c c", then)  # New Battlerealm, two heroes, start; cut and play
    assert "dicetower.core.games.champions.tracker" in modules
    assert not modules & BATTLEREALM_ONLY, modules & BATTLEREALM_ONLY


def test_a_saved_lucky_game_loads_the_advice_at_power_up_and_lets_it_go_with_the_work_arrays():
    """Found saved at power-up with a Lucky hero seated (the save has the heroes: no heroes.json), a
    Battlerealm game has its work arrays and all of the advice loaded first, before the device (launch.py's
    boot: on a Pico, loaded at idle after a quick press had resumed the game, Lucky's search found no block
    for its code); its read adopts them, and while a game of another kind is set up, the game kept to resume
    forgets them all (the advice first: it holds the work arrays, which would otherwise stay on the heap and
    be made a second time)."""
    script = (
        "t.app.options['heroes'] = [\n"  # as wiring.py reads a heroes.json
        "    {'name': 'Ant-Man', 'pvp': 10, 'abilities': ['Lucky'], 'primary': '', 'cards': []},\n"
        "    {'name': 'Wasp', 'pvp': 10, 'abilities': [], 'primary': '', 'cards': []}]\n"
        "t.presses('c a a c c c')\n"  # New Battlerealm, two heroes, start; cut and play; Ant-Man rolls: saved
        "t.wait(2000)\n"
        "for m in [m for m in sys.modules if m.startswith('dicetower.')]:\n"
        "    del sys.modules[m]\n"  # a power cut; no heroes.json on this tower
        "from dicetower import launch\n"
        "first = launch._saved_battlerealm(t.root)\n"  # boot's first step (launch.boot), then the device
        "B = 'dicetower.core.games.battlerealm.'\n"
        "ADVICE = ('work_arrays', 'ranks', 'keeps', 'lucky_tables', 'lucky', 'advisor')\n"
        "booted = [m for m in ADVICE if B + m in sys.modules]\n"
        "t = Table(root=t.root, keep_files=True)\n"
        "t.wait(3000)\n"  # the start menu, idle: Resume Battlerealm offered
        "kept = [m for m in ADVICE if B + m in sys.modules]\n"
        "t.presses('bb c b c')\n"  # New Champions (after Resume, New Battlerealm); yes, a new game: its count
        "t.wait(2000)\n"
        "left = [m for m in ADVICE if B + m in sys.modules]\n"
        "print(json.dumps([list(first), booted, kept, left, t.app.resume is not None]))\n"
    )
    first, booted, kept, left, resumable = after_boot(script)
    advice = ["work_arrays", "ranks", "keeps", "lucky_tables", "lucky", "advisor"]
    assert first == advice, first  # loaded before anything else, in the order they import one another
    assert booted == advice and kept == advice, (booted, kept)
    assert left == [], left  # the read adopted them: the kept game's, set aside with it
    assert resumable  # still kept to resume


def test_only_a_game_that_advises_holds_the_advisors_work_arrays():
    """The work arrays (7.4 KB: core/games/battlerealm/work_arrays.py) are made by no game but Battlerealm: none in a Champions
    game, and a Battlerealm game chosen after it makes them while its set-up screen waits: its advice comes."""
    then = (
        "assert 'dicetower.core.games.battlerealm.work_arrays' not in sys.modules\n"
        "t.presses('C b c b c')\n"  # the start menu; New Battlerealm: yes, replace the Champions game
        "assert 'dicetower.core.games.battlerealm.work_arrays' in sys.modules, t.screen()\n"  # made while the set-up waits
        "t.presses('c c c'); t.wait(2000)\n"  # four heroes; cut and play; Hulk rolls
        "assert t.screen()[5].startswith('Any card '), t.screen()\n"
    )  # the advice, with its chance
    modules = loaded("b c c", then)  # New Champions, start
    assert "dicetower.core.games.battlerealm.work_arrays" in modules


def test_a_roster_with_a_lucky_hero_has_lucky_search_loaded_first_while_the_heap_is_whole():
    """Lucky's search is machine code, a block of the heap a function (4 KB the largest): loaded as the
    game began, a Pico's heap just rid of the set-up had no block over 1.9 KB (benchmarks/vm/loop_probe.py's
    Lucky game ran out of memory). A heroes.json with a Lucky hero has it loaded right after the work
    arrays and what the ranks it reads import, before the rest of the game's modules, one a pass."""
    script = (
        "t.app.options['heroes'] = [\n"  # as wiring.py reads a heroes.json
        "    {'name': 'Ant-Man', 'pvp': 10, 'abilities': ['Lucky'], 'primary': '', 'cards': []},\n"
        "    {'name': 'Wasp', 'pvp': 10, 'abilities': [], 'primary': '', 'cards': []}]\n"
        "came = []\n"
        "tick = t.device.tick\n"
        "def counted(now):\n"
        "    had = set(sys.modules)\n"
        "    pause = tick(now)\n"
        "    came.extend(m for m in sys.modules if m not in had and m.startswith('dicetower.core.games.'))\n"
        "    return pause\n"
        "t.device.tick = counted\n"
        "t.presses('c')\n"  # New Battlerealm: its modules at idle
        "t.wait(3000)\n"
        "print(json.dumps(came))\n"
    )
    came = [name.rpartition(".")[2] for name in after_boot(script)]
    assert came[:6] == ["battlerealm", "work_arrays", "triples", "cards", "ranks", "lucky_tables"], came
    assert came.index("lucky_tables") < came.index("tracker")


def test_the_start_menus_screens_are_forgotten_while_a_game_is_set_up_and_come_back_with_it():
    """ui/menus.py (the start menu, Settings, the heroes' editor...) is not held beside a set-up's form: a
    United set-up's was the example's highest heap on a Pico (tests/heap_budget.py). Hold C goes back
    to the start menu, which loads it again; the count screen (ui/choosing.py) stays throughout."""
    script = (
        "t.presses('bb c')\n"  # New United: its count screen
        "t.wait(1000)\n"  # its set-up made ready at idle
        "t.presses('B')\n"  # hold B: the set-up's form
        "assert t.app.mode == 'form', t.app.mode\n"
        "setting = 'dicetower.ui.menus' in sys.modules, 'dicetower.ui.choosing' in sys.modules\n"
        "t.presses('C C')\n"  # back to the count, then the start menu
        "assert t.screen()[0] == 'DICETOWER', t.screen()\n"
        "print(json.dumps([setting, 'dicetower.ui.menus' in sys.modules]))\n"
        "sys.exit(0)"
    )
    assert after_boot(script) == [[False, True], True]


# Each game's count screen as the press that chooses it draws it: its title, what it counts, its hold-B line.
COUNT_SCREENS = {
    "battlerealm": ("New Battlerealm", "Players (2-6):", "Hold B: pick the heroes"),
    "champions": ("New Champions", "Players (1-4):", "Hold B: heroes, villain.."),
    "united": ("New United", "Players (1-6):", "Hold B: mode, villain.."),
    "battleworld": ("New Battleworld", "Starting heroes (1-5):", ""),
}


@pytest.mark.parametrize("kind", GAMES)
def test_the_press_that_chooses_a_game_imports_nothing_and_idle_passes_bring_its_modules(kind):
    """The count screen comes from the games' registry (its line in core/games/__init__.py): the press that
    chooses a game imports nothing, nor does the count screen's drawing, which comes before any idle pass
    (on a Pico the descriptor's import kept the buttons waiting 26 ms; Champions' tracker alone is 87 ms).
    The loop's idle passes import the descriptor, then what it names, then the set-up, while the count
    screen waits."""
    script = (
        "t.wait(1000)\n"
        "seen = []\n"
        "def watched(work):\n"  # the modules a call imported
        "    def call(*args):\n"
        "        before = set(sys.modules)\n"
        "        work(*args)\n"
        "        seen.append(sorted(m for m in set(sys.modules) - before if m.startswith('dicetower.')))\n"
        "    return call\n"
        "t.app.press = watched(t.app.press)\n"
        "t.device.render = watched(t.device.render)\n"
        "t.presses(%r)\n"  # to New <kind> and choose it
        "drawn = t.screen()\n"
        "t.wait(1000)\n"  # the count screen waits
        "print(json.dumps([seen, drawn[0], drawn[2], drawn[7], sorted(sys.modules)]))\n"
        "sys.exit(0)"
    ) % ("b" * GAMES.index(kind) + "c")
    seen, title, counting, hold_b, modules = after_boot(script)
    assert len(seen) >= 2 * (GAMES.index(kind) + 1)  # each press and at least its screen's drawing
    assert seen == [[]] * len(seen)
    assert (title, counting, hold_b) == COUNT_SCREENS[kind]
    package = "dicetower.core.games." + kind
    assert package in modules  # its descriptor, then what it names, at idle
    ahead = set(games.ahead_of(kind))  # its package's, and firmware modules they import (dotted names)
    assert ahead <= set(modules), ahead - set(modules)
    if games.setup_of(kind) is not None:
        assert games.setup_of(kind) in modules  # made ready at idle


def test_a_module_two_games_share_stays_the_one_the_game_started_holds():
    """core/names.py, which United's tracker and Champions' play menu both import, is loaded by the United
    game played first; Champions, chosen then, finds it loaded. When Champions starts and United's modules
    are forgotten, it stays: forgotten with them, it would be imported again, a second copy on the heap
    beside the one Champions' modules hold, in the pass that starts the game."""
    script = (
        "t.presses('bbc')\n"  # New United: its count screen
        "t.wait(2000)\n"
        "t.presses('c')\n"  # start it
        "t.wait(2000)\n"
        "assert t.app.kind == 'united' and t.app.mode == 'play', t.screen()\n"
        "names = sys.modules['dicetower.core.names']\n"
        "t.presses('C bbc bc')\n"  # the start menu, New Champions: yes, a new game (United kept)
        "t.wait(2000)\n"
        "t.presses('c')\n"  # start it, as set up
        "t.wait(2000)\n"
        "print(json.dumps([t.app.kind, t.app.mode, sys.modules.get('dicetower.core.names') is names,\n"
        "    'dicetower.core.games.united.tracker' in sys.modules]))\n"
    )
    assert after_boot(script) == ["champions", "play", True, False]


def test_a_set_up_fetched_for_a_game_not_played_is_let_go_when_another_starts():
    """Champions chosen (its set-up fetched at idle), then United instead: once United starts, neither game's
    set-up module is held."""
    modules = loaded("b c C bb c c")  # New Champions; back; New United; start
    assert "dicetower.core.games.united.tracker" in modules
    assert not modules & {
        "dicetower.core.games.champions.setup",
        "dicetower.core.games.united.setup",
        "dicetower.ui.setup",
    }


def test_the_press_that_ends_a_sealed_game_imports_only_the_reveal():
    """The winning press reveals the game's seed (ui/revealing.py) and seals nothing after it: it loads the
    reveal alone, not the new seal's moments and their cut's screen (ui/resealing.py), and forgets it once
    shown (on a Pico the whole of the seal's moments was a 49 ms import in that press)."""
    script = (
        "t.presses('caac c cac c bcccc bbbbbbbbbc cac c bbbbc c bbbbbbbbbbb')\n"  # examples/battlerealm.sim
        "from dicetower.core.scope import Scope\n"
        "imported = []\n"
        "load = Scope.load\n"
        "Scope.load = lambda self, name: (name in sys.modules or imported.append(name), load(self, name))[1]\n"
        "t.presses('c')\n"  # Hulk +12 PVP: he reaches 23 and wins
        "Scope.load = load\n"
        "assert t.app.game.over() and t.app.mode == 'seed', t.screen()\n"
        "assert [e['event'] for e in t.events()][-2:] == ['over', 'reveal'], t.events()[-2:]\n"
        "assert not {'dicetower.ui.revealing', 'dicetower.ui.resealing'} & set(sys.modules)\n"
        "print(json.dumps(sorted(m for m in imported if m.startswith('dicetower.'))))\n"
    )
    assert after_boot(script) == ["dicetower.ui.revealing"]


def test_a_game_brought_back_and_resumed_keeps_its_seal():
    """A seal's moments (ui/resealing.py) are loaded and forgotten around each cut; the sealed dice they
    work on are the tower's for as long as it runs. Once, a Battleworld game brought back took them into
    the moments' scope, which forgot core/sealed.py under the live seal: at Resume the tower no longer
    knew its own seal and sealed the game afresh, its thrown coin under a seal never revealed. The seal
    a game is resumed with is the one its throws were drawn under."""
    script = (
        "t.presses('bbbc c c')\n"  # New Battleworld, one starting hero, start; cut and play
        "t.presses('C bbc bc c')\n"  # the start menu; New Champions (after Resume): replace it; start
        "assert t.app.kind == 'champions', t.screen()\n"
        "t.wait(500)\n"  # its save written
        "for m in [m for m in sys.modules if m.startswith('dicetower.')]:\n"
        "    del sys.modules[m]\n"  # a power cut
        "t = Table(root=t.root, keep_files=True)\n"
        "t.wait(2000)\n"
        "items = [label for label, _ in t.app.menus.start_items(t.app)]\n"
        "t.presses('b' * items.index('Bring back Battleworld') + 'c')\n"
        "t.presses('c c')\n"  # past what the seal says of the game it brought back; the cut
        "assert t.app.kind == 'battleworld' and t.app.mode == 'play', t.screen()\n"
        "sealed = [e['commitment'] for e in t.events() if e['event'] == 'seal']\n"
        "t.presses('bc')\n"  # the Danger Coin: a throw under the seal
        "told = len(t.events())\n"
        "t.presses('C c')\n"  # the start menu; Resume Battleworld
        "assert t.app.kind == 'battleworld' and t.app.mode == 'play', t.screen()\n"
        "again = [e for e in t.events()[told:] if e['event'] in ('seal', 'reveal')]\n"
        # Resume says the seal it goes on with (its draws so far); not a new one, nor a reveal.
        "assert [(e['event'], e['commitment'], e['drawn']) for e in again] == [('seal', sealed[-1], 1)], again\n"
        "assert t.app.sealing.dice.commitment == sealed[-1], (t.app.sealing.dice.commitment, sealed)\n"
        "print(json.dumps([]))\n"
    )
    assert after_boot(script) == []


def test_a_games_tracker_is_imported_once_whoever_asks_for_it_first():
    """What a game's set-up imports of its tracker (United's heroes) is the game's scope's, loaded ahead
    of the set-up, not the set-up's, which is forgotten when the game starts: the start press imported
    United's tracker a second time. A kept game brought back while a set-up of its kind waited was read
    with the set-up's copy, then played with another: its game was no instance of its own tracker."""
    script = (
        "t.presses('bbc')\n"  # New United: its tracker and set-up come at idle
        "t.wait(2000)\n"
        "first = sys.modules['dicetower.core.games.united.tracker']\n"
        "t.presses('c')\n"  # start
        "assert t.app.kind == 'united' and t.app.mode == 'play', t.screen()\n"
        "assert sys.modules['dicetower.core.games.united.tracker'] is first\n"
        "assert isinstance(t.app.game, first.TRACKER)\n"
        "t.presses('C bbbc bc c')\n"  # the start menu; New United (after Resume): replace it; start
        "t.presses('C bbbc bc')\n"  # again, to its count: the replaced game is kept, a set-up waits
        "t.wait(2000)\n"  # its set-up made ready
        "t.presses('C')\n"  # back to the start menu: the replaced game is offered back
        "items = [label for label, _ in t.app.menus.start_items(t.app)]\n"
        "t.presses('b' * items.index('Bring back United') + 'c')\n"
        "assert t.app.kind == 'united' and t.app.mode == 'play', t.screen()\n"
        "assert isinstance(t.app.game, t.app.game_module.TRACKER)\n"
        "assert t.app.game_module is sys.modules['dicetower.core.games.united.tracker']\n"
        "print(json.dumps([]))\n"
    )
    assert after_boot(script) == []
