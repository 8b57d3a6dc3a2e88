"""STAT: reported statistics that contradict themselves or the words around them."""

from .reported import (
    breakdown_not_100_percent,
    confidence_interval_contradicts_p,
    grim_inconsistent_mean,
    inconsistent_p_value,
    significance_reversed,
)

__all__ = [
    "breakdown_not_100_percent",
    "confidence_interval_contradicts_p",
    "grim_inconsistent_mean",
    "inconsistent_p_value",
    "significance_reversed",
]
