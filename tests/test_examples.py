"""The example scripts say what happens in them; what they say is what the run shows.

An example's comments state figures in two ways, and both are checked against the run:
- words in double quotes are the tower's own: after that line's presses they are in its log (the
  game's history), on its OLED or in its message at some press of the line (a comment above the
  first step: anywhere in the whole run);
- "N heroes", "N players", "N starting hero(es)" are the game's own count after that line.
Any other figure (a digit, or a number word) in a comment is stale waiting to happen, and fails.
"""

import glob
import os
import re

import pytest

from conftest import ROOT
from dicetower_host import sim

sim.use_virtual_parts()
from dicetower_host.virtual_parts.script import keystrokes, parse, play, setting  # noqa: E402

EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.sim")))
NUMBERS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty"
).split()
NUMBER = r"(\d+|%s)" % "|".join(NUMBERS)
QUOTE = re.compile(r'"([^"]+)"')
COUNT = re.compile(r"\b%s (starting heroes|starting hero|heroes|hero|players|player)\b" % NUMBER, re.I)
FIGURE = re.compile(r"\b%s\b" % NUMBER, re.I)


def number(word):
    return int(word) if word.isdigit() else NUMBERS.index(word.lower())


def heroes(state, what):
    """The game's count that `N heroes` / `N players` / `N starting heroes` speaks of."""
    if what.lower().startswith("starting"):
        return state["starting"]
    return len(state["heroes"])


def comments(text):
    """{line number: comment} of a script."""
    return {n: line.split("#", 1)[1] for n, line in enumerate(text.split("\n"), 1) if "#" in line}


def run(path, tmp_path):
    """(comments above the first step, [(comment, what the tower said during its line, state after)],
    everything it said in the run, the final state)."""
    with open(path) as f:
        text = f.read()
    steps = parse(text)
    notes = comments(text)
    tower = sim.boot("pico", setting(steps, "seed"), None, str(tmp_path))
    lines, said_in_run, logged = [], [], 0
    for n, command, args in steps:
        said = []
        if command == "keys":
            for button, kind in keystrokes(args[0]):
                tower.press(button, kind)
                screen = tower.screen()
                said += screen + [" ".join(line.strip() for line in screen), tower.snapshot()["message"] or ""]
        else:
            play(tower, [(n, command, args)])
        snapshot = tower.snapshot()
        said += snapshot["history"][logged:] + [snapshot["over"] or ""]
        logged = len(snapshot["history"])
        said_in_run += said
        if n in notes:
            lines.append((n, notes[n], said, snapshot["state"]))
    first = steps[0][0]
    header = " ".join(note for n, note in notes.items() if n < first)
    return header, lines, said_in_run, tower.snapshot()["state"]


def claims_hold(comment, said, state):
    """The reasons the comment's figures do not match the run (empty: they all hold)."""
    wrong = []
    for quoted in QUOTE.findall(comment):
        if not any(quoted in text for text in said):
            wrong.append("the tower never said %r" % quoted)
    rest = QUOTE.sub(" ", comment)
    for count, what in COUNT.findall(rest):
        if state is None or heroes(state, what) != number(count):
            wrong.append("%s %s, but the game has %s" % (count, what, state and heroes(state, what)))
    rest = COUNT.sub(" ", rest)
    for figure in FIGURE.findall(rest):
        wrong.append("%r is stated outside the tower's words (quote them)" % figure)
    return wrong


@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_what_each_example_says_is_what_its_run_shows(path, tmp_path):
    header, lines, said_in_run, final = run(path, tmp_path)
    assert QUOTE.search(header) or COUNT.search(header), "the example's first lines say nothing checkable"
    wrong = ["header: %s" % why for why in claims_hold(header, said_in_run, final)]
    for n, comment, said, state in lines:
        wrong += ["line %d: %s" % (n, why) for why in claims_hold(comment, said, state)]
    assert not wrong, "\n".join(wrong)


def test_a_stale_figure_is_caught(tmp_path):
    """The check itself: the old words of battlerealm.sim ("Hulk reaches 21") fail it."""
    header, lines, said_in_run, final = run(os.path.join(ROOT, "examples", "battlerealm.sim"), tmp_path)
    n, comment, said, state = lines[-1]  # the line that wins the game
    assert claims_hold(comment, said, state) == []
    assert claims_hold('... 12 PVP: "Hulk reaches 21"', said, state) == [
        "the tower never said 'Hulk reaches 21'",
        "'12' is stated outside the tower's words (quote them)",
    ]
    assert claims_hold("three heroes", said, state) == ["three heroes, but the game has 2"]
