"""NUM: numbers in the prose that disagree with the tables, each other, or their own arithmetic."""

from .arithmetic_claim import arithmetic_claim_mismatch
from .cited_period import cited_source_period_restated
from .complement_rate import complement_misstated
from .default_setting import default_restated
from .derived_extent import derived_extent_not_in_table
from .every_value import bound_of_every_value_broken
from .float_setting import float_setting_restated
from .fold_change import fold_not_log_fold
from .group_sizes import group_size_mismatch
from .line_mean import mean_not_of_line
from .named_cell import prose_misquotes_named_cell
from .prose_vs_table import prose_contradicts_table
from .reported_statistic import statistic_contradicts_table
from .respective_values import respective_value_misquotes_cell
from .restated_range import range_restated
from .same_count import count_restated
from .same_quantity import same_quantity_two_values
from .settings_table import setting_contradicts_settings_table
from .summary_row import summary_row_contradicted
from .swapped_values import prose_swaps_table_values
from .symbol_cell import prose_misquotes_symbol_cell
from .table_range import range_not_in_table
from .truncated_quotes import prose_cuts_table_values

__all__ = [
    "arithmetic_claim_mismatch",
    "bound_of_every_value_broken",
    "cited_source_period_restated",
    "complement_misstated",
    "count_restated",
    "default_restated",
    "derived_extent_not_in_table",
    "float_setting_restated",
    "fold_not_log_fold",
    "group_size_mismatch",
    "mean_not_of_line",
    "prose_contradicts_table",
    "prose_cuts_table_values",
    "prose_misquotes_named_cell",
    "prose_misquotes_symbol_cell",
    "prose_swaps_table_values",
    "range_not_in_table",
    "range_restated",
    "respective_value_misquotes_cell",
    "same_quantity_two_values",
    "setting_contradicts_settings_table",
    "statistic_contradicts_table",
    "summary_row_contradicted",
]
