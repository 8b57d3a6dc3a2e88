"""NUM: numbers in the prose that disagree with the tables, each other, or their own arithmetic."""

from .arithmetic_claim import arithmetic_claim_mismatch
from .prose_vs_table import prose_contradicts_table
from .reported_statistic import statistic_contradicts_table
from .same_quantity import same_quantity_two_values

__all__ = ["arithmetic_claim_mismatch", "prose_contradicts_table", "same_quantity_two_values", "statistic_contradicts_table"]
