"""docs/playing.md's walkthroughs play as they say: each ```sim block there is a simulator script whose
comments quote the tower's own words and count the game's heroes, checked as the examples are
(tests/test_examples.py's rules: a quoted text the run never shows, a wrong count, or a figure said
outside the tower's words fails)."""

import os
import re

import pytest
from test_examples import claims_hold, run

from conftest import ROOT

PLAYING = os.path.join(ROOT, "docs", "playing.md")


def walkthroughs():
    """(title, script) for each ```sim block under "## Walkthroughs", titled by its ### heading."""
    with open(PLAYING) as f:
        text = f.read()
    part = text.split("## Walkthroughs", 1)[1].split("\n## ", 1)[0]
    found = []
    for heading, body in re.findall(r"### ([^\n]+)\n(.*?)(?=\n### |\Z)", part, re.S):
        for block in re.findall(r"```sim\n(.*?)```", body, re.S):
            found.append((heading.strip(), block))
    return found


def test_there_is_a_walkthrough():
    assert walkthroughs(), "docs/playing.md has no ```sim walkthrough"


@pytest.mark.parametrize("title, script", walkthroughs(), ids=[title for title, _ in walkthroughs()])
def test_each_walkthrough_says_what_its_run_shows(title, script, tmp_path):
    path = tmp_path / "walkthrough.sim"
    path.write_text(script)
    header, lines, said_in_run, final = run(str(path), tmp_path / "tower")
    wrong = []
    for n, comment, said, state in lines:
        wrong += ["line %d: %s" % (n, why) for why in claims_hold(comment, said, state)]
    assert wrong == [], "\n".join(wrong)
    assert sum(len(re.findall(r'"[^"]+"', comment)) for _, comment, _, _ in lines) >= 5  # it quotes the tower
