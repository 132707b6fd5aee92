#!/usr/bin/env python3
"""Run the report tools' unit tests (reports/tests/test_*.py).

The last line is "reports: N passed, N failed, N skipped" (for harness/tests/stages.sh); the exit
status is 1 when a test failed. Usage: run.py [-v] [PATTERN...] (substring of test ids).
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))


class Result(unittest.TextTestResult):
    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.passed = 0

    def addSuccess(self, test):
        super().addSuccess(test)
        self.passed += 1


def _iter(suite):
    for t in suite:
        yield from _iter(t) if isinstance(t, unittest.TestSuite) else (t,)


def main(argv):
    verbose = "-v" in argv
    pats = [a for a in argv if not a.startswith("-")]
    tests = list(_iter(unittest.TestLoader().discover(HERE, pattern="test_*.py",
                                                      top_level_dir=HERE)))
    broken = [t for t in tests if type(t).__name__ == "_FailedTest"]
    if pats:
        tests = [t for t in tests if any(p in t.id() for p in pats)] + broken
    if not tests:  # no test run is no pass
        print("FAIL no test in %s matches %s" % (HERE, " ".join(pats) if pats else "test_*.py"))
        print("reports: 0 passed, 1 failed, 0 skipped")
        return 1
    runner = unittest.TextTestRunner(stream=sys.stdout, verbosity=2 if verbose else 1,
                                     resultclass=Result)
    res = runner.run(unittest.TestSuite(tests))
    failed = len(res.failures) + len(res.errors) + len(res.unexpectedSuccesses)
    print("reports: %d passed, %d failed, %d skipped" % (res.passed, failed, len(res.skipped)))
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
