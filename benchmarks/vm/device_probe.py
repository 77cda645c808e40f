"""Runs on the MicroPython VM: a whole game of each mode through main.py's device, press by press, then redraws.

Started by benchmarks/vm_device.py (vm/run.mjs steps: the VM's GC frees
what an earlier step dropped). Prints "imports BYTES", then per game:
name presses modules_kept heap_peak frame_alloc i2c_median i2c_worst ended
then per kind of redraw: "redraw name draw_us show_us alloc_bytes i2c_bytes"
(the OLED on a bus that takes no time, so compute only).

Each game is played twice. The first time it imports what the game needs (its tracker, its
screens, the advisor) and those modules stay: modules_kept is the heap still held once that
game is over and dropped. The second time the modules are already there, so heap_peak is the
game's own: its state, undo window and history, the device's work for it, the advisor's work
arrays.
"""

import gc

gc.collect()
before = gc.mem_alloc()
import main  # noqa: E402,F401

from table import Table  # noqa: E402

# --- vm step ---
gc.collect()
print("imports %d" % (gc.mem_alloc() - before))


class NoBus:
    """An I2C bus that takes no time: the redraw figures are the firmware's compute alone."""

    def writeto(self, address, buf, stop=True):
        pass

    def writevto(self, address, vector, stop=True):
        pass


