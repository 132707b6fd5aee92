"""The HTML report: one self-contained file, no external assets, readable without JavaScript.

Everything taken from a results file goes through esc(); the page also carries a
Content-Security-Policy that only lets its own inline script (by hash) run.
"""
import base64
import hashlib
import html
import os
import time

from . import __version__
from . import programs as P
from .analysis import (matrix, coverage, totals, under_test, reference_ranges, families,
                       family_of, Cell)
from .catalog import GROUPS, REPO
from .expectations import FAILURE_KINDS
from .util import BAD, display, shorten, plural

ORDER = ("CRASH", "TIMEOUT", "FAIL", "BROKEN", "PASS", "SKIP")
NA = '<td class="cell c-na">n/a</td>'


def esc(value, limit=4000):
    return html.escape(shorten(display(value), limit), quote=True)


def code(value):
    return f"<code>{esc(value)}</code>"


def st_badge(status):
    s = esc(status)
    return f'<span class="st st-{s}">{s}</span>'


def ths(*heads):
    return "".join(f"<th>{h}</th>" for h in heads)


def tds(*cells):
    return "".join(f"<td>{c}</td>" for c in cells)


def options(values):
    return "".join(f"<option>{esc(v)}</option>" for v in values)


def select(sid, opts):
    return f'<select id="{sid}"><option value="">all</option>{opts}</select>'


def table(attrs, head, rows):
    """attrs of <table>, the head row's cells and the body rows, all markup."""
    return f'<table{attrs}><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def matrix_table(tid, first, heads, rows):
    head = f'<th class="rid">{first}</th>{heads}'
    return '<div class="matrix-wrap">%s</div>' % table(f' class="matrix" id="{tid}"', head, rows)


def section(sid, title, *body, attrs=""):
    return f'<section id="{sid}"{attrs}><h2>{title}</h2>{"".join(body)}</section>\n'


CSS = """
:root{--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#b42318;--fail-bg:#ffe1de;--crash:#fff;
--crash-bg:#7a1035;--timeout:#7a4a00;--timeout-bg:#ffd8a8;--broken:#4b3f2f;--broken-bg:#e8dcc8;
--skip:#555;--skip-bg:#eeeeee;--na:#999;--line:#d0d7de;--head:#f6f8fa}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;margin:0;color:#1f2328;background:#fff}
header.top{padding:10px 24px;background:#24292f;color:#fff}
header.top h1{margin:0 0 4px;font-size:22px}
header.top p{margin:2px 0;color:#d0d7de}
header.top p.meta{font-size:12px}
nav.toc{margin:6px 0 0;font-size:13px}
nav.toc a{color:#9ecbff;margin-right:12px;white-space:nowrap}
main{padding:0 24px 40px}
h2{margin:20px 0 6px;padding-bottom:4px;border-bottom:1px solid var(--line);font-size:19px}
h3{margin:20px 0 6px;font-size:16px}
table{border-collapse:collapse}
th,td{border:1px solid var(--line);padding:3px 7px;text-align:left;vertical-align:top}
thead th{background:var(--head)}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{white-space:pre-wrap;word-break:break-all;background:var(--head);padding:6px 8px;border:1px solid var(--line);border-radius:4px;margin:4px 0}
.st{display:inline-block;min-width:4.6em;padding:0 5px;border-radius:3px;font-weight:600;font-size:12px;text-align:center}
%(st)s
.st-na{color:var(--na);background:#fff;font-weight:400}
.st-XFAIL{color:#5a3e00;background:repeating-linear-gradient(45deg,#fff1c2,#fff1c2 4px,#ffe08a 4px,#ffe08a 8px)}
.st-XPASS,.st-CHANGED,.st-UNEXPECTED,.st-STALE{color:#fff;background:#8250df}
%(td)s
td.c-na{color:var(--na)}
td.c-DIV,.st-DIV{background:#fff4d6;color:#7a4a00}
table.verdicts td,table.verdicts th{padding:2px 7px}
table.verdicts .st{min-width:0}
td.vd{min-width:300px}
table.verdicts{font-size:13px}
table.verdicts a.verdict{text-decoration:none}
td.progs{font-size:12.5px;min-width:280px}
td.progs a{white-space:nowrap}
table.verdicts small{font-size:12px}
td.nw{white-space:nowrap}
table.verdicts th{max-width:300px;overflow-wrap:break-word}
details.ref-range{margin:6px 0}
details.ref-range>summary,details.not-run>summary{cursor:pointer}
details.not-run>summary{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:100%%}
p.works{margin:4px 0}
#program-table td.cell{font-size:11px}
#program-table td.cell small{display:block}
#program-table th.rid{white-space:normal;min-width:200px;max-width:260px}
td.cell{white-space:nowrap;font-weight:600;font-size:12px;text-align:center}
td.cell a{color:inherit}
td.cell small{font-weight:400;opacity:.8}
td.xf{background-image:repeating-linear-gradient(45deg,transparent,transparent 4px,rgba(255,200,0,.35) 4px,rgba(255,200,0,.35) 8px)}
td.xp{outline:2px solid #8250df;outline-offset:-2px}
.verdict-good{color:var(--pass);font-weight:700}
.verdict-bad{color:var(--fail);font-weight:700}
.verdict-incomplete{color:var(--timeout);font-weight:700}
.incomplete{display:inline-block;background:var(--timeout-bg);color:var(--timeout);font-weight:700;padding:0 5px;border-radius:3px}
.muted{color:#656d76}
.matrix-wrap{overflow:auto;max-height:85vh;border:1px solid var(--line)}
table.matrix{border-collapse:separate;border-spacing:0}
table.matrix th,table.matrix td{border:0;border-right:1px solid var(--line);border-bottom:1px solid var(--line)}
table.matrix thead th{position:sticky;top:0;z-index:2;background:var(--head);vertical-align:bottom;font-size:12px}
table.matrix th.rid{position:sticky;left:0;z-index:1;background:#fff;font-weight:400;white-space:nowrap}
table.matrix thead th.rid{z-index:3;background:var(--head)}
table.matrix tr.group th{background:#eaeef2;position:sticky;left:0;font-size:13px}
table.matrix td.fn,table.matrix td.sg{font-size:11.5px;color:#444;white-space:nowrap}
.tgt small{display:block;font-weight:400}
.filters{position:sticky;top:0;z-index:5;background:#fff;padding:8px 0;border-bottom:1px solid var(--line);margin:12px 0}
.filters label{margin-right:12px}
article.case{border:1px solid var(--line);border-left:5px solid var(--line);border-radius:4px;padding:8px 12px;margin:10px 0}
article.case.k-FAIL{border-left-color:var(--fail)}
article.case.k-CRASH{border-left-color:var(--crash-bg)}
article.case.k-TIMEOUT{border-left-color:#e8590c}
article.case.k-BROKEN{border-left-color:#8c6d46}
article.case.k-PASS{border-left-color:#8250df}
article.case h4{margin:0 0 4px;font-size:14px}
article.case dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:4px 0}
article.case dt{color:#656d76}
article.case dd{margin:0}
table.checks td.bad{background:var(--fail-bg)}
table.kv th{background:var(--head);font-weight:600}
.tag{display:inline-block;padding:0 5px;border-radius:3px;background:#eaeef2;font-size:12px;margin-left:4px}
ul.rules{margin:4px 0;padding-left:18px}
.legend span.st{margin-right:6px}
[hidden]{display:none!important}
#js-note{color:#656d76}
""" % {k: "\n".join(fmt % ((x.upper(),) + (x,) * 2) for x in
                  ("pass", "fail", "crash", "timeout", "broken", "skip"))
       for k, fmt in (("st", ".st-%s{color:var(--%s);background:var(--%s-bg)}"),
                      ("td", "td.c-%s{background:var(--%s-bg);color:var(--%s)}"))}

