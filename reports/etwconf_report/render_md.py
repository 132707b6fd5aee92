"""summary.md: a short Markdown summary for CI systems (GitHub-flavoured)."""
import re

from . import programs as P
from .analysis import failing_checks, totals
from .util import BAD
from .util import display, plural

ORDER = ("PASS", "FAIL", "CRASH", "TIMEOUT", "BROKEN", "SKIP")
MAX_ITEMS = 50
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>])")


def md(text, limit=300):
    """Plain text safe in Markdown (and in a table cell): no markup, no HTML, one line."""
    s = display(text).replace("\r", " ").replace("\n", " ")
    if len(s) > limit:
        s = s[:limit] + "..."
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", s)


def code(text, limit=300):
    """An inline code span for plain strings (ids, commands); pipes escaped for tables.
    A string with markup characters or backticks is written as escaped text instead, since
    not every Markdown renderer keeps HTML inside code spans inert."""
    s = display(text).replace("\r", " ").replace("\n", " ")
    if len(s) > limit:
        s = s[:limit] + "..."
    if not s.strip() or any(c in s for c in "<>&`"):
        return md(s, limit)
    return "`%s`" % s.replace("|", "\\|")


def render(summaries, catalog, exps=(), stale=None, title="etwconf conformance summary",
           known=None):
    stale = stale or []
    known = known if known is not None else P.Known()
    o = ["# %s" % md(title), ""]
    tot = totals(summaries)
    o.append("%s, %s: %s." % (plural(len(summaries), "target"),
                              plural(sum(tot.values()), "case record"),
                              ", ".join("%d %s" % (tot[k], k) for k in ORDER if tot[k])
                              or "nothing ran"))
    o.append("")
    head = "| Target | Verdict | " + " | ".join(ORDER) + " | Run |"
    if exps:
        head += " Expectations |"
    o.append(head)
    o.append("|" + "---|" * (len(ORDER) + 3 + (1 if exps else 0)))
    for s in summaries:
        run = s.run
        verdict = ("**%s**" if not s.conformant else "%s") % md(s.verdict)
        if s.verdict_detail:
            verdict += "; " + md(s.verdict_detail)
        row = "| %s | %s | %s | %s |" % (code(run.label), verdict,
                                         " | ".join(str(s.counts[k]) for k in ORDER),
                                         "complete" if run.complete else
                                         "**INCOMPLETE**: " + md(run.incomplete_reason))
        if exps:
            row += " %s |" % _exp_cell(s, stale)
        o.append(row)
    o.append("")
    o.extend(_programs(summaries, known))
    for s in summaries:
        bad = [c for c in s.run.cases if c["counted"] or c["status"] in ("CRASH", "TIMEOUT")]
        if not bad and s.run.complete and not s.divergences:
            continue
        o.append("## %s: %s" % (code(s.run.label), md(s.verdict)))
        o.append("")
        if not s.run.complete:
            o.append("**INCOMPLETE**: %s" % md(s.run.incomplete_reason))
            o.append("")
        if s.must_rules:
            o.append("Failed MUST rules: %s" % ", ".join(code(r) for r in s.must_rules[:100]))
            o.append("")
        for c in bad[:MAX_ITEMS]:
            o.append("- " + _item(c, s))
        if len(bad) > MAX_ITEMS:
            o.append("- ... and %d more (see index.html)" % (len(bad) - MAX_ITEMS))
        if s.divergences:
            o.append("")
            o.append("Divergences (not counted): %s" % ", ".join(
                code(c["id"]) for c in s.divergences[:MAX_ITEMS]) +
                (" and %d more" % (len(s.divergences) - MAX_ITEMS)
                 if len(s.divergences) > MAX_ITEMS else ""))
        o.append("")
    if exps:
        o.append("## Expectations")
        o.append("")
        lines = []
        for s in summaries:
            for cid, oc in sorted(s.outcomes.items()):
                if oc.failed:
                    lines.append("- %s %s %s: %s" % (oc.kind, code(s.run.label), code(cid),
                                                     md(oc.detail)))
        for (x, e, run) in stale:
            lines.append("- STALE %s %s: the entry names this target but the case is not in "
                         "its results (%s)" % (code(run.label), code(e.case), md(e.where(x.path))))
        o.extend(lines or ["Every case matched its expectations."])
        o.append("")
    o.append("Full report: index.html. JUnit: junit.xml.")
    return "\n".join(o) + "\n"


