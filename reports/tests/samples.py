#!/usr/bin/env python3
"""The sample results files the report tests read, written into a directory (deterministic):
generated() writes them into a temporary directory, removed when the process that made it exits;
`samples.py DIR` writes them into DIR.

They follow harness/RESULTS.md (schema etwconf-results/1) and cite real rule ids from
spec/rules.def. The case list is invented but shaped like the harness's cases/.

  reference-6.1.jsonl reference-10.0.jsonl   the reference at two emulated versions (conformant)
  wine-win7.jsonl wine-win10.jsonl           Wine: stub crashes 0x80000100, missing exports, ...
  windows-10.0.19045.jsonl                   real Windows, with a fingerprint
  truncated.jsonl                            killed midway: no footer, last line cut short
  malformed.jsonl                            a broken line in the middle
  foreign.jsonl                              JSON Lines, but not ours
  hostile.jsonl                              valid, with markup and controls in every string
  wine-expectations.json                     expectations for the Wine samples (all XFAIL)
  programs.def                               a program list (PROGRAM lines) for the scenarios

Every run ends with client-scenario cases ("client.<program>.<name>", with a "program" object
and, when they fail, "step", "step_what" and "consequence"), shaped like the harness's.
"""
import atexit
import json
import os
import shutil
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# The cases: a line "FILE FUNCTION" sets the file and function of the rows below it; a row is
# "ID LINE VERSIONS RULES...: TITLE" (VERSIONS: the versions the case applies to, "all", "6.2+",
# "10.0" or "6.0-6.1"); an indented line goes on with the title.
CASES_TABLE = """
cases/exports.c TraceQueryInformation
exp.advapi32.tqi 31 all EXP.ADVAPI32.TQI: ADVAPI32 exports TraceQueryInformation exactly from 6.2 on
exp.kernelbase.tqi 47 6.2 EXP.KERNELBASE.TQI: KERNELBASE exports TraceQueryInformation in 6.2
exp.sechost.tqi 60 6.3+ EXP.SECHOST.TQI: SECHOST exports TraceQueryInformation from 6.3 on
cases/exports.c TraceSetInformation
exp.advapi32.tsi 74 all EXP.ADVAPI32.TSI: ADVAPI32 exports TraceSetInformation from 6.1 on
cases/exports.c EtwCreateTraceInstanceId
exp.ntdll.etwcti 88 all EXP.NTDLL.ETWCTI: NTDLL exports EtwCreateTraceInstanceId
cases/exports.c CreateTraceInstanceId
exp.advapi32.cti 97 all EXP.ADVAPI32.CTI: ADVAPI32 exports CreateTraceInstanceId
cases/exports.c EtwEventSetInformation
exp.ntdll.etwesi 110 all EXP.NTDLL.ETWESI: NTDLL exports EtwEventSetInformation from 6.2 on
cases/exports.c NtTraceControl
exp.ntdll.nttracecontrol 121 all EXP.NTDLL.NTTRACECONTROL: NTDLL exports NtTraceControl from 6.0 on
cases/tqi.c TraceQueryInformation
tqi.rc.win32 40 6.2+ TQI.RC.WIN32 TQI.KERNEL.FAILURE: A failing kernel query returns a Win32 code
tqi.retlen.null 61 6.2+ TQI.RETLEN.OPTIONAL: ReturnLength may be NULL
tqi.class.unsupported 80 6.2+ TQI.CLASS.UNSUPPORTED TQI.CLASS.SET: Classes outside the set return
    ERROR_NOT_SUPPORTED
tqi.class.first 99 6.2+ TQI.CLASS.FIRST: A bad class with a NULL buffer still returns
    ERROR_NOT_SUPPORTED
tqi.04.min-size 118 6.2+ TQI.04.MIN_SIZE TQI.RETLEN.FAILURE: Class 0x04 with 0x1f bytes returns
    ERROR_BAD_LENGTH
tqi.04.output 140 6.2+ TQI.04.OUTPUT TQI.04.RETLEN: Class 0x04 returns the session's group mask
tqi.04.larger 166 6.2+ TQI.04.LARGER: Class 0x04 accepts a larger buffer
tqi.04.no-session 181 6.2+ TQI.04.SYSTEM_LOGGER: Class 0x04 for a missing session
tqi.05.handle 203 6.2+ TQI.05.HANDLE_ZERO TQI.05.ORDER: Class 0x05 with a non-zero handle returns
    ERROR_INVALID_PARAMETER
tqi.05.exact 222 6.2+ TQI.05.EXACT_SIZE TQI.05.RETLEN: Class 0x05 needs exactly 8 bytes
tqi.05.timer 245 6.2+ TQI.05.TIMER: Class 0x05 ProfileTime interval
tqi.07.format 270 6.2+ TQI.07.FORMAT TQI.07.KERNEL: Class 0x07 lists the profile sources
tqi.0b.exact 301 10.0 TQI.0B.EXACT_SIZE TQI.0B.RETLEN: TraceVersionInfo with 8 bytes succeeds
tqi.0b.len-short 318 10.0 TQI.0B.EXACT_SIZE TQI.RETLEN.FAILURE: TraceVersionInfo with 7 bytes is
    rejected
tqi.0b.version 335 10.0 TQI.0B.VERSION: TraceVersionInfo reports version 3.0
tqi.0e.output 352 10.0 TQI.0E.OUTPUT TQI.0E.NTC22: TraceDisallowListQuery returns the list
tqi.0e.small 377 10.0 TQI.0E.SMALL: TraceDisallowListQuery with a small buffer
cases/tsi.c TraceSetInformation
tsi.class.set 30 6.1+ TSI.CLASS.SET: Unsupported classes are rejected
tsi.03.size 52 6.1+ TSI.03.SIZE TSI.03.EMPTY: TraceGuidQueryList size checks
tsi.04.length 77 6.2+ TSI.04.LENGTH: Class 0x04 length checks
tsi.05.exact 99 6.2+ TSI.05.EXACT_SIZE TSI.05.HANDLE_ZERO: Class 0x05 needs exactly 8 bytes and a
    zero handle
tsi.06.privilege 121 6.2+ TSI.06.PRIVILEGE: Class 0x06 needs SeSystemProfilePrivilege
cases/kernel.c NtQuerySystemInformation
gmi.size 44 6.0+ GMI.SIZE GMI.EXACT_SIZE: EventTraceGroupMaskInformation size checks
gmi.not-found 70 6.0+ GMI.NOT_FOUND: Group mask of a missing logger
cases/kernel.c NtSetSystemInformation
gmi.set-before-62 93 6.0-6.1 GMI.SET_BEFORE_62: Setting the group mask before 6.2 fails
cases/kernel.c NtQuerySystemInformation
ksi.bad-class 120 6.0+ KSI.BAD_CLASS: An unknown event trace class is rejected
cases/ntc.c NtTraceControl
ntc.retsize-null 33 6.0+ NTC.RETSIZE_NULL: NtTraceControl with a NULL ReturnSize
ntc.unknown-code 58 6.0+ NTC.UNKNOWN_CODE: Unknown function codes are rejected
cases/cti.c EtwCreateTraceInstanceId
cti.null-handle 35 all CTI.NULL_HANDLE CTI.LAST_ERROR: A NULL RegHandle is rejected
cti.null-info 52 all CTI.NULL_INFO: A NULL InstInfo is rejected
cti.counter 70 all CTI.COUNTER CTI.OUTPUT: Instance ids count up per registration
cti.wrap 99 all CTI.WRAP: The counter starts over at 1
cases/cti.c CreateTraceInstanceId
cti.forward 120 all CTI.FORWARD: ADVAPI32's CreateTraceInstanceId is NTDLL's
cases/cti.c EtwCreateTraceInstanceId
cti.last-error-success 137 all CTI.LAST_ERROR_SUCCESS: Success leaves the last error alone
cases/provider.c RegisterTraceGuidsW
rtg.null-args 40 all RTG.NULL_ARGS: NULL arguments are rejected
rtg.count-limit 66 all RTG.COUNT_LIMIT: Too many GUIDs are rejected
cases/provider.c EventRegister
er.null-out 91 6.0+ ER.NULL_OUT: EventRegister with a NULL RegHandle
cases/provider.c EventSetInformation
esi.class 120 6.2+ ESI.CLASS: Unknown classes are rejected
esi.bad-handle 141 6.2+ ESI.BAD_HANDLE: A bad handle is rejected
traits.set 170 10.0 TRAITS.SET TRAITS.FORMAT_SIZE: Provider traits are accepted
traits.once 199 10.0 TRAITS.ONCE TRAITS.ONCE_CODE: Traits can be set once
"""


