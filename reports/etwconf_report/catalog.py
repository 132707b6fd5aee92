"""The rule catalogue, read with spec/rules.py (found relative to this package)."""
import os
import sys

from .ingest import InputError
from .util import file_kind

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_DEF = os.path.join(REPO, "spec", "rules.def")

GROUPS = (("must", "MUST rules (counted)"),
          ("should", "SHOULD, MAY and inferred rules (not counted)"),
          ("info", "Informative rules"),
          ("unknown", "Rules not in this catalogue"))


def _rules_module():
    spec = os.path.join(REPO, "spec")
    if spec not in sys.path:
        sys.path.insert(0, spec)
    import rules  # noqa: E402  (spec/rules.py)
    return rules


class Catalog:
    def __init__(self, rules, counted_fn, path=None):
        self.path = path
        self.rules = rules
        self.by_id = {r["id"]: r for r in rules}
        self._counted = counted_fn

    def get(self, rule_id):
        return self.by_id.get(rule_id)

    def counted(self, rule_id):
        """None when the rule is unknown."""
        r = self.by_id.get(rule_id)
        return None if r is None else bool(self._counted(r))

    def strength(self, rule_id):
        r = self.by_id.get(rule_id)
        return r["strength"] if r else "?"

    def group(self, rule_id):
        r = self.by_id.get(rule_id)
        if r is None:
            return "unknown"
        if self._counted(r):
            return "must"
        if r["strength"] == "INFO":
            return "info"
        return "should"

    def strength_label(self, rule_id):
        r = self.by_id.get(rule_id)
        if r is None:
            return "?"
        if r["provenance"] == "INFERRED":
            return r["strength"] + " (inferred)"
        return r["strength"]

    def untestable(self, rule_id):
        r = self.by_id.get(rule_id)
        return bool(r) and r["strength"] == "INFO" and r.get("note", "").startswith("Not testable")


def load(path=None):
    """Load the catalogue; InputError (exit 2) when it cannot be read."""
    path = path or DEFAULT_DEF
    try:
        rules_mod = _rules_module()
    except Exception as e:  # a missing or broken spec/rules.py
        raise InputError(os.path.join(REPO, "spec", "rules.py"), None,
                         "cannot load the rule catalogue reader (%s)" % e,
                         "run etwconf-report from an etwconf source tree")
    try:
        kind = file_kind(os.stat(path).st_mode)
        if kind:
            raise InputError(path, None, "the rule catalogue is %s, not a regular file" % kind,
                             "pass --rules spec/rules.def")
        rules = rules_mod.load(path)
    except rules_mod.RuleError as e:
        raise InputError(path, None, "rule catalogue: %s" % e, "fix the catalogue (spec/)")
    except OSError as e:
        raise InputError(path, None, "cannot read the rule catalogue: %s" % (e.strerror or e),
                         "pass --rules spec/rules.def")
    return Catalog(rules, rules_mod.counted, path)
