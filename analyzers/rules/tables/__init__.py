"""TAB: tables that contradict themselves (aggregates, best-value marks) or the claims about them."""

from .aggregate import table_aggregate_mismatch
from .best_claim import best_claim_contradicts_table
from .bold_not_best import bold_not_best

__all__ = ["best_claim_contradicts_table", "bold_not_best", "table_aggregate_mismatch"]
