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
from .analysis import matrix, coverage, totals, under_test, reference_ranges, families
from .util import BAD, display, shorten, plural

ORDER = ("CRASH", "TIMEOUT", "FAIL", "BROKEN", "PASS", "SKIP")


def esc(value, limit=4000):
    return html.escape(shorten(display(value), limit), quote=True)


def st_badge(status, extra=""):
    s = esc(status)
    return '<span class="st st-%s%s">%s</span>' % (s, extra, s)


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
    else:
        if isinstance(obj, list) and all(not isinstance(x, (dict, list)) for x in obj):
            out.append((prefix, " ".join(display(x) for x in obj)))
        else:
            out.append((prefix, display(obj)))
    return out


def _repo_relative(path):
    from .catalog import REPO
    if path and os.path.abspath(path).startswith(REPO + os.sep):
        return os.path.relpath(os.path.abspath(path), REPO)
    return path


def _kv_table(pairs):
    rows = ['<tr><th class="mono">%s</th><td class="mono">%s</td></tr>' % (esc(k), esc(v))
            for k, v in pairs]
    if not rows:
        return '<p class="muted">(empty)</p>'
    return '<table class="kv">%s</table>' % "".join(rows)


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
        self.case_anchor = {}             # (target index, case id) -> anchor id

    # -------------------------------------------------------------------------- helpers
    def case_strengths(self, case):
        return " ".join(sorted({self.cat.strength(r) for r in case["rules"]})) or "?"

    def rule_link(self, rule_id):
        i = self.rule_index.get(rule_id)
        if i is None:
            return '<code>%s</code>' % esc(rule_id)
        return '<a href="#r-%d"><code>%s</code></a>' % (i, esc(rule_id))

    def target_head(self, s):
        impl = s.run.impl
        rest = s.run.label[len(impl) + 1:] if s.run.label.startswith(impl + "@") else s.run.label
        cls = "verdict-" + s.verdict_class
        mark = "conformant" if s.fully_conformant else \
            ("incomplete" if s.conformant and not s.run.complete else "filtered" if s.conformant
             else "%d MUST" % len(s.must_rules) if s.must_rules
             else "crash")
        inc = ' <span class="incomplete">INCOMPLETE</span>' if not s.run.complete else ""
        return ('<th class="tgt" title="%s"><a href="#target-%d">%s <small>%s</small></a> '
                '<small class="%s">%s</small>%s</th>'
                % (esc(s.run.label), s.index, esc(impl), esc(rest), cls, esc(mark), inc))

    # -------------------------------------------------------------------------- sections
    def render(self):
        out = []
        w = out.append
        now = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        suites = sorted({"%s %s%s" % (display(s.run.header.get("suite", {}).get("name", "etwconf")),
                                      display(s.run.header.get("suite", {}).get("version", "?")),
                                      (" (git %s)" % display(s.run.header["suite"]["git"]))
                                      if s.run.header.get("suite", {}).get("git") else "")
                         for s in self.s})
        tot = totals(self.s)
        w('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n')
        w('<meta http-equiv="Content-Security-Policy" content="%s">\n' % esc(_csp()))
        w('<meta name="viewport" content="width=device-width, initial-scale=1">\n')
        w('<meta name="generator" content="etwconf-report %s">\n' % esc(__version__))
        w('<title>%s</title>\n<style>%s</style></head>\n<body>\n' % (esc(self.title), CSS))
        w('<header class="top"><h1>%s</h1>' % esc(self.title))
        w('<p>%s; %s; %s (%s)</p>' % (
            plural(len(self.s), "target"), plural(sum(tot.values()), "case record"),
            ", ".join(esc(x) for x in suites) or "no runs",
            ", ".join("%d %s" % (tot[k], k) for k in ORDER if tot[k]) or "nothing ran"))
        meta = 'Rule catalogue: %s (%s). Generated %s by etwconf-report %s.' % (
            esc(_repo_relative(self.cat.path) or "?"), plural(len(self.cat.rules), "rule"),
            esc(now), esc(__version__))
        if self.exps:
            meta += ' Expectations: %s.' % ", ".join("<code>%s</code> (%s)" % (
                esc(x.path), plural(len(x.entries), "entry", "entries")) for x in self.exps)
        w('<p class="meta">%s</p>' % meta)
        w(self.toc())
        w('</header>\n<main>\n')
        w(self.verdicts())
        w(self.families_section())
        w(self.programs_section())
        w(self.legend())
        w(self.filters())
        w(self.matrix_section())
        w(self.failures())
        if self.exps:
            w(self.expectations_section())
        w(self.skips())
        w(self.coverage_section())
        w(self.targets())
        w('</main>\n<footer class="muted" style="padding:12px 24px">'
          '<p id="js-note">Without JavaScript the filters are off and everything is shown.</p>'
          '<p>etwconf-report %s. Strings from results files are shown as text.</p></footer>\n'
          % esc(__version__))
        w('<script>%s</script>\n</body></html>\n' % JS)
        return "".join(out)

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
            '<a href="#%s">%s</a>' % (a, t) for a, t in items)

    # -------------------------------------------------------------------------- first screen
    def verdicts(self):
        o = ['<section id="verdicts"><h2>What breaks where</h2>']
        if not self.s:
            o.append('<p>No results.</p></section>')
            return "".join(o)
        o.append('<p class="muted">Conformant: no case fails a MUST rule (counted) and nothing '
                 'crashed or timed out; SKIP is never a pass.%s</p>' % (
                     ' The reference (the suite checking itself) is one line per range of '
                     'builds with the same verdict.' if self.ref else ""))
        o.append(self.verdict_table(self.under, "under"))
        for r in self.ranges:
            o.append('<details class="ref-range" id="reference-%d"><summary>'
                     '<strong>reference</strong>: <span class="verdict verdict-%s">%s</span> at '
                     '%s, %s <span class="muted">(each build)</span></summary>%s</details>' % (
                         r.index, r.verdict_class, esc(r.verdict), plural(len(r.runs), "build"),
                         esc(r.span()), self.verdict_table(r.runs, "ref")))
        o.append('</section>\n')
        return "".join(o)

    def verdict_table(self, summaries, kind):
        o = ['<table class="verdicts verdicts-%s"><thead><tr><th>Target</th><th>Verdict (counted failures)</th>'
             '<th>Cases</th>%s<th>Programs broken</th></tr></thead><tbody>'
             % (kind, '<th>Expectations</th>' if self.exps else "")]
        for s in summaries:
            run = s.run
            o.append('<tr class="verdict-row%s" data-target="%d"><th><a href="#target-%d">%s</a>'
                     '</th>' % (" ref-row" if kind == "ref" else "", s.index, s.index,
                                esc(run.label)))
            # the verdict counts the failures and links to them
            n_div = len(s.divergences)
            o.append('<td class="vd"><a href="#failures-%d" class="verdict verdict-%s" title="%s">'
                     '%s</a>%s%s</td>' % (
                         s.index, s.verdict_class, esc(s.verdict_detail), esc(s.verdict),
                         ' <small>+%d div.</small>' % n_div if n_div else "",
                         "" if run.complete else ' <span class="incomplete" title="%s">INCOMPLETE'
                         '</span>' % esc(run.incomplete_reason)))
            o.append('<td class="nw">%s</td>' % (" ".join(
                '<span class="st st-%s">%d %s</span>' % (k, s.counts[k], k)
                for k in ORDER if s.counts[k])))
            if self.exps:
                o.append('<td class="nw"><small>%s</small></td>' % self.exp_summary(s))
            o.append('<td class="progs">%s</td>' % self.broken_programs(s))
            o.append('</tr>')
        o.append('</tbody></table>')
        return "".join(o)

    def broken_programs(self, s):
        """The programs a target breaks, each linked to its rows in Programs affected."""
        tp = self.tps[s.index]
        if not tp.has_scenarios:
            return '<span class="muted">no client scenarios</span>'
        broken = [(k, p) for k, p in enumerate(tp.programs) if p.state == P.BROKEN]
        if not broken:
            return '<span class="muted">none of %d</span>' % len(tp.programs)
        return '%d of %d: %s' % (len(broken), len(tp.programs), ", ".join(
            '<a href="#p-%d-%d" title="%s">%s</a>' % (s.index, k, esc(p.name), esc(p.id))
            for k, p in broken))

    def column_heads(self):
        """The matrix heads of the first screen: targets under test, then reference ranges."""
        return "".join([self.target_head(s) for s in self.under] + [
            '<th class="tgt" title="%s"><a href="#reference-%d">reference <small>%s</small></a> '
            '<small class="verdict-%s">%s</small></th>' % (
                esc(r.line()), r.index, esc(r.span()), r.verdict_class,
                plural(len(r.runs), "build")) for r in self.ranges])

    def families_section(self):
        o = ['<section id="families"><h2>API family &times; target</h2>']
        if not self.s:
            o.append('<p>No results.</p></section>\n')
            return "".join(o)
        o.append('<p class="muted">Counted failures / cases of each function on each target '
                 '(a reference column sums its builds); the colour is the worst counted '
                 'failure, else <span class="st st-DIV">div.</span> divergences (not counted), '
                 'broken fixtures, passes, skips. A cell links to its failures.</p>')
        o.append('<div class="matrix-wrap"><table class="matrix" id="family-table"><thead><tr>'
                 '<th class="rid">API family</th>%s</tr></thead><tbody>' % self.column_heads())
        from .analysis import FamilyCell
        for f, fam in enumerate(self.fam_rows):
            o.append('<tr class="family-row"><th class="rid">%s</th>' % esc(fam))
            o += [self.family_cell(self.fam_cells.get((fam, s.index)), f, s.run.label)
                  for s in self.under]
            for r in self.ranges:
                cell = FamilyCell()
                for s in r.runs:
                    c = self.fam_cells.get((fam, s.index))
                    if c is not None:
                        cell.add(c)
                o.append(self.family_cell(cell if cell.n else None, f, "reference " + r.span(),
                                          r))
            o.append('</tr>')
        o.append('</tbody></table></div></section>\n')
        return "".join(o)

    def family_cell(self, cell, f, label, rng=None):
        if cell is None:
            return '<td class="cell c-na">n/a</td>'
        st = cell.state
        link = None
        for s in cell.summaries:
            c = self.fam_cells.get((self.fam_rows[f], s.index))
            if c is not None and (c.bad or c.divergences or c.by_status.get("BROKEN")):
                link = "ff-%d-%d" % (s.index, f)
                break
        if link is None:
            link = ("reference-%d" % rng.index) if rng is not None else \
                ("skips-%d" % cell.summaries[0].index) if st == "SKIP" else None
        text = "%d/%d" % (cell.bad, cell.n)
        if link:
            text = '<a href="#%s">%s</a>' % (link, text)
        if cell.divergences:
            text += ' <small>+%d div.</small>' % cell.divergences
        title = "%s: %s counted of %s; %s" % (
            label, plural(cell.bad, "failure"), plural(cell.n, "case"), ", ".join(
                "%d %s" % (cell.by_status[k], k) for k in ORDER if cell.by_status.get(k)))
        xf = " xf" if cell.bad and cell.xfail == cell.bad else ""
        return '<td class="cell c-%s%s" title="%s">%s</td>' % (st, xf, esc(title), text)

    def exp_summary(self, s):
        if not s.outcomes:
            return '<span class="muted">no expectations for this target</span>'
        c = dict(s.kinds, STALE=sum(1 for (_, _, r) in self.stale if r is s.run))
        bad = ("XPASS", "CHANGED", "UNEXPECTED", "STALE")
        parts = ['%d XFAIL' % c.get("XFAIL", 0)] + [
            '<span class="st st-%s">%d %s</span>' % (k, c[k], k) for k in bad if c.get(k)]
        bad = sum(c.get(k, 0) for k in bad)
        parts.append('<span class="%s">%s</span>' % (
            "verdict-good" if not bad else "verdict-bad",
            "as expected" if not bad else plural(bad, "problem")))
        return ", ".join(parts)

    def legend(self):
        desc = {"PASS": "every check held", "FAIL": "a check did not hold",
                "CRASH": "the target faulted", "TIMEOUT": "the target did not return",
                "BROKEN": "the fixture could not be set up (suite or environment)",
                "SKIP": "does not apply or cannot run here (never a pass)"}
        o = ['<section id="legend" class="legend"><h2>Legend</h2><p>']
        o += ['%s %s. ' % (st_badge(k), desc[k]) for k in ORDER]
        o.append('<span class="st st-na">n/a</span> no case of the rule ran on that target.</p>')
        o.append('<p>A matrix cell shows the worst status over the rule\'s cases on that target '
                 '(CRASH &gt; TIMEOUT &gt; FAIL &gt; BROKEN &gt; PASS &gt; SKIP) and how many of '
                 'them had it. In a FAIL case only the rules whose checks failed are FAIL; the '
                 'case\'s other rules count as PASS.</p>')
        if self.exps:
            o.append('<p>%s a known failure that matches its expectation entry (striped cell). '
                     '%s an expectation entry, but the case passed (outlined cell). %s the '
                     'failure differs from its entry. %s a failure with no entry. %s an entry '
                     'whose case is not in the results.</p>' % tuple(
                         st_badge(k) for k in ("XFAIL", "XPASS", "CHANGED", "UNEXPECTED",
                                               "STALE")))
        o.append('</section>\n')
        return "".join(o)

    def filters(self):
        funcs = sorted({r["function"] for r in self.cat.rules} |
                       {c.get("function") for s in self.s for c in s.run.cases
                        if c.get("function")})
        statuses = list(ORDER) + (["XFAIL", "XPASS", "CHANGED", "UNEXPECTED"] if self.exps else [])
        o = ['<div class="filters" id="filters" hidden>']
        o.append('<label>Function <select id="f-function"><option value="">all</option>%s'
                 '</select></label>' % "".join('<option value="%s">%s</option>' % (esc(f), esc(f))
                                               for f in funcs))
        o.append('<label>Status <select id="f-status"><option value="">all</option>%s</select>'
                 '</label>' % "".join('<option>%s</option>' % esc(x) for x in statuses))
        o.append('<label>Strength <select id="f-strength"><option value="">all</option>'
                 '<option>MUST</option><option>SHOULD</option><option>MAY</option>'
                 '<option>INFO</option></select></label>')
        o.append('<label>Text <input id="f-text" type="search" placeholder="rule or case id">'
                 '</label><button type="button" id="f-reset">reset</button> '
                 '<span id="f-count" class="muted"></span></div>\n')
        return "".join(o)

    # -------------------------------------------------------------------------- programs
    def case_link(self, s, i, case, text=None):
        anchor = self.case_anchor.get((s.index, case["id"]))
        label = '<code>%s</code>' % esc(case["id"]) if text is None else text
        return '<a href="#%s">%s</a>' % (anchor, label) if anchor else label

    def program_name(self, p):
        src = p.source or ""
        if p.repository and p.repository not in src:
            src = "%s: %s" % (p.repository, src) if src else p.repository
        return '<strong>%s</strong> <small class="muted">(%s)</small>%s' % (
            esc(p.name), esc(p.id), ('<br><small class="muted">%s</small>' % esc(src, 300))
            if src else "")

    def programs_section(self):
        o = ['<section id="programs"><h2>Programs affected</h2>']
        o.append('<p class="muted">Client scenarios replay the calls of real programs (public '
                 'source) in order. A program is <em>broken</em> on a target when one of its '
                 'scenarios fails, crashes or times out (counted or not, as said); <em>works'
                 '</em> when every scenario passed; <em>not exercised</em> when its scenarios '
                 'were skipped (never a pass). The matrix has the programs that break '
                 'somewhere; below it, each target\'s broken programs, then one line each for '
                 'those that work, are not exercised (and why) or have no scenario.%s</p>' % (
                     (" Programs listed in <code>%s</code>." % esc(_repo_relative(
                         self.known.path))) if self.known.path else ""))
        if not self.s:
            o.append('<p>No results.</p></section>\n')
            return "".join(o)
        o.append(self.program_matrix())
        o += [self.program_block(s) for s in self.under]
        if self.ref:
            o.append('<details class="ref-range" id="programs-reference"><summary><strong>'
                     'reference</strong>: programs at each build (%s)</summary>%s</details>' % (
                         plural(len(self.ref), "build"),
                         "".join(self.program_block(s) for r in self.ranges for s in r.runs)))
        o.append('</section>\n')
        return "".join(o)

    def program_block(self, s):
        """One target's programs: the broken ones in full, the others one line per state."""
        tp = self.tps[s.index]
        o = ['<h3 id="programs-%d">%s <span class="muted">&mdash; %s</span></h3>' % (
            s.index, esc(s.run.label), esc(tp.headline()) if tp.has_scenarios
            else "no client scenarios")]
        if not tp.has_scenarios:
            o.append('<p class="muted">This run has no client-scenario cases (results of '
                     'an older suite, or none selected).</p>')
            return "".join(o)
        broken = [(k, p) for k, p in enumerate(tp.programs) if p.state == P.BROKEN]
        if broken:
            o.append('<table class="programs" data-target="%d"><thead><tr><th>Program</th>'
                     '<th>State</th><th>Scenario</th><th>Step</th><th>Call made at that step'
                     '</th><th>What the program does then</th></tr></thead><tbody>' % s.index)
            o += [self.program_rows(s, k, p) for k, p in broken] + ['</tbody></table>']
        works = [(k, p) for k, p in enumerate(tp.programs) if p.state in (P.WORKS, P.PARTIAL)]
        if works:
            o.append('<p class="works">%s works: %s</p>' % (st_badge("PASS"), "; ".join(
                '<span id="p-%d-%d">%s%s: %s</span>' % (
                    s.index, k, esc(p.name), " (partly exercised)" if p.state == P.PARTIAL
                    else "", ", ".join('<code>%s</code>' % esc(c["id"]) for _, c in p.passed))
                for k, p in works)))
        groups = tp.not_run_by_reason()
        if groups:
            n_prog = len({p.id for _, pcs in groups for p, _ in pcs})
            o.append('<details class="not-run"><summary>%s not exercised: %s</summary><ul>%s'
                     '</ul></details>' % (
                         plural(n_prog, "program"), esc("; ".join(r for r, _ in groups)),
                         "".join('<li>%s: %s</li>' % (esc(reason), ", ".join(
                             '%s %s <code>%s</code>' % (st_badge(c["status"]), esc(p.name),
                                                        esc(c["id"])) for p, c in pcs))
                             for reason, pcs in groups)))
        absent = tp.with_state(P.ABSENT)
        if absent:
            o.append('<p class="muted">No scenario in this run: %s</p>' % ", ".join(
                esc(p.name) for p in absent))
        return "".join(o)

    def program_matrix(self):
        """Programs that break on some target x the first screen's columns."""
        if not self.prog_rows:
            return '<p class="muted">No client-scenario cases in these results.</p>'
        rows = [row for row in self.prog_rows if any(
            self.tps[s.index].by_id.get(row.id) is not None
            and self.tps[s.index].by_id[row.id].state == P.BROKEN for s in self.s)]
        if not rows:
            return '<p class="verdict-good">No program breaks on any target.</p>'
        o = ['<div class="matrix-wrap"><table class="matrix" id="program-table"><thead><tr>'
             '<th class="rid">Program</th>%s</tr></thead><tbody>' % self.column_heads()]
        for row in rows:
            o.append('<tr class="prog-row"><th class="rid" title="%s">%s <small class="muted">'
                     '(%s)</small></th>' % (esc(row.source or ""), esc(row.name), esc(row.id)))
            o += [self.program_cell(s, row) for s in self.under]
            for r in self.ranges:
                broken = [s for s in r.runs if self.tps[s.index].by_id.get(row.id) is not None
                          and self.tps[s.index].by_id[row.id].state == P.BROKEN]
                o.append(self.program_cell(broken[0] if broken else r.runs[-1], row,
                                           "at %d of %d" % (len(broken), len(r.runs))
                                           if broken and len(r.runs) > 1 else None))
            o.append('</tr>')
        o.append('</tbody></table></div>')
        return "".join(o)

    def program_cell(self, s, row, small=None):
        tp = self.tps[s.index]
        p = tp.by_id.get(row.id)
        if p is None or p.state == P.ABSENT:
            return '<td class="cell c-na">%s</td>' % ("no scenario" if tp.has_scenarios
                                                      else "n/a")
        link = "programs-%d" % s.index
        if p.state == P.BROKEN:
            i, c = p.worst()
            cls = "c-%s" % c["status"]
            if all(s.outcomes.get(f["id"]) is not None
                   and s.outcomes[f["id"]].kind == "XFAIL" for _, f in p.failing):
                cls += " xf"          # every failure is a known one
            link = self.case_anchor.get((s.index, c["id"])) or link
            count = "%d/%d" % (len(p.failing), len(p.scenarios))
        elif p.state == P.NOT_EXERCISED:
            cls, count = "c-SKIP", "0/%d" % len(p.scenarios)
        else:
            cls, count = "c-PASS", "%d/%d" % (len(p.passed), len(p.scenarios))
        return ('<td class="cell %s" title="%s: %s"><a href="#%s">%s</a> <small>%s</small></td>'
                % (cls, esc(s.run.label), esc(p.value(), 1000), link, esc(p.cell_text()),
                   esc(small or count)))

    def program_rows(self, s, k, p):
        rid = 'p-%d-%d' % (s.index, k)
        cls = {P.BROKEN: "c-FAIL", P.WORKS: "c-PASS", P.PARTIAL: "c-PASS",
               P.NOT_EXERCISED: "c-SKIP", P.ABSENT: "c-na"}[p.state]
        lines = []                 # (scenario cell, step, call, consequence)
        if p.state == P.BROKEN:
            for i, c in p.failing:
                step, what, cons = P.failure_parts(c)
                oc = s.outcomes.get(c["id"])
                tags = '%s <span class="tag">%s</span>%s' % (
                    st_badge(c["status"]), "counted" if c["counted"] else "not counted",
                    (" " + st_badge(oc.kind)) if oc is not None and oc.kind not in
                    ("OK", "SKIP") else "")
                lines.append(('%s %s' % (self.case_link(s, i, c), tags), esc(step),
                              '<code>%s</code>' % esc(what) if what else
                              '<span class="muted">unknown</span>', esc(cons)))
        if p.state in (P.WORKS, P.PARTIAL) or (p.state == P.BROKEN and p.passed):
            lines.append(('%s %s' % (st_badge("PASS"), ", ".join(
                '<code>%s</code>' % esc(c["id"]) for _, c in p.passed)), "", "",
                '<span class="muted">runs as it relies on</span>'))
        for i, c in p.not_run:
            lines.append(('%s <code>%s</code>' % (st_badge(c["status"]), esc(c["id"])), "",
                          "", 'not exercised: %s' % esc(p.not_run_reason(c))))
        if p.state == P.ABSENT:
            lines.append(("", "", "", '<span class="muted">no scenario for this program in '
                          'this run</span>'))
        word = P.WORDS[p.state]
        o = []
        for j, (scen, step, call, cons) in enumerate(lines):
            o.append('<tr%s class="prog-%s">' % (' id="%s"' % rid if j == 0 else "",
                                                  p.state.replace(" ", "-")))
            if j == 0:
                span = ' rowspan="%d"' % len(lines) if len(lines) > 1 else ""
                o.append('<td%s>%s</td><td%s class="cell %s">%s</td>' % (
                    span, self.program_name(p), span, cls, esc(word)))
            o.append('<td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>' % (scen, step, call,
                                                                                cons))
        return "".join(o)

    def matrix_section(self):
        o = ['<section id="matrix"><h2>Rule &times; target matrix</h2>']
        if not self.s:
            o.append('<p>No results.</p></section>')
            return "".join(o)
        ncol = 4 + len(self.s)
        o.append('<div class="matrix-wrap"><table class="matrix" id="matrix-table"><thead><tr>'
                 '<th class="rid">Rule</th><th>Strength</th><th>Function</th><th>Cases</th>')
        o += [self.target_head(s) for s in self.order] + ['</tr></thead>']
        from .catalog import GROUPS
        for gkey, gtitle in GROUPS:
            rows = [rid for g, rid in self.rows if g == gkey]
            if not rows:
                continue
            o.append('<tbody class="group-%s"><tr class="group"><th colspan="%d">%s '
                     '<span class="muted">(%d)</span></th></tr>' % (gkey, ncol, esc(gtitle),
                                                                   len(rows)))
            o += [self.matrix_row(rid) for rid in rows] + ['</tbody>']
        o.append('</table></div></section>\n')
        return "".join(o)

    def matrix_row(self, rid):
        rule = self.cat.get(rid)
        func = rule["function"] if rule else ""
        if not func:
            for s in self.s:
                c = self.cells.get((rid, s.index))
                if c is not None and c.worst_case is not None:
                    func = c.worst_case.get("function") or ""
                    break
        statuses = set()
        tds = []
        for s in self.order:
            c = self.cells.get((rid, s.index))
            if c is None:
                tds.append('<td class="cell c-na">n/a</td>')
                statuses.add("n/a")
                continue
            statuses.update(c.by_status)
            st = c.status
            extra = ""
            word = st
            if c.xpass:
                extra = " xp"
                word = "%s xpass" % st
                statuses.add("XPASS")
            elif c.xfail and st in BAD + ("BROKEN",):
                extra = " xf"
                word = "%s xfail" % st
                statuses.add("XFAIL")
            link = None
            if st not in ("PASS", "SKIP") or c.xpass:
                link = self.case_anchor.get((s.index, c.worst_case["id"]))
            elif st == "SKIP":
                link = "skips-%d" % s.index
            label = esc(word)
            if link:
                label = '<a href="#%s">%s</a>' % (link, label)
            n_st = c.by_status.get(st, 0)
            tds.append('<td class="cell c-%s%s" title="%s: %d of %d cases %s">%s <small>%d/%d</small>'
                       '</td>' % (st, extra, esc(s.run.label), n_st, c.n, st, label, n_st, c.n))
        rtext = rule["text"] if rule else "not in this rule catalogue"
        strength = self.cat.strength_label(rid)
        return ('<tr data-filter="1" data-function="%s" data-strength="%s" data-status="%s" '
                'data-text="%s"><th class="rid" title="%s">%s</th><td class="sg">%s</td><td class="fn">%s</td>'
                '<td>%d</td>%s</tr>' % (
                    esc(func), esc(self.cat.strength(rid)), esc(" ".join(sorted(statuses))),
                    esc(rid.lower()), esc(rtext), self.rule_link(rid), esc(strength), esc(func),
                    self.cov["cases_per_rule"].get(rid, 0), "".join(tds)))

    # anchors must exist before the matrix links to them
    def assign_anchors(self):
        for s in self.s:
            for i, case in enumerate(s.run.cases):
                oc = s.outcomes.get(case["id"])
                if case["status"] in BAD + ("BROKEN",) or (oc is not None and oc.kind == "XPASS"):
                    self.case_anchor[(s.index, case["id"])] = "f-%d-%d" % (s.index, i)

    def failures(self):
        o = ['<section id="failures"><h2>Failures, crashes and divergences</h2>']
        any_ = False
        for s in self.order:
            groups = [
                ("Failures of MUST rules", [c for c in s.run.cases if c["counted"]
                                            and c["status"] == "FAIL"]),
                ("Crashes and timeouts", [c for c in s.run.cases if c["status"] in ("CRASH",
                                                                                      "TIMEOUT")]),
                ("Divergences (not counted)", s.divergences),
                ("Broken fixtures (suite or environment problems)", s.broken),
                ("Unexpected passes (XPASS)", [c for c in s.run.cases if c["status"] == "PASS"
                                               and s.outcomes.get(c["id"]) is not None
                                               and s.outcomes[c["id"]].kind == "XPASS"]),
            ]
            n = sum(len(g) for _, g in groups)
            o.append('<h3 id="failures-%d">%s <span class="muted">&mdash; %s</span></h3>'
                     % (s.index, esc(s.run.label), esc(s.verdict)))
            if not s.run.complete:
                o.append('<p><span class="incomplete">INCOMPLETE</span> %s</p>'
                         % esc(s.run.incomplete_reason))
            if not n:
                o.append('<p class="muted">No failures, crashes or divergences.</p>')
                continue
            any_ = True
            o.append(self.family_index(s, [c for _, g in groups for c in g]))
            for title, cases in groups:
                if not cases:
                    continue
                o.append('<h4>%s (%d)</h4>' % (esc(title), len(cases)))
                o += [self.case_item(s, case) for case in cases]
        if not self.s:
            o.append('<p>No results.</p>')
        elif not any_:
            o.append('<p>No failures on any target.</p>')
        o.append('</section>\n')
        return "".join(o)

    def family_index(self, s, cases):
        """One line per API family with this target's failures in it, each case linked: the
        place a cell of the family matrix links to."""
        from .analysis import family_of
        by = {}
        for c in cases:
            by.setdefault(family_of(c), []).append(c)
        o = ['<ul class="fam-index">']
        for f, fam in enumerate(self.fam_rows):
            if fam in by:
                o.append('<li id="ff-%d-%d"><strong>%s</strong> (%d): %s</li>' % (
                    s.index, f, esc(fam), len(by[fam]), ", ".join(
                        '%s %s' % (st_badge(c["status"]), self.case_link(s, 0, c))
                        for c in by[fam])))
        o.append('</ul>')
        return "".join(o)

    def case_item(self, s, case):
        idx = self.case_anchor.get((s.index, case["id"]), "")
        st = case["status"]
        oc = s.outcomes.get(case["id"])
        statuses = [st] + ([oc.kind] if oc is not None else [])
        prog = case.get("program") if isinstance(case.get("program"), dict) else {}
        text = " ".join([case["id"], case.get("function") or "", case.get("title") or "",
                         prog.get("name") or ""] + case["rules"]).lower()
        o = ['<article class="case k-%s" id="%s" data-filter="1" data-function="%s" '
             'data-status="%s" data-strength="%s" data-text="%s">' % (
                 esc(st), esc(idx), esc(case.get("function") or ""), esc(" ".join(statuses)),
                 esc(self.case_strengths(case)), esc(text, 2000))]
        tags = ('<span class="tag">%s</span>' % ("counted" if case["counted"] else "not counted")
                if st in BAD else "")
        tags += '<span class="tag">mode: %s</span>' % esc(case["mode"]) if case.get("mode") else ""
        tags += st_badge(oc.kind) if oc is not None and oc.kind not in ("OK", "SKIP") else ""
        o.append('<h4>%s <code>%s</code> %s %s</h4>' % (
            st_badge(st), esc(case["id"]), esc(case.get("title") or ""), tags))
        o.append('<dl><dt>Target</dt><dd>%s</dd>' % esc(s.run.label))
        loc = case.get("file") or "?"
        if case.get("line") is not None:
            loc = "%s:%d" % (loc, case["line"])
        o.append('<dt>Case</dt><dd><code>%s</code> (results line %d)</dd>' % (esc(loc),
                                                                              case["_line"]))
        if case.get("function"):
            o.append('<dt>Function</dt><dd><code>%s</code></dd>' % esc(case["function"]))
        if case.get("message"):
            o.append('<dt>Message</dt><dd>%s</dd>' % esc(case["message"]))
        if st == "CRASH" or case.get("exception"):
            o.append('<dt>Exception</dt><dd><code>%s</code></dd>' % esc(case.get("exception")
                                                                        or "?"))
        if case.get("reason"):
            o.append('<dt>Reason</dt><dd>%s</dd>' % esc(case["reason"]))
        prog = case.get("program")
        if isinstance(prog, dict):
            o.append('<dt>Program</dt><dd>%s <small class="muted">(%s)</small>%s</dd>' % (
                esc(prog.get("name") or prog["id"]), esc(prog["id"]),
                ('<br><small class="muted">%s</small>' % esc(prog["source"]))
                if prog.get("source") else ""))
            if st in BAD:
                step, what, cons = P.failure_parts(case)
                o.append('<dt>Step</dt><dd>%s%s</dd><dt>Then</dt><dd>%s</dd>' % (
                    esc(step), (': <code>%s</code>' % esc(what)) if what else "", esc(cons)))
        if oc is not None and oc.kind not in ("OK", "SKIP"):
            o.append('<dt>Expectation</dt><dd>%s %s</dd>' % (st_badge(oc.kind), esc(oc.detail)))
        o.append('</dl>')
        if case["checks"]:
            o.append('<table class="checks"><thead><tr><th>check</th><th>rule</th><th>expected'
                     '</th><th>observed</th><th></th></tr></thead><tbody>')
            o += ['<tr><td>%s</td><td>%s</td><td class="mono">%s</td><td class="mono%s">%s</td>'
                  '<td>%s</td></tr>' % (esc(c.get("what")), esc(c.get("rule")),
                                        esc(c.get("expected")), "" if c.get("ok") else " bad",
                                        esc(c.get("got")), st_badge("PASS" if c.get("ok")
                                                                    else "FAIL"))
                  for c in case["checks"]] + ['</tbody></table>']
        shown = case["failed_rules"] if st == "FAIL" and case["failed_rules"] else case["rules"]
        if shown:
            o.append('<ul class="rules">')
            for rid in shown:
                r = self.cat.get(rid)
                if r is None:
                    o.append('<li><code>%s</code> <span class="muted">(not in this rule '
                             'catalogue)</span></li>' % esc(rid))
                else:
                    o.append('<li>%s <span class="tag">%s</span> %s <span class="muted">'
                             '&mdash; source: %s; %s:%d</span></li>' % (
                                 self.rule_link(rid), esc(self.cat.strength_label(rid)),
                                 esc(r["text"]), esc(r["source"]), esc(r["file"]), r["line"]))
            o.append('</ul>')
        if case.get("rerun"):
            o.append('<div>Rerun just this case:<pre><code>%s</code></pre></div>'
                     % esc(case["rerun"]))
        o.append('</article>')
        return "".join(o)

    def expectations_section(self):
        o = ['<section id="expectations"><h2>Expectations (XFAIL / XPASS)</h2>']
        for x in self.exps:
            o.append('<h3><code>%s</code> &mdash; target %s%s</h3>' % (
                esc(x.path), esc(x.impl), (" " + esc(x.arch)) if x.arch else ""))
            rows = []
            for s in self.order:
                if not x.applies_to(s.run):
                    continue
                for cid, oc in sorted(s.outcomes.items()):
                    if oc.kind in ("XPASS", "CHANGED", "UNEXPECTED"):
                        rows.append((oc.kind, s, cid, oc.detail))
            for (xx, e, run) in self.stale:
                if xx is x:
                    rows.append(("STALE", None, e.case, "entry names %s but the case is not in "
                                 "its results (%s)" % (run.label, e.where(x.path))))
            if not rows:
                o.append('<p class="verdict-good">Every case matched its expectations.</p>')
                continue
            o.append('<table><thead><tr><th>problem</th><th>target</th><th>case</th>'
                     '<th>detail</th></tr></thead><tbody>')
            for kind, s, cid, detail in rows:
                o.append('<tr><td>%s</td><td>%s</td><td><code>%s</code></td><td>%s</td></tr>' % (
                    st_badge(kind), esc(s.run.label) if s else "", esc(cid), esc(detail)))
            o.append('</tbody></table>')
        o.append('</section>\n')
        return "".join(o)

    def skips(self):
        o = ['<section id="skips"><h2>Skipped cases and reasons</h2>'
             '<p class="muted">Skipped cases are not passes: they did not run.</p>']
        for s in self.order:
            o.append('<h3 id="skips-%d">%s <span class="muted">(%d skipped)</span></h3>'
                     % (s.index, esc(s.run.label), len(s.skipped)))
            if not s.skipped:
                continue
            by = {}
            for c in s.skipped:
                by.setdefault(c.get("reason") or "(no reason given)", []).append(c["id"])
            o.append('<table><thead><tr><th>reason</th><th>cases</th></tr></thead><tbody>')
            for reason, ids in sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0])):
                shown = ids[:40]
                more = " &hellip; and %d more" % (len(ids) - 40) if len(ids) > 40 else ""
                o.append('<tr><td>%s</td><td><strong>%d</strong>: %s%s</td></tr>' % (
                    esc(reason), len(ids), ", ".join("<code>%s</code>" % esc(i) for i in shown),
                    more))
            o.append('</tbody></table>')
        o.append('</section>\n')
        return "".join(o)

    def coverage_section(self):
        cov = self.cov
        o = ['<section id="coverage"><h2>Coverage</h2><h3>Rules per function</h3>'
             '<table><thead><tr><th>function</th><th>rules</th><th>rules with a case</th>'
             '<th>cases</th></tr></thead><tbody>']
        o += ['<tr><td><code>%s</code></td><td>%d</td><td>%d</td><td>%d</td></tr>' % (
            esc(f), d["rules"], d["covered"], len(d["cases"]))
            for f, d in sorted(cov["functions"].items())] + ['</tbody></table>']
        o.append('<h3>Rules with no case in these results (%d)</h3>' % len(cov["uncovered"]))
        if cov["uncovered"]:
            o.append('<ul>')
            for r in cov["uncovered"]:
                note = ' <span class="tag">not testable</span>' if self.cat.untestable(r["id"]) \
                    else ""
                o.append('<li>%s <span class="tag">%s</span>%s %s</li>' % (
                    self.rule_link(r["id"]), esc(self.cat.strength_label(r["id"])), note,
                    esc(r["text"])))
            o.append('</ul>')
        else:
            o.append('<p>Every rule has at least one case.</p>')
        o.append('</section>\n')
        o.append('<section id="rules"><h2>Rules</h2><p class="muted">Cases per rule: distinct '
                 'case ids citing the rule over all targets.</p><table><thead><tr><th>rule</th>'
                 '<th>strength</th><th>provenance</th><th>versions</th><th>function</th>'
                 '<th>cases</th><th>text</th><th>source</th></tr></thead><tbody>')
        for i, r in enumerate(self.cat.rules):
            o.append('<tr id="r-%d"><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td>'
                     '<td><code>%s</code></td><td>%d</td><td>%s%s</td><td>%s<br><small '
                     'class="muted">%s:%d</small></td></tr>' % (
                         i, esc(r["id"]), esc(r["strength"]), esc(r["provenance"]),
                         esc(r["versions"]), esc(r["function"]),
                         cov["cases_per_rule"].get(r["id"], 0), esc(r["text"]),
                         ('<br><small class="muted">%s</small>' % esc(r["note"]))
                         if r.get("note") else "", esc(r["source"]), esc(r["file"]), r["line"]))
        o.append('</tbody></table></section>\n')
        return "".join(o)

    def targets(self):
        o = ['<section id="targets"><h2>Targets and fingerprints</h2>']
        for s in self.order:
            run, h = s.run, s.run.header
            o.append('<h3 id="target-%d">%s</h3>' % (s.index, esc(run.label)))
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
            info += _flatten(h.get("suite") or {}, "suite")
            info += _flatten(h.get("host") or {}, "host")
            o.append('<div style="display:flex;gap:16px;flex-wrap:wrap"><div><h4>Run</h4>%s'
                     '</div>' % _kv_table(info))
            o.append('<div><h4>Target</h4>%s</div>' % _kv_table(_flatten(h["target"])))
            o.append('<div><h4>Fingerprint</h4>%s</div></div>' % _kv_table(
                _flatten(h.get("fingerprint") or {})))
            if run.warnings:
                o.append('<p>Warnings:</p><ul>%s</ul>' % "".join(
                    '<li>%s</li>' % esc(x) for x in run.warnings))
        o.append('</section>\n')
        return "".join(o)


def render(summaries, catalog, exps=(), stale=None, title="etwconf conformance report",
           known=None):
    rep = HtmlReport(summaries, catalog, exps, title, stale, known)
    rep.assign_anchors()
    return rep.render()

