"""Interval estimates shared by the benchmarks: seeded cluster bootstrap, paired t-based effect size."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats


def cluster_bootstrap_ratio_ci(
    numerators: Sequence[float],
    denominators: Sequence[float],
    n_resamples: int = 5000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile CI of sum(numerators) / sum(denominators), resampling whole clusters.

    One entry per cluster (a paper): draw as many clusters as there are, with
    replacement, recompute the pooled ratio, repeat. Seeded, so reproducible.
    """
    num = np.asarray(numerators, dtype=float)
    den = np.asarray(denominators, dtype=float)
    if num.shape != den.shape or num.ndim != 1 or num.size == 0:
        raise ValueError("need one numerator and one denominator per cluster, and at least one cluster")
    if np.any(den <= 0):
        raise ValueError("every cluster needs a positive denominator")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, num.size, size=(n_resamples, num.size))
    ratios = num[draws].sum(axis=1) / den[draws].sum(axis=1)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(ratios, [tail, 100 - tail])
    return float(low), float(high)


@dataclass(frozen=True)
class PairedEffect:
    """Paired Cohen's d = mean(diff) / sd(diff), with its t-based confidence interval."""

    n: int
    mean_difference: float
    sd_difference: float
    d: float
    ci_low: float
    ci_high: float
    p_value: float


def paired_cohens_d(first: Sequence[float], second: Sequence[float], confidence: float = 0.95) -> PairedEffect | None:
    """Effect of first over second on paired scores; None when undefined (n < 2 or no spread).

    The CI is the t interval of the mean difference expressed in sd units:
    d ± t_{(1+c)/2, n-1} / sqrt(n). It excludes 0 exactly when the paired
    t-test has p < 1 - c, which is how the surgical-edits paper colours its bars.
    """
    if len(first) != len(second):
        raise ValueError(f"paired scores need equal lengths, got {len(first)} and {len(second)}")
    diff = np.asarray(first, dtype=float) - np.asarray(second, dtype=float)
    n = diff.size
    if n < 2:
        return None
    sd = float(diff.std(ddof=1))
    if sd == 0.0:
        return None
    mean = float(diff.mean())
    d = mean / sd
    half_width = float(stats.t.ppf((1 + confidence) / 2, n - 1)) / math.sqrt(n)
    p_value = float(2 * stats.t.sf(abs(d) * math.sqrt(n), n - 1))
    return PairedEffect(n=n, mean_difference=mean, sd_difference=sd, d=d, ci_low=d - half_width, ci_high=d + half_width, p_value=p_value)
