"""Every rulebook line a test quotes is really in the rulebook.

Tests quote the rule they enforce in their docstring as `Rulebook: "..."`.
The rulebooks are in ../shared/seeds beside the checkout (see its README).
"""

import glob
import os
import re

import pytest

from conftest import ROOT

SEEDS = os.path.join(os.path.dirname(ROOT), "shared", "seeds")
QUOTE = re.compile(r'Rulebook: "(.+?)"\s*(?:"""|$)', re.M)


def normalise(text):
    return " ".join(text.replace("\u2019", "'").split())


def quotes():
    found = []
    for path in sorted(
        glob.glob(os.path.join(ROOT, "tests", "**", "*.py"), recursive=True)
        + glob.glob(os.path.join(ROOT, "firmware", "**", "*.py"), recursive=True)
    ):
        with open(path) as f:
            for quote in QUOTE.findall(f.read()):
                found.append((os.path.relpath(path, ROOT), quote))
    return found


@pytest.fixture(scope="module")
def rulebooks():
    books = sorted(glob.glob(os.path.join(SEEDS, "0*.txt")))
    if not books:
        if os.environ.get("CI"):
            pytest.fail("CI must have the rulebooks beside the checkout (../shared/seeds)")
        pytest.skip("the rulebooks are not beside this checkout (../shared/seeds)")
    text = ""
    for book in books:
        with open(book, encoding="utf-8") as f:
            text += normalise(f.read()) + "\n"
    return text


def test_rules_are_quoted():
    assert len(quotes()) >= 25


@pytest.mark.parametrize("where,quote", quotes(), ids=lambda v: v[:40] if isinstance(v, str) else None)
def test_quote_is_in_a_rulebook(rulebooks, where, quote):
    assert normalise(quote) in rulebooks, "%s quotes a line no rulebook has: %r" % (where, quote)