def _cases(table):
    cases, where = [], None
    for line in table.strip().splitlines():
        if line.startswith(" "):
            cases[-1][4] += " " + line.strip()
        elif ":" not in line:
            where = line.split()
        else:
            head, title = line.split(": ", 1)
            cid, num, versions, *rules = head.split()
            cases.append([cid, where[0], int(num), where[1], title, rules, versions])
    return [tuple(c) for c in cases]


CASES = _cases(CASES_TABLE)

# Client scenarios: one real program's calls replayed in order.
# program id -> (name, repository, source, note)
PROGRAMS = {
    "perfview": ("PerfView / TraceEvent", "microsoft/perfview",
                 "src/TraceEvent/TraceEventSession.cs (TraceEventProfileSources.GetInfo)",
                 "also BenchmarkDotNet's hardware-counter diagnoser"),
    "pmctrace": ("pmctrace", "cmuratori/pmctrace", "pmctrace_server.cpp (Win32FindPMCIndexes)",
                 "relies on the probe writing ReturnLength"),
    "miniperf-h": ("miniperf.h", "public gist (Martins Mozeiko)", "miniperf.h (MiniPerf)",
                   "asserts ERROR_BAD_LENGTH from the probe"),
    "dtrace-etw": ("DTrace for Windows (ETW back end)", "prash-wghats/Dtrace-ETW",
                   "drivers/etw/etw.cpp (dtrace_etw_pmc_info)", "NULL ReturnLength"),
    "krabsetw": ("krabsetw", "microsoft/krabsetw", "krabs/krabs/kt.hpp (kt::enable_providers)",
                 "reuses the group-mask buffer"),
    "tracy": ("Tracy", "wolfpld/tracy", "public/client/windows/TracyETW.cpp "
              "(SetCPUProfilingInterval)", ""),
    "fibratus": ("fibratus", "rabbitstack/fibratus", "pkg/sys/etw/etw.go (SetTraceSystemFlags)",
                 ""),
    "go-winio": ("go-winio", "microsoft/go-winio", "pkg/etw/newprovider.go "
                 "(NewProviderWithOptions)", "a traits failure makes the provider unusable"),
    "instance-ids": ("Classic instance ids (documented pattern)", "MicrosoftDocs/win32",
                     "desktop-src/ETW/tracing-event-instances.md", ""),
    "optick": ("Optick", "bombomby/optick", "src/optick_core.win.h (ETW::Start)",
               "listed, no scenario in the samples"),
}

