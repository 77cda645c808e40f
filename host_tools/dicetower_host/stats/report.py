"""`dicetower stats`: are the device's dice fair? Read its roll events and test every die kind.

The events are the JSON lines the firmware writes to its console (and that
`dicetower sim` prints): a Battlerealm `roll` gives six faces, a `reroll`
the faces of the dice it re-rolled; a Battleworld `attack` action carries
the Attack Die's face and a `danger` action the Danger Coin's.

A log is read a line at a time and only tallies are kept (the counts per face
and what the runs test needs), so a log of any length fits in a few MB. Each
line is judged whole: a line that is not UTF-8, not JSON, longer than
MAX_LINE, or a dice event with anything wrong in it (a face the die does not
have, a die numbered outside 1 to 6, a count that is not a number) counts
nothing and is reported; other events (ready, game, an action without dice)
are not dice and are passed over.
"""

import json

from dicetower.core.dice import ATTACK, BATTLEREALM, DANGER_COIN
from dicetower_host.stats import maths as fairness_maths

DICE = {"Battlerealm": BATTLEREALM, "Attack": ATTACK, "Danger Coin": DANGER_COIN}
SIX = 6  # dice in a Battlerealm roll
MAX_LINE = 64 * 1024  # bytes: an event is a few hundred
SHOWN = 3  # refused lines named in the report


class Tally:
    """One die kind's faces as they stream past: counts per face, dice, rolls, and the runs test's counts."""

    def __init__(self, die):
        self.die = die
        self.counts = [0] * die.sides
        self.half = die.sides / 2
        self.dice = self.rolls = self.rerolls = 0
        self.runs = self.low = 0
        self.previous = None

    def add(self, faces, reroll=False):
        """One roll (or re-roll) of len(faces) dice, given as face indices."""
        self.rolls += 1
        self.rerolls += reroll
        for face in faces:
            self.counts[face] += 1
            self.dice += 1
            is_low = face < self.half
            self.low += is_low
            if is_low != self.previous:
                self.runs += 1
                self.previous = is_low


class Refused:
    """The lines that counted nothing: how many, and the first few with their reason."""

    def __init__(self):
        self.count = 0
        self.first = []

    def add(self, number, why):
        self.count += 1
        if len(self.first) < SHOWN:
            self.first.append("line %d: %s" % (number, why))

    def __str__(self):
        if not self.count:
            return ""
        more = ", ..." if self.count > len(self.first) else ""
        return "(%d line%s refused, none of their dice counted: %s%s)" % (
            self.count,
            "" if self.count == 1 else "s",
            "; ".join(self.first),
            more,
        )


def _faces(die, faces, what):
    """Face indices of `faces` (names), or ValueError saying what is wrong."""
    if not isinstance(faces, list) or not all(isinstance(f, str) for f in faces):
        raise ValueError("%s must be a list of face names" % what)
    try:
        return [die.index(f) for f in faces]
    except ValueError:
        raise ValueError("%s: not all faces of the %s die" % (what, die.name))


def dice_of(event):
    """(die kind, [face index, ...], is a re-roll) for a dice event, None for any other event,
    or ValueError naming what is wrong: the whole event then counts nothing."""
    if not isinstance(event, dict):
        raise ValueError("not an event (a JSON object)")
    kind = event.get("event")
    if kind == "roll":
        faces = _faces(BATTLEREALM, event.get("faces"), "roll faces")
        if len(faces) != SIX:
            raise ValueError("%d faces, where a roll has %d" % (len(faces), SIX))
        return "Battlerealm", faces, False
    if kind == "reroll":
        faces = _faces(BATTLEREALM, event.get("faces"), "re-roll faces")
        if len(faces) != SIX:
            raise ValueError("%d faces, where a re-roll shows all %d dice" % (len(faces), SIX))
        dice = event.get("dice")
        if (
            not isinstance(dice, list)
            or not dice
            or len(set(map(repr, dice))) != len(dice)
            or not all(type(d) is int and 1 <= d <= SIX for d in dice)
        ):
            raise ValueError("re-roll dice must be different numbers 1 to %d" % SIX)
        return "Battlerealm", [faces[d - 1] for d in dice], True
    if kind == "action" and event.get("action") == "attack" and event.get("game") == "battleworld":
        args = event.get("args")
        if not isinstance(args, list) or len(args) < 2:
            raise ValueError("attack args must hold the Attack Die's face")
        return "Attack", _faces(ATTACK, [args[1]], "the Attack Die's face"), False
    if kind == "action" and event.get("action") == "danger":
        args = event.get("args")
        if not isinstance(args, list) or len(args) < 1:
            raise ValueError("danger args must hold the Danger Coin's face")
        return "Danger Coin", _faces(DANGER_COIN, [args[0]], "the Danger Coin's face"), False
    return None


