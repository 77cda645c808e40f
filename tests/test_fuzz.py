"""The fuzz harness's short run (a few seconds a target): the save decoder, config.json, board profiles,
heroes.json, dice.json, the simulator's scripts and the monitor's events, each given hostile input
(tests/fuzz_targets.py says what each must do with it). Every input that ever broke one is run too.
benchmarks/fuzz.py runs 10^5 cases a target."""

import pytest
from fuzz_targets import REGRESSIONS, TARGETS
from hypothesis import HealthCheck, given, settings

SHORT = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))


def _short_run(name):
    strategy, check = TARGETS[name]

    @SHORT
    @given(strategy)
    def run(case):
        check(case)

    run()


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_short_run(name):
    _short_run(name)


@pytest.mark.parametrize(
    "name,case",
    [pytest.param(n, c, id="%s-%d" % (n, i)) for n in sorted(REGRESSIONS) for i, c in enumerate(REGRESSIONS[n])],
)
def test_what_once_broke_it(name, case):
    TARGETS[name][1](case)
