"""ARI: the arithmetic a sentence states about its own numbers (shares, changes, parts of a whole) and about a cited table (factors),
and the arithmetic of a table's computed columns (shares, steps, truncation)."""

from .breakdown import breakdown_not_total
from .change_elsewhere import change_against_other_table
from .change_from_level import change_in_points_from_level
from .change_per_line import change_per_line_mismatch
from .change_target import change_end_is_difference
from .effect_of_mean import effect_not_of_control_mean
from .f_score import f_score_above_harmonic_mean
from .grid_count import grid_count_mismatch
from .group_share import share_of_group_size_mismatch
from .parts_of_whole import parts_not_whole
from .percent_of_base import percent_of_base_mismatch
from .pooled_row import pooled_row_mismatch
from .ratio_claim import ratio_claim_mismatch
from .share_column import share_column_mismatch
from .share_of_count import share_of_count_mismatch
from .share_of_named import share_of_named_mismatch
from .shares_over_whole import shares_exceed_whole
from .spacing_claim import spacing_claim_mismatch
from .stated_change import stated_change_mismatch
from .step_column import step_column_mismatch
from .truncated_column import truncated_column
from .written_computation import written_computation_mismatch

__all__ = [
    "breakdown_not_total",
    "change_against_other_table",
    "change_end_is_difference",
    "change_in_points_from_level",
    "change_per_line_mismatch",
    "effect_not_of_control_mean",
    "f_score_above_harmonic_mean",
    "grid_count_mismatch",
    "parts_not_whole",
    "percent_of_base_mismatch",
    "pooled_row_mismatch",
    "ratio_claim_mismatch",
    "share_column_mismatch",
    "share_of_count_mismatch",
    "share_of_group_size_mismatch",
    "share_of_named_mismatch",
    "shares_exceed_whole",
    "spacing_claim_mismatch",
    "stated_change_mismatch",
    "step_column_mismatch",
    "truncated_column",
    "written_computation_mismatch",
]
