"""Ingestion: good files load; truncated ones are incomplete; bad ones are refused in one line."""
import json
import os
import random

from common import TmpCase, data, run_cli, read_records, dump_records, GOOD, HOSTILE
from etwconf_report import ingest
from etwconf_report.ingest import InputError


def _mut(fn):
    def make():
        recs = read_records("reference-6.1.jsonl")
        out = fn(recs)
        return out if isinstance(out, (str, bytes)) else dump_records(recs)
    return make


def _set(i, **kv):
    def fn(recs):
        recs[i].update(kv)
    return fn


def _del(i, key):
    def fn(recs):
        del recs[i][key]
    return fn


def _crlf_bom_unknown(recs):
    recs[0]["future_key"] = {"a": 1}
    recs[1]["another"] = [1, 2]
    recs.insert(2, {"type": "progress", "note": "ignored"})
    return ("\ufeff" + dump_records(recs).replace("\n", "\r\n")).encode("utf-8")


# (name, file content, complete, case records read, text of the incomplete reason, of a warning)
READ = [
    ("truncated", lambda: open(data("truncated.jsonl"), "rb").read(), False, 14, "14 of 58",
     "cut short"),
    ("header-only", _mut(lambda r: dump_records(r[:1])), False, 0, "no footer", None),
    ("footer-complete-false", _mut(_set(-1, complete=False)), False, 58, "complete", None),
    ("crlf-bom-unknown-keys-and-types", _mut(_crlf_bom_unknown), True, 58, None,
     "unknown record type"),
    ("schema-minor", _mut(_set(0, schema="etwconf-results/1.1")), True, 58, None, None),
]


class GoodFiles(TmpCase):
    def test_samples_load(self):
        for name in GOOD + ["hostile.jsonl"]:
            run = ingest.load(data(name))
            self.assertEqual((run.complete, run.footer["total"], run.planned, run.warnings),
                             (True, len(run.cases), len(run.cases), []), name)

    def test_target_identity(self):
        run = ingest.load(data("wine-win10.jsonl"))
        self.assertEqual((run.target_id, run.version_name, run.nt()), ("wine@win10", "win10",
                                                                       (10, 0)))
        self.assertLessEqual({"10.0", "win10"}, run.version_names())
        w = ingest.load(data("windows-10.0.19045.jsonl"))
        self.assertEqual((w.version_name, w.nt()), ("10.0.19045", (10, 0)))

    def test_read_complete_or_not(self):
        for name, make, complete, n, why, warning in READ:
            with self.subTest(name):
                run = ingest.load(self.write(name + ".jsonl", make()))
                self.assertEqual((run.complete, len(run.cases)), (complete, n))
                if why:
                    self.assertIn(why, run.incomplete_reason)
                if warning:
                    self.assertTrue(any(warning in w for w in run.warnings), run.warnings)

    def test_strings_cleaned(self):
        run = ingest.load(data("hostile.jsonl"))
        fp = run.header["fingerprint"]
        self.assertEqual((fp["nul"], fp["surrogate"]), ("a\\x00b", "\\ud800"))
        self.assertNotIn("\x1b", fp["esc"])
        self.assertIn(HOSTILE, run.cases[0]["title"])   # markup is kept: it is escaped on output

    def test_duplicate_target_labels(self):
        runs = ingest.load_many([data("reference-6.1.jsonl"), data("reference-6.1.jsonl")])
        self.assertEqual(len({r.label for r in runs}), 2)
        recs = read_records("wine-win10.jsonl")
        recs[0]["target"]["arch"] = "i686"
        p = self.write("wine32-win10.jsonl", dump_records(recs))
        runs = ingest.load_many([data("wine-win10.jsonl"), p])
        self.assertEqual(sorted(r.label for r in runs), ["wine@win10 (i686)",
                                                         "wine@win10 (x86_64)"])


