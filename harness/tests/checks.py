"""harness/tests/checks.py - what the Python parts of the test stages share: "ok   MSG" / "FAIL MSG"
lines and their counts, and results files (JSON Lines) read whole.

  checks.py facts FILE        "complete|incomplete|partial EXIT TARGET_ID CASES PLANNED" (partial:
                              no footer), or "unreadable WHY"
  checks.py resolve OUT...    each "HONEST<TAB>FILE<TAB>COMPLETE<TAB>RC<TAB>OK<TAB>FAIL" line of the
                              files OUT becomes "ok   OK" or "FAIL FAIL" (honest, below)
"""
import json
import sys


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


def facts(path):
    try:
        recs = records(path)
        h, f = recs[0], recs[-1]
    except (OSError, ValueError, IndexError) as e:
        return "unreadable %s" % e
    done = "partial" if f.get("type") != "footer" else (
        "complete" if f.get("complete") is True else "incomplete")
    return "%s %s %s %d %s" % (done, f.get("exit_code"),
                               h.get("target_id"), sum(r.get("type") == "case" for r in recs),
                               h.get("cases_planned"))


def honest(path, want):
    """(ok, what): the file is honest: every line JSON, header first, footer last, seq without
    gaps, each case once, and a record for every planned case and complete:true (WANT true) or
    complete:false and fewer (WANT false); WHAT says what it holds, or what is wrong with it"""
    try:
        recs = [json.loads(l) for l in open(path, encoding="utf-8")]
    except Exception as e:
        return False, "not JSON Lines: %s" % e
    h, ft = (recs or [{}])[0], (recs or [{}])[-1]
    cases = [r for r in recs if r.get("type") == "case"]
    n, planned, done = len(cases), h.get("cases_planned"), ft.get("complete")
    for bad, why in ((h.get("type") != "header", "no header first"),
                     (ft.get("type") != "footer", "no footer last"),
                     ([r.get("seq") for r in cases] != list(range(1, n + 1)), "seq has gaps"),
                     (len({r.get("id") for r in cases}) != n, "a case recorded twice"),
                     (ft.get("total") != n or done != (n == planned),
                      "the footer does not match the records"),
                     (done != want, "complete is %s, %d of %d records" % (done, n, planned or 0))):
        if bad:
            return False, why
    return True, "%d of %d cases, complete:%s, exit_code %s" % (
        n, planned, str(done).lower(), ft.get("exit_code"))


def resolve(outs):
    """the HONEST lines of the files outs become ok or FAIL lines, {h} in them what honest says"""
    for out in outs:
        with open(out, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        for i, l in enumerate(lines):
            if l.startswith("HONEST\t"):
                _, path, want, rc, good, bad = l.split("\t")
                ok, h = honest(path, want == "true")
                lines[i] = ("ok   " + good if ok and rc == "0" else "FAIL " + bad).replace("{h}", h)
        with open(out, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))


if __name__ == "__main__":
    if sys.argv[1:2] == ["facts"] and len(sys.argv) == 3:
        print(facts(sys.argv[2]))
    elif sys.argv[1:2] == ["resolve"]:
        resolve(sys.argv[2:])
    else:
        sys.exit(__doc__)
