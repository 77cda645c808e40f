"""The firmware's live heap on the MicroPython VM, from the files `dicetower flash` sends, and its budget.

Shared by tests/test_heap_budget.py (CI: no peak over its ceiling) and benchmarks/vm_heap.py (the
figures, and the gap to the targets). tests/heap_probe.py runs on the VM (WebAssembly, a 32-bit
machine like the RP2040: objects and bytecode take the same bytes) with the firmware compiled as
`dicetower flash` compiles it for a bytecode-only board (`flash.compile_firmware`: .mpy, main.py as
source, microdot for a board with Wi-Fi), and prints the live heap after each press's collection. The
VM has no native emitter: the advisor's Viper passes (and the Lucky tables' native code) are bytecode
here, where a Pico holds their machine code (2.3 KB more for ranks, keeps and advisor, 6.9 KB more
for a Lucky hero's tables: the emulated RP2040's figures count it).

From the VM's figure to a board's free heap: the chip's free heap at boot, less what the firmware
holds there. The VM's figure counts a little the chip does not hold (the bench's table.py and
tower.py, compiled from source, and the virtual parts' objects), so

    free on the chip  ~=  FREE_AT_BOOT[board] - (VM live - VM_OVER)

VM_OVER is set from pairs measured at the same firmware (694947e), the emulated RP2040's figure (`python3
tasks.py bench rp2040_pico`, in docs/performance.md) beside the VM's (`python3 tasks.py bench vm_heap`),
the chip's "used" being its free heap at boot (241,984 B) less its free heap then:

    the device at its start menu     VM 109,104   chip used 100,608   VM over by  8,496
    scripted 4-player Battlerealm    VM 154,976   chip used 135,104   VM over by 19,872
    scripted 4-player Champions      VM 148,768   chip used 128,720   VM over by 20,048
    scripted 4-player United         VM 120,144   chip used 109,056   VM over by 11,088
    scripted 4-player Battleworld    VM 134,256   chip used 114,256   VM over by 20,000

and, on a Pico W (RPI_PICO_W, 201,264 B free at boot; `rp2040_pico --board pico_w`), the scoreboard made:

    the device at its start menu     VM 154,928   chip used 131,616   VM over by 23,312
    scripted 4-player Battlerealm    VM 192,080   chip used 177,216   VM over by 14,864

The VM always holds more (the bench's own parts, and its table of names grows in other steps than the
chip's, whose firmware names many words in flash; a part of that table is a block of up to 7.7 KB, so
the gap moves with where each crosses a part's end): the smallest gap is taken, so a figure the VM keeps
under a budget is kept on the chip with room to spare.
"""

import json
import os
import subprocess
import tempfile

from dicetower_host import flash, paths

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = os.path.join(ROOT, "tests", "heap_probe.py")
EXAMPLES = tuple(name for _, name in paths.games())  # examples/NAME.sim, one a game (the registry's)
BOARDS = ("pico", "pico_w", "pico_w+phones")  # +phones: four phones follow the game live, two read it

# gc.mem_free() at boot on MicroPython's stock v1.27.0 firmware, emulated RP2040 (benchmarks/
# rp2040_pico.py's "heap free at boot", RPI_PICO; with --board pico_w, RPI_PICO_W, its radio off).
FREE_AT_BOOT = {"pico": 241984, "pico_w": 201264, "pico_w+phones": 201264, "pico2_w+phones": 452976}
# A Pico 2 W's (RPI_PICO2_W) is not measured: rp2040js emulates no RP2350. It is its heap less what the
# Pico W's firmware holds at boot. The heap is what v1.27.0's ports/rp2/main.c gives gc_init, from
# __GcHeapStart to __GcHeapEnd in the built firmware.elf (arm-none-eabi-nm): 210,152 B on RPI_PICO_W,
# 467,764 B on RPI_PICO2_W, less py/gc.c's tables (about 1/44: 205,312 and 457,024 B of blocks); the
# Pico W's boot holds 205,312 - 201,264 = 4,048 B of them, and the two boot the same code (main.c
# differs only in a header), so 457,024 - 4,048. Only benchmarks/vm_heap.py prints it: no ceiling.
# What a board must keep free through every game: the project's targets (docs/performance.md).
TARGET_FREE = {"pico": 100000, "pico_w": 64000, "pico_w+phones": 48000, "pico2_w+phones": 48000}
VM_OVER = 8496  # B: the smallest of the pairs above

