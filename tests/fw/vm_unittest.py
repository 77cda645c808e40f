"""Run firmware test modules inside the MicroPython VM; print one JSON line each.

Used by tests/test_on_micropython.py as
    node vm/run.mjs --mount firmware:/fw --mount tests/fw:/tests tests/fw/vm_unittest.py MODULE...
Each line: {"module", "run", "failed", "errors", "skipped", "details", "ms"}; the
pytest side fails on any failure, error, or a module that ran nothing.
"""

import json
import sys
import time
import unittest


def run_module(name):
    module = __import__(name)
    suite = unittest.TestSuite()
    for attr in dir(module):
        obj = getattr(module, attr)
        if isinstance(obj, type) and issubclass(obj, unittest.TestCase) and obj is not unittest.TestCase:
            suite.addTest(obj)
    result = unittest.TestResult()
    suite.run(result)
    details = []
    for kind, items in (("FAIL", result.failures), ("ERROR", result.errors)):
        for item in items:
            details.append("%s %s" % (kind, " ".join(str(part) for part in item)))
    return {
        "module": name,
        "run": result.testsRun,
        "failed": result.failuresNum,
        "errors": result.errorsNum,
        "skipped": result.skippedNum,
        "details": details,
    }


for name in sys.argv[1:]:
    start = time.ticks_ms()
    try:
        report = run_module(name)
    except Exception as e:  # noqa: BLE001 an import error is a failure of the whole module
        sys.print_exception(e)
        report = {
            "module": name,
            "run": 0,
            "failed": 0,
            "errors": 1,
            "skipped": 0,
            "details": ["ERROR importing %s: %r" % (name, e)],
        }
    report["ms"] = time.ticks_diff(time.ticks_ms(), start)  # which modules are slow on the VM (--fast)
    print("VMRESULT " + json.dumps(report))