# id, file, line, function, title, rules, versions, program, steps [(call, consequence)]
SCENARIOS = [
    ("client.perfview.profile-sources", "cases/clients.c", 40, "TraceQueryInformation",
     "PerfView lists the profile sources and their intervals",
     ["TQI.07.FORMAT", "TQI.05.TIMER"], "6.2+", "perfview",
     [("TQI(0, 0x07, NULL, 0, &len)", "len stays 0: TraceEvent reports no profile sources"),
      ("TQI(0, 0x07, buf, len, &len)", "throws: profile-source discovery fails"),
      ("TQI(0, 0x05, {Source, 0}, 8, &l) for every source", "throws: no source can be used")]),
    ("client.pmctrace.find-pmc", "cases/clients.c", 90, "TraceQueryInformation",
     "pmctrace finds its PMC indexes", ["TQI.07.FORMAT", "TQI.07.KERNEL"], "6.2+", "pmctrace",
     [("TQI(0, 0x07, NULL, 0, &size), size uninitialised",
       "allocates a garbage size; no PMC is found"),
      ("TQI(0, 0x07, buf, size, &size)", "no PMC found: traces run without counters")]),
    ("client.miniperf-h.pmc", "cases/clients.c", 130, "TraceQueryInformation",
     "miniperf.h probes and reads the profile sources", ["TQI.07.SHORT_RC", "TQI.07.FORMAT"],
     "6.2+", "miniperf-h",
     [("TQI(0, 0x07, NULL, 0, &size)", "__debugbreak: the assertion on ERROR_BAD_LENGTH stops "
       "the program"),
      ("TQI(0, 0x07, buf, size, &size)", "__debugbreak: asserted ERROR_SUCCESS")]),
    ("client.dtrace-etw.pmc-info", "cases/clients.c", 170, "TraceQueryInformation",
     "DTrace's ETW back end reads the PMC sources with a NULL ReturnLength",
     ["TQI.07.FORMAT", "TQI.RETLEN.OPTIONAL"], "6.2+", "dtrace-etw",
     [("TQI(0, 0x07, NULL, 0, &len)", "len is garbage: the PMC setup dies"),
      ("TQI(0, 0x07, buf, len, NULL)", "no PMC provider: pmc probes are not offered")]),
    ("client.krabsetw.group-mask", "cases/clients.c", 210, "NtQuerySystemInformation",
     "krabsetw reads, ORs and sets the group mask with the same buffer", ["GMI.SIZE"], "6.2+",
     "krabsetw",
     [("NtQuerySystemInformation(0x1F, {class 1, TraceHandle}, 0x30, NULL)",
       "throws: the kernel trace does not start"),
      ("NtSetSystemInformation(0x1F, same buffer, 0x30)", "throws: the kernel trace does not "
       "start")]),
    ("client.tracy.sampling", "cases/clients.c", 250, "TraceSetInformation",
     "Tracy sets the CPU sampling interval", ["TSI.05.EXACT_SIZE", "TSI.05.HANDLE_ZERO"],
     "6.2+", "tracy",
     [("TSI(0, 0x05, {0, 1250}, 8)", "CPU sampling is silently not enabled: no samples")]),
    ("client.fibratus.flags", "cases/clients.c", 280, "TraceSetInformation",
     "fibratus sets and reads back the kernel flags", ["TSI.04.LENGTH"], "6.2+", "fibratus",
     [("TSI(h, 0x04, 8 zero masks, 32)", "the trace runs without kernel flags")]),
    ("client.go-winio.traits", "cases/clients.c", 310, "EventSetInformation",
     "go-winio registers a provider with traits", ["TRAITS.SET", "TRAITS.FORMAT_SIZE"], "10.0",
     "go-winio",
     [("EventRegister(guid, NULL, NULL, &h)", "NewProviderWithOptions returns the error"),
      ("EventSetInformation(h, 2, traits, 34)", "NewProviderWithOptions returns the error: the "
       "provider is unusable")]),
    ("client.instance-ids.parent-child", "cases/clients.c", 350, "CreateTraceInstanceId",
     "RegisterTraceGuids, then instance ids for a parent and its children",
     ["CTI.COUNTER", "CTI.OUTPUT"], "all", "instance-ids",
     [("RegisterTraceGuids(cb, ctx, guid, 1, reg, NULL, NULL, &h)", "no events are traced"),
      ("CreateTraceInstanceId(reg[0].RegHandle, &parent)", "parent and child events cannot be "
       "related")]),
]

