"""The firmware's own tests (tests/fw) run on the real MicroPython VM.

The VM is @micropython/micropython-webassembly-pyscript 1.27 under Node.js
(package-lock.json). Every module in tests/fw must run at least one test there
and pass all of them; a module that fails to import or runs nothing fails here.
"""

import json
import os

import pytest

from conftest import ROOT, run_on_vm

FW_TESTS = os.path.join(ROOT, "tests", "fw")
MODULES = sorted(n[:-3] for n in os.listdir(FW_TESTS) if n.startswith("test_") and n.endswith(".py"))


# Modules that took over a second on the VM (the "ms" of their report, on a 2-core machine): they still
# run on CPython in `tasks.py test --fast`, and on the VM in the full suite only.
SLOW_ON_VM = {
    "test_advisor",
    "test_canvas",
    "test_cards",
    "test_device",
    "test_device_cards",
    "test_device_faults",
    "test_device_rules",
    "test_entropy",
    "test_entropy_device",
    "test_full_games",
    "test_hw_entropy",
    "test_no_freeze",
    "test_store",
    "test_web_guard",
}


@pytest.fixture(scope="module")
def vm_reports(request):
    """One VM run for the modules this session selected (every one unless -m or -k left some out)."""
    chosen = sorted(
        item.callspec.params["module"]
        for item in request.session.items
        if item.module is request.module and item.originalname == "test_module_passes_on_micropython"
    )
    done = run_on_vm(os.path.join(FW_TESTS, "vm_unittest.py"), *(chosen or MODULES))
    reports = {}
    for line in done.stdout.splitlines():
        if line.startswith("VMRESULT "):
            report = json.loads(line[len("VMRESULT ") :])
            reports[report["module"]] = report
    assert done.returncode == 0, done.stderr[-3000:]
    return reports


def test_there_are_firmware_tests():
    assert len(MODULES) >= 4, MODULES


@pytest.mark.parametrize("module", [pytest.param(m, marks=pytest.mark.slow) if m in SLOW_ON_VM else m for m in MODULES])
def test_module_passes_on_micropython(vm_reports, module):
    report = vm_reports.get(module)
    assert report is not None, "%s produced no result on the VM" % module
    assert report["failed"] == 0 and report["errors"] == 0, "\n".join(report["details"])
    assert report["run"] > 0, "%s ran no test on the VM" % module


def test_vm_runs_the_same_tests_as_cpython(vm_reports):
    """The VM must not silently skip tests that CPython runs."""
    import importlib.util
    import unittest

    for module in sorted(vm_reports):
        spec = importlib.util.spec_from_file_location("cpython_" + module, os.path.join(FW_TESTS, module + ".py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        count = unittest.defaultTestLoader.loadTestsFromModule(mod).countTestCases()
        assert vm_reports[module]["run"] == count, module
        assert vm_reports[module]["skipped"] == 0, module
