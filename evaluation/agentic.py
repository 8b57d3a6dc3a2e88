"""Benchmarking Agentic Review Systems (Nguyen et al.): recall of injected perturbations.

§6 and App. C.6: a perturbation is detected when some review comment passes two stages.
1. Fuzzy substring match: after normalising whitespace and capitalisation (and here
   also math delimiters, so `$x$` and `\\(x\\)` quote the same text), the perturbed
   text covers at least tau = 0.75 of the comment's quote, or vice versa.
2. Optionally, an LLM judge rates the comment's explanation against the ground
   truth on 1-5; a rating >= 3 counts.
Recall is pooled, sum(detected) / sum(injected), with a 95% cluster bootstrap over
papers (App. C.7: B = 5000, 2.5th and 97.5th percentiles), overall and per error type.
"""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from .judge import TextCompleter, judge_score
from .predictions import Prediction
from .stats import cluster_bootstrap_ratio_ci

DEFAULT_TAU = 0.75
PASSING_RATING = 3
BOOTSTRAP_RESAMPLES = 5000

_MATH_DELIMITERS = re.compile(r"\$\$?|\\[()\[\]]|\\(?:begin|end)\{(?:equation|align|gather|multline|eqnarray|displaymath|math)\*?\}")


def normalise_for_match(text: str) -> str:
    return " ".join(_MATH_DELIMITERS.sub(" ", text).lower().split())


def coverage(part: str, whole: str) -> float:
    """Share of `part` covered by the blocks it has in common with `whole`.

    The released scorer's definition: difflib's matching blocks (no autojunk)
    over the length of `part` only, so extra text in `whole` costs nothing.
    """
    if not part:
        return 0.0
    matcher = SequenceMatcher(None, part, whole, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(part)


def fuzzy_coverage(perturbed_text: str, quote: str) -> float:
    """Coverage either way round, after normalisation; 0 when either side is empty."""
    perturbed, quoted = normalise_for_match(perturbed_text), normalise_for_match(quote)
    if not perturbed or not quoted:
        return 0.0
    return max(coverage(perturbed, quoted), coverage(quoted, perturbed))


@dataclass(frozen=True)
class Perturbation:
    paper_id: str
    perturbation_id: str
    error_type: str
    perturbed_text: str
    why_wrong: str  # the generator's explanation: the judge's reference description


@dataclass(frozen=True)
class Detection:
    detected: bool
    judge_failures: int = 0


async def detect(
    perturbation: Perturbation,
    comments: Sequence[Prediction],
    completer: TextCompleter | None = None,
    tau: float = DEFAULT_TAU,
) -> Detection:
    """Whether any comment passes the fuzzy stage and, with a completer, the judge stage."""
    failures = 0
    for comment in comments:
        if fuzzy_coverage(perturbation.perturbed_text, comment.quote) < tau:
            continue
        if completer is None:
            return Detection(detected=True)
        answer = await judge_score(
            completer, "perturbation_rating", 1, 5, why_wrong=perturbation.why_wrong, explanation=comment.explanation
        )
        failures += not answer.parsed
        if answer.value is not None and answer.value >= PASSING_RATING:
            return Detection(detected=True, judge_failures=failures)
    return Detection(detected=False, judge_failures=failures)


@dataclass(frozen=True)
class RecallEstimate:
    detected: int
    injected: int
    n_papers: int
    recall: float
    ci_low: float
    ci_high: float


def recall_with_ci(counts_by_paper: Mapping[str, tuple[int, int]], n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> RecallEstimate:
    """Pooled recall over papers given (detected, injected) per paper, with its bootstrap CI."""
    scored = {paper: c for paper, c in counts_by_paper.items() if c[1] > 0}
    if not scored:
        raise ValueError("no paper has an injected perturbation to recall")
    detected = [c[0] for c in scored.values()]
    injected = [c[1] for c in scored.values()]
    low, high = cluster_bootstrap_ratio_ci(detected, injected, n_resamples=n_resamples, seed=seed)
    return RecallEstimate(
        detected=sum(detected),
        injected=sum(injected),
        n_papers=len(scored),
        recall=sum(detected) / sum(injected),
        ci_low=low,
        ci_high=high,
    )


@dataclass(frozen=True)
class PerturbationReport:
    overall: RecallEstimate
    by_type: dict[str, RecallEstimate]
    detected_ids: frozenset[tuple[str, str]]  # (paper_id, perturbation_id)
    judge_failures: int


def _counts(perturbations: Sequence[Perturbation], detected_ids: frozenset[tuple[str, str]]) -> dict[str, tuple[int, int]]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for p in perturbations:
        counts[p.paper_id][0] += (p.paper_id, p.perturbation_id) in detected_ids
        counts[p.paper_id][1] += 1
    return {paper: (d, n) for paper, (d, n) in counts.items()}


async def evaluate_perturbations(
    perturbations: Sequence[Perturbation],
    comments_by_paper: Mapping[str, Sequence[Prediction]],
    completer: TextCompleter | None = None,
    tau: float = DEFAULT_TAU,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> PerturbationReport:
    """Recall overall and per error type; a paper with no review contributes misses, not gaps."""
    detections = await asyncio.gather(*(detect(p, comments_by_paper.get(p.paper_id, ()), completer, tau) for p in perturbations))
    detected_ids = frozenset((p.paper_id, p.perturbation_id) for p, d in zip(perturbations, detections, strict=True) if d.detected)
    by_type: dict[str, list[Perturbation]] = defaultdict(list)
    for p in perturbations:
        by_type[p.error_type].append(p)
    return PerturbationReport(
        overall=recall_with_ci(_counts(perturbations, detected_ids), n_resamples, seed),
        by_type={
            error_type: recall_with_ci(_counts(group, detected_ids), n_resamples, seed) for error_type, group in sorted(by_type.items())
        },
        detected_ids=detected_ids,
        judge_failures=sum(d.judge_failures for d in detections),
    )