COUNTED_RULES = None  # filled from spec/rules.py by write_all


def nt(v):
    a, b = v.split(".")[:2]
    return (int(a), int(b))


def applies(spec, version):
    if spec == "all":
        return True
    if spec.endswith("+"):
        return nt(version) >= nt(spec[:-1])
    if "-" in spec:
        a, b = spec.split("-")
        return nt(a) <= nt(version) <= nt(b)
    return nt(version) == nt(spec)


def skip_reason(case, version):
    cid, spec = case[0], case[6]
    if cid.startswith("client."):
        return "the program makes these calls on Windows %s only" % spec
    if cid.startswith("tqi.") and nt(version) < (6, 2):
        return "TraceQueryInformation is not exported before 6.2 (EXP.ADVAPI32.TQI)"
    return "rule applies to %s, target is %s" % (spec, version)


def ok_check(rule, what="return", val="0 (ERROR_SUCCESS)"):
    return {"what": what, "rule": rule, "expected": val, "got": val, "ok": True}


def header(impl, version, tid, emulated, fingerprint, argv, build, name=None, path=None):
    return {"type": "header", "schema": "etwconf-results/1",
            "suite": {"name": "etwconf", "version": "0.1.0", "git": "3f2a9c1"},
            "target": {"impl": impl, "name": name or impl, "path": path, "version": version,
                       "build": build, "emulated": emulated, "arch": "x86_64"},
            "target_id": tid, "host": {"os": "linux", "arch": "x86_64"},
            "fingerprint": fingerprint, "started": "2026-11-22T10:00:00Z", "argv": argv,
            "isolation": "batch", "timeout_ms": 5000,
            "cases_planned": len(CASES) + len(SCENARIOS)}


