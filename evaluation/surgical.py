"""Evaluating LLM Judgment via Surgical Edits (Hieu et al.): revision sensitivity.

Each triplet is a flawed paper, its genuine (human) revision and a superficial
(LLM "sham") revision. Two views, both per flaw category:
- Findings: of the triplets where the flaw was detected in the flawed version, how
  often its finding clears under the genuine revision and persists under the
  superficial one (both are what a good auditor does).
- Scores (Eq. 1): a verifier scores each revision against the flawed version
  (App. F.3, 1-9); the effect is the paired Cohen's d of S_genuine - S_superficial
  with its t-based 95% CI (§3.2).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from .judge import JudgeAnswer, TextCompleter, judge_score
from .stats import PairedEffect, paired_cohens_d

ALL_CATEGORIES = "(all)"


@dataclass(frozen=True)
class RevisionTriplet:
    triplet_id: str
    category: str
    detected_in_flawed: bool
    flagged_after_genuine: bool
    flagged_after_superficial: bool
    genuine_score: float | None = None
    superficial_score: float | None = None


@dataclass(frozen=True)
class CategorySensitivity:
    n_triplets: int
    n_detected: int
    clear_rate_genuine: float | None  # None when the flaw was never detected
    persist_rate_superficial: float | None
    effect: PairedEffect | None  # None with fewer than two scored pairs or no spread


def category_sensitivity(triplets: Sequence[RevisionTriplet]) -> CategorySensitivity:
    detected = [t for t in triplets if t.detected_in_flawed]
    scored = [t for t in triplets if t.genuine_score is not None and t.superficial_score is not None]
    return CategorySensitivity(
        n_triplets=len(triplets),
        n_detected=len(detected),
        clear_rate_genuine=sum(not t.flagged_after_genuine for t in detected) / len(detected) if detected else None,
        persist_rate_superficial=sum(t.flagged_after_superficial for t in detected) / len(detected) if detected else None,
        effect=paired_cohens_d(
            [t.genuine_score for t in scored],  # type: ignore[misc]
            [t.superficial_score for t in scored],  # type: ignore[misc]
        ),
    )


def revision_sensitivity(triplets: Sequence[RevisionTriplet]) -> dict[str, CategorySensitivity]:
    """Per category, plus every triplet pooled under ALL_CATEGORIES."""
    by_category: dict[str, list[RevisionTriplet]] = defaultdict(list)
    for triplet in triplets:
        by_category[triplet.category].append(triplet)
    report = {category: category_sensitivity(group) for category, group in sorted(by_category.items())}
    report[ALL_CATEGORIES] = category_sensitivity(triplets)
    return report


async def score_revision(
    completer: TextCompleter, flaw_description: str, original_paper: str, revised_paper: str
) -> JudgeAnswer[int | None]:
    """The App. F.3.1 verifier (blind to location): a 1-9 score, None when unparseable."""
    return await judge_score(
        completer,
        "revision_verification",
        1,
        9,
        flaw_description=flaw_description,
        original_paper=original_paper,
        revised_paper=revised_paper,
    )