def redraws(t, name, key, k=200, cold=False):
    """One redraw, after pressing `key` (or a full frame when key is empty), done k times over (the
    VM's clock counts milliseconds): the mean time to draw the screen into the canvas and to find
    and send the changed runs (the panel's previous frame put back before each), the heap one redraw
    allocates (both together) and the bytes it sends. cold: the canvas keeps no lines drawn before
    (a screen seen for the first time)."""
    import time

    from dicetower.ui import canvas as canvas_module
    from dicetower.ui import screens

    device = t.device
    app = t.app
    canvas = device.canvas
    oled = device.oled
    bus = oled.i2c
    oled.i2c = NoBus()
    if key:
        app.press(key, "short")
    unknown = not key
    previous = bytearray(oled.sent)

    def forget():  # no lines kept drawn, no text kept wrapped (what an older canvas lacks, it does not keep)
        kept = getattr(canvas, "_kept_slot", None)
        if kept is not None:
            kept.clear()
            for slot in range(len(canvas._kept_strings)):
                canvas._kept_strings[slot] = None
        wrapped = getattr(canvas_module, "_wrapped", None)
        if wrapped is not None:
            wrapped[0] = None

    def show():
        oled.sent[:] = previous
        oled._unknown = unknown
        return oled.show(canvas.buf, 0)

    start = time.ticks_us()
    for _i in range(k):
        if cold:
            forget()
        screens.draw(app, canvas)
    middle = time.ticks_us()
    for _i in range(k):
        show()
    end = time.ticks_us()
    if cold:
        forget()
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    screens.draw(app, canvas)
    sent = show()
    used = gc.mem_alloc() - before
    gc.enable()
    app.changed = False
    oled.i2c = bus
    print(
        "redraw %s %d %d %d %d"
        % (name, time.ticks_diff(middle, start) // k, time.ticks_diff(end, middle) // k, used, sent)
    )


def battlerealm(t):
    for key in "caacc":  # New Battlerealm, two heroes (from four: a a), start, the seal's cut
        yield key
    for _turn in range(6):
        yield "c"  # roll
        yield "a"  # to Finalize
        yield "c"
        while t.app.mode == "mark":
            yield "a"  # to Done
            yield "c"
        if t.app.mode == "result":
            yield "c"  # past the roll's result
        for key in "bcccc":  # Attack the other hero for 1 from the first source offered (a die left, else a power)
            yield key
        for key in "b" * 9 + "c":  # End turn: the next hero's menu starts at the top
            yield key
    for _ in range(2):
        if t.app.game.over():
            return
        for key in "bbbbc" + "c" + "b" * 11 + "c":  # Gain PVP +12
            yield key
        for key in "aaaa":
            yield key


def champions(t):
    for key in "bc" + "ac":  # New Champions, one player
        yield key
    for key in "bbcc" + "b" * 13 + "c":  # Hit villain 14: stage 2
        yield key
    for key in "b" * 8 + "c":  # End phase: the villain phase
        yield key
    for key in "a" * 8 + "cc" + "b" * 14 + "c":  # Hit villain 15: the players win
        yield key


def united(t):
    for key in "bbc" + "c":  # New United, four heroes
        yield key
    for hero in range(6):
        yield "c"
        for _ in range(hero % 4):
            yield "b"
        yield "c"


def battleworld(t):
    for key in "bbbc" + "c" + "c":  # New Battleworld, one starting hero, the seal's cut
        yield key
    for _ in range(40):
        if t.app.game is None or t.app.game.over():
            return
        if not [b for b in t.app.game.state["battles"] if not b["result"]]:
            for key in "bbcccc":  # New battle: 1 hit, target 2, Energy
                yield key
            for key in "aa":  # back to the top
                yield key
        for key in "ccc":  # Attack the open battle with bonus 1; the box rolls the Attack Die
            yield key


def NO_STRIP(pin, encoding, timing, buf):
    return None


def frames_alloc(device, n):
    """Heap bytes allocated per LED frame (in a function: no new globals during the count)."""
    gc.collect()
    gc.disable()
    start = gc.mem_alloc()
    for _i in range(n):
        device.frame()
    used = gc.mem_alloc() - start
    gc.enable()
    return used / n


# --- vm step ---
queue = [battlerealm, champions, united, battleworld]
repeat = True
t = None
first = None  # the heap before a game's first play, while it is being played the first time

# --- vm step: repeat ---
if t is None and first is None:
    gc.collect()
    first = gc.mem_alloc()
    t = Table(seed=5)
    keys = queue[0](t)
    presses = 0
elif first is not None and t is not None:
    key = next(keys, None)
    if key is None or (t.app.game is not None and t.app.game.over() and presses > 3):
        t = keys = None  # dropped: its modules stay imported; later steps collect the rest
        settle = 2
    else:
        t.press(key)
        presses += 1
elif t is None and settle:
    gc.collect()  # in steps of their own: the VM's collector frees what a step before dropped
    settle -= 1
elif t is None:
    gc.collect()
    modules_kept = gc.mem_alloc() - first
    first = None
    baseline = gc.mem_alloc()
    maker = queue.pop(0)
    t = Table(seed=5)
    keys = maker(t)
    peak = 0
    sent = []
    presses = 0
else:
    gc.collect()
    peak = max(peak, gc.mem_alloc() - baseline)
    key = next(keys, None)
    if key is None or (t.app.game is not None and t.app.game.over() and presses > 3):
        # Steady state: LED frames of the game-over gauge. The virtual strip copies what
        # it is sent (the real machine.bitstream is C and keeps nothing), so it is
        # unhooked while the firmware's own allocations are counted.
        t.app.animation = None
        t.device.frame()
        t.device.ring._bitstream = NO_STRIP
        per_frame = frames_alloc(t.device, 30)
        sent.sort()
        print(
            "%s %d %d %d %.1f %d %d %d"
            % (
                maker.__name__,
                presses,
                modules_kept,
                peak,
                per_frame,
                sent[len(sent) // 2],
                sent[-1],
                1 if t.app.game and t.app.game.over() else 0,
            )
        )
        t = keys = None
        repeat = bool(queue)
    else:
        before_bytes = t.panel.bytes_received
        t.press(key)
        sent.append(t.panel.bytes_received - before_bytes)
        presses += 1

# --- vm step ---
# The redraws last: their Battlerealm roll would import that game's modules before its first play.
t = Table(seed=5)
t.device.render(0)
redraws(t, "start_full", "")
redraws(t, "start_menu_step", "b")
redraws(t, "start_menu_step_cold", "b", cold=True)
for key in "aacaacc":  # back to the first item; a Battlerealm game for two, the seal's cut; Hulk rolls
    t.press(key)
t.press("c")
assert t.app.mode == "dice", t.app.mode
redraws(t, "dice_full", "")
redraws(t, "dice_cursor_step", "b")
redraws(t, "dice_cursor_step_cold", "b", cold=True)
t = None
