"""What the RHE rules share: claims found sentence by sentence outside the quiet sections, and few per paper.

Users of AI reviewers complain most about nitpicks, so these rules skip every
hedged, cited or quantified use and report at most a handful per paper.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import BlockKind, SectionKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Finding
from ...memo import TEXT_CACHE_SIZE
from ...violation import Violation, violation_type

MAX_PER_PAPER = 3
_PROSE = (BlockKind.PARAGRAPH,)
_QUIET_SECTIONS = (SectionKind.RELATED_WORK, SectionKind.REFERENCES, SectionKind.FRONT, SectionKind.APPENDIX)
_HEDGED = DeferredPattern(
    r"to\s+(?:the\s+best\s+of\s+)?our\s+(?:knowledge|understanding)|as\s+far\s+as\s+we\s+know|one\s+of\s+the\s+first|"
    r"among\s+the\s+first|we\s+believe|arguably|\\cite|\\ref|\\cref|\\autoref|Table|Fig|\d",
    re.I,
)


@violation_type
class Claim(Violation):
    """A claim as written: its identity is its words, lower-cased, wherever it moves."""

    written: str

    @property
    def quote(self) -> str:
        return " ".join(self.written.split())

    @property
    def identity(self) -> str:
        return self.written.lower()


def claims(
    ctx: RuleContext,
    section: Section,
    pattern: DeferredPattern,
    keywords: tuple[str, ...],
    violation: Callable[[str], Violation],
    hedge: DeferredPattern | None = _HEDGED,
) -> Iterator[Finding]:
    """Findings for the section's sentences that match `pattern`; `keywords` is a cheap pre-filter every match contains."""
    if section.kind in _QUIET_SECTIONS:
        return
    for placed in section.blocks:
        if placed.kind not in _PROSE:
            continue
        for start, end in _claim_spans(placed.block.plain.text, pattern, keywords, hedge):
            yield ctx.flag_block(violation(placed.block.plain.text[start:end]), placed, start, end)


@lru_cache(maxsize=2 * TEXT_CACHE_SIZE)
def _claim_spans(
    text: str, pattern: DeferredPattern, keywords: tuple[str, ...], hedge: DeferredPattern | None
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


def at_most_a_few(findings: Iterator[Finding]) -> Iterator[Finding]:
    """The first MAX_PER_PAPER of `findings`."""
    for count, finding in enumerate(findings):
        if count == MAX_PER_PAPER:
            return
        yield finding
