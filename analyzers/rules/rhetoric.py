"""RHE: claims worded stronger than their evidence. Hints only, and few per paper.

Users of AI reviewers complain most about nitpicks, so these rules skip every
hedged, cited or quantified use and report at most a handful per paper.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from ...latex.manuscript import PlacedBlock, Section
from ...latex.model import BlockKind, SectionKind
from ...latex.sentences import sentence_spans
from ..context import RuleContext
from ..finding import Category, Finding, Severity
from ..memo import TEXT_CACHE_SIZE
from ..registry import Scope, rule

MAX_PER_PAPER = 3
_PROSE = (BlockKind.PARAGRAPH,)
_QUIET_SECTIONS = (SectionKind.RELATED_WORK, SectionKind.REFERENCES, SectionKind.FRONT, SectionKind.APPENDIX)
_PRIORITY = re.compile(
    r"\b(?:(?:we|this|ours)\s+(?:is|are|was|were|present|propose|introduce|provide|offer)\s+(?:the\s+)?first\s+(?:to|time|attempt)\b|"
    r"the\s+first\s+(?:method|approach|work|framework|model|paper|study|system|algorithm|technique)s?\s+(?:to|that|which|for)\b|"
    r"(?:achiev\w*|set\w*|establish\w*|reach\w*|obtain\w*|attain\w*|yield\w*)\s+(?:a\s+|the\s+)?(?:new\s+)?state[- ]of[- ]the[- ]art|"
    r"unprecedented|groundbreaking|revolutioni[sz]\w*)",
    re.I,
)
_HEDGED = re.compile(
    r"to\s+(?:the\s+best\s+of\s+)?our\s+(?:knowledge|understanding)|as\s+far\s+as\s+we\s+know|one\s+of\s+the\s+first|"
    r"among\s+the\s+first|we\s+believe|arguably|\\cite|\\ref|\\cref|\\autoref|Table|Fig|\d",
    re.I,
)
_SIGNIFICANTLY = re.compile(
    r"\b(?:significantly|statistically\s+significant(?:ly)?)\s+(?:\w+\s+)?(?:outperform\w*|improv\w*|better|higher|lower|reduc\w*|increas\w*|"
    r"faster|surpass\w*|exceed\w*|boost\w*|enhanc\w*|superior|beat\w*)",
    re.I,
)
_TEST_REPORTED = re.compile(
    r"(?<![\w.])p\s*[<=≤]\s*0?\.\d|p-values?|t-tests?|Wilcoxon|Mann[- ]Whitney|ANOVA|bootstrap\w*|permutation test|"
    r"confidence intervals?|standard errors?|significance (?:level|test)|statistical(?:ly)? tests?|χ\^?2|chi-squared|McNemar",
    re.I,
)


def _first_claims(ctx: RuleContext, parts: list[tuple[Section, list[Finding]]]) -> Iterator[Finding]:
    yield from _quiet(finding for _, claims in parts for finding in claims)


@rule(
    "RHE001",
    "unsupported-priority-claim",
    Category.RHETORIC_BIAS,
    Severity.HINT,
    reads=("blocks", "structure"),
    scope=Scope.SECTION,
    combine=_first_claims,
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
    yield from _quiet(
        _claims(
            ctx,
            section,
            _PRIORITY,
            ("first", "state", "unprecedented", "groundbreaking", "revolution"),
            'unqualified priority or superlative claim "{}": add a hedge, a citation or the evidence',
        )
    )


class _Significance(NamedTuple):
    """What a section adds to RHE002: whether it reports a test, and its first "significantly" claims."""

    test_reported: bool
    claims: list[Finding]


def _significance_unless_tested(ctx: RuleContext, parts: list[tuple[Section, list[_Significance]]]) -> Iterator[Finding]:
    sections = [part for _, section_parts in parts for part in section_parts]
    if not any(part.test_reported for part in sections):
        yield from _quiet(finding for part in sections for finding in part.claims)


@rule(
    "RHE002",
    "significance-without-test",
    Category.RHETORIC_BIAS,
    Severity.HINT,
    reads=("blocks", "structure"),
    scope=Scope.SECTION,
    combine=_significance_unless_tested,
)
def significance_without_test(ctx: RuleContext, section: Section) -> Iterator[_Significance]:
    """## What it does
    Marks "significantly better/outperforms/improves" when the paper reports no statistical
    test anywhere (no p-value, test name, confidence interval or standard error). At most
    three per paper.

    ## Why is this bad?
    "Significantly" promises a statistical test; without one, readers cannot tell a real
    effect from seed noise.

    ## Example
    ```latex
    Our method significantly outperforms the baselines.
    ```

    ## Use instead
    ```latex
    Our method outperforms the baselines by 3.1 points (paired t-test, p < .01).
    ```

    ## Fix safety
    No fix: either report the test or drop the word.
    """
    claims = list(
        _quiet(_claims(ctx, section, _SIGNIFICANTLY, ("significant",), '"{}" but the paper reports no statistical test', hedge=None))
    )
    yield _Significance(any(_reports_test(placed.block.plain.text) for placed in section.blocks), claims)


def _claims(
    ctx: RuleContext,
    section: Section,
    pattern: re.Pattern[str],
    keywords: tuple[str, ...],
    message: str,
    hedge: re.Pattern[str] | None = _HEDGED,
) -> Iterator[Finding]:
    """Findings for the section's sentences that match `pattern`; `keywords` is a cheap pre-filter every match contains."""
    if section.kind in _QUIET_SECTIONS:
        return
    for placed in section.blocks:
        if placed.kind not in _PROSE:
            continue
        for start, end in _claim_spans(placed.block.plain.text, pattern, keywords, hedge):
            claim = placed.block.plain.text[start:end]
            yield _report(ctx, placed, start, end, message.format(" ".join(claim.split())))


@lru_cache(maxsize=2 * TEXT_CACHE_SIZE)
def _claim_spans(
    text: str, pattern: re.Pattern[str], keywords: tuple[str, ...], hedge: re.Pattern[str] | None
) -> tuple[tuple[int, int], ...]:
    """Where a block's unhedged sentences match `pattern`; cached by text."""
    lowered = text.lower()
    if not any(keyword in lowered for keyword in keywords) or pattern.search(text) is None:
        return ()
    spans = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        match = pattern.search(sentence)
        if match is not None and (hedge is None or not hedge.search(sentence)):
            spans.append((start + match.start(), start + match.end()))
    return tuple(spans)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _reports_test(text: str) -> bool:
    return _TEST_REPORTED.search(text) is not None


def _report(ctx: RuleContext, placed: PlacedBlock, start: int, end: int, message: str) -> Finding:
    return ctx.report_block(placed, start, end, message, identity=placed.block.plain.text[start:end].lower())


def _quiet(findings: Iterator[Finding]) -> Iterator[Finding]:
    for count, finding in enumerate(findings):
        if count == MAX_PER_PAPER:
            return
        yield finding
