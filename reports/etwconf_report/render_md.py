"""summary.md: a short Markdown summary for CI systems (GitHub-flavoured), such as a GitHub step
summary: lists, not wide tables, and no line longer than WIDTH characters (a word longer than a
line, such as a URL, stays whole). Targets under test first, the reference one line per range of
builds with the same verdict."""
import html
import re
import textwrap

from . import programs as P
from .analysis import failing_checks, totals, under_test, reference_ranges, families
from .expectations import FAILURE_KINDS
from .util import BAD
from .util import display, plural

ORDER = ("PASS", "FAIL", "CRASH", "TIMEOUT", "BROKEN", "SKIP")
MAX_ITEMS = 50
WIDTH = 100
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>])")


def _line(text, limit):
    s = display(text).replace("\r", " ").replace("\n", " ")
    return s[:limit] + "..." if len(s) > limit else s


def md(text, limit=300):
    """Plain text safe in Markdown (and in a table cell): no markup, no HTML, one line."""
    s = _line(text, limit).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", s)


def code(text, limit=300):
    """An inline code span for plain strings (ids, commands); pipes escaped for tables.
    A string with markup characters or backticks is written as escaped text instead, since
    not every Markdown renderer keeps HTML inside code spans inert."""
    s = _line(text, limit)
    if not s.strip() or any(c in s for c in "<>&`"):
        return md(s, limit)
    return "`%s`" % s.replace("|", "\\|")


def render(summaries, catalog, exps=(), stale=None, title="etwconf conformance summary",
           known=None):
    stale = stale or []
    known = known if known is not None else P.Known()
    tps = P.per_target(summaries, known)
    under, ref = under_test(summaries)
    fam_rows, fam_cells = families(summaries, catalog)
    o = ["# %s" % md(title), ""]
    tot = totals(summaries)
    o += wrap("%s, %s: %s." % (plural(len(summaries), "target"),
                               plural(sum(tot.values()), "case record"),
                               ", ".join("%d %s" % (tot[k], k) for k in ORDER if tot[k])
                               or "nothing ran"))
    o += ["", "## Targets under test" if ref else "## Targets", ""]
    for s in under:
        o += _target(s, tps[s.index], fam_rows, fam_cells, stale)
    if ref:
        o += ["", "## Reference", ""]
        for r in reference_ranges(ref):
            o += wrap("%s: %s" % (code("reference"), md(r.line())), "- ", "  ")
            for s in r.runs:
                if not s.fully_conformant or tps[s.index].with_state(P.BROKEN):
                    o += _target(s, tps[s.index], fam_rows, fam_cells, stale, "  - ",
                                 "    ")
    o.append("")
    o.extend(_programs(under + [s for s in ref if tps[s.index].with_state(P.BROKEN)], tps))
    for s in under + ref:
        bad = s.bad_cases
        if not bad and s.run.complete and not s.divergences:
            continue
        o += ["### %s" % code(s.run.label, 90), ""] + wrap("%s." % md(s.verdict)) + [""]
        if not s.run.complete:
            o += wrap("**INCOMPLETE**: %s" % md(s.run.incomplete_reason)) + [""]
        if s.must_rules:
            o += wrap("Failed MUST rules: %s" % ", ".join(code(r) for r in s.must_rules[:100]))
            o += [""]
        if bad:
            # an HTML block: its lines may break anywhere but may not be blank
            o += wrap("<details><summary>%s</summary>" % html.escape(
                "%s: %s%s" % (s.run.label, plural(len(bad), "counted failure"),
                              " (the first %d listed)" % MAX_ITEMS if len(bad) > MAX_ITEMS
                              else ""), quote=False)) + [""]
            for c in bad[:MAX_ITEMS]:
                o += wrap(_item(c, s), "- ", "  ")
            if len(bad) > MAX_ITEMS:
                o.append("- ... and %d more (see index.html)" % (len(bad) - MAX_ITEMS))
            o += ["", "</details>", ""]
        if s.divergences:
            o += wrap("Divergences (not counted): %s" % ", ".join(
                code(c["id"]) for c in s.divergences[:MAX_ITEMS]) +
                (" and %d more" % (len(s.divergences) - MAX_ITEMS)
                 if len(s.divergences) > MAX_ITEMS else ""))
        o.append("")
    if exps:
        o += ["## Expectations", ""]
        lines = []
        for s in summaries:
            for cid, oc in sorted(s.outcomes.items()):
                if oc.failed:
                    lines += wrap("%s %s %s: %s" % (oc.kind, code(s.run.label), code(cid),
                                                    md(oc.detail)), "- ", "  ")
        for (x, e, run) in stale:
            lines += wrap("STALE %s %s: the entry names this target but the case is not in "
                          "its results (%s)" % (code(run.label), code(e.case),
                                                md(e.where(x.path))), "- ", "  ")
        o += (lines or ["Every case matched its expectations."]) + [""]
    o.append("Full report: index.html. JUnit: junit.xml.")
    return "\n".join(o) + "\n"


