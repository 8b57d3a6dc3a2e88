"""Every rule auditex ships, grouped by family: a package with one module per rule (README.md)."""

from ..registry import Registry, rules_in
from . import (
    arithmetic,
    citations,
    counts,
    cross_references,
    disclosures,
    drafts,
    hidden_text,
    includes,
    notation,
    numbers,
    online_references,
    rhetoric,
    statistics,
    tables,
    work_limits,
)

ALL_RULES = tuple(
    rules_in(
        hidden_text,
        cross_references,
        citations,
        includes,
        numbers,
        arithmetic,
        tables,
        counts,
        statistics,
        drafts,
        notation,
        disclosures,
        rhetoric,
        online_references,
        work_limits,
    )
)


def default_registry() -> Registry:
    """Every rule: what an engine checks unless it is given others (a test's)."""
    return Registry(ALL_RULES)
