"""NOT003: an acronym defined twice with different expansions."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from ...violation import Violation, violation_type
from .model import (
    AcronymDefinition,
    all_acronym_definitions,
    same_expansion,
    singular,
)


@violation_type
class AcronymRedefined(Violation):
    written: str  # the acronym as this definition writes it
    short: str  # in the singular
    long: str
    first_long: str

    @property
    def message(self) -> str:
        return f'{self.written} is expanded as "{self.long}" here but as "{self.first_long}" earlier'

    @property
    def identity(self) -> str:
        return f"{self.short}:{self.long.lower()}"


@rule("NOT003", "acronym-redefined", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("acronyms", "blocks"))
def acronym_redefined(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags an acronym defined twice with different expansions, whether through
    `\\newacronym`/`\\acro`/`\\DeclareAcronym` or inline ("Large Language Model (LLM)").
    Once an acronym is defined, a later capitalised phrase in front of it counts as a definition
    even when its initials do not spell it ("Adaptive Recurrent Unit (SRU)" after "Simple
    Recurrent Unit (SRU)"), and so does the first expansion with one word swapped ("adaptive
    recurrent unit (SRU)"). Expansions are compared word by word, joining words left out: case,
    hyphens, plurals, spelling variants ("modelling") and another ending of the same stem
    ("distantly supervised" for "distant supervision") do not count as differences, nor does a
    word that spells no letter of the acronym left out ("rate- and state-friction" for "rate- and
    state-dependent friction"); one changed word does ("Masked decision process" for "Markov
    decision process"). Each other expansion is reported once, where it first appears.

    ## Why is this bad?
    "NN" cannot be both "neural network" and "nearest neighbour" in one paper; the reader
    will misread one of the two passages.

    ## Example
    ```latex
    reinforcement learning (RL) ... representation learning (RL)
    ```

    ## Use instead
    Keep one expansion per acronym, or give the second concept another acronym.

    ## Fix safety
    No fix: which expansion is intended is the author's call.

    ## Confidence
    0.9 when both definitions are explicit (a package command, or words whose initials spell
    the acronym); 0.8 when the later one is a capitalised phrase that does not spell it. 0.5
    (information) for a deliberate contrast: both expansions in one paragraph ("confidence
    level (CL) … unlike a credibility level (CL)"), or a paragraph that redefines two or more
    acronyms that were first defined together (the same terms restated for another paradigm).
    """
    conflicts = _conflicts(all_acronym_definitions(ctx))
    # Redefinitions per block, and the blocks their first definitions share.
    by_block: dict[int, list[int | None]] = {}
    for later, first in conflicts:
        if later.block is not None:
            by_block.setdefault(later.block, []).append(first.block)
    for later, first in conflicts:
        acronym, short = later.acronym, singular(later.acronym.short)
        firsts = by_block.get(later.block, []) if later.block is not None else []
        parallel = len(firsts) > 1 and len(set(firsts)) == 1 and firsts[0] is not None
        contrast = later.block is not None and later.block == first.block
        confidence = 0.5 if contrast or parallel else 0.9 if later.spelled else 0.8
        violation = AcronymRedefined(acronym.short, short, acronym.long, first.acronym.long)
        related = ctx.related(first.file, first.acronym.start, first.acronym.end, f'{short} first defined as "{first.acronym.long}"')
        yield ctx.flag(violation, later.file, acronym.start, acronym.end, related=[related], confidence=confidence)


def _conflicts(definitions: Sequence[AcronymDefinition]) -> list[tuple[AcronymDefinition, AcronymDefinition]]:
    """(later, first) for each definition whose expansion differs from every earlier one of its acronym."""
    first_by_short: dict[str, AcronymDefinition] = {}
    expansions: dict[str, list[str]] = {}  # per acronym: its first expansion and each other one, met once
    conflicts: list[tuple[AcronymDefinition, AcronymDefinition]] = []
    for definition in definitions:
        short = singular(definition.acronym.short)
        first = first_by_short.setdefault(short, definition)
        known = expansions.setdefault(short, [first.acronym.long])
        if not any(same_expansion(long, definition.acronym.long) for long in known):
            known.append(definition.acronym.long)
            conflicts.append((definition, first))
    return conflicts
