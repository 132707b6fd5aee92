"""harness/tests/twin_check.py - the checks of the twin stage (harness/tests/twin.sh) on the results
of a live run against the Windows twin (harness/twin/). Each prints "ok ..." or "FAIL ..." lines,
which the stage counts.

  agree REF.jsonl TWIN.jsonl CASES.json   the twin run agrees with the reference at that build, case by
                                          case (status and counted flag), but where a documented
                                          reason says why not; every live fixture executes
  verdicts TWIN.jsonl PERSONALITY         true verdicts: nothing counted (FAIL, TIMEOUT, CRASH) but what
                                          the personality makes true, a reason on every SKIP and
                                          BROKEN, and the personality's own expectations
  leftovers STATE.txt TEMP.txt [FLAG...]  nothing the run started is left: no session, no security
                                          entry (the twin's report), no file or directory etwconf-*
                                          in %TEMP% (TEMP.txt: its names right after the run); flags:
                                          "foreign" (the personality's foreign kernel logger still
                                          runs), "sessions" or "security" (only those)
  batch FILE                              the checks FILE lists, in groups (batch() says how), in one
                                          process: the stage starts Python once
"""
import json
import os
import sys

# why a live run may differ from the reference at the same build: what a live system cannot set
# up (the reference's control functions; before 6.2 a session's group masks and system-logger mode,
# which the reference sets directly), what it cannot read (an update level: RtlGetVersion reports
# none), and what only a live system can observe
LIVE_CANNOT = ("the target has no EtwRef_", "user mode cannot get through a public API",
               "which takes TraceSetInformation(TraceSystemTraceEnableFlagsInfo)", "system-logger mode exists from Windows 8",
               "this system's updates are not known")
REF_CANNOT = ("needs a live Windows",)


