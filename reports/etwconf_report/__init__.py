"""etwconf-report: reports, diffs and expectation checks for etwconf results (JSON Lines).

Standard library only. Entry point: reports/etwconf-report (see reports/README.md).
"""
__version__ = "0.1.0"
