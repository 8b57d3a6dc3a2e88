"""RHE001: a priority or superlative claim without a hedge, a citation or evidence."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import Scope, rule
from .model import Claim, at_most_a_few, claims

_PRIORITY = DeferredPattern(
    r"\b(?:(?:we|this|ours)\s+(?:is|are|was|were|present|propose|introduce|provide|offer)\s+(?:the\s+)?first\s+(?:to|time|attempt)\b|"
    r"the\s+first\s+(?:method|approach|work|framework|model|paper|study|system|algorithm|technique)s?\s+(?:to|that|which|for)\b|"
    r"(?:achiev\w*|set\w*|establish\w*|reach\w*|obtain\w*|attain\w*|yield\w*)\s+(?:a\s+|the\s+)?(?:new\s+)?state[- ]of[- ]the[- ]art|"
    r"unprecedented|groundbreaking|revolutioni[sz]\w*)",
    re.I,
)


@record
class UnsupportedPriorityClaim(Claim):
    @property
    def message(self) -> str:
        return f'unqualified priority or superlative claim "{self.quote}": add a hedge, a citation or the evidence'


def _first_claims(ctx: RuleContext, parts: list[tuple[Section, list[Finding]]]) -> Iterator[Finding]:
    yield from at_most_a_few(finding for _, claims in parts for finding in claims)


@rule(
    "RHE001",
    "unsupported-priority-claim",
    Category.RHETORIC_BIAS,
    Severity.HINT,
    reads=("blocks", "structure"),
    scope=Scope.SECTION,
    combine=_first_claims,
    placed_parts=True,  # findings, by their ranges
)
def unsupported_priority_claim(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Marks unqualified priority and superlative claims ("we are the first", "achieves a new
    state-of-the-art", "unprecedented") in a sentence with no hedge, citation or number to
    back it. At most three per paper.

    ## Why is this bad?
    Priority claims are the first thing reviewers check and the easiest to refute with one
    earlier paper; unsupported superlatives read as salesmanship.

    ## Example
    ```latex
    We are the first to align actions with language tokens.
    ```

    ## Use instead
    ```latex
    To our knowledge, we are the first to align actions with language tokens.
    ```

    ## Fix safety
    No fix: the right qualification depends on the claim.
    """
    # The paper's first claims are among its sections' first claims.
    yield from at_most_a_few(
        claims(
            ctx,
            section,
            _PRIORITY,
            ("first", "state", "unprecedented", "groundbreaking", "revolution"),
            UnsupportedPriorityClaim,
        )
    )