def make_run(impl, version, tid, behave, rerun_fmt, fingerprint=None, emulated=True, build=7601,
             argv=None):
    """behave(case, version) -> None (PASS) or a dict of fields overriding the PASS record."""
    recs = [header(impl, version, tid, emulated, fingerprint or {}, argv or
                   ["build/etwconf", "run", "--emulate", version], build)]
    for seq, case in enumerate(CASES + SCENARIOS, 1):
        cid, file, line, func, title, rules, spec = case[:7]
        h = zlib.crc32(("%s/%s" % (tid, cid)).encode())
        rec = {"type": "case", "seq": seq, "id": cid, "file": file, "line": line,
               "function": func, "title": title, "rules": rules, "status": "PASS",
               "counted": False, "mode": None, "failed_rules": [],
               "checks": [ok_check(r) for r in rules], "message": None, "reason": None,
               "exception": None, "duration_us": 5 + h % 400,
               "rerun": rerun_fmt % cid}
        if not applies(spec, version):
            rec.update(status="SKIP", checks=[], reason=skip_reason(case, version), duration_us=0)
        else:
            over = behave(case, version)
            if over:
                rec.update(over)
        if len(case) > 7:
            pid, steps = case[7], case[8]
            name, repo, source, _ = PROGRAMS[pid]
            rec["program"] = {"id": pid, "name": name, "source": "%s: %s" % (repo, source)}
            step = rec.pop("step", None)
            if rec["status"] in ("FAIL", "CRASH", "TIMEOUT") and step is not None:
                rec.update(step=step, step_what=steps[step - 1][0],
                           consequence=rec.get("consequence") or steps[step - 1][1])
        if rec["status"] in ("CRASH", "TIMEOUT"):
            rec["failed_rules"] = list(rules)
        if rec["status"] in ("FAIL", "CRASH", "TIMEOUT"):
            rec["counted"] = any(COUNTED_RULES.get(r, False) for r in rec["failed_rules"])
        recs.append(rec)
    return finish(recs)


def sums(cases):
    """The footer fields that add up the case records."""
    counts = {st: sum(1 for r in cases if r["status"] == st)
              for st in ("PASS", "FAIL", "SKIP", "BROKEN", "CRASH", "TIMEOUT")}
    counted = sum(1 for r in cases if r.get("counted"))
    return {"counts": counts, "total": len(cases), "counted_failures": counted,
            "exit_code": 1 if counted or counts["CRASH"] or counts["TIMEOUT"] else 0}


def finish(recs, complete=True):
    cases = [r for r in recs if r["type"] == "case"]
    foot = {"type": "footer", "counts": None, "total": None, "counted_failures": None,
            "finished": "2026-11-22T10:00:01Z", "duration_ms": 40 + len(cases),
            "complete": complete}
    foot.update(sums(cases))
    recs.append(foot)
    return recs


def fail(rule, what, expected, got, mode="return", extra_rules=()):
    return {"status": "FAIL", "mode": mode, "failed_rules": [rule] + list(extra_rules),
            "checks": [{"what": what, "rule": rule, "expected": expected, "got": got, "ok": False}],
            "message": "%s: expected %s, got %s" % (what, expected, got)}


def missing_export(rule, dll, func):
    return {"status": "FAIL", "mode": "missing-export", "failed_rules": [rule],
            "checks": [{"what": "export", "rule": rule, "expected": "%s!%s exported" % (dll, func),
                        "got": "not exported", "ok": False}],
            "message": "%s!%s is not exported" % (dll, func)}


def stub_crash(func):
    return {"status": "CRASH", "mode": "exception", "checks": [],
            "exception": "0x80000100",
            "message": "EXCEPTION_WINE_STUB: unimplemented function sechost.dll.%s called" % func}


NOT_ELEVATED = {"status": "SKIP", "checks": [],
                "reason": "SeSystemProfilePrivilege not held (run elevated)"}

