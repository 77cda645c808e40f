"""Every screen is a class of ui/screens.py's `Screen` (docs/architecture.md, "Words": screen, mode): the
App passes a press to the screen that is up and asks it to draw, so a screen that lacks one of those, or
names itself as another does, would fail at a press on the tower. Read from the source: no screen is left
out because no test happened to reach it, and none grows past a size one reader holds in mind."""

import ast
import os

from conftest import ROOT

UI = os.path.join(ROOT, "firmware", "dicetower", "ui")
LONGEST = 150  # lines a screen class may take (docs/architecture.md, "The package layout")


def classes():
    """{name: (file, node)} of every class under firmware/dicetower/ui/."""
    out = {}
    for name in sorted(os.listdir(UI)):
        if name.endswith(".py"):
            with open(os.path.join(UI, name)) as f:
                tree = ast.parse(f.read())
            for node in tree.body:
                if isinstance(node, ast.ClassDef):
                    assert node.name not in out, "two classes called %s" % node.name
                    out[node.name] = (name, node)
    return out


def screens():
    """{class name: (file, node)} of the classes that derive from Screen, however far down."""
    every = classes()
    found = {"Screen": every["Screen"]}
    grew = True
    while grew:
        grew = False
        for name, (path, node) in every.items():
            bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
            if name not in found and any(b in found for b in bases):
                found[name] = (path, node)
                grew = True
    return found


def own(node, attribute):
    """What the class body itself gives `attribute`: the MODE's string, or True for a method."""
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name == attribute:
            return True
        if isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attribute for t in item.targets):
            return item.value.value if isinstance(item.value, ast.Constant) else True
    return None


def inherited(found, name, attribute):
    node = found[name][1]
    value = own(node, attribute)
    if value is not None:
        return value
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id in found:
            value = inherited(found, base.id, attribute)
            if value is not None:
                return value
    return None


def test_every_screen_names_its_own_mode_and_presses_and_draws():
    found = screens()
    assert len(found) >= 20, sorted(found)  # the menus, the count, the form, the picker, play, the dice, the seal's
    shown = [n for n in found if own(found[n][1], "MODE") not in (None,) and found[n][1].name != "Screen"]
    modes = {}
    for name in shown:
        mode = own(found[name][1], "MODE")
        assert isinstance(mode, str) and mode, "%s's MODE is not a name: %r" % (name, mode)
        assert mode not in modes, "%s and %s both call themselves %r" % (modes[mode], name, mode)
        modes[mode] = name
    for name in found:
        if name in ("Screen", "Pages"):
            continue
        assert inherited(found, name, "MODE") not in (None,), "%s (%s) has no MODE" % (name, found[name][0])
        for method in ("press", "draw"):  # Screen gives neither: a renamed one is missed here
            assert inherited(found, name, method), "%s (%s) has no %s" % (name, found[name][0], method)
        if name in ("Notice", "Result", "Help", "Seed"):  # Pages: C has read the text, then what?
            assert inherited(found, name, "read"), "%s (%s) has no read" % (name, found[name][0])
    # The names the ring, the phones' page and the console read.
    for mode in ("start", "setup", "form", "play", "args", "dice", "mark", "result", "over", "notice", "cut"):
        assert mode in modes, mode


def test_no_screen_class_is_longer_than_one_reader_holds():
    for name, (path, node) in screens().items():
        lines = node.end_lineno - node.lineno + 1
        assert lines <= LONGEST, "%s in ui/%s is %d lines" % (name, path, lines)