def wrap(text, first="", rest=""):
    """text as lines of at most WIDTH characters, broken at spaces only (a word longer than a
    line, such as a URL, stays whole)."""
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False) or [first.rstrip()]


def _target(s, tp, fam_rows, fam_cells, stale, first="- ", rest="  "):
    """One target: its verdict, then a sublist of its counts and expectations, the programs it
    breaks and the API families with counted failures."""
    run = s.run
    sub, more = rest + "- ", rest + "  "
    verdict = ("**%s**" if not s.conformant else "%s") % md(s.verdict)
    o = wrap("%s: %s%s" % (code(run.label), verdict, "" if run.complete else
                           "; **INCOMPLETE**: " + md(run.incomplete_reason)), first, rest)
    bits = [", ".join("%d %s" % (s.counts[k], k) for k in ORDER if s.counts[k]) or "no cases"]
    if s.divergences:
        bits.append("%s (not counted)" % plural(len(s.divergences), "divergence"))
    if s.outcomes:
        c = s.expectation_counts(stale)
        bits.append("expectations: " + ", ".join(["%d XFAIL" % c.get("XFAIL", 0)] + [
            "**%d %s**" % (c[k], k) for k in FAILURE_KINDS if c.get(k)]))
    o += wrap("; ".join(bits), sub, more)
    if tp.has_scenarios:
        broken = tp.with_state(P.BROKEN)
        o += wrap("breaks %d of %d programs%s" % (
            len(broken), len(tp.programs),
            ": " + ", ".join(md(p.name, 120) for p in broken) if broken else ""), sub, more)
    fams = [(f, fam_cells[(f, s.index)]) for f in fam_rows
            if (f, s.index) in fam_cells and fam_cells[(f, s.index)].bad]
    if fams:
        # a no-break space keeps each family with its count
        o += wrap("counted failures by API: %s" % ", ".join(
            "%s\u00a0%d/%d" % (md(f), c.bad, c.n) for f, c in fams), sub, more)
    return o


def _programs(summaries, tps):
    """The "Programs affected" section: per target, each broken program with its step, the
    call and what the program does then, then one line each for the working ones, the ones
    not exercised (with the reason) and the ones without a scenario. Nothing when no run has
    client scenarios."""
    with_sc = [s for s in summaries if tps[s.index].has_scenarios]
    if not any(tps[i].has_scenarios for i in tps):
        return []
    o = ["## Programs affected", ""]
    if not with_sc:
        o += ["No program breaks on a target under test.", ""]
    for s in with_sc:
        tp = tps[s.index]
        o += ["### %s" % code(s.run.label, 90), ""] + wrap("%s." % md(tp.headline())) + [""]
        for p in tp.with_state(P.BROKEN):
            for i, c in p.failing:
                step, what, cons = P.failure_parts(c)
                oc = s.notable(c)
                o += wrap("**%s** (%s) %s%s: %s. Case [%s](index.html#f-%d-%d) %s, %s%s" % (
                    md(p.name, 120), code(p.id, 60), md(P.breaks_at(c)),
                    (" " + code(what)) if what else "", md(cons, 400), code(c["id"]),
                    s.index, i, c["status"], "counted" if c["counted"] else "not counted",
                    " [%s]" % oc.kind if oc else ""), "- ", "  ")
        works = tp.with_state(P.WORKS, P.PARTIAL)
        if works:
            o += wrap("Working: %s" % ", ".join(
                md(p.name, 120) + (" (partly exercised)" if p.state == P.PARTIAL else "")
                for p in works), "- ", "  ")
        groups = tp.not_run_by_reason()
        if groups:
            o += wrap("Not exercised: %s" % "; ".join(
                "%s: %s" % (md(reason, 300), ", ".join(
                    "%s %s" % (md(p.name, 120), code(c["id"])) for p, c in pcs))
                for reason, pcs in groups), "- ", "  ")
        absent = tp.with_state(P.ABSENT)
        if absent:
            o += wrap("No scenario in this run: %s" % ", ".join(md(p.name, 120)
                                                                for p in absent), "- ", "  ")
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
    oc = s.notable(c)
    if oc:
        bits.append("[%s]" % oc.kind)
    if c.get("rerun"):
        bits.append("rerun: %s" % code(c["rerun"]))
    return " ".join(bits)