def lines_of(stream, limit=MAX_LINE):
    """(line number, line as bytes, or None for a line longer than `limit`) from a binary stream,
    holding at most `limit` bytes at a time."""
    number = 0
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # the rest of the long line, dropped as it comes
                line = stream.readline(limit)
            yield number, None
        else:
            yield number, line


def faces_from_events(lines):
    """({die kind: Tally}, Refused) from event lines (str, bytes, or (number, bytes) from lines_of)."""
    tallies = {name: Tally(die) for name, die in DICE.items()}
    refused = Refused()
    for number, line in enumerate(lines, 1):
        if isinstance(line, tuple):
            number, line = line
        if line is None:
            refused.add(number, "longer than %d bytes" % MAX_LINE)
            continue
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                refused.add(number, "not UTF-8")
                continue
        line = line.strip()
        if not line:
            continue
        try:
            event = json.loads(line)
        except RecursionError:
            refused.add(number, "nested too deep")
            continue
        except ValueError:
            refused.add(number, "not JSON")
            continue
        try:
            found = dice_of(event)
        except ValueError as e:
            refused.add(number, str(e))
            continue
        if found is not None:
            name, faces, reroll = found
            tallies[name].add(faces, reroll)
    return tallies, refused


def analyse(name, tally):
    die = DICE[name]
    counts = tally.counts
    result = {
        "die": name,
        "dice": tally.dice,
        "rolls": tally.rolls,
        "rerolls": tally.rerolls,
        "counts": dict(zip(die.faces, counts)),
    }
    if tally.dice < 5 * die.sides:
        result["verdict"] = "too few dice to judge (%d; want %d or more)" % (tally.dice, 5 * die.sides)
        return result
    chi2, dof, p = fairness_maths.chi_square(counts)
    result.update(chi2=chi2, dof=dof, p=p)
    p_values = [p]
    try:
        runs, expected, z, runs_p = fairness_maths.runs_from_counts(tally.runs, tally.low, tally.dice)
        result.update(runs=runs, runs_expected=expected, runs_p=runs_p)
        p_values.append(runs_p)
    except ValueError as e:
        result["runs_error"] = str(e)
    result["verdict"] = fairness_maths.verdict(p_values)
    return result


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def thrown(r):
    """How many dice in how many rolls: `300 dice in 60 rolls, 12 of them re-rolls`, or `600 rolls` of one die."""
    if r["dice"] == r["rolls"]:
        return _plural(r["rolls"], "roll")
    said = "%s in %s" % ("%d dice" % r["dice"] if r["dice"] != 1 else "1 die", _plural(r["rolls"], "roll"))
    if r["rerolls"]:
        said += ", %d of them %s" % (r["rerolls"], "a re-roll" if r["rerolls"] == 1 else "re-rolls")
    return said


def report(results):
    lines = []
    for r in results:
        lines.append("%s: %s" % (r["die"], thrown(r)))
        lines.append("  dice per face: " + ", ".join("%s: %d" % pair for pair in r["counts"].items()))
        if "chi2" in r:
            lines.append("  chi-square %.2f (%d df), p = %.4f" % (r["chi2"], r["dof"], r["p"]))
        if "runs" in r:
            lines.append("  runs %d (expected %.1f), p = %.4f" % (r["runs"], r["runs_expected"], r["runs_p"]))
        lines.append("  verdict: " + r["verdict"])
    return "\n".join(lines)


def _step(peak):
    """A round tick step giving at most five ticks up to `peak`: 1, 2, 5, 10, 20, 50..."""
    step = 1
    while True:
        for k in (1, 2, 5):
            if peak / (step * k) <= 5:
                return step * k
        step *= 10


