"""The rule catalogue, read with spec/rules.py (found relative to this package)."""
import os

from .ingest import InputError
from .util import file_kind, spec_rules, REPO

DEFAULT_DEF = os.path.join(REPO, "spec", "rules.def")

GROUPS = (("must", "MUST rules (counted)"),
          ("should", "SHOULD, MAY and inferred rules (not counted)"),
          ("info", "Informative rules"),
          ("unknown", "Rules not in this catalogue"))


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
        return "must" if self._counted(r) else "info" if r["strength"] == "INFO" else "should"

    def strength_label(self, rule_id):
        r = self.by_id.get(rule_id)
        if r is None:
            return "?"
        return r["strength"] + (" (inferred)" if r["provenance"] == "INFERRED" else "")

    def untestable(self, rule_id):
        r = self.by_id.get(rule_id)
        return bool(r) and r["strength"] == "INFO" and r.get("note", "").startswith("Not testable")


def load(path=None):
    """Load the catalogue; InputError (exit 2) when it cannot be read."""
    path = path or DEFAULT_DEF
    try:
        kind = file_kind(os.stat(path).st_mode)
        if kind:
            raise InputError(path, None, "the rule catalogue is %s, not a regular file" % kind,
                             "pass --rules spec/rules.def")
        rules = spec_rules.load(path)
    except spec_rules.RuleError as e:
        raise InputError(path, None, "rule catalogue: %s" % e, "fix the catalogue (spec/)")
    except OSError as e:
        raise InputError(path, None, "cannot read the rule catalogue: %s" % (e.strerror or e),
                         "pass --rules spec/rules.def")
    return Catalog(rules, spec_rules.counted, path)
