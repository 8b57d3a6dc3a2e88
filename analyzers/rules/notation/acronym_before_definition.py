"""NOT004: an acronym the body uses before the sentence that defines it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Acronym
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import (
    PROSE,
    WELL_KNOWN,
    acronym_words,
    coded_by_letters,
    introduced_at,
    is_body_section,
    singular,
)


class _AcronymUse(NamedTuple):
    """The first use of an inline-defined acronym in a section's body prose."""

    short: str
    before_definition: bool | None  # None: the definition is in another section
    finding: Finding


class _AcronymOrder(NamedTuple):
    defined: frozenset[str]  # acronyms whose first inline definition is in the section
    first_uses: list[_AcronymUse]


def _body_prose(section: Section) -> Iterator[PlacedBlock]:
    if is_body_section(section.kind, section.title):
        yield from (placed for placed in section.blocks if placed.kind in PROSE)


@violation_type
class UsedBeforeDefinition(Violation):
    short: str

    @property
    def message(self) -> str:
        return f"{self.short} is used here before its definition"

    @property
    def identity(self) -> str:
        return self.short


def _uses_before_definition(ctx: RuleContext, parts: list[tuple[Section, list[_AcronymOrder]]]) -> Iterator[Finding]:
    defined: set[str] = set()  # defined in the sections read so far
    seen: set[str] = set()
    for _, section_parts in parts:
        for part in section_parts:
            for use in part.first_uses:
                if use.short in seen:
                    continue
                seen.add(use.short)
                if use.before_definition if use.before_definition is not None else use.short not in defined:
                    yield use.finding
            defined |= part.defined


@rule(
    "NOT004",
    "acronym-used-before-definition",
    Category.CONTEXT_MISALIGNMENT,
    Severity.INFORMATION,
    reads=("acronyms", "blocks", "structure"),
    scope=Scope.SECTION,
    combine=_uses_before_definition,
    placed_parts=True,  # acronyms and findings, the order decided within the section
)
def acronym_used_before_definition(ctx: RuleContext, section: Section) -> Iterator[_AcronymOrder]:
    """## What it does
    Flags an acronym that the body text uses before the sentence that defines it
    inline ("… large language models (LLMs) …"). The title and abstract are exempt, since
    papers conventionally define acronyms again in the introduction. A first use that tells the acronym
    in another form is its definition ("the Cramer-Rao lower bound (CRB)", "(hereafter CI)", APA's brackets
    within parentheses "(e.g., response time [RT])", "the average
    selection on gains ASG = TOT - TUT"); capitals that are a code, not the acronym ("conditions SS, SP, PS
    and PP; S-singular, P-plural"), are no use of it.

    ## Why is this bad?
    A reader meets the short form before learning what it stands for.

    ## Example
    ```latex
    \\section{Introduction} VLMs are popular. Vision-language models (VLMs) ...
    ```

    ## Use instead
    Move the definition to the first use.

    ## Fix safety
    No fix: moving a definition rewrites two sentences.

    ## Confidence
    0.9 when the use and the definition are in one section (their order is exact); 0.8 when
    the definition is in a later section.
    """
    first_definition: dict[str, tuple[PlacedBlock, Acronym]] = {}
    for placed, acronym in ctx.index.inline_acronyms:
        first_definition.setdefault(singular(acronym.short), (placed, acronym))
    formal = {singular(acronym.short) for _, acronym in ctx.index.acronyms}
    pending = {short: definition for short, definition in first_definition.items() if short not in formal}
    defined_here = frozenset(short for short, (placed, _) in pending.items() if ctx.section_of(placed) is section)
    first_uses: list[_AcronymUse] = []
    seen: set[str] = set()
    for placed in _body_prose(section):
        for short, start, end, _ in acronym_words(placed.block.plain.text):
            if short not in pending or short in WELL_KNOWN or short in seen or coded_by_letters(placed.block.plain.text, start, end, short):
                continue
            seen.add(short)
            first_uses.append(_first_use(ctx, placed, (start, end), short, pending[short], short in defined_here))
    yield _AcronymOrder(defined_here, first_uses)


def _first_use(
    ctx: RuleContext, placed: PlacedBlock, span: tuple[int, int], short: str, definition: tuple[PlacedBlock, Acronym], here: bool
) -> _AcronymUse:
    """An acronym's first use in the section, at `span` of its block's text, and whether it comes before `definition`
    (None: the definition is in another section, after this one)."""
    start, end = span
    defined_in, acronym = definition
    before = None
    if introduced_at(placed.block.plain.text, start, end, short):
        before = False  # its first use tells it, in a form the definitions' reader does not spell out
    elif here:
        before = (placed.index, placed.block.plain.source_offset(start)) < (defined_in.index, acronym.start)
    related = ctx.related(defined_in.file, acronym.start, acronym.end, f"{short} is defined here")
    confidence = 0.9 if before is not None else 0.8
    finding = ctx.flag_block(UsedBeforeDefinition(short), placed, start, end, related=[related], confidence=confidence)
    return _AcronymUse(short, before, finding)
