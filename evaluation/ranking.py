"""Pairwise and rank metrics for reviews (`auditex review`): do they order papers as humans do?

Two seed papers measure it:
- Benchmarking Agentic Review Systems (Nguyen et al., §5, App. B.2-B.3): papers of a low- and a
  high-quality group per quality proxy; the pairwise accuracy is the share of (low, high) pairs
  where the low-quality paper draws more review comments, ties counting 0.5 (the Mann-Whitney
  AUC). "Overall" pools the pairs of every proxy. Its 95% interval is a cluster bootstrap:
  each draw resamples each proxy's groups with replacement, keeping their sizes (B = 5000).
- PaperAudit-Bench (App. B.3): human key (mean score, -sample variance) against the review's key
  (overall, novelty, technical quality, clarity), compared lexicographically, a missing score
  below every number. Both become percentile ranks (average ranks of the sorted keys, 0-based,
  over N - 1); then Rank-MSE = mean squared difference, Spearman's rho = the ranks' Pearson
  correlation, Kendall's tau-b, and Pairwise Accuracy = C / (C + D) over the pairs neither
  ranking ties (C concordant, D discordant).
scipy.stats computes the Mann-Whitney U, the ranks, rho and tau-b; C and D are counted here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

BOOTSTRAP_RESAMPLES = 5000
MISSING = -math.inf  # a missing sub-score never wins a tie-break


# --- agentic review: pairwise accuracy on comment counts --------------------------------


def _u_statistic(low: Sequence[float], high: Sequence[float]) -> float:
    """Pairs where `low` is larger, ties as 0.5 (scipy's U of the first sample)."""
    return float(stats.mannwhitneyu(low, high, alternative="two-sided", method="asymptotic").statistic)


def pairwise_auc(low: Sequence[float], high: Sequence[float]) -> float:
    """The share of (low, high) pairs where the low-quality paper has more comments, ties 0.5."""
    if not low or not high:
        raise ValueError("pairwise accuracy needs papers in both the low and the high group")
    return _u_statistic(low, high) / (len(low) * len(high))


@dataclass(frozen=True)
class PairwiseAccuracy:
    accuracy: float
    pairs: int
    mean_low: float  # mean comments per paper in the low-quality group
    mean_high: float
    ci_low: float
    ci_high: float


def pooled_auc(groups: Mapping[str, tuple[Sequence[float], Sequence[float]]]) -> float:
    """Every proxy's (low, high) pairs pooled: sum of U over the sum of pair counts."""
    pairs = sum(len(low) * len(high) for low, high in groups.values())
    if pairs == 0:
        raise ValueError("pairwise accuracy needs papers in both the low and the high group")
    return sum(_u_statistic(low, high) for low, high in groups.values() if low and high) / pairs


def _u_counts(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """U per bootstrap draw (rows), counted directly: pairs low > high plus half the ties."""
    greater = (low[:, :, None] > high[:, None, :]).sum(axis=(1, 2))
    ties = (low[:, :, None] == high[:, None, :]).sum(axis=(1, 2))
    return np.asarray(greater + 0.5 * ties, dtype=float)


def pairwise_accuracy(
    groups: Mapping[str, tuple[Sequence[float], Sequence[float]]],
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    confidence: float = 0.95,
    seed: int = 0,
) -> PairwiseAccuracy:
    """Pooled pairwise accuracy over proxies, with the App. B.3 cluster-bootstrap interval."""
    used = {proxy: (low, high) for proxy, (low, high) in groups.items() if low and high}
    accuracy = pooled_auc(used)
    pairs = sum(len(low) * len(high) for low, high in used.values())
    rng = np.random.default_rng(seed)
    u_total = np.zeros(n_resamples)
    for low, high in used.values():
        lows, highs = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
        low_draws = lows[rng.integers(0, lows.size, size=(n_resamples, lows.size))]
        high_draws = highs[rng.integers(0, highs.size, size=(n_resamples, highs.size))]
        u_total += _u_counts(low_draws, high_draws)
    tail = (1 - confidence) / 2 * 100
    ci_low, ci_high = np.percentile(u_total / pairs, [tail, 100 - tail])
    all_low = [c for low, _ in used.values() for c in low]
    all_high = [c for _, high in used.values() for c in high]
    return PairwiseAccuracy(
        accuracy=accuracy,
        pairs=pairs,
        mean_low=float(np.mean(all_low)),
        mean_high=float(np.mean(all_high)),
        ci_low=float(ci_low),
        ci_high=float(ci_high),
    )


# --- PaperAudit: alignment of rankings with human reviewers ----------------------------------


def human_key(scores: Sequence[float]) -> tuple[float, float]:
    """(mean, -sample variance): at equal means, the papers reviewers agree on rank higher."""
    if not scores:
        raise ValueError("a paper needs at least one human score")
    variance = float(np.var(scores, ddof=1)) if len(scores) > 1 else 0.0
    return (float(np.mean(scores)), -variance)


def model_key(scores: Mapping[str, float | None]) -> tuple[float, ...]:
    """(overall, novelty, technical_quality, clarity), a missing one below every number."""
    values = (scores.get(name) for name in ("overall", "novelty", "technical_quality", "clarity"))
    return tuple(MISSING if value is None else float(value) for value in values)


def percentile_ranks(keys: Sequence[tuple[float, ...]]) -> np.ndarray:
    """Each key's average rank among the sorted keys, 0-based, over N - 1: in [0, 1], higher is better."""
    if len(keys) < 2:
        raise ValueError("ranking needs at least two papers")
    order = {key: position for position, key in enumerate(sorted(set(keys)))}
    ranks = stats.rankdata([order[key] for key in keys], method="average") - 1
    return np.asarray(ranks / (len(keys) - 1), dtype=float)


def concordance(first: Sequence[float] | np.ndarray, second: Sequence[float] | np.ndarray) -> tuple[int, int]:
    """(C, D): the pairs both orderings put the same way, and the opposite way; ties in either are neither."""
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    upper = np.triu_indices(a.size, k=1)
    product = (np.sign(a[:, None] - a[None, :]) * np.sign(b[:, None] - b[None, :]))[upper]
    return int((product > 0).sum()), int((product < 0).sum())


@dataclass(frozen=True)
class RankingAlignment:
    n_papers: int
    rank_mse: float
    spearman: float | None  # None when a ranking has no spread
    kendall_tau_b: float | None
    pairwise_accuracy: float | None  # C / (C + D); None when every pair is tied in a ranking
    concordant: int
    discordant: int


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


def ranking_alignment(human: Sequence[tuple[float, ...]], model: Sequence[tuple[float, ...]]) -> RankingAlignment:
    """PaperAudit's App. B.3 metrics between the human and the model ranking keys of the same papers."""
    if len(human) != len(model):
        raise ValueError(f"need one human and one model key per paper, got {len(human)} and {len(model)}")
    r_h, r_m = percentile_ranks(human), percentile_ranks(model)
    concordant, discordant = concordance(r_h, r_m)
    constant = np.ptp(r_h) == 0 or np.ptp(r_m) == 0
    spearman = None if constant else _finite(stats.spearmanr(r_m, r_h).statistic)
    kendall = None if constant else _finite(stats.kendalltau(r_m, r_h, variant="b").statistic)
    return RankingAlignment(
        n_papers=len(human),
        rank_mse=float(np.mean((r_m - r_h) ** 2)),
        spearman=spearman,
        kendall_tau_b=kendall,
        pairwise_accuracy=concordant / (concordant + discordant) if concordant + discordant else None,
        concordant=concordant,
        discordant=discordant,
    )
