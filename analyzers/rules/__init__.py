"""Every rule auditex ships, grouped by family (one module per family)."""

from ..registry import rules_in
from . import (
    citations,
    counts,
    disclosures,
    hidden_text,
    includes,
    notation,
    numbers,
    references,
    rhetoric,
    statistics,
    tables,
    verification,
)

ALL_RULES = tuple(
    rules_in(
        hidden_text, references, citations, includes, numbers, tables, counts, statistics, notation, disclosures, rhetoric, verification
    )
)
