"""The fuzz harness's short run (a few seconds a target): the save decoder, config.json, board profiles,
heroes.json, dice.json, the simulator's scripts and the monitor's events, each given hostile input
(tests/fuzz_targets.py says what each must do with it); and the tower pressed at random from each
crafted set of starting files and from drawn ones, after every press a screen that answers the next.
Every input that ever broke one is run too. benchmarks/fuzz.py runs 10^5 cases a target,
benchmarks/press_fuzz.py tallies random press runs."""

import pytest
from fuzz_targets import DRAWN_FILES, REGRESSIONS, STEPS, TARGETS, check_presses
from hypothesis import HealthCheck, Phase, given, settings
from test_no_freeze import STARTING_FILES

SHORT = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
# A press run boots a tower and presses it up to a few hundred times (0.1 s or so): fewer examples, each
# crafted set of files its own test; not shrunk (a failing one took a minute of runs to shrink): its
# presses up to the one that did not answer are said, and benchmarks/press_fuzz.py gives the shortest seen.
RUNS = dict(
    deadline=None, suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.reuse, Phase.generate]
)
PRESS_RUNS = settings(max_examples=12, **RUNS)
DRAWN_RUNS = settings(max_examples=60, **RUNS)


def _short_run(name):
    strategy, check = TARGETS[name]

    @SHORT
    @given(strategy)
    def run(case):
        check(case)

    run()


@pytest.mark.parametrize("name", sorted(n for n in TARGETS if n != "presses"))
def test_short_run(name):
    _short_run(name)


@pytest.mark.parametrize("start", [name for name, _ in STARTING_FILES])
def test_random_presses_from_each_starting_file_leave_a_screen_that_answers(start):
    @PRESS_RUNS
    @given(STEPS)
    def run(steps):
        check_presses((start, steps))

    run()


@pytest.mark.slow
def test_random_presses_from_drawn_starting_files_leave_a_screen_that_answers():
    @DRAWN_RUNS
    @given(DRAWN_FILES, STEPS)
    def run(files, steps):
        check_presses((files, steps))

    run()


@pytest.mark.parametrize(
    "name,case",
    [pytest.param(n, c, id="%s-%d" % (n, i)) for n in sorted(REGRESSIONS) for i, c in enumerate(REGRESSIONS[n])],
)
def test_what_once_broke_it(name, case):
    TARGETS[name][1](case)
