"""TAB: tables that contradict themselves (aggregates, best and second-best marks) or the claims about them."""

from .aggregate import table_aggregate_mismatch
from .best_claim import best_claim_contradicts_table
from .bold_not_best import bold_not_best
from .bold_not_row_best import bold_not_row_best
from .comparison_claim import comparison_claim_contradicts_table
from .counterpart_claim import counterpart_claim_contradicts_table
from .defined_column import derived_definition_reversed
from .derived_column import derived_cell_mismatch
from .gain_claim import gain_claim_contradicts_table
from .group_total import group_total_mismatch
from .respective_best import respective_best_contradicts_table
from .second_mark import second_mark_not_second_best
from .sign_claim import sign_claim_contradicts_table
from .significance_note import significance_note_contradicts_table
from .stated_average import stated_average_mismatch
from .trend_claim import trend_claim_contradicts_table
from .universal_win import universal_win_contradicts_table

__all__ = [
    "best_claim_contradicts_table",
    "bold_not_best",
    "bold_not_row_best",
    "comparison_claim_contradicts_table",
    "counterpart_claim_contradicts_table",
    "derived_cell_mismatch",
    "derived_definition_reversed",
    "gain_claim_contradicts_table",
    "group_total_mismatch",
    "respective_best_contradicts_table",
    "second_mark_not_second_best",
    "sign_claim_contradicts_table",
    "significance_note_contradicts_table",
    "stated_average_mismatch",
    "table_aggregate_mismatch",
    "trend_claim_contradicts_table",
    "universal_win_contradicts_table",
]
