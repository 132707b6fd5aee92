"""harness/tests/checks.py - what the Python parts of the test stages share: "ok   MSG" / "FAIL MSG"
lines and their counts, and results files (JSON Lines) read whole."""
import json


class Checker:
    def __init__(self, quiet=False):
        self.passed = self.failed = 0
        self.quiet = quiet

    def ok(self, good, msg, detail=""):
        """a check: counted, and printed unless quiet; a failure's DETAIL follows its message"""
        good = bool(good)
        self.passed += good
        self.failed += not good
        if not self.quiet:
            print(("ok   " + msg) if good else ("FAIL " + msg + (": " + detail if detail else "")))
        return good

    def summary(self, name):
        """the closing line "NAME: N passed, N failed"; the exit status"""
        print("%s: %d passed, %d failed" % (name, self.passed, self.failed))
        return 1 if self.failed else 0


CHECKS = Checker()
say = CHECKS.ok


def records(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def cases(path):
    """the case records of a results file by id"""
    return {r["id"]: r for r in records(path) if r.get("type") == "case"}