def load(path):
    cases, footer = {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if r.get("type") == "case":
                cases[r["id"]] = r
            elif r.get("type") in ("footer", "summary", "end"):
                footer = r
    return cases, footer


def said(r):
    return r.get("reason") or r.get("message") or ""


def agree(ref_path, twin_path, list_path):
    ref, _ = load(ref_path)
    twin, _ = load(twin_path)
    with open(list_path, encoding="utf-8") as f:
        planned = json.load(f)["cases"]
    out = []
    if len(twin) < len(planned) or len(ref) < len(planned):
        out.append("FAIL %s: %d cases, %s: %d, of %d planned" % (twin_path, len(twin), ref_path, len(ref), len(planned)))
    same = differ_ok = 0
    for c in planned:
        i = c["id"]
        a, b = ref.get(i), twin.get(i)
        if not a or not b:
            out.append("FAIL %s: missing from %s" % (i, ref_path if not a else twin_path))
            continue
        if c["fixture"]["logger"] and b["status"] == "BROKEN":
            out.append("FAIL %s: the live fixture did not execute: %s" % (i, said(b)))
            continue
        if (a["status"], a.get("counted")) == (b["status"], b.get("counted")):
            same += 1
        elif b["status"] == "SKIP" and any(s in said(b) for s in LIVE_CANNOT):
            differ_ok += 1
        elif a["status"] == "SKIP" and any(s in said(a) for s in REF_CANNOT) and b["status"] == "PASS":
            differ_ok += 1
        else:
            out.append("FAIL %s: reference %s%s, twin %s%s: %s" % (i, a["status"], " counted" if a.get("counted") else "", b["status"],
                                                                  " counted" if b.get("counted") else "", said(b) or said(a)))
    if same < len(planned) // 2:
        out.append("FAIL only %d of %d cases agree" % (same, len(planned)))
    if not any(l.startswith("FAIL") for l in out):
        out.append("ok   %s agrees with %s: %d cases the same, %d that a live system runs otherwise, with the reason" %
                   (os.path.basename(twin_path), os.path.basename(ref_path), same, differ_ok))
    return out


# what each personality makes true: case id prefix -> the statuses it must end with (a fixture the
# personality defeats is BROKEN or SKIP with the reason, never counted)
EXPECT = {
    "kernel-foreign": {"tqi.04.exact": ("SKIP",), "gmi.set-roundtrip": ("SKIP",)},
    "private-refused": {"dal.private-session": ("BROKEN", "SKIP")},
    "path-long": {"tqi.04.exact": ("PASS",), "gmi.set-roundtrip": ("PASS",)},
    "path-short": {"tqi.04.exact": ("PASS",), "gmi.set-roundtrip": ("PASS",)},
    "path-nt": {"tqi.04.exact": ("PASS",), "gmi.set-roundtrip": ("PASS",)},
    "ace-no-effect": {"gmi.set-access": ("BROKEN", "SKIP"), "tsi.04.no-access": ("BROKEN", "SKIP")},
    "events-late": {"traits.in-events": ("PASS",)},
    "events-never": {"traits.in-events": ("BROKEN",)},
    "no-pmc": {"tqi.07.names-unique": ("PASS", "SKIP"), "tqi.05.listed-sources": ("SKIP",), "tsi.05.pmc-source": ("SKIP",)},
}
# personalities whose Windows itself breaks a rule: a counted failure is the true verdict there,
# and the record must say what happened (an overrun is an overrun, raised or returned as a status)
COUNTED_TRUE = {"overrun-status": {"tqi.0b.exact": "overrun"}, "overrun-raise": {"tqi.0b.exact": "overrun"}}


def verdicts(twin_path, personality):
    twin, _ = load(twin_path)
    out = []
    if not twin:
        return ["FAIL %s: no case ran" % twin_path]
    counted_true = COUNTED_TRUE.get(personality, {})
    killed = 0
    for i, r in sorted(twin.items()):
        st = r["status"]
        if st in ("SKIP", "BROKEN") and not said(r):
            out.append("FAIL %s: %s without a reason" % (i, st))
        if i in counted_true:
            if r.get("mode") != counted_true[i] or st != "FAIL" or not r.get("counted"):
                out.append("FAIL %s: %s%s mode %s; %s's Windows %s: the record must be a counted FAIL of mode %s" %
                           (i, st, " counted" if r.get("counted") else "", r.get("mode"), personality, "overruns the buffer",
                            counted_true[i]))
            continue
        if personality == "worker-killed" and st == "CRASH" and (r.get("exception") or "").upper() == "0XC000013A":
            killed += 1
            continue
        if personality == "windows" and st == "BROKEN":
            out.append("FAIL %s: the live fixture did not execute against the twin as documented: %s" % (i, said(r)))
        if r.get("counted") or st in ("TIMEOUT", "CRASH"):
            out.append("FAIL %s: %s%s against the twin's personality %s: %s" % (i, st, " counted" if r.get("counted") else "",
                                                                                 personality, said(r)))
    if personality == "worker-killed" and killed != 1:
        out.append("FAIL the twin ended %d worker(s) (the record of a killed case is a CRASH 0xC000013A); 1 was planned" % killed)
    for i, want in EXPECT.get(personality, {}).items():
        r = twin.get(i)
        if not r:
            out.append("FAIL %s: not run under %s" % (i, personality))
        elif r["status"] not in want:
            out.append("FAIL %s: %s under %s, expected %s: %s" % (i, r["status"], personality, " or ".join(want), said(r)))
    if not any(l.startswith("FAIL") for l in out):
        out.append("ok   %s: %d cases, true verdicts under %s" % (os.path.basename(twin_path), len(twin), personality))
    return out


def leftovers(state_path, templist, *flags):
    """flags: "foreign" (the personality's foreign kernel logger must still run), "sessions" (sessions
    and files only), "security" (security entries only)"""
    foreign = "foreign" in flags
    look = {"sessions", "security"} & set(flags) or {"sessions", "security"}
    out = []
    with open(state_path, encoding="utf-8", errors="replace") as f:
        lines = [l.strip() for l in f if l.strip()]
    if not any(l.startswith("model ") for l in lines):
        return ["FAIL %s: not a twin state report" % state_path]
    for l in lines:
        if "sessions" in look and l.startswith("session ") and " foreign" not in l.split(" file=")[0]:
            out.append("FAIL the run left a session running: %s" % l)
        elif "security" in look and l.startswith("security "):
            out.append("FAIL the run left a security entry (a registry value on Windows): %s" % l)
        elif "security" in look and l.startswith("registry "):
            out.append("FAIL the run left a registry value: %s" % l)
    if foreign and not any(l.startswith("session ") and " foreign" in l for l in lines):
        out.append("FAIL the foreign NT Kernel Logger was stopped: the suite never stops a session it did not start")
    with open(templist, encoding="utf-8", errors="replace") as f:  # "# DIR", then what %TEMP% held right after the run
        listing = [n.strip() for n in f]
    if not listing or not listing[0].startswith("# "):
        out.append("FAIL %s: %%TEMP%% was not found after the run: the files it left cannot be looked for" % templist)
    names = sorted(n for n in listing[1:] if n.lower().startswith("etwconf-")) if "sessions" in look else []
    for n in names:
        out.append("FAIL the run left %s in %%TEMP%%" % n)
    if not any(l.startswith("FAIL") for l in out):
        what = {"sessions": "no session or file", "security": "no security entry"}
        out.append("ok   %s: nothing the run started is left behind (%s)%s" % (
            os.path.basename(state_path), ", ".join(what[k] for k in sorted(look)), "; the foreign kernel logger still runs" if foreign else ""))
    return out


def run(cmd, args):
    """one check's lines; a file that cannot be read is a failure of that check"""
    try:
        if cmd == "agree" and len(args) == 3:
            return agree(*args)
        if cmd == "verdicts" and len(args) == 2:
            return verdicts(*args)
        if cmd == "leftovers" and len(args) >= 2:
            return leftovers(*args)
    except (OSError, ValueError, KeyError) as e:
        return ["FAIL %s %s: %s" % (cmd, " ".join(args), e)]
    return ["FAIL unknown check: %s %s" % (cmd, " ".join(args))]


def batch(path):
    """the checks of FILE, one a line: GROUP<TAB>MODE<TAB>CHECK<TAB>ARG...; a group's lines are judged
    by its mode: "require" (as they are), "after-fixes" (a personality whose fixture fixes are not in
    the tree: its failures are shown and counted as one skip, and a group that passes fails, so that
    it is taken off the list), "plant" (a planted bug: the group must fail)"""
    groups, order = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            key = (parts[0], parts[1])
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append((parts[2], parts[3:]))
    out = []
    if not order:
        return ["FAIL %s lists no check" % path]
    for label, mode in order:
        lines = [l for cmd, args in groups[(label, mode)] for l in run(cmd, args)]
        failed = [l for l in lines if l.startswith("FAIL")]
        tagged = [l[:5] + "[%s] " % label + l[5:] for l in lines]
        if mode == "plant":
            out.append("ok   [plant %s] caught: %s" % (label, failed[0][5:]) if failed else
                       "FAIL [plant %s] not caught: %s" % (label, " | ".join(lines)))
        elif mode == "after-fixes":
            if failed:
                out += ["     " + l[5:] for l in tagged if l.startswith("FAIL")]
                out.append("skip [%s] defeats a fixture whose fix is not in this tree yet (AFTER_LIVE_FIXES in "
                           "harness/tests/twin.sh)" % label)
            else:
                out += tagged
                out.append("FAIL [%s] now ends with true verdicts: take it off AFTER_LIVE_FIXES in harness/tests/twin.sh" % label)
        else:
            out += tagged
    return out


def main(argv):
    if len(argv) == 3 and argv[1] == "batch":
        lines = batch(argv[2])
    elif len(argv) >= 3:
        lines = run(argv[1], argv[2:])
    else:
        sys.stderr.write(__doc__)
        return 2
    print("\n".join(lines))
    return 1 if any(l.startswith("FAIL") for l in lines) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
