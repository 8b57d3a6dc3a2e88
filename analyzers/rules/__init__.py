"""Every rule auditex ships, grouped by family (one module per family)."""

from ..registry import rules_in
from . import (
    citations,
    counts,
    cross_references,
    disclosures,
    hidden_text,
    includes,
    notation,
    numbers,
    online_references,
    rhetoric,
    statistics,
    tables,
)

ALL_RULES = tuple(
    rules_in(
        hidden_text,
        cross_references,
        citations,
        includes,
        numbers,
        tables,
        counts,
        statistics,
        notation,
        disclosures,
        rhetoric,
        online_references,
    )
)
