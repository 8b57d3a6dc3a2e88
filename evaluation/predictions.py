"""What every benchmark scores: a detector's ranked predictions, in one shape.

The papers each name the fields differently (FLAWS "error text", OpenAIReview
"quote"/"explanation", Zhang & Abernethy "Problem"/"Location"/"Explanation",
PaperAudit "error_location"/"type"/"section_location"); here they are one record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from auditex.analyzers.finding import Finding


@dataclass(frozen=True)
class Prediction:
    quote: str = ""  # verbatim excerpt the detector points at
    explanation: str = ""
    title: str = ""  # short statement of the problem
    type: str | None = None
    section: str | None = None
    rank: int = 0  # 0 is the most important; equal ranks keep their input order

    @classmethod
    def from_finding(cls, finding: Finding, quote: str = "", rank: int = 0) -> Prediction:
        return cls(
            quote=quote,
            explanation=finding.explanation or finding.message,
            title=finding.message,
            type=finding.category.value,
            section=finding.section,
            rank=rank,
        )


def top_k(predictions: Sequence[Prediction], k: int) -> list[Prediction]:
    """The k most important predictions; a stable sort, so ties keep input order."""
    if k < 0:
        raise ValueError(f"k must be non-negative, got {k}")
    return sorted(predictions, key=lambda p: p.rank)[:k]
