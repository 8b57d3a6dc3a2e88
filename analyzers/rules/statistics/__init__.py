"""STAT: reported statistics that contradict themselves or the words around them."""

from .analysed_sample import test_on_sample_before_exclusions
from .coefficient_p import coefficient_statistics_inconsistent
from .comparative_claim import comparative_claim_not_significant
from .correlation_stars import correlation_stars_inconsistent
from .effect_claim import effect_of_unstarred_coefficient
from .impossible_summary import impossible_summary_statistics
from .impossible_value import impossible_statistic
from .interval_bounds import interval_inconsistent
from .interval_claim import interval_claim_contradicted
from .regression_stars import regression_stars_inconsistent
from .reported import (
    breakdown_not_100_percent,
    confidence_interval_contradicts_p,
    grim_inconsistent_mean,
    inconsistent_p_value,
    significance_reversed,
)
from .significance_interval import significance_contradicts_interval
from .significance_wording import significance_wording_contradicts_p
from .stated_direction import direction_contradicts_values
from .table_significance import none_significant_contradicts_table

__all__ = [
    "breakdown_not_100_percent",
    "coefficient_statistics_inconsistent",
    "comparative_claim_not_significant",
    "confidence_interval_contradicts_p",
    "correlation_stars_inconsistent",
    "direction_contradicts_values",
    "effect_of_unstarred_coefficient",
    "grim_inconsistent_mean",
    "impossible_statistic",
    "impossible_summary_statistics",
    "inconsistent_p_value",
    "interval_claim_contradicted",
    "interval_inconsistent",
    "none_significant_contradicts_table",
    "regression_stars_inconsistent",
    "significance_contradicts_interval",
    "significance_reversed",
    "significance_wording_contradicts_p",
    "test_on_sample_before_exclusions",
]