# The most live heap (B) each example may reach on the VM: today's peaks with room for small changes
# (about 2 KB), or the target's budget where the peak is within it already. A change that grows the
# firmware's heap past one fails CI; one that shrinks it should lower the figure here (the benchmark
# prints the peaks). The ceilings come down to target_budget() as the heap is won back.
CEILING = {
    "pico": {"boot": 115300, "battlerealm": 196900, "champions": 146200, "united": 134900, "battleworld": 141500},
    "pico_w": {"boot": 165600, "battlerealm": 239400, "champions": 188800, "united": 176100, "battleworld": 183500},
    "pico_w+phones": {
        "boot": 181500,
        "battlerealm": 257300,
        "champions": 206500,
        "united": 191000,
        "battleworld": 203500,
    },
}
# Raised at issue 45 (sealed dice, version 2) to about 1 KB over the peaks `tasks.py bench vm_heap` printed
# at d88a3e5 (boot 111,344, Battlerealm 193,888; Pico W's Battleworld 180,464), measured beside af7d291's
# (boot 109,344-109,952 then; Battlerealm 189,792; Pico W's Battleworld 175,616): a game's places and the dice landed at them (core/game.py,
# resident: +0.85 KB of .mpy), the cut's hook (ui/flow.py), the places of a Battlerealm roll (core/games/battlerealm/roll.py)
# and, in a game of dice, the record's headers; the seal's moments (ui/resealing.py) are let go once cut.
# Raised at issue 46 to about 1 KB over the peaks at dbd161a beside 9925b74 (Pico: boot 112,496-113,040
# from 111,536-112,096, Battlerealm 194,976 from 194,784; Pico W: boot 160,432-160,992 from
# 159,504-160,048, Battlerealm 234,704, Champions 183,888, United 172,816, Battleworld 181,504, each
# 0.6-1 KB up): the loop's own guard, resident because it catches what fails (device.py's recovery,
# one-line error and restart count, App.recover, the RP2040-Zero's doubt), +0.5 KB of .mpy and 23
# names; what it says at a restart and boot's sweep of .tmp files are startup.py's, boot's module.
# United's peak moved from its play to its set-up form at 9925b74 (VM: 126,016 -> 133,168 B on the Pico,
# at the form; its play 126,464): the set-up's checks before the form goes (ui/setup.py, the set-up
# modules) brought enough new names that the VM's qstr pool doubles (one 9 KB block, `micropython.
# mem_info`) while the form shows instead of at the game's start. The pool is kept for ever either way;
# only the moment it grows moved, and with it the form's own 11 KB now beside it.
# Pico W's raised at issue 47 to about 1 KB over its peaks, measured beside the same tree with 8d02ed4's
# web/ (boot 160,448-161,040 -> 162,304-162,832; Battlerealm 234,688 -> 236,448, Champions 183,888 ->
# 185,680, United 172,800 -> 174,608, Battleworld 181,520 -> 183,296: +1.8 KB): the server's places and
# pace per address, the Host and Origin checks, the answers' framing headers and the page's policy
# (+1.7 KB of .mpy; the policy's hashing is web/policy.py, let go once done, and the PIN guard
# web/guard.py, loaded at a tower's first press with a PIN: the examples set none).
# Raised at issue 48 (the structure is the load unit) to about 1 KB over the peaks, measured beside
# c3f523d with the same probe (Pico: boot 113,584 -> 115,152, Battlerealm 195,728 -> 199,056, Champions
# 145,120 -> 146,208, United 134,768 -> 136,912, Battleworld 143,232 -> 145,568; Pico W: boot 163,360 ->
# 164,704, Battlerealm 237,200 -> 240,240, Champions 186,464 -> 187,456, United 175,312 -> 177,184,
# Battleworld 184,032 -> 186,288; the margins are 0.2-0.5 KB, not 1): core/scope.py, resident (1.6 KB on the VM: what the six hand-kept ways
# to forget a module cost in other modules, now one class), a game's descriptor while it is played
# (0.5-1 KB: its package's __init__), the longer module names of a game's package in the VM's table of
# names (about 0.8 KB for Battlerealm's 13), and the functions C901 split (0.4 KB); against them the
# registry without its COUNTS (-1.2 KB at boot) and three modules merged back (Champions' rules and
# allies, Battlerealm's powers, the paused dice).
# Then at issue 48's screens as classes (ui/screens.py's Screen; ui/modes.py and its table gone) and the
# names only their module reads made private const()s: the start menu's boot 0.3 KB up, the examples'
# peaks 0.2-1.0 KB down (Pico: boot 115,152 -> 114,736-115,424, Battlerealm 199,056 -> 198,256,
# Champions 146,208 -> 144,976, United 136,912 -> 136,640, Battleworld 145,568 -> 144,848; Pico W:
# boot 164,704 -> 164,432-165,056, Battlerealm 240,240 -> 239,840): Battlerealm's ceilings lowered, the
# boot's raised by 0.3 KB over its peak (the start menu's screens are nine classes where one was).
# Then the action picker (ui/picker.py) loaded with a chosen game, not at boot: the start menu's boot
# 1.3-1.5 KB down (Pico 114,736-115,424 -> 113,376-114,064; Pico W 164,432-165,056 -> 162,960-163,648),
# the peaks as before (every game holds the picker): the boot's ceilings lowered.
# Raised at issue 49 (the whole game on the 128x64 screen) to about 0.5 KB over the peaks, measured beside
# the tree before it (Pico: boot 113,376-114,064 -> 113,776-114,464, Battlerealm 198,368 -> 199,088,
# Champions 145,088 -> 146,144, United 136,736 -> 137,248, Battleworld 144,880 -> 145,616; Pico W: boot
# 162,960-163,648 -> 163,328-164,016, Battlerealm 239,920 -> 240,736, Champions 186,400 -> 187,600,
# United 177,280 -> 177,872): the play menu's The table row and its screen's loader (the screen and each
# game's table.py are loaded only while it is made), the cut mark on every cut line, the pickers' own
# hints and their ten-at-a-time hold, Champions' game areas named by their players and its question
# before a standing villain is replaced, Battleworld's "+3 more" line.
# Then the start menu's screens (ui/menus.py) forgotten while a game is counted and set up: United's
# peak, at its set-up's form, 137,248 -> 132,080 on the Pico and 177,872 -> 172,768 on the Pico W (its
# ceiling lowered); the others' peaks are in play, 0.1-0.2 KB up (App.menus_aside).
# Raised again at issue 49 to about 0.5 KB over the peaks, measured beside acae876 (Pico: boot
# 113,936-114,624 -> 114,352-115,040, Battlerealm 199,296 -> 200,592, Champions 146,336 -> 147,840,
# United 132,080 -> 133,824, Battleworld 145,712 -> 145,936; Pico W: boot 163,472-164,160 ->
# 163,888-164,576, Battlerealm 240,912 -> 242,192, Champions 187,728 -> 189,328, United 172,768 ->
# 174,288, Battleworld 186,576 -> 186,912): names told apart (core/names.py, loaded with a game: 0.7 KB
# of it was at boot in core/game.py), the attack's FOE kind, The table's help part, United's and
# Champions' pickers that refuse before they ask, the count screen's summary of what C starts (each
# set-up's `summary`), a refused JSON file's line and column (core/json_at.py, loaded only then), the
# Notice that goes back to the set-up it interrupted. The Pico W's United then 174,976 (the count screen's
# summary drawn at the set-up's form): its ceiling 175,500. Then, at f55fa37, about 0.5 KB over the peaks
# (Pico: boot 114,784-115,296, Battlerealm 200,960, Champions 148,448; Pico W: boot 164,320-164,832,
# Battlerealm 242,640, Champions 189,936, Battleworld 187,376): Champions' own game areas from the
# set-up (state["own"], its check, the set-up's rows), the count screen's summary. The Pico W's United
# then 175,312 at faf5c5f (0.3 KB more at its set-up's form; not traced further): its ceiling 175,900.
# Battlerealm's at e93d217, 201,456 (Pico) and 243,104 (Pico W): a die that paid a card expended
# (triples.Outcome.expend and the option lines it says again, +0.5 KB): ceilings 202,000 and 243,600.
# Then at fe8638f an Attack's source (the dice left, "dice" in the state, the picker's list): Battlerealm
# 202,480 (Pico) and 244,000 (Pico W), ceilings 202,800 and 244,400.
# Raised at issue 50 for the Pico W's memory guard (web/server.py's `short`, its floor and its line:
# boot 165,008-165,600, Battlerealm 244,832, Champions 190,864, United 175,952, Battleworld 188,384,
# about 0.5 KB each) to about 0.5 KB over them. And a ceiling for the Pico W with phones: four following
# live and two reading /state (tests/fw/phones.py), each served after every step: boot 177,872-178,528,
# Battlerealm 262,640, Champions 207,888, United 191,712, Battleworld 204,928 on the VM (+13 KB at boot,
# +16-18 KB at the peaks): about 18 KB free on a Pico W in United and none in Battlerealm, far under its
# 48,000 B target; web/server.py's FLOOR sheds them first.
# Champions' on the Pico then 149,120 (a441a28: each press's edge time kept for the dice, a save's bytes
# made in three pieces, about 0.2 KB): its ceiling 149,600.
# Battlerealm's then 202,928 (Pico), 245,520 (Pico W) and 263,136 (with phones), 36-220 B over: the
# advisor's Viper passes (ranks.py's _spread_rows, keeps.py's _best_rows and _top_rows), bytecode on the
# VM, and their work arrays as array("i"); ceilings 203,400, 246,000 and 263,600. On a Pico they are
# machine code, 2.3 KB more than the bytecode was (benchmarks/rp2040_pico.py counts it).
# Ratcheted down at 1ac0e7a to about 0.6 KB over the peaks `benchmarks/vm_heap.py` printed: the Pico's
# United 147,920 -> 135,700 (its peak 135,040, at its set-up's form) and Battleworld 147,920 -> 147,700
# (147,024): their ceilings were the old shared figure, 12.9 and 0.9 KB over.
# Raised at issue 50 where the dice's kernels went over (Viper on a board: the health tests' and the
# start-up test's loops, core/health.py resident, +0.2 KB of bytecode; the dice made `later`, to start
# once the start menu shows, +0.1 KB), measured beside ff972d4: boot 112,912-113,504 -> 113,216-113,696,
# United 132,864 -> 133,264 (Pico), 173,984 -> 174,400 (Pico W), 189,456 -> 189,856 (with phones);
# Battleworld 184,560 -> 184,864 (Pico W), 203,248 -> 203,584 (with phones); Battlerealm with phones
# 261,040 -> 261,472. A Pico's boot to its start menu went 1,329 -> 939 ms for them.
# Raised again at issue 50 for saves written over in place on LittleFS (hw/storage.py: which filesystem
# "/" is, asked once, and a write without a rename; resident, +0.1-0.2 KB), measured beside 8160ac9: boot
# 113,888-113,968 (Pico), 177,440 (with phones); Battleworld 143,328, 185,152, 203,856; United 133,536,
# 174,704, 190,144; Battlerealm 201,776 (Pico), 244,096 (Pico W), 261,744 (with phones); Champions with
# phones 206,592. On the chip a throw's save, which its faces wait for, went 57 -> 34 ms in Battlerealm's
# example (the write and the rename 31.7 -> 7.5 ms). Then a save's coding with its builtins as locals
# (core/savefile.py's renamed, 64 B more of code): Pico W boot 164,496, Champions 189,568, United with
# phones 190,784. The collector is conservative: a word of the dice's bytes that reads as an address keeps
# what it points to, so a few bytes of code moved the figures by up to 7.7 KB in one variant of that
# change (Battleworld with phones at 184,160), which was not kept. Then the canvas's glyphs copied by a
# Viper pass (ui/canvas.py's _copy, bytecode here): Battlerealm 244,496 (Pico W), 262,112 (with phones),
# Champions with phones 207,072. On the chip a Result screen's drawing went 15.2 -> 10.4 ms. Then a
# throw's console lines told after its screen (ui/flow.py's tell_held): the Pico's boot 114,224, and
# Battleworld with phones 204,080 (`benchmarks/vm_heap.py` at 6cb1401). Then which filesystem "/" is
# asked safely on MicroPython 1.23-1.24 and the glyphs' bounds checked before the Viper copy: Pico
# Battlerealm 202,176, United 133,808, Battleworld 143,584; Pico W United 174,992, Battleworld 185,472;
# with phones Battlerealm 262,336, and Champions' start menu and peak 181,216 and 210,304 where they
# were 177,648 and 206,768: the same firmware but for those 0.2 KB of code, the same phones' bytes, 3.5
# KB more held from boot on. With phones the figures swing by a few KB as code moves (the conservative
# collector, above): their ceilings carry that much, the Pico's and the Pico W's about 0.3 KB.
# Lowered where a game saves: the save's shared tables give a name's number, and each code is made as a
# save first writes it and kept (core/savefile.py's _MADE), instead of holding all 118 as strings (5.0 KB
# of a Pico's heap through a game, now 1.1 KB and the codes a game writes: 26 in Battlerealm's example,
# 1.2 KB), for 0.3 KB more of code at the start menu (`benchmarks/vm_heap.py`): Pico Battlerealm 202,176
# -> 199,776, Champions 147,408 -> 144,864, Battleworld 143,584 -> 140,656, United 134,256 (its peak comes
# before its first save); Pico W Battlerealm 242,080, Champions 187,136, United 175,376, Battleworld
# 182,656; with phones Battlerealm 259,840, Champions 204,288, Battleworld 201,328.
# Raised for a sealed game's record kept as text between saves (core/sealed.py's text: every save wrote it
# afresh, 0.7 ms a throw on the chip, 144 ms at 200 throws; about 1.5 B a record byte held) and core.names
# and ui.icons loaded in idle passes of their own (each game's AHEAD): Battlerealm 200,144 (Pico), 242,752
# (Pico W), 260,448 (with phones); the others 16-224 B up (`benchmarks/vm_heap.py` at b48a1c5 and after).
# Then Champions' play menu a module of its own (core/games/champions/menu.py, its STARTS: loaded in a pass
# before its tracker's, which was 97 ms on the chip, now 55 and 68 ms): Champions 145,776 (Pico) and
# 188,304 (Pico W), a module's own cost (its dict, its names); the start's queue and the set-up's prepare
# (ui/choosing.py, ui/flow.py): boot 114,848-114,928, United 175,728 (Pico W), Battleworld 141,088 and
# 183,056. Then the roster read a hero a pass and a shared module handed to the game chosen (ui/flow.py's
# set_aside): Battlerealm 200,704 (Pico), United 134,624 (Pico). The Pico W's boot seen at 165,056-165,280 in
# runs of the same tree: its ceiling 165,600.
# Ratcheted down where a set-up reads only what play uses of the built-in roster (its notes, primary powers'
# text and cards without dice let go as read: 16.4 -> 4.7 KB on the VM while it is set up) and the Lucky
# search comes ahead for a roster with a Lucky hero: Battlerealm 200,016 (Pico), 242,480 (Pico W), 260,224
# (with phones), its peak in play, not at the set-up (`benchmarks/vm_heap.py` at 6399095).
# Ratcheted down where a game with no Lucky hero makes four of the advisor's work arrays, not seven (the
# three only the search with Lucky uses are lucky_tables.py's, 3.9 KB): Battlerealm 196,256 (Pico), 238,512
# (Pico W), 256,304 (with phones); on the chip its example's lowest went 54,736 -> 58,688 B (rp2040_pico at
# dc1e37f). Then a saved game with a Lucky hero seated given its advice at power-up (launch.py; the read adopts
# the descriptor's set_aside, now listed whole): Battlerealm 196,496, 238,896, 256,704 (`benchmarks/vm_heap.py`
# at c7ba0cf), the Pico W's ceilings about 0.5 KB over them.