def histogram_layout(results, width=640, row=200):
    """What the histogram PNG shows, as ((width, height), [(what, role, where, text or colour)]):
    per die kind a title, a y axis counting dice with round ticks, a bar per face with its count
    above it and the face below it, the count a fair die expects as a red line, and a legend for it."""
    shown = [r for r in results if r["dice"]]
    items = []
    left, right = 64, width - 16
    for n, r in enumerate(shown):
        top = 10 + n * row
        counts = list(r["counts"].values())
        expected = r["dice"] / len(counts)
        peak = max(max(counts), expected) * 1.15
        items.append(("text", "title", (10, top), "%s: %s" % (r["die"], thrown(r))))
        items.append(("text", "verdict", (10, top + 14), r["verdict"]))
        plot_top, base = top + 52, top + row - 36
        height = base - plot_top

        def y_of(count):
            return base - int(height * count / peak)  # noqa: B023 (used in this pass only)

        step = _step(peak)
        items.append(("line", "axis", (left, plot_top, left, base), "black"))
        items.append(("line", "axis", (left, base, right, base), "black"))
        items.append(("text", "axis title", (8, plot_top - 14), "dice"))
        items.append(("text", "axis title", (right - 30, base + 18), "face"))
        tick = 0
        while tick <= peak:
            y = y_of(tick)
            items.append(("line", "tick", (left - 4, y, left, y), "black"))
            items.append(("text", "tick", (left - 8, y), str(tick)))
            tick += step
        bar_w = (right - left - 8) // len(counts)
        labels = []  # drawn last, over the expected line
        for i, (face, count) in enumerate(r["counts"].items()):
            x = left + 8 + i * bar_w
            items.append(("rect", "bar", (x + 6, y_of(count), x + bar_w - 6, base), (70, 130, 200)))
            labels.append(("text", "count", (x + bar_w // 2, y_of(count) - 2), str(count)))
            items.append(("text", "face", (x + bar_w // 2, base + 4), face))
        y = y_of(expected)
        items.append(("line", "expected", (left, y, right, y), (220, 40, 40)))
        items += labels
        items.append(("line", "legend", (right - 250, top + 36, right - 226, top + 36), (220, 40, 40)))
        items.append(
            (
                "text",
                "legend",
                (right - 220, top + 36),
                "expected of fair dice: %s per face" % ("%.1f" % expected).rstrip("0").rstrip("."),
            )
        )
    return (width, max(1, len(shown)) * row + 10), items


# Where each role's text hangs from its point (Pillow's anchors: l/m/r across, a/m/s/d down).
ANCHORS = {"tick": "rm", "count": "md", "face": "ma", "legend": "lm"}


def histogram(results, path):
    """Draw histogram_layout() as a PNG at `path`."""
    from PIL import Image, ImageDraw

    size, items = histogram_layout(results)
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    for what, role, where, value in items:
        if what == "text":
            anchor = ANCHORS.get(role, "la")
            if role == "count":  # readable where the expected line runs behind it
                draw.rectangle(draw.textbbox(where, value, anchor=anchor), fill="white")
            draw.text(where, value, fill="black", anchor=anchor)
        elif what == "line":
            draw.line(where, fill=value, width=2 if role in ("expected", "legend") else 1)
        else:
            draw.rectangle(where, fill=value)
    image.save(path)


def faces_from_device(transport, rolls):
    """({die kind: [face index, ...]}, the source's name): rolled by the board itself."""
    from mpremote.transport import TransportExecError

    from dicetower_host.flash import FlashError, board_code

    chunks = []  # gathered as they come: mpremote would otherwise build its answer a byte at a time
    try:
        transport.exec(board_code("roll_dice", "roll_dice", rolls), data_consumer=chunks.append)
    except TransportExecError as e:
        raise FlashError(
            "the board could not roll (%s); is the firmware on it? Run dicetower flash first"
            % e.error_output.strip().splitlines()[-1]
        )
    text = b"".join(chunks).replace(b"\x04", b"").decode()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    source = lines[0] if lines else "?"
    faces = {name: [] for name in DICE}
    names = list(DICE)
    kind = 0
    for line in lines[1:]:
        if line == "-":
            kind += 1
        elif kind < len(names):
            rolled = [ord(c) - 48 for c in line]
            if not all(0 <= face < DICE[names[kind]].sides for face in rolled):
                raise FlashError("the board's dice came back garbled (%r); try again" % line[:40])
            faces[names[kind]].extend(rolled)
    return faces, source


def tallies_of(faces):
    """{die kind: Tally} of faces already rolled ({die kind: [face index, ...]}, a die at a time)."""
    tallies = {name: Tally(die) for name, die in DICE.items()}
    for name, rolled in faces.items():
        for face in rolled:
            tallies[name].add((face,))
    return tallies


def run(lines, png=None, faces=None):
    """The report on an event log's rolls (or on `faces` already rolled), and its PNG."""
    refused = Refused()
    if faces is None:
        tallies, refused = faces_from_events(lines)
    else:
        tallies = tallies_of(faces)
    results = [analyse(name, tallies[name]) for name in DICE]
    text = report(results)
    if refused.count:
        text += "\n" + str(refused)
    if png:
        histogram(results, png)
    return text, results
