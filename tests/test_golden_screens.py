"""Key screens compared pixel for pixel with reviewed pictures in tests/golden/.

A picture that differs is written beside its golden one as NAME.new.png for
review; DICETOWER_UPDATE_GOLDEN=1 makes the new pictures the golden ones.
"""

import os

import pytest
from PIL import Image, ImageChops

from conftest import ROOT
from dicetower_host import sim
from dicetower_host.sim import picture

GOLDEN = os.path.join(ROOT, "tests", "golden")
SCREENS = {
    "start": dict(seed=1, keys=""),
    "roll_locks": dict(faces="Mutant,Skill,Science,Tech,Cosmic,Mystic", keys="caacc", wait=1200),
    "prison": dict(faces="Mutant,Mutant,Mutant,Skill,Tech,Cosmic", keys="cac c ac", wait=1200),
    "champions": dict(seed=1, keys="bcbc bbcc bbbbc"),
    "game_over": dict(seed=1, script="examples/battlerealm.sim"),  # the example's own seed
    # A picker says what its presses do on its bottom line; a number starts at what records nothing.
    "pick_hero": dict(seed=1, keys="bc c bbbc"),  # Champions' Villain attacks: its hero
    "pick_number": dict(seed=1, keys="bc c bbbc c"),  # and its ATK, at 0
    # The table: a part a page, its place on the bottom line (Champions' first game area).
    "table": dict(seed=1, keys="bc c ac b"),
    # The count screen says what its C starts, once the set-up is ready at idle.
    "count": dict(seed=1, keys="bc", wait=500),
}


def picture_of(spec, tmp_path):
    from dicetower_host.virtual_parts.script import parse, play

    tower = sim.boot("pico", spec.get("seed", 1), spec.get("faces"), str(tmp_path))
    if "script" in spec:
        with open(os.path.join(ROOT, spec["script"])) as f:
            play(tower, parse(f.read()))
    tower.presses(spec.get("keys", ""))
    tower.wait(spec.get("wait", 0))
    return picture.render(tower)


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_golden_picture(name, tmp_path):
    image = picture_of(SCREENS[name], tmp_path)
    golden = os.path.join(GOLDEN, name + ".png")
    new = os.path.join(GOLDEN, name + ".new.png")
    if os.environ.get("DICETOWER_UPDATE_GOLDEN") == "1":
        image.save(golden)
    assert os.path.exists(golden), "no golden picture yet: run with DICETOWER_UPDATE_GOLDEN=1 and review it"
    with Image.open(golden) as expected:
        same = expected.size == image.size and ImageChops.difference(expected.convert("RGB"), image).getbbox() is None
    if not same:
        image.save(new)
    elif os.path.exists(new):
        os.remove(new)
    assert same, "the %s screen changed; see %s beside the golden picture" % (name, new)
