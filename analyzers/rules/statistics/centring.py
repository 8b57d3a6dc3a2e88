"""Where an estimate sits in its interval, on the scales intervals are built on.

A Wald interval is the estimate plus and minus one margin on the scale its statistic is estimated
on: a difference, a coefficient or a standardised effect on its own scale, a ratio on the log scale,
a correlation on Fisher's z, a proportion on the logit. Profile, score and noncentral intervals
bend little away from that. So an estimate much nearer one bound than the other on every scale
that fits its numbers, beyond their rounding, was not the centre the interval was built around:
one of the three numbers was mistyped or copied from another result ("−0.43 [−1.16, −0.30]",
whose lower half-width gives [−1.16, 0.30]).

The scales are tried, not named: an interval is asymmetric only if it is on each of them, so a
ratio reported without its name, or a proportion near 1, is not read as lopsided. What a Wald
margin does not describe is left alone: a median, a mode or a percentile interval, a variance or
heterogeneity (τ², I², σ), an estimate in percent (exact binomial intervals are lopsided near 0
and 100), and an interval with an infinite bound or one the estimate may equal (one-sided, or at a boundary).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from ....latex.deferred_pattern import DeferredPattern
from ...apa_results import decimals
from .model import ReportedInterval

# An estimate this many times nearer one bound than the other, on its kindest scale, is no centre.
LOPSIDED = 2.5

# What an interval is not a Wald margin around: skewed sampling distributions and bounded parameters.
_NOT_WALD = DeferredPattern(
    r"\bmedians?\b|\bmodes?\b|percentile|bootstrap|\bIQR\b|quantile|varian|heterogeneity|\bτ|\\tau|\btau\b|\bσ|\\sigma|I\^?2|I²",
    re.I,
)


def _logit(value: float) -> float:
    return math.log(value / (1 - value))


# Each scale with its domain: where its transform is defined. Fisher's z is a correlation's only.
_Scale = tuple[Callable[[float], float], float, float]
_SCALES: tuple[_Scale, ...] = ((lambda value: value, -math.inf, math.inf), (math.log, 0.0, math.inf), (_logit, 0.0, 1.0))
_FISHER: _Scale = (math.atanh, -1.0, 1.0)
_CORRELATION = DeferredPattern(r"(?<![\w\\])(?:r|ρ|\\rho|R)(?:_\{?\w+\}?)?\s*(?:\([^()]*\))?\s*=\s*$|correlat", re.I)


def off_centre(interval: ReportedInterval, before: str) -> float | None:
    """How many times nearer one bound than the other the estimate is, on the scale that fits it
    best, allowing for the rounding of the three numbers; None where no Wald margin is to be expected.
    `before` is the text before the estimate, which names what it estimates."""
    if interval.estimate is None or interval.percent_mismatch or interval.reversed or interval.excludes_estimate:
        return None
    if interval.in_percent or _NOT_WALD.search(before[-80:]):
        return None
    boxes = [
        (value - half, value + half)
        for value, text in (
            (interval.low, interval.low_text),
            (interval.estimate, interval.estimate_text),
            (interval.high, interval.high_text),
        )
        for half in (0.5 * 10 ** -decimals(text),)
    ]
    if any(math.isinf(low) or math.isinf(high) for low, high in boxes) or _touches_a_bound(boxes):
        return None
    scales = (*_SCALES, _FISHER) if _CORRELATION.search(before[-80:]) else _SCALES
    return min((_asymmetry(boxes, *scale) for scale in scales if _fits(boxes, *scale[1:])), default=None)


def _touches_a_bound(boxes: list[tuple[float, float]]) -> bool:
    """The estimate may equal a bound within rounding: a one-sided interval or one at a boundary."""
    (_, low_max), (estimate_min, estimate_max), (high_min, _) = boxes
    return estimate_min <= low_max or estimate_max >= high_min


def _fits(boxes: list[tuple[float, float]], floor: float, ceiling: float) -> bool:
    """Every number may be, within its rounding, inside the scale's domain."""
    return all(high > floor and low < ceiling for low, high in boxes)


def _asymmetry(boxes: list[tuple[float, float]], transform: Callable[[float], float], floor: float, ceiling: float) -> float:
    """The least ratio of the estimate's two distances to its bounds over the rounding boxes."""

    def at(value: float) -> float:
        if value <= floor:
            return -math.inf
        if value >= ceiling:
            return math.inf
        return transform(value)

    (low_min, low_max), (estimate_min, estimate_max), (high_min, high_max) = boxes
    below = (max(0.0, at(estimate_min) - at(low_max)), at(estimate_max) - at(low_min))
    above = (max(0.0, at(high_min) - at(estimate_max)), at(high_max) - at(estimate_min))
    if below[0] > above[1]:
        return below[0] / above[1] if above[1] > 0 else math.inf
    if above[0] > below[1]:
        return above[0] / below[1] if below[1] > 0 else math.inf
    return 1.0