def _programs(summaries, known):
    """The "Programs affected" section: a programs x targets table, then per target the broken
    programs with step and consequence, the working ones and the ones not exercised. Nothing
    when no run has client scenarios."""
    tps = P.per_target(summaries, known)
    rows = P.rows(tps, known)
    if not rows:
        return []
    o = ["## Programs affected", ""]
    with_sc = [s for s in summaries if tps[s.index].has_scenarios]
    o.append("| Program | " + " | ".join(code(s.run.label) for s in with_sc) + " |")
    o.append("|---|" + "---|" * len(with_sc))
    for row in rows:
        cells = []
        for s in with_sc:
            p = tps[s.index].by_id.get(row.id)
            if p is None:
                cells.append("no scenario")
            elif p.state == P.BROKEN:
                cells.append("**%s**" % md(p.cell_text()))
            else:
                cells.append(md(p.cell_text()))
        o.append("| %s (%s) | %s |" % (md(row.name, 80), code(row.id, 60), " | ".join(cells)))
    o.append("")
    for s in with_sc:
        tp = tps[s.index]
        o.append("### %s: %s" % (code(s.run.label), md(tp.headline())))
        o.append("")
        for p in tp.with_state(P.BROKEN):
            for i, c in p.failing:
                step, what, cons = P.failure_parts(c)
                oc = s.outcomes.get(c["id"])
                o.append("- **%s** (%s) %s%s: %s. Case [%s](index.html#f-%d-%d) %s, "
                         "%s%s" % (md(p.name, 120), code(p.id, 60), md(P.breaks_at(c)),
                                   (" " + code(what)) if what else "", md(cons, 400),
                                   code(c["id"]), s.index, i, c["status"],
                                   "counted" if c["counted"] else "not counted",
                                   " [%s]" % oc.kind if oc is not None and oc.kind not in
                                   ("OK", "SKIP") else ""))
        works = tp.with_state(P.WORKS, P.PARTIAL)
        if works:
            o.append("- Working: %s" % ", ".join(
                md(p.name, 120) + (" (partly exercised)" if p.state == P.PARTIAL else "")
                for p in works))
        for reason, pcs in tp.not_run_by_reason():
            o.append("- Not exercised (%s): %s" % (md(reason, 300), ", ".join(
                "%s %s" % (md(p.name, 120), code(c["id"])) for p, c in pcs)))
        absent = tp.with_state(P.ABSENT)
        if absent:
            o.append("- No scenario in this run: %s" % ", ".join(md(p.name, 120) for p in absent))
        o.append("")
    return o


def _item(c, s):
    bits = ["**%s** %s" % (c["status"], code(c["id"]))]
    if c.get("function"):
        bits.append(md(c["function"]))
    if P.is_scenario(c) and c["status"] in BAD:
        bits.append("[%s %s]" % (md(c["program"].get("name") or c["program"]["id"], 120),
                                 md(P.failure_line(c), 400)))
    if c.get("mode"):
        bits.append("(%s)" % md(c["mode"]))
    fc = failing_checks(c)
    if c["status"] == "CRASH":
        bits.append("exception %s" % code(c.get("exception") or "?"))
    elif fc:
        bits.append("%s: expected %s, got %s" % (md(fc[0].get("what") or "check"),
                                                 code(fc[0].get("expected")),
                                                 code(fc[0].get("got"))))
    elif c.get("message"):
        bits.append(md(c["message"]))
    rules = c["failed_rules"] or c["rules"]
    if rules:
        bits.append("rules " + ", ".join(code(r) for r in rules[:8]))
    oc = s.outcomes.get(c["id"])
    if oc is not None and oc.kind not in ("OK", "SKIP"):
        bits.append("[%s]" % oc.kind)
    if c.get("rerun"):
        bits.append("rerun: %s" % code(c["rerun"]))
    return " ".join(bits)


def _exp_cell(s, stale):
    if not s.outcomes:
        return "n/a"
    c = {}
    for oc in s.outcomes.values():
        c[oc.kind] = c.get(oc.kind, 0) + 1
    n_stale = sum(1 for (_, _, r) in stale if r is s.run)
    parts = ["%d XFAIL" % c.get("XFAIL", 0)]
    for k in ("XPASS", "CHANGED", "UNEXPECTED"):
        if c.get(k):
            parts.append("**%d %s**" % (c[k], k))
    if n_stale:
        parts.append("**%d STALE**" % n_stale)
    return ", ".join(parts)