# Filters and the "ready" marker. Small, no dependencies; the page is complete without it.
JS = """(function(){
"use strict";
var bar=document.getElementById("filters");
var fn=document.getElementById("f-function"),st=document.getElementById("f-status"),
kd=document.getElementById("f-strength"),q=document.getElementById("f-text"),
cnt=document.getElementById("f-count");
var items=Array.prototype.slice.call(document.querySelectorAll("[data-filter]"));
function has(list,v){return (" "+list+" ").indexOf(" "+v+" ")>=0;}
function apply(){
var f=fn.value,s=st.value,k=kd.value,t=q.value.trim().toLowerCase(),n=0;
items.forEach(function(el){
var ok=(!f||el.getAttribute("data-function")===f)&&(!s||has(el.getAttribute("data-status"),s))&&
(!k||has(el.getAttribute("data-strength"),k))&&(!t||el.getAttribute("data-text").indexOf(t)>=0);
el.hidden=!ok;if(ok){n++;}});
cnt.textContent="showing "+n+" of "+items.length+" rows and cases";
}
[fn,st,kd].forEach(function(e){e.addEventListener("change",apply);});
q.addEventListener("input",apply);
document.getElementById("f-reset").addEventListener("click",function(){
fn.value="";st.value="";kd.value="";q.value="";apply();});
bar.hidden=false;
var note=document.getElementById("js-note");if(note){note.textContent="Filters are active.";}
apply();
var m=document.createElement("div");m.id="etwconf-js-ready";m.hidden=true;
m.setAttribute("data-items",String(items.length));m.textContent="ready";
document.body.appendChild(m);
})();"""


def _csp():
    digest = base64.b64encode(hashlib.sha256(JS.encode("utf-8")).digest()).decode("ascii")
    return ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
            "script-src 'sha256-%s'; base-uri 'none'; form-action 'none'" % digest)


def _flatten(obj, prefix="", out=None, depth=0):
    out = [] if out is None else out
    if isinstance(obj, dict) and depth < 6:
        if not obj and prefix:
            out.append((prefix, "{}"))
        for k, v in obj.items():
            _flatten(v, "%s.%s" % (prefix, k) if prefix else k, out, depth + 1)
    elif isinstance(obj, list) and all(not isinstance(x, (dict, list)) for x in obj):
        out.append((prefix, " ".join(display(x) for x in obj)))
    else:
        out.append((prefix, display(obj)))
    return out


def _repo_relative(path):
    if path and os.path.abspath(path).startswith(REPO + os.sep):
        return os.path.relpath(os.path.abspath(path), REPO)
    return path


def _kv_table(pairs):
    rows = "".join(f'<tr><th class="mono">{esc(k)}</th><td class="mono">{esc(v)}</td></tr>'
                   for k, v in pairs)
    return f'<table class="kv">{rows}</table>' if rows else '<p class="muted">(empty)</p>'