def target_budget(board):
    """The VM live heap at which the board would keep its TARGET_FREE."""
    return FREE_AT_BOOT[board] - TARGET_FREE[board] + VM_OVER


_flashed = {}


def flashed(board):
    """A folder holding what `dicetower flash` sends a board of this profile (made once a process)."""
    if board not in _flashed:
        with open(paths.board_profile(board)) as f:
            profile = json.load(f)
        files = flash.compile_firmware(None, profile=profile, extra=flash.libraries(profile))
        folder = tempfile.mkdtemp(prefix="dicetower-heap-%s-" % board)
        for rel, data in files.items():
            path = os.path.join(folder, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        _flashed[board] = folder
    return _flashed[board]


_measured = {}


def measure(board, kind, name):
    """`_measure`, once a process for each game (a VM run is seconds; several tests read one)."""
    if (board, kind, name) not in _measured:
        _measured[board, kind, name] = _measure(board, kind, name)
    return _measured[board, kind, name]


def _measure(board, kind, name):
    """{"boot": B, "peak": B, "at": step, "steps": n, "kind": the game in play at the end, "held_boot" and
    "held_end": the firmware's modules held at the start menu and at the end}: one game on the VM (kind "examples": examples/NAME.sim
    pressed step by step; "games": tests/fw/scripted_games.py's NAME through the core)."""
    board, _, phones = board.partition("+")
    mounts = [
        (flashed(board), "/fw"),
        (os.path.join(ROOT, "tests", "fw"), "/tests"),
        (paths.BOARDS, "/boards"),
        (paths.VIRTUAL_PARTS, "/virtual"),
        (os.path.join(ROOT, "examples"), "/examples"),
    ]
    done = subprocess.run(
        paths.vm_command(PROBE, board, kind, name, *([phones] if phones else []), mounts=mounts),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    if done.returncode != 0:
        raise RuntimeError("the VM run failed (%s %s %s):\n%s" % (board, kind, name, done.stderr[-3000:]))
    out = {}
    for line in done.stdout.splitlines():
        words = line.split()
        if words[:1] == ["boot"]:
            out["boot"] = int(words[1])
        elif words[:1] == ["game"]:
            out["steps"], out["kind"] = int(words[2]), words[3]
        elif words[:1] == ["peak"]:
            out["peak"], out["at"] = int(words[2]), int(words[3])
        elif words[:1] == ["held"]:
            out["held_" + words[1]] = set(words[2:])
    if set(out) != {"boot", "steps", "kind", "peak", "at", "held_boot", "held_end"}:
        raise RuntimeError("the VM's heap probe printed no figure:\n" + done.stdout[-2000:])
    return out


# Ratcheted down at issue 50's board checks (core/board_check.py, boot's alone: the Board read stays), about
# 3.1 KB off every figure (Pico: boot 115,136 -> 112,336, Battlerealm 202,928 -> 199,744, Champions 145,872,
# United 135,040 -> 131,904, Battleworld 143,888; Pico W: boot 163,072, Battlerealm 242,736; with phones: boot
# 175,344, Battlerealm 259,920), to about 0.6 KB over the peaks and 1.2 KB over the start menu's.
# Then the device's dice made at idle (FairDice's at_idle: its start's place in the start-up test, +0.3 KB on
# every figure: Pico boot 112,656, Champions 146,192, United 132,272, Battleworld 144,176; reverted since, the
# emulated Pico's quick-taps test lost a tap with it, so the figures are 0.3 KB under these) and Battlerealm's
# checks loaded at idle with its set-up (not in the press that starts it; its play's peak 200,640 on the Pico,
# 242,592 on the Pico W, as the table of names' parts fall): about 0.6 KB over them again.
# Then a seal's reveal apart from its cut (ui/revealing.py; ui/resealing.py 2 KB of .mpy smaller, and the
# few names both use held by ui/sealing.py): Battleworld's peak, at its cut, 144,176 -> 142,112 on the
# Pico (its ceiling lowered) and 185,616 -> 184,096 on the Pico W; Battlerealm's, in play, 200,640 ->
# 201,136 (Pico), 242,864 (Pico W), 260,768 (with phones), about 0.5 KB over them.
# Raised at issue 50's presses that import nothing idle could (a new game's seal moments and Battlerealm's
# roll loaded while it is set up; a start made in the passes after "Starting <game>...", App.later; the
# seal's reveal after the game's end is shown): ui/flow.py +0.35 KB and ui/choosing.py +0.2 KB of .mpy, so
# every figure 0.6 KB up (Pico boot 112,208 -> 112,816, Battlerealm 200,096 -> 200,816, United 131,776 -> 132,384,
# Battleworld 141,792 -> 142,480; Pico W Battlerealm 242,368 -> 243,088). Champions' peak, at its set-up form, 145,760 -> 146,960
# on the Pico (ceiling 146,800 -> 147,600), and with phones its start menu 175,552 -> 177,680 and its peak
# 205,056 -> 206,944 (boot ceiling 177,000 -> 178,300, Champions' 206,000 -> 207,600): with phones each
# example boots on its own heap, and Champions' start menu moved 1.5 KB with these few bytes of code (the
# figure is the same run after run: where the start menu's garbage and the phones' buffers fall).
# Raised at issue 50's count screen from the registry's line (a game's players, what it counts and its hold-B
# line moved from its descriptor to core/games/__init__.py's GAMES, resident; the press that chooses a game
# imports nothing): +0.4 KB at every start menu (Pico 112,480 -> 112,912) and 0.3-0.5 KB on most peaks
# (Pico Battlerealm 200,816 -> 201,216, United 132,384 -> 132,864, Battleworld 142,480 -> 142,784;
# Pico W Battlerealm 243,088 -> 243,440; with phones Battleworld 202,960 -> 203,248): ceilings of
# Battleworld on the Pico 142,700 -> 143,200 and Battlerealm on the Pico W 243,400 -> 243,900.
# Lowered with the advisor's modules loaded at a Battlerealm game's start (ui/battlerealm.py) and a
# count-only game started in the passes after its press: with phones, Champions' start menu and peak are
# back down (177,680 -> 176,608 and 206,944 -> 205,680): ceilings boot 178,300 -> 177,300, Champions
# 207,600 -> 206,500.