# Wine's failures at every version: case id -> the fields that replace the PASS record's
WINE = {
    "client.pmctrace.find-pmc": stub_crash("TraceQueryInformation"),  # in a worker: no step
    "client.krabsetw.group-mask": dict(fail("GMI.SIZE", "return", "0 (STATUS_SUCCESS)",
                                            "0xc0000003 (STATUS_INVALID_INFO_CLASS)"), step=1),
    "client.tracy.sampling": dict(fail("TSI.05.EXACT_SIZE", "return", "0 (ERROR_SUCCESS)",
                                       "50 (ERROR_NOT_SUPPORTED)"), step=1),
    "exp.sechost.tqi": missing_export("EXP.SECHOST.TQI", "sechost", "TraceQueryInformation"),
    "esi.class": fail("ESI.CLASS", "return", "87 (ERROR_INVALID_PARAMETER)", "0 (ERROR_SUCCESS)"),
    "tsi.03.size": fail("TSI.03.SIZE", "return", "24 (ERROR_BAD_LENGTH)",
                        "50 (ERROR_NOT_SUPPORTED)"),
    "cti.last-error-success": fail("CTI.LAST_ERROR_SUCCESS", "last error",
                                   "0xdeadbeef (unchanged)", "0", mode="last-error"),
    "gmi.size": fail("GMI.SIZE", "return", "0xc0000004 (STATUS_INFO_LENGTH_MISMATCH)",
                     "0xc0000003 (STATUS_INVALID_INFO_CLASS)"),
    "gmi.not-found": fail("GMI.NOT_FOUND", "return", "0xc0000034 (STATUS_OBJECT_NAME_NOT_FOUND)",
                          "0xc0000003 (STATUS_INVALID_INFO_CLASS)"),
    "ntc.unknown-code": fail("NTC.UNKNOWN_CODE", "return",
                             "0xc000000d (STATUS_INVALID_PARAMETER)",
                             "0xc0000002 (STATUS_NOT_IMPLEMENTED)"),
    "tsi.06.privilege": {"status": "BROKEN", "checks": [], "message": "fixture: StartTrace(NT "
                         "Kernel Logger) failed: 5 (ERROR_ACCESS_DENIED)"},
}

# the failures of real Windows
WINDOWS = {
    "client.miniperf-h.pmc": dict(fail("TQI.07.SHORT_RC", "return", "24 (ERROR_BAD_LENGTH)",
                                       "122 (ERROR_INSUFFICIENT_BUFFER)"), step=1),
    "client.pmctrace.find-pmc": NOT_ELEVATED,
    "tqi.0e.small": fail("TQI.0E.SMALL", "return", "122 (ERROR_INSUFFICIENT_BUFFER)",
                         "234 (ERROR_MORE_DATA)"),
    "tsi.06.privilege": NOT_ELEVATED,
    "tqi.0b.version": fail("TQI.0B.VERSION", "output", "EtwTraceVersion 3.0",
                           "EtwTraceVersion 3.1", mode="output"),
}


def wine(case, version):
    cid, v = case[0], nt(version)
    if cid in WINE:
        return WINE[cid]
    if cid.startswith("client.") and case[3] == "TraceQueryInformation":
        return dict(stub_crash("TraceQueryInformation"), step=1,
                    consequence="the exception 0x80000100 ends the program at its first call")
    if cid.startswith("tqi.") and v >= (6, 2):
        return stub_crash("TraceQueryInformation")
    if cid == "exp.ntdll.etwesi" and v >= (6, 2):
        return missing_export("EXP.NTDLL.ETWESI", "ntdll", "EtwEventSetInformation")
    if cid == "rtg.count-limit" and v >= (10, 0):
        return {"status": "TIMEOUT", "mode": "timeout", "checks": [],
                "message": "no return within 5000 ms"}
    return None


def jsonl(recs):
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs)


HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(1)>'