class HtmlReport:
    def __init__(self, summaries, catalog, exps=(), title="etwconf conformance report",
                 stale=None, known=None):
        self.s = summaries
        self.known = known if known is not None else P.Known()
        self.tps = P.per_target(summaries, self.known)
        self.prog_rows = P.rows(self.tps, self.known)
        self.cat = catalog
        self.exps = list(exps)
        self.title = title
        self.stale = stale or []          # (expectations, entry, run)
        self.rows, self.cells = matrix(summaries, catalog)
        self.cov = coverage(summaries, catalog)
        self.under, self.ref = under_test(summaries)
        self.ranges = reference_ranges(self.ref)
        # every per-target list: the targets under test, then the reference in version order
        self.order = self.under + [s for r in self.ranges for s in r.runs]
        self.fam_rows, self.fam_cells = families(summaries, catalog)
        self.rule_index = {r["id"]: i for i, r in enumerate(catalog.rules)}
        # (target index, case id) -> the anchor of its article in Failures
        self.case_anchor = {(s.index, c["id"]): "f-%d-%d" % (s.index, i) for s in summaries
                            for i, c in enumerate(s.run.cases)
                            if c["status"] in BAD + ("BROKEN",) or s.kind(c) == "XPASS"}

    def case_strengths(self, case):
        return " ".join(sorted({self.cat.strength(r) for r in case["rules"]})) or "?"

    def rule_link(self, rule_id):
        i = self.rule_index.get(rule_id)
        return code(rule_id) if i is None else f'<a href="#r-{i}">{code(rule_id)}</a>'

    def target_head(self, s):
        impl, label = s.run.impl, s.run.label
        rest = label[len(impl) + 1:] if label.startswith(impl + "@") else label
        mark = ("conformant" if s.fully_conformant
                else "incomplete" if s.conformant and not s.run.complete
                else "filtered" if s.conformant
                else "%d MUST" % len(s.must_rules) if s.must_rules else "crash")
        inc = "" if s.run.complete else ' <span class="incomplete">INCOMPLETE</span>'
        return (f'<th class="tgt" title="{esc(label)}"><a href="#target-{s.index}">{esc(impl)} '
                f'<small>{esc(rest)}</small></a> <small class="verdict-{s.verdict_class}">'
                f'{esc(mark)}</small>{inc}</th>')

    def render(self):
        now = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        suites = set()
        for s in self.s:
            su = s.run.header.get("suite", {})
            git = " (git %s)" % display(su["git"]) if su.get("git") else ""
            suites.add("%s %s%s" % (display(su.get("name", "etwconf")),
                                    display(su.get("version", "?")), git))
        tot = totals(self.s)
        ran = ", ".join("%d %s" % (tot[k], k) for k in ORDER if tot[k]) or "nothing ran"
        ver = esc(__version__)
        head = "%s; %s; %s (%s)" % (
            plural(len(self.s), "target"), plural(sum(tot.values()), "case record"),
            ", ".join(esc(x) for x in sorted(suites)) or "no runs", ran)
        meta = 'Rule catalogue: %s (%s). Generated %s by etwconf-report %s.' % (
            esc(_repo_relative(self.cat.path) or "?"), plural(len(self.cat.rules), "rule"),
            esc(now), ver)
        if self.exps:
            meta += ' Expectations: %s.' % ", ".join("<code>%s</code> (%s)" % (
                esc(x.path), plural(len(x.entries), "entry", "entries")) for x in self.exps)
        return "".join([
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{esc(_csp())}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="generator" content="etwconf-report {ver}">\n'
            f'<title>{esc(self.title)}</title>\n<style>{CSS}</style></head>\n<body>\n'
            f'<header class="top"><h1>{esc(self.title)}</h1><p>{head}</p>'
            f'<p class="meta">{meta}</p>{self.toc()}</header>\n<main>\n',
            self.verdicts(), self.families_section(), self.programs_section(), self.legend(),
            self.filters(), self.matrix_section(), self.failures(),
            self.expectations_section() if self.exps else "", self.skips(),
            self.coverage_section(), self.targets(),
            '</main>\n<footer class="muted" style="padding:12px 24px">'
            '<p id="js-note">Without JavaScript the filters are off and everything is shown.</p>'
            f'<p>etwconf-report {ver}. Strings from results files are shown as text.</p>'
            f'</footer>\n<script>{JS}</script>\n</body></html>\n'])

    def toc(self):
        items = [("verdicts", "What breaks where"), ("families", "API family &times; target"),
                 ("programs", "Programs affected"), ("legend", "Legend"),
                 ("matrix", "Rule &times; target matrix"),
                 ("failures", "Failures, crashes and divergences")]
        if self.exps:
            items.append(("expectations", "Expectations"))
        items += [("skips", "Skipped cases"), ("coverage", "Coverage"),
                  ("rules", "Rules"), ("targets", "Targets and fingerprints")]
        return '<nav class="toc" id="toc">%s</nav>' % "".join(
            f'<a href="#{a}">{t}</a>' for a, t in items)

    def verdicts(self):
        o = ['<p class="muted">Conformant: no case fails a MUST rule (counted) and nothing '
             'crashed or timed out; SKIP is never a pass.%s</p>' % (
                 ' The reference (the suite checking itself) is one line per range of '
                 'builds with the same verdict.' if self.ref else ""),
             self.verdict_table(self.under, "under")]
        o += ['<details class="ref-range" id="reference-%d"><summary><strong>reference</strong>: '
              '<span class="verdict verdict-%s">%s</span> at %s, %s <span class="muted">(each '
              'build)</span></summary>%s</details>' % (
                  r.index, r.verdict_class, esc(r.verdict), plural(len(r.runs), "build"),
                  esc(r.span()), self.verdict_table(r.runs, "ref")) for r in self.ranges]
        return section("verdicts", "What breaks where", *o)

    def verdict_table(self, summaries, kind):
        head = ths("Target", "Verdict (counted failures)", "Cases",
                   *(["Expectations"] if self.exps else []), "Programs broken")
        rows = []
        for s in summaries:
            run, n_div = s.run, len(s.divergences)
            # the verdict counts the failures and links to them
            vd = (f'<a href="#failures-{s.index}" class="verdict verdict-{s.verdict_class}" '
                  f'title="{esc(s.verdict_detail)}">{esc(s.verdict)}</a>')
            if n_div:
                vd += f' <small>+{n_div} div.</small>'
            if not run.complete:
                vd += (f' <span class="incomplete" title="{esc(run.incomplete_reason)}">'
                       'INCOMPLETE</span>')
            counts = " ".join(f'<span class="st st-{k}">{s.counts[k]} {k}</span>'
                              for k in ORDER if s.counts[k])
            exp = f'<td class="nw"><small>{self.exp_summary(s)}</small></td>' if self.exps else ""
            rows.append(f'<tr class="verdict-row{" ref-row" if kind == "ref" else ""}" '
                        f'data-target="{s.index}"><th><a href="#target-{s.index}">'
                        f'{esc(run.label)}</a></th><td class="vd">{vd}</td>'
                        f'<td class="nw">{counts}</td>{exp}'
                        f'<td class="progs">{self.broken_programs(s)}</td></tr>')
        return table(f' class="verdicts verdicts-{kind}"', head, rows)

    def broken_programs(self, s):
        """The programs a target breaks, each linked to its rows in Programs affected."""
        tp = self.tps[s.index]
        if not tp.has_scenarios:
            return '<span class="muted">no client scenarios</span>'
        broken = tp.numbered(P.BROKEN)
        if not broken:
            return f'<span class="muted">none of {len(tp.programs)}</span>'
        return f'{len(broken)} of {len(tp.programs)}: ' + ", ".join(
            f'<a href="#p-{s.index}-{k}" title="{esc(p.name)}">{esc(p.id)}</a>'
            for k, p in broken)

    def column_heads(self):
        """The matrix heads of the first screen: targets under test, then reference ranges."""
        return "".join([self.target_head(s) for s in self.under] + [
            f'<th class="tgt" title="{esc(r.line())}"><a href="#reference-{r.index}">reference '
            f'<small>{esc(r.span())}</small></a> <small class="verdict-{r.verdict_class}">'
            f'{plural(len(r.runs), "build")}</small></th>' for r in self.ranges])

    def families_section(self):
        rows = []
        for f, fam in enumerate(self.fam_rows):
            cells = [self.family_cell(self.fam_cells.get((fam, s.index)), f, s.run.label)
                     for s in self.under]
            for r in self.ranges:
                cell = Cell()
                for c in filter(None, (self.fam_cells.get((fam, s.index)) for s in r.runs)):
                    cell.add(c)
                cells.append(self.family_cell(cell if cell.n else None, f,
                                              "reference " + r.span(), r))
            rows.append(f'<tr class="family-row"><th class="rid">{esc(fam)}</th>'
                        f'{"".join(cells)}</tr>')
        return section(
            "families", "API family &times; target",
            '<p class="muted">Counted failures / cases of each function on each target '
            '(a reference column sums its builds); the colour is the worst counted '
            'failure, else <span class="st st-DIV">div.</span> divergences (not counted), '
            'broken fixtures, passes, skips. A cell links to its failures.</p>',
            matrix_table("family-table", "API family", self.column_heads(), rows))

    def family_cell(self, cell, f, label, rng=None):
        if cell is None:
            return NA
        st = cell.state
        # the first of its targets with failures, divergences or broken fixtures in the family
        link = next((f"ff-{s.index}-{f}" for s in cell.summaries
                     if (c := self.fam_cells[(self.fam_rows[f], s.index)]).bad
                     or c.divergences or c.by_status.get("BROKEN")), None)
        if link is None:
            link = (f"reference-{rng.index}" if rng is not None else
                    f"skips-{cell.summaries[0].index}" if st == "SKIP" else None)
        text = f"{cell.bad}/{cell.n}"
        if link:
            text = f'<a href="#{link}">{text}</a>'
        if cell.divergences:
            text += f' <small>+{cell.divergences} div.</small>'
        title = "%s: %s counted of %s; %s" % (
            label, plural(cell.bad, "failure"), plural(cell.n, "case"), ", ".join(
                "%d %s" % (cell.by_status[k], k) for k in ORDER if cell.by_status.get(k)))
        xf = " xf" if cell.bad and cell.xfail == cell.bad else ""
        return f'<td class="cell c-{st}{xf}" title="{esc(title)}">{text}</td>'

    def exp_summary(self, s):
        if not s.outcomes:
            return '<span class="muted">no expectations for this target</span>'
        c = s.expectation_counts(self.stale)
        bad = sum(c.get(k, 0) for k in FAILURE_KINDS)
        return ", ".join([f'{c.get("XFAIL", 0)} XFAIL'] + [
            f'<span class="st st-{k}">{c[k]} {k}</span>' for k in FAILURE_KINDS if c.get(k)] + [
            f'<span class="verdict-bad">{plural(bad, "problem")}</span>' if bad
            else '<span class="verdict-good">as expected</span>'])

    def legend(self):
        desc = {"PASS": "every check held", "FAIL": "a check did not hold",
                "CRASH": "the target faulted", "TIMEOUT": "the target did not return",
                "BROKEN": "the fixture could not be set up (suite or environment)",
                "SKIP": "does not apply or cannot run here (never a pass)"}
        o = ["<p>"] + [f"{st_badge(k)} {desc[k]}. " for k in ORDER]
        o.append('<span class="st st-na">n/a</span> no case of the rule ran on that target.</p>'
                 '<p>A matrix cell shows the worst status over the rule\'s cases on that target '
                 '(CRASH &gt; TIMEOUT &gt; FAIL &gt; BROKEN &gt; PASS &gt; SKIP) and how many of '
                 'them had it. In a FAIL case only the rules whose checks failed are FAIL; the '
                 'case\'s other rules count as PASS.</p>')
        if self.exps:
            o.append('<p>%s a known failure that matches its expectation entry (striped cell). '
                     '%s an expectation entry, but the case passed (outlined cell). %s the '
                     'failure differs from its entry. %s a failure with no entry. %s an entry '
                     'whose case is not in the results.</p>' % tuple(
                         st_badge(k) for k in ("XFAIL",) + FAILURE_KINDS))
        return section("legend", "Legend", *o, attrs=' class="legend"')

    def filters(self):
        funcs = sorted({r["function"] for r in self.cat.rules} |
                       {c.get("function") for s in self.s for c in s.run.cases
                        if c.get("function")})
        statuses = ORDER + (("XFAIL", "XPASS", "CHANGED", "UNEXPECTED") if self.exps else ())
        funcs = "".join(f'<option value="{esc(f)}">{esc(f)}</option>' for f in funcs)
        return ('<div class="filters" id="filters" hidden>'
                f'<label>Function {select("f-function", funcs)}</label>'
                f'<label>Status {select("f-status", options(statuses))}</label><label>Strength '
                f'{select("f-strength", options(("MUST", "SHOULD", "MAY", "INFO")))}</label>'
                '<label>Text <input id="f-text" type="search" placeholder="rule or case id">'
                '</label><button type="button" id="f-reset">reset</button> '
                '<span id="f-count" class="muted"></span></div>\n')

    def case_link(self, s, case):
        anchor = self.case_anchor.get((s.index, case["id"]))
        return f'<a href="#{anchor}">{code(case["id"])}</a>' if anchor else code(case["id"])

    def program_name(self, p):
        src = p.source or ""
        if p.repository and p.repository not in src:
            src = "%s: %s" % (p.repository, src) if src else p.repository
        small = f'<br><small class="muted">{esc(src, 300)}</small>' if src else ""
        return f'<strong>{esc(p.name)}</strong> <small class="muted">({esc(p.id)})</small>{small}'

    def programs_section(self):
        listed = (" Programs listed in <code>%s</code>." % esc(_repo_relative(self.known.path))
                  if self.known.path else "")
        o = ['<p class="muted">Client scenarios replay the calls of real programs (public '
             'source) in order. A program is <em>broken</em> on a target when one of its '
             'scenarios fails, crashes or times out (counted or not, as said); <em>works'
             '</em> when every scenario passed; <em>not exercised</em> when its scenarios '
             'were skipped (never a pass). The matrix has the programs that break '
             'somewhere; below it, each target\'s broken programs, then one line each for '
             f'those that work, are not exercised (and why) or have no scenario.{listed}</p>',
             self.program_matrix()] + [self.program_block(s) for s in self.under]
        if self.ref:
            o.append('<details class="ref-range" id="programs-reference"><summary><strong>'
                     'reference</strong>: programs at each build (%s)</summary>%s</details>' % (
                         plural(len(self.ref), "build"),
                         "".join(self.program_block(s) for r in self.ranges for s in r.runs)))
        return section("programs", "Programs affected", *o)

    def program_block(self, s):
        """One target's programs: the broken ones in full, the others one line per state."""
        tp = self.tps[s.index]
        o = ['<h3 id="programs-%d">%s <span class="muted">&mdash; %s</span></h3>' % (
            s.index, esc(s.run.label), esc(tp.headline()) if tp.has_scenarios
            else "no client scenarios")]
        if not tp.has_scenarios:
            return o[0] + ('<p class="muted">This run has no client-scenario cases (results of '
                           'an older suite, or none selected).</p>')
        broken = tp.numbered(P.BROKEN)
        if broken:
            o.append(table(f' class="programs" data-target="{s.index}"', ths(
                "Program", "State", "Scenario", "Step", "Call made at that step",
                "What the program does then"), [self.broken_rows(s, k, p) for k, p in broken]))
        works = tp.numbered(P.WORKS, P.PARTIAL)
        if works:
            o.append('<p class="works">%s works: %s</p>' % (st_badge("PASS"), "; ".join(
                '<span id="p-%d-%d">%s%s: %s</span>' % (
                    s.index, k, esc(p.name), " (partly exercised)" if p.state == P.PARTIAL
                    else "", ", ".join(code(c["id"]) for _, c in p.passed))
                for k, p in works)))
        groups = tp.not_run_by_reason()
        if groups:
            items = "".join('<li>%s: %s</li>' % (esc(reason), ", ".join(
                f'{st_badge(c["status"])} {esc(p.name)} {code(c["id"])}' for p, c in pcs))
                for reason, pcs in groups)
            o.append('<details class="not-run"><summary>%s not exercised: %s</summary><ul>%s'
                     '</ul></details>' % (
                         plural(len({p.id for _, pcs in groups for p, _ in pcs}), "program"),
                         esc("; ".join(r for r, _ in groups)), items))
        absent = tp.with_state(P.ABSENT)
        if absent:
            o.append('<p class="muted">No scenario in this run: %s</p>' % ", ".join(
                esc(p.name) for p in absent))
        return "".join(o)

    def broken_on(self, s, row):
        p = self.tps[s.index].by_id.get(row.id)
        return p is not None and p.state == P.BROKEN

    def program_matrix(self):
        """Programs that break on some target x the first screen's columns."""
        if not self.prog_rows:
            return '<p class="muted">No client-scenario cases in these results.</p>'
        rows = [row for row in self.prog_rows if any(self.broken_on(s, row) for s in self.s)]
        if not rows:
            return '<p class="verdict-good">No program breaks on any target.</p>'
        trs = []
        for row in rows:
            cells = [self.program_cell(s, row) for s in self.under]
            for r in self.ranges:
                broken = [s for s in r.runs if self.broken_on(s, row)]
                cells.append(self.program_cell(
                    broken[0] if broken else r.runs[-1], row, "at %d of %d" % (
                        len(broken), len(r.runs)) if broken and len(r.runs) > 1 else None))
            trs.append(f'<tr class="prog-row"><th class="rid" title="{esc(row.source or "")}">'
                       f'{esc(row.name)} <small class="muted">({esc(row.id)})</small></th>'
                       f'{"".join(cells)}</tr>')
        return matrix_table("program-table", "Program", self.column_heads(), trs)

    def program_cell(self, s, row, small=None):
        tp = self.tps[s.index]
        p = tp.by_id.get(row.id)
        if p is None or p.state == P.ABSENT:
            return '<td class="cell c-na">no scenario</td>' if tp.has_scenarios else NA
        link = "programs-%d" % s.index
        if p.state == P.BROKEN:
            i, c = p.worst()
            cls = "c-%s" % c["status"]
            if all(s.kind(f) == "XFAIL" for _, f in p.failing):
                cls += " xf"          # every failure is a known one
            link = self.case_anchor.get((s.index, c["id"])) or link
            count = "%d/%d" % (len(p.failing), len(p.scenarios))
        elif p.state == P.NOT_EXERCISED:
            cls, count = "c-SKIP", "0/%d" % len(p.scenarios)
        else:
            cls, count = "c-PASS", "%d/%d" % (len(p.passed), len(p.scenarios))
        return (f'<td class="cell {cls}" title="{esc(s.run.label)}: {esc(p.value(), 1000)}">'
                f'<a href="#{link}">{esc(p.cell_text())}</a> <small>{esc(small or count)}'
                '</small></td>')

    def broken_rows(self, s, k, p):
        """A broken program: a row per failing scenario, then its passing and skipped ones."""
        lines = []                 # (scenario cell, step, call, consequence)
        for i, c in p.failing:
            step, what, cons = P.failure_parts(c)
            oc = s.notable(c)
            tags = '%s <span class="tag">%s</span>%s' % (
                st_badge(c["status"]), "counted" if c["counted"] else "not counted",
                " " + st_badge(oc.kind) if oc else "")
            lines.append((f"{self.case_link(s, c)} {tags}", esc(step), code(what) if what
                          else '<span class="muted">unknown</span>', esc(cons)))
        if p.passed:
            lines.append(("%s %s" % (st_badge("PASS"), ", ".join(
                code(c["id"]) for _, c in p.passed)), "", "",
                '<span class="muted">runs as it relies on</span>'))
        lines += [(f'{st_badge(c["status"])} {code(c["id"])}', "", "",
                   "not exercised: %s" % esc(p.not_run_reason(c))) for _, c in p.not_run]
        span = ' rowspan="%d"' % len(lines) if len(lines) > 1 else ""
        o = [f'<tr id="p-{s.index}-{k}" class="prog-broken"><td{span}>{self.program_name(p)}'
             f'</td><td{span} class="cell c-FAIL">broken</td>{tds(*lines[0])}</tr>']
        o += [f'<tr class="prog-broken">{tds(*line)}</tr>' for line in lines[1:]]
        return "".join(o)

    def matrix_section(self):
        ncol = 4 + len(self.s)
        o = ['<div class="matrix-wrap"><table class="matrix" id="matrix-table"><thead><tr>'
             '<th class="rid">Rule</th>' + ths("Strength", "Function", "Cases")]
        o += [self.target_head(s) for s in self.order] + ['</tr></thead>']
        for gkey, gtitle in GROUPS:
            rows = [rid for g, rid in self.rows if g == gkey]
            if rows:
                o.append(f'<tbody class="group-{gkey}"><tr class="group"><th colspan="{ncol}">'
                         f'{esc(gtitle)} <span class="muted">({len(rows)})</span></th></tr>')
                o += [self.matrix_row(rid) for rid in rows] + ['</tbody>']
        o.append('</table></div>')
        return section("matrix", "Rule &times; target matrix", *o)

    def matrix_row(self, rid):
        rule = self.cat.get(rid)
        # without a function in the catalogue: that of the rule's first target's worst case
        ran = [self.cells[(rid, s.index)] for s in self.s if (rid, s.index) in self.cells]
        func = (rule["function"] if rule else "") or (
            ran[0].worst_case.get("function") or "" if ran else "")
        statuses = set()
        cells = []
        for s in self.order:
            c = self.cells.get((rid, s.index))
            if c is None:
                cells.append(NA)
                statuses.add("n/a")
                continue
            statuses.update(c.by_status)
            st = word = c.status
            extra = ""
            if c.xpass:
                extra, word = " xp", "%s xpass" % st
                statuses.add("XPASS")
            elif c.xfail and st in BAD + ("BROKEN",):
                extra, word = " xf", "%s xfail" % st
                statuses.add("XFAIL")
            link = None
            if st not in ("PASS", "SKIP") or c.xpass:
                link = self.case_anchor.get((s.index, c.worst_case["id"]))
            elif st == "SKIP":
                link = "skips-%d" % s.index
            label = f'<a href="#{link}">{esc(word)}</a>' if link else esc(word)
            n_st = c.by_status.get(st, 0)
            cells.append(f'<td class="cell c-{st}{extra}" title="{esc(s.run.label)}: {n_st} of '
                         f'{c.n} cases {st}">{label} <small>{n_st}/{c.n}</small></td>')
        rtext = rule["text"] if rule else "not in this rule catalogue"
        return ('<tr data-filter="1" data-function="%s" data-strength="%s" data-status="%s" '
                'data-text="%s"><th class="rid" title="%s">%s</th><td class="sg">%s</td>'
                '<td class="fn">%s</td><td>%d</td>%s</tr>' % (
                    esc(func), esc(self.cat.strength(rid)), esc(" ".join(sorted(statuses))),
                    esc(rid.lower()), esc(rtext), self.rule_link(rid),
                    esc(self.cat.strength_label(rid)), esc(func),
                    self.cov["cases_per_rule"].get(rid, 0), "".join(cells)))

    def failures(self):
        o, any_ = [], False
        for s in self.order:
            xpass = [c for c in s.run.cases if s.kind(c) == "XPASS"]
            groups = [
                ("Failures of MUST rules", [c for c in s.run.cases if c["counted"]
                                            and c["status"] == "FAIL"]),
                ("Crashes and timeouts", [c for c in s.run.cases
                                          if c["status"] in ("CRASH", "TIMEOUT")]),
                ("Divergences (not counted)", s.divergences),
                ("Broken fixtures (suite or environment problems)", s.broken),
                ("Unexpected passes (XPASS)", xpass)]
            o.append(f'<h3 id="failures-{s.index}">{esc(s.run.label)} <span class="muted">'
                     f'&mdash; {esc(s.verdict)}</span></h3>')
            if not s.run.complete:
                o.append('<p><span class="incomplete">INCOMPLETE</span> %s</p>'
                         % esc(s.run.incomplete_reason))
            cases = [c for _, g in groups for c in g]
            if not cases:
                o.append('<p class="muted">No failures, crashes or divergences.</p>')
                continue
            any_ = True
            o.append(self.family_index(s, cases))
            for title, g in groups:
                if g:
                    o.append(f'<h4>{esc(title)} ({len(g)})</h4>')
                    o += [self.case_item(s, case) for case in g]
        if not any_:
            o.append('<p>No failures on any target.</p>')
        return section("failures", "Failures, crashes and divergences", *o)

    def family_index(self, s, cases):
        """One line per API family with this target's failures in it, each case linked: the
        place a cell of the family matrix links to."""
        by = {}
        for c in cases:
            by.setdefault(family_of(c), []).append(c)
        return '<ul class="fam-index">%s</ul>' % "".join(
            '<li id="ff-%d-%d"><strong>%s</strong> (%d): %s</li>' % (
                s.index, f, esc(fam), len(by[fam]), ", ".join(
                    f'{st_badge(c["status"])} {self.case_link(s, c)}' for c in by[fam]))
            for f, fam in enumerate(self.fam_rows) if fam in by)

    def case_item(self, s, case):
        st = case["status"]
        prog = case.get("program") if isinstance(case.get("program"), dict) else None
        text = " ".join([case["id"], case.get("function") or "", case.get("title") or "",
                         (prog or {}).get("name") or ""] + case["rules"]).lower()
        o = ['<article class="case k-%s" id="%s" data-filter="1" data-function="%s" '
             'data-status="%s" data-strength="%s" data-text="%s">' % (
                 esc(st), esc(self.case_anchor.get((s.index, case["id"]), "")),
                 esc(case.get("function") or ""),
                 esc(" ".join(filter(None, (st, s.kind(case))))),
                 esc(self.case_strengths(case)), esc(text, 2000))]
        tags = ('<span class="tag">%s</span>' % ("counted" if case["counted"] else "not counted")
                if st in BAD else "")
        tags += '<span class="tag">mode: %s</span>' % esc(case["mode"]) if case.get("mode") else ""
        oc = s.notable(case)
        tags += st_badge(oc.kind) if oc else ""
        o.append('<h4>%s <code>%s</code> %s %s</h4>' % (
            st_badge(st), esc(case["id"]), esc(case.get("title") or ""), tags))
        loc = case.get("file") or "?"
        if case.get("line") is not None:
            loc = "%s:%d" % (loc, case["line"])
        dl = [("Target", esc(s.run.label)),
              ("Case", f'{code(loc)} (results line {case["_line"]})')]
        if case.get("function"):
            dl.append(("Function", code(case["function"])))
        if case.get("message"):
            dl.append(("Message", esc(case["message"])))
        if st == "CRASH" or case.get("exception"):
            dl.append(("Exception", code(case.get("exception") or "?")))
        if case.get("reason"):
            dl.append(("Reason", esc(case["reason"])))
        if prog is not None:
            src = f'<br><small class="muted">{esc(prog["source"])}</small>' \
                if prog.get("source") else ""
            dl.append(("Program", f'{esc(prog.get("name") or prog["id"])} <small class="muted">'
                                  f'({esc(prog["id"])})</small>{src}'))
            if st in BAD:
                step, what, cons = P.failure_parts(case)
                dl += [("Step", esc(step) + (f": {code(what)}" if what else "")),
                       ("Then", esc(cons))]
        if oc:
            dl.append(("Expectation", f"{st_badge(oc.kind)} {esc(oc.detail)}"))
        o.append("<dl>%s</dl>" % "".join(f"<dt>{t}</dt><dd>{d}</dd>" for t, d in dl))
        if case["checks"]:
            o.append(table(' class="checks"', ths("check", "rule", "expected", "observed", ""), [
                '<tr><td>%s</td><td>%s</td><td class="mono">%s</td><td class="mono%s">%s</td>'
                '<td>%s</td></tr>' % (esc(c.get("what")), esc(c.get("rule")),
                                      esc(c.get("expected")), "" if c.get("ok") else " bad",
                                      esc(c.get("got")), st_badge("PASS" if c.get("ok")
                                                                  else "FAIL"))
                for c in case["checks"]]))
        shown = case["failed_rules"] if st == "FAIL" and case["failed_rules"] else case["rules"]
        if shown:
            o.append('<ul class="rules">%s</ul>' % "".join(map(self.rule_item, shown)))
        if case.get("rerun"):
            o.append(f'<div>Rerun just this case:<pre>{code(case["rerun"])}</pre></div>')
        return "".join(o) + '</article>'

    def rule_item(self, rid):
        r = self.cat.get(rid)
        if r is None:
            return (f'<li>{code(rid)} <span class="muted">(not in this rule catalogue)</span>'
                    '</li>')
        return ('<li>%s <span class="tag">%s</span> %s <span class="muted">&mdash; source: %s; '
                '%s:%d</span></li>' % (self.rule_link(rid), esc(self.cat.strength_label(rid)),
                                       esc(r["text"]), esc(r["source"]), esc(r["file"]),
                                       r["line"]))

    def expectations_section(self):
        o = []
        for x in self.exps:
            arch = " " + esc(x.arch) if x.arch else ""
            o.append(f'<h3>{code(x.path)} &mdash; target {esc(x.impl)}{arch}</h3>')
            rows = [(oc.kind, s, cid, oc.detail) for s in self.order if x.applies_to(s.run)
                    for cid, oc in sorted(s.outcomes.items())
                    if oc.kind in ("XPASS", "CHANGED", "UNEXPECTED")]
            rows += [("STALE", None, e.case, "entry names %s but the case is not in its results "
                      "(%s)" % (run.label, e.where(x.path))) for xx, e, run in self.stale
                     if xx is x]
            if not rows:
                o.append('<p class="verdict-good">Every case matched its expectations.</p>')
                continue
            o.append(table("", ths("problem", "target", "case", "detail"), [
                f'<tr>{tds(st_badge(kind), esc(s.run.label) if s else "", code(cid), esc(d))}</tr>'
                for kind, s, cid, d in rows]))
        return section("expectations", "Expectations (XFAIL / XPASS)", *o)

    def skips(self):
        o = ['<p class="muted">Skipped cases are not passes: they did not run.</p>']
        for s in self.order:
            o.append(f'<h3 id="skips-{s.index}">{esc(s.run.label)} <span class="muted">'
                     f'({len(s.skipped)} skipped)</span></h3>')
            if not s.skipped:
                continue
            by = {}
            for c in s.skipped:
                by.setdefault(c.get("reason") or "(no reason given)", []).append(c["id"])
            rows = []
            for reason, ids in sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0])):
                more = " &hellip; and %d more" % (len(ids) - 40) if len(ids) > 40 else ""
                shown = "<strong>%d</strong>: %s%s" % (len(ids), ", ".join(map(code, ids[:40])),
                                                       more)
                rows.append(f"<tr>{tds(esc(reason), shown)}</tr>")
            o.append(table("", ths("reason", "cases"), rows))
        return section("skips", "Skipped cases and reasons", *o)

    def coverage_section(self):
        cov = self.cov
        o = ['<h3>Rules per function</h3>', table("", ths(
            "function", "rules", "rules with a case", "cases"), [
                f'<tr>{tds(code(f), d["rules"], d["covered"], len(d["cases"]))}</tr>'
                for f, d in sorted(cov["functions"].items())]),
             '<h3>Rules with no case in these results (%d)</h3>' % len(cov["uncovered"])]
        if cov["uncovered"]:
            o.append("<ul>%s</ul>" % "".join('<li>%s <span class="tag">%s</span>%s %s</li>' % (
                self.rule_link(r["id"]), esc(self.cat.strength_label(r["id"])),
                ' <span class="tag">not testable</span>' if self.cat.untestable(r["id"]) else "",
                esc(r["text"])) for r in cov["uncovered"]))
        else:
            o.append('<p>Every rule has at least one case.</p>')
        rules = [f'<tr id="r-{i}">%s</tr>' % tds(
            code(r["id"]), esc(r["strength"]), esc(r["provenance"]), esc(r["versions"]),
            code(r["function"]), cov["cases_per_rule"].get(r["id"], 0), esc(r["text"]) + (
                f'<br><small class="muted">{esc(r["note"])}</small>' if r.get("note") else ""),
            f'{esc(r["source"])}<br><small class="muted">{esc(r["file"])}:{r["line"]}</small>')
            for i, r in enumerate(self.cat.rules)]
        return section("coverage", "Coverage", *o) + section(
            "rules", "Rules", '<p class="muted">Cases per rule: distinct case ids citing the rule '
            'over all targets.</p>', table("", ths("rule", "strength", "provenance", "versions",
                                                  "function", "cases", "text", "source"), rules))

    def targets(self):
        o = []
        for s in self.order:
            run, h = s.run, s.run.header
            info = [("results file", run.path), ("target_id", run.target_id),
                    ("run", "complete" if run.complete else "INCOMPLETE: %s"
                     % run.incomplete_reason),
                    ("verdict", s.verdict + ("; " + s.verdict_detail if s.verdict_detail
                                             else ""))]
            if s.scope:
                info.append(("cases run", "%s: a filtered run" % s.scope))
            info += [(k, h[k]) for k in ("started", "isolation", "timeout_ms", "cases_planned")
                     if h.get(k) is not None]
            info += [(k, run.footer[k]) for k in ("finished", "duration_ms", "exit_code")
                     if (run.footer or {}).get(k) is not None]
            if isinstance(h.get("argv"), list):
                info.append(("argv", " ".join(display(a) for a in h["argv"])))
            info += _flatten(h.get("suite") or {}, "suite") + _flatten(h.get("host") or {}, "host")
            o.append(f'<h3 id="target-{s.index}">{esc(run.label)}</h3>'
                     '<div style="display:flex;gap:16px;flex-wrap:wrap">'
                     f'<div><h4>Run</h4>{_kv_table(info)}</div>'
                     f'<div><h4>Target</h4>{_kv_table(_flatten(h["target"]))}</div>'
                     f'<div><h4>Fingerprint</h4>{_kv_table(_flatten(h.get("fingerprint") or {}))}'
                     '</div></div>')
            if run.warnings:
                o.append('<p>Warnings:</p><ul>%s</ul>' % "".join(
                    f"<li>{esc(x)}</li>" for x in run.warnings))
        return section("targets", "Targets and fingerprints", *o)


def render(summaries, catalog, exps=(), stale=None, title="etwconf conformance report",
           known=None):
    return HtmlReport(summaries, catalog, exps, title, stale, known).render()