# (name, file content, what the error must mention)
BAD = [
    ("empty", lambda: b"", "empty"),
    ("blank", lambda: "\n\n  \n", "empty"),
    ("binary", lambda: bytes(range(256)) * 4, "not an etwconf results file"),
    ("png", lambda: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not an etwconf results file"),
    ("foreign", lambda: open(data("foreign.jsonl")).read(), "not an etwconf results file"),
    ("array-first", lambda: "[1,2,3]\n", "not an etwconf results file"),
    ("string-first", lambda: '"hello"\n', "not an etwconf results file"),
    ("pretty-json", lambda: json.dumps({"a": [1, 2]}, indent=2), "not JSON Lines"),
    ("expectations-file", lambda: open(data("wine-expectations.json")).read(),
     "expectations file"),
    ("csv", lambda: "id,status\ntqi.x,PASS\n", "not an etwconf results file"),
    ("schema-2", _mut(_set(0, schema="etwconf-results/2")), "not supported"),
    ("schema-missing", _mut(_del(0, "schema")), "not an etwconf results file"),
    ("header-not-first", _mut(lambda r: dump_records(r[1:])), "beginning of the run"),
    ("target-missing", _mut(_del(0, "target")), '"target" is missing'),
    ("impl-not-string", _mut(lambda r: r[0]["target"].update(impl=7)), "impl"),
    ("version-missing", _mut(lambda r: r[0]["target"].pop("version")), "version"),
    ("malformed-middle", lambda: open(data("malformed.jsonl")).read(), ":6:"),
    # (a record with bytes that are not UTF-8 is dropped, not the file: test_faults.Utf8Damage)
    ("deep-nesting", _mut(lambda r: dump_records(r[:2]) + '{"type":"case","x":' + "[" * 100000
                          + "]" * 100000 + "}\n" + dump_records(r[2:])), "nested too deeply"),
    ("huge-int", _mut(lambda r: dump_records(r[:2]) + '{"type":"case","seq":' + "9" * 5000
                      + "}\n" + dump_records(r[2:])), "not valid JSON"),
    ("seq-gap", _mut(lambda r: dump_records(r[:3] + r[4:])), "seq"),
    ("seq-string", _mut(_set(1, seq="1")), "seq"),
    ("duplicate-id", _mut(lambda r: r[2].update(id=r[1]["id"])), "twice"),
    ("status-unknown", _mut(_set(1, status="MAYBE")), "status"),
    ("status-missing", _mut(_del(1, "status")), "status"),
    ("id-missing", _mut(_del(1, "id")), '"id"'),
    ("id-empty", _mut(_set(1, id="")), '"id"'),
    ("id-number", _mut(_set(1, id=5)), '"id"'),
    ("rules-not-list", _mut(_set(1, rules="TQI.X")), "rules"),
    ("checks-not-list", _mut(_set(1, checks={"ok": True})), "checks"),
    ("check-not-object", _mut(_set(1, checks=[1])), "checks[0]"),
    ("check-ok-missing", _mut(_set(1, checks=[{"what": "x"}])), "ok"),
    ("counted-on-pass", _mut(_set(1, counted=True)), "counted"),
    ("counted-string", _mut(_set(1, counted="yes")), "counted"),
    ("record-no-type", _mut(lambda r: r[3].pop("type")), "type"),
    ("record-array", _mut(lambda r: dump_records(r[:3]) + "[]\n" + dump_records(r[3:])),
     "expected an object"),
    ("total-wrong", _mut(lambda r: r[-1].update(total=r[-1]["total"] + 1)), "total"),
    ("counts-wrong", _mut(lambda r: r[-1]["counts"].update(PASS=r[-1]["counts"]["PASS"] - 1)),
     "counts[PASS]"),
    ("counts-not-object", _mut(lambda r: r[-1].update(counts=[1])), "counts"),
    ("counted-failures-wrong", _mut(lambda r: r[-1].update(counted_failures=3)),
     "counted_failures"),
    ("exit-code-wrong", _mut(lambda r: r[-1].update(exit_code=1)), "exit_code"),
    ("footer-early", _mut(lambda r: dump_records([r[0], r[-1]] + r[1:-1])), "footer"),
    ("two-runs", _mut(lambda r: dump_records(r + r)), "after the footer"),
    ("second-header", _mut(lambda r: dump_records(r[:3] + r[:1] + r[3:])), "second header"),
    ("bad-last-line-with-newline", _mut(lambda r: dump_records(r[:-1]) + '{"type":"foo\n'),
     "malformed"),
]


class BadFiles(TmpCase):
    def test_bad_files_refused_in_one_line(self):
        for name, make, must in BAD:
            with self.subTest(name):
                path = self.write(name + ".jsonl", make())
                with self.assertRaises(InputError) as cm:
                    ingest.load(path)
                self.assertIn(must, str(cm.exception), name)
                out = os.path.join(self.tmp, "out")
                for args in (["summary", path], ["report", "--out", out, path]):
                    line = self.assertOneLineError(run_cli(*args), path)
                    self.assertIn(must, line)
                    self.assertRegex(line, r"^etwconf-report: \S+(:\d+)?: .+")
                self.assertFalse(os.path.exists(os.path.join(out, "index.html")))

    def test_unmatched_glob(self):
        line = self.assertOneLineError(run_cli("report", "--out", self.tmp,
                                               "build/no-such-dir/*.jsonl"))
        self.assertIn("no such file", line)
        self.assertIn("make results", line)

    def test_several_bad_files_each_named(self):
        out, err = self.assertRan(run_cli("report", "--out", self.tmp, data("foreign.jsonl"),
                                          data("malformed.jsonl"), data("reference-6.1.jsonl")), 2)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 2, err)
        self.assertIn("foreign.jsonl", lines[0])
        self.assertIn("malformed.jsonl:6", lines[1])


class Fuzz(TmpCase):
    """Random damage to a good file: every outcome is a Run or an InputError, nothing else."""

    def test_random_damage(self):
        rng = random.Random(4)
        good = open(data("wine-win10.jsonl"), "rb").read()
        outcomes = {"ok": 0, "incomplete": 0, "refused": 0}
        for i in range(400):
            b, lines, op = bytearray(good), good.split(b"\n"), i % 5
            if op == 0:
                b = b[:rng.randrange(len(b))]
            elif op == 1:
                for _ in range(rng.randint(1, 5)):
                    b[rng.randrange(len(b))] = rng.randrange(256)
            elif op == 2:
                del lines[rng.randrange(len(lines))]
            elif op == 3:
                pos = rng.randrange(len(b))
                b[pos:pos] = rng.choice([b'"', b"{", b"}", b"\n", b"\\", b"\x00", b",",
                                         b'"status":"CRASH",', b"\xff", b"[" * 50])
            else:
                rng.shuffle(lines)
            path = self.write("f.jsonl", b"\n".join(lines) if op in (2, 4) else bytes(b))
            try:
                run = ingest.load(path)
                outcomes["ok" if run.complete else "incomplete"] += 1
            except InputError as e:
                s = str(e)
                self.assertTrue(s.startswith(path), s)
                self.assertNotIn("\n", s)
                outcomes["refused"] += 1
        self.assertGreater(outcomes["refused"], 100)
        self.assertGreater(outcomes["incomplete"], 10)