def hostile():
    h = header("thirdparty", "10.0", "thirdparty@" + HOSTILE, False,
               {"product": HOSTILE, HOSTILE: "key is markup", "esc": "\u001b[31mred\u001b[0m",
                "nul": "a\u0000b", "surrogate": "\ud800", "nested": {"deep": [HOSTILE, 1, None]}},
               ["evil.exe", HOSTILE], 19045, name=HOSTILE, path="C:\\evil\\" + HOSTILE + ".dll")
    recs = [h]
    specs = [
        ("PASS", {}),
        ("FAIL", {"mode": "return<script>", "failed_rules": ["TQI.0B.EXACT_SIZE", "<b>X.Y</b>"],
                  "checks": [{"what": HOSTILE, "rule": "<i>rule</i>", "expected": "</pre>]]>--",
                              "got": HOSTILE + " `tick` | pipe | **bold** [link](javascript:x)",
                              "ok": False}],
                  "message": HOSTILE + "\nsecond line\r\n\u2028",
                  "rerun": "build/etwconf run --case '" + HOSTILE + "'; rm -rf /"}),
        ("CRASH", {"mode": "exception", "exception": HOSTILE,
                   "message": "</script><script>alert(2)</script>", "checks": []}),
        ("SKIP", {"reason": HOSTILE + " \u001b]0;title\u0007", "checks": []}),
        ("TIMEOUT", {"mode": "timeout", "message": "\"'><svg onload=alert(3)>", "checks": []}),
        ("FAIL", {"id": "client.evil<i>x</i>.steps", "mode": "return",
                  "program": {"id": "evil<i>x</i>", "name": HOSTILE + " & co",
                              "source": "<a href=javascript:alert(4)>src</a>"},
                  "step": 2, "step_what": "TQI(" + HOSTILE + ")",
                  "consequence": HOSTILE + " `tick` | pipe ]]> \u001b[31m",
                  "failed_rules": ["TQI.0B.EXACT_SIZE"],
                  "checks": [{"what": "return", "rule": "TQI.0B.EXACT_SIZE", "expected": "0",
                              "got": "87", "ok": False}], "message": "return: expected 0"}),
        ("SKIP", {"id": "client.evil<i>x</i>.skipped", "checks": [],
                  "program": {"id": "evil<i>x</i>", "name": HOSTILE + " & co", "source": None},
                  "reason": "<b>not</b> " + HOSTILE}),
    ]
    for seq, (st, over) in enumerate(specs, 1):
        rec = {"type": "case", "seq": seq, "id": over.pop("id", "evil.%d.%s" % (seq, HOSTILE)),
               "file": "cases/" + HOSTILE + ".c", "line": 7, "function": "Trace<script>Query",
               "title": HOSTILE, "rules": ["TQI.0B.EXACT_SIZE", "<b>X.Y</b>"], "status": st,
               "counted": st in ("FAIL", "CRASH", "TIMEOUT"), "mode": None,
               "failed_rules": [], "checks": [ok_check("TQI.0B.EXACT_SIZE", HOSTILE)],
               "message": None, "reason": None, "exception": None, "duration_us": 3,
               "rerun": "build/etwconf run --case x", "unknown_future_key": {"x": HOSTILE}}
        rec.update(over)
        if st in ("CRASH", "TIMEOUT"):
            rec["failed_rules"] = list(rec["rules"])
        recs.append(rec)
    h["cases_planned"] = len(specs)
    return finish(recs)


def expectations_doc():
    entries = [
        {"case": "cti.last-error-success", "versions": ["win7", "win10"], "status": "FAIL",
         "mode": "last-error", "why": "Wine's EtwCreateTraceInstanceId clears the last error"},
        {"case": "esi.class", "versions": ["win10"], "status": "FAIL", "mode": "return",
         "observed": "ERROR_SUCCESS", "why": "EventSetInformation accepts every class"},
        {"case": "exp.ntdll.etwesi", "versions": "6.2-10.0", "status": "FAIL",
         "mode": "missing-export", "observed": "not exported",
         "why": "Wine does not export it yet"},
        {"case": "exp.sechost.tqi", "versions": ["win10"], "status": "FAIL",
         "mode": "missing-export", "why": "TraceQueryInformation lives in advapi32 on Wine"},
        {"case": "gmi.not-found", "status": "FAIL", "mode": "return",
         "observed": "STATUS_INVALID_INFO_CLASS", "why": "ntdll does not know class 0x11"},
        {"case": "gmi.size", "status": "FAIL", "observed": "STATUS_INVALID_INFO_CLASS",
         "why": "ntdll does not know class 0x11"},
        {"case": "ntc.unknown-code", "status": "FAIL", "observed": "STATUS_NOT_IMPLEMENTED",
         "why": "NtTraceControl is a stub"},
        {"case": "rtg.count-limit", "versions": ["win10"], "status": "TIMEOUT",
         "why": "RegisterTraceGuidsW loops on a large count"},
        {"case": "tsi.03.size", "versions": ["win7", "win10"], "status": "FAIL",
         "observed": "ERROR_NOT_SUPPORTED", "why": "TraceSetInformation only knows class 2"},
        {"case": "tsi.06.privilege", "versions": ["win10"], "status": "BROKEN",
         "why": "no kernel logger under Wine"},
        {"case": "client.krabsetw.group-mask", "versions": ["win10"], "status": "FAIL",
         "observed": "STATUS_INVALID_INFO_CLASS", "why": "ntdll does not know class 0x11"},
        {"case": "client.tracy.sampling", "versions": ["win10"], "status": "FAIL",
         "observed": "ERROR_NOT_SUPPORTED", "why": "TraceSetInformation only knows class 2"},
    ]
    # the stub crashes of the TraceQueryInformation cases and scenarios at 10.0
    crash = {"versions": ["win10"], "status": "CRASH", "mode": "exception",
             "observed": "0x80000100",
             "why": "sechost!TraceQueryInformation is a stub that raises EXCEPTION_WINE_STUB"}
    entries += [dict(case=c[0], **crash) for c in CASES + SCENARIOS
                if c[0].startswith("client.") and c[3] == "TraceQueryInformation"
                or c[0].startswith("tqi.") and c[6] in ("6.2+", "10.0")]
    entries.sort(key=lambda e: e["case"])
    return {"schema": "etwconf-expectations/1", "target": {"impl": "wine", "arch": "x86_64"},
            "entries": entries}


