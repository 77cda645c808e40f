"""`dicetower stats`: are the device's dice fair? Read its roll events and test every die kind.

The events are the JSON lines the firmware writes to its console (and that
`dicetower sim` prints): a Battlerealm `roll` gives six faces, a `reroll`
the faces of the dice it re-rolled; a Battleworld `attack` action carries
the Attack Die's face and a `danger` action the Danger Coin's. Lines that
are not JSON, or not these events, are counted and skipped.
"""

import json

from dicetower.core.dice import ATTACK, BATTLEREALM, DANGER_COIN
from host_tools import stats

DICE = {"Battlerealm": BATTLEREALM, "Attack": ATTACK, "Danger Coin": DANGER_COIN}


def faces_from_events(lines):
    """({die kind: [face index, ...]}, number of lines skipped)."""
    faces = {name: [] for name in DICE}
    skipped = 0
    for line in lines:
        line = line.strip()
        if not line:
            continue
        try:
            event = json.loads(line)
        except ValueError:
            skipped += 1
            continue
        if not isinstance(event, dict):
            skipped += 1
            continue
        kind = event.get("event")
        try:
            if kind == "roll":
                faces["Battlerealm"].extend(BATTLEREALM.index(f) for f in event["faces"])
            elif kind == "reroll":
                faces["Battlerealm"].extend(BATTLEREALM.index(event["faces"][d - 1]) for d in event["dice"])
            elif kind == "action" and event.get("action") == "attack" and event.get("game") == "battleworld":
                faces["Attack"].append(ATTACK.index(event["args"][1]))
            elif kind == "action" and event.get("action") == "danger":
                faces["Danger Coin"].append(DANGER_COIN.index(event["args"][0]))
        except (KeyError, IndexError, TypeError, ValueError):
            skipped += 1
    return faces, skipped


def analyse(name, faces):
    die = DICE[name]
    counts = [0] * die.sides
    for face in faces:
        counts[face] += 1
    result = {"die": name, "rolls": len(faces), "counts": dict(zip(die.faces, counts))}
    if len(faces) < 5 * die.sides:
        result["verdict"] = "too few rolls to judge (%d; want %d or more)" % (len(faces), 5 * die.sides)
        return result
    chi2, dof, p = stats.chi_square(counts)
    result.update(chi2=chi2, dof=dof, p=p)
    p_values = [p]
    try:
        runs, expected, z, runs_p = stats.runs_test(faces, die.sides)
        result.update(runs=runs, runs_expected=expected, runs_p=runs_p)
        p_values.append(runs_p)
    except ValueError as e:
        result["runs_error"] = str(e)
    result["verdict"] = stats.verdict(p_values)
    return result


def report(results):
    lines = []
    for r in results:
        lines.append("%s: %d rolls" % (r["die"], r["rolls"]))
        lines.append("  " + "  ".join("%s %d" % pair for pair in r["counts"].items()))
        if "chi2" in r:
            lines.append("  chi-square %.2f (%d df), p = %.4f" % (r["chi2"], r["dof"], r["p"]))
        if "runs" in r:
            lines.append("  runs %d (expected %.1f), p = %.4f" % (r["runs"], r["runs_expected"], r["runs_p"]))
        lines.append("  verdict: " + r["verdict"])
    return "\n".join(lines)


def histogram(results, path):
    """A PNG: per die kind, a bar for each face and a line at the count a fair die expects."""
    from PIL import Image, ImageDraw

    shown = [r for r in results if r["rolls"]]
    width, row = 640, 170
    image = Image.new("RGB", (width, max(1, len(shown)) * row + 10), "white")
    draw = ImageDraw.Draw(image)
    for n, r in enumerate(shown):
        top = 10 + n * row
        counts = list(r["counts"].values())
        expected = r["rolls"] / len(counts)
        peak = max(max(counts), expected) * 1.15
        draw.text((10, top), "%s: %d rolls, %s" % (r["die"], r["rolls"], r["verdict"]), fill="black")
        bar_w = (width - 40) // len(counts)
        base = top + row - 30
        for i, (face, count) in enumerate(r["counts"].items()):
            x = 20 + i * bar_w
            h = int((row - 50) * count / peak)
            draw.rectangle((x + 4, base - h, x + bar_w - 4, base), fill=(70, 130, 200))
            draw.text((x + 4, base + 4), "%s %d" % (face, count), fill="black")
        y = base - int((row - 50) * expected / peak)
        draw.line((16, y, width - 16, y), fill=(220, 40, 40), width=2)
    image.save(path)


# Runs on the board: its own dice (the same source and sampler a game uses) thrown `rolls` times
# per die kind, each face index printed as one character, a line per 1,000.
ON_DEVICE = """
import sys
from dicetower.core import dice as _d
from dicetower.core.entropy import FairDice
from dicetower.hw.entropy import sources_for
from dicetower.hw.platform import _machine_name
_dice = FairDice(*sources_for(_machine_name(sys)))
print(_dice.source.name)
_out = bytearray(1000)
for _die in (_d.BATTLEREALM, _d.ATTACK, _d.DANGER_COIN):
    _left = %d
    while _left:
        _k = min(_left, 1000)
        for _i in range(_k):
            _out[_i] = 48 + _dice.draw(_die)
        print(_out[:_k].decode())
        _left -= _k
    print('-')
"""


def faces_from_device(transport, rolls):
    """({die kind: [face index, ...]}, the source's name): rolled by the board itself."""
    from mpremote.transport import TransportExecError

    from host_tools.flash import FlashError

    chunks = []  # gathered as they come: mpremote would otherwise build its answer a byte at a time
    try:
        transport.exec(ON_DEVICE % rolls, data_consumer=chunks.append)
    except TransportExecError as e:
        raise FlashError("the board could not roll (%s); is the firmware on it? Run dicetower flash first"
                         % e.error_output.strip().splitlines()[-1])
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
            faces[names[kind]].extend(ord(c) - 48 for c in line)
    return faces, source


def run(lines, png=None, faces=None):
    """The report on an event log's rolls (or on `faces` already rolled), and its PNG."""
    skipped = 0
    if faces is None:
        faces, skipped = faces_from_events(lines)
    results = [analyse(name, faces[name]) for name in DICE]
    text = report(results)
    if skipped:
        text += "\n(%d lines were not roll events and were skipped)" % skipped
    if png:
        histogram(results, png)
    return text, results