def write_all(out):
    """Write every sample file into the directory OUT."""
    global COUNTED_RULES
    sys.path.insert(0, os.path.join(HERE, "..", "..", "spec"))
    import rules
    COUNTED_RULES = {r["id"]: rules.counted(r) for r in rules.load()}
    sys.path.insert(0, os.path.dirname(HERE))
    from etwconf_report.expectations import dumps
    def reference(case, version):
        return None
    ref = "build/etwconf run --target reference --emulate %s --case %%s"
    wref = "WINEPREFIX=build/wine-%s wine build/etwconf.exe run --case %%s"
    exe = ["etwconf.exe", "run"]

    def wine_fp(winver):
        return {"wine_version": "wine-8.0", "wine_host": "Linux 6.1.0", "winver": winver}
    # killed midway: header + 14 cases + half of the 15th, no footer
    killed = jsonl(make_run("reference", "6.2", "reference@6.2", reference, ref % "6.2",
                            build=9200)).splitlines()
    # a damaged line in the middle: a partial write, then the next record
    damaged = jsonl(make_run("reference", "6.3", "reference@6.3", reference, ref % "6.3",
                             build=9600)).splitlines()
    damaged[5] = damaged[5][:120] + damaged[6]
    files = {
        "reference-6.1.jsonl": jsonl(make_run("reference", "6.1", "reference@6.1", reference,
                                              ref % "6.1")),
        "reference-10.0.jsonl": jsonl(make_run("reference", "10.0", "reference@10.0", reference,
                                               ref % "10.0", build=19041)),
        "wine-win7.jsonl": jsonl(make_run("wine", "6.1", "wine@win7", wine, wref % "win7",
                                          wine_fp("win7"), emulated=False, argv=exe)),
        "wine-win10.jsonl": jsonl(make_run("wine", "10.0", "wine@win10", wine, wref % "win10",
                                           wine_fp("win10"), emulated=False, build=19045,
                                           argv=exe)),
        "windows-10.0.19045.jsonl": jsonl(make_run(
            "windows", "10.0", "windows@10.0.19045", lambda case, v: WINDOWS.get(case[0]),
            "etwconf.exe run --case %s",
            {"RtlGetVersion": "10.0.19045", "UBR": 4291, "product_type": "workstation",
             "arch": "x64", "wow64": False, "elevated": False,
             "privileges": ["SeChangeNotifyPrivilege"], "exe_sha256": "9f2b5c0d" * 8},
            emulated=False, build=19045, argv=exe)),
        "truncated.jsonl": "\n".join(killed[:15]) + "\n" + killed[15][:len(killed[15]) // 2],
        "malformed.jsonl": "\n".join(damaged) + "\n",
        "foreign.jsonl":
            '{"level":"info","ts":"2026-11-22T10:00:00Z","msg":"server started","port":8080}\n'
            '{"level":"warn","ts":"2026-11-22T10:00:01Z","msg":"slow request","ms":1200}\n',
        "hostile.jsonl": jsonl(hostile()),
        "programs.def": "/* Sample program list for the report tests (written by "
                        "reports/tests/samples.py).\n * PROGRAM(id, name, repository, source "
                        "file(s), note) */\n" + "".join(
                            "PROGRAM(%s, %s, %s,\n        %s, %s)\n" % tuple(
                                json.dumps(x) for x in (pid,) + p) for pid, p in PROGRAMS.items()),
        "wine-expectations.json": dumps(expectations_doc()),
    }
    for name, text in files.items():
        with open(os.path.join(out, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)


def generated():
    """A temporary directory holding every sample file, removed when this process exits."""
    out = tempfile.mkdtemp(prefix="etwconf-samples-")
    owner = os.getpid()
    atexit.register(lambda: os.getpid() == owner and shutil.rmtree(out, ignore_errors=True))
    write_all(out)
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: samples.py DIR (the directory to write the sample files into)")
    os.makedirs(sys.argv[1], exist_ok=True)
    write_all(sys.argv[1])
