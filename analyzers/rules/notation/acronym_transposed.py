"""NOT006: an acronym written with the letters of a defined one in another order.

## How it decides
The defined acronyms are those of the acronym packages and of the body's inline definitions,
and any short form the prose writes in parentheses after words ("a geometric deep network
(DGN)"), whether or not their initials spell it. A capitalised word of the body prose that is none of them, is
not widely known, is not named next to a citation and is never defined anywhere, but has exactly
the letters of a defined acronym in another order ("GDN" after "(DGN)"), is the defined one
misspelled: a paper that meant another term would define it. The letters are compared in the
singular ("GDNs" is "GDN"). The defined form must be written again after its definition: a
short form defined once in passing ("self-interaction corrections (SIC)") is no term of the
paper that another could misspell, and its anagram ("CIS") is usually a name of its own. Short forms of fewer than three letters are left alone: two
letters swapped ("NL", "LN") are too often two unrelated names. Each misspelling is reported
once, where it first appears, with how often the paper writes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import chain

from ....latex.manuscript import PlacedBlock
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...memo import SECTION_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .model import (
    MIN_TRANSPOSED_LETTERS,
    PROSE,
    WELL_KNOWN,
    AcronymDefinition,
    acronym_words,
    all_acronym_definitions,
    is_body_section,
    parenthesised_acronyms,
    singular,
    transposed,
)

_DEFINED_USES = 2  # its definition and one use at least
_REPEATED_USES = 2  # a slip written twice or more is a habit the reader cannot correct alone


@violation_type
class AcronymTransposed(Violation):
    written: str  # in the singular
    defined: str
    uses: int

    @property
    def message(self) -> str:
        times = f" ({self.uses} times)" if self.uses > 1 else ""
        return f"{self.written} is written{times} but never defined; the paper defines {self.defined}, with the same letters"

    @property
    def identity(self) -> str:
        return f"{self.written}:{self.defined}"


@rule("NOT006", "acronym-transposed", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("acronyms", "blocks", "structure"))
def acronym_transposed(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags an acronym the body writes but never defines whose letters are those of a defined
    acronym in another order: "GDN" in a paper that defines "deep geometric network (DGN)".
    Acronyms of fewer than three letters, widely known ones and names next to a citation are
    left alone.

    ## Why is this bad?
    The reader looks for a definition of "GDN", finds none, and cannot be sure it is the "DGN"
    of the definition rather than a second, undefined method.

    ## Example
    ```latex
    We call it a deep geometric network (DGN). ... GDNs approximate any continuous map.
    ```

    ## Use instead
    ```latex
    We call it a deep geometric network (DGN). ... DGNs approximate any continuous map.
    ```

    ## Fix safety
    No fix: the author says which spelling is meant.

    ## Confidence
    0.8 when the misspelling is written twice or more, 0.6 for a single slip.
    """
    definitions: dict[str, AcronymDefinition] = {}
    for definition in chain(all_acronym_definitions(ctx), parenthesised_acronyms(ctx)):
        definitions.setdefault(singular(definition.acronym.short), definition)
    uses, named = _body_uses(ctx)
    for written, places in uses.items():
        if written in definitions or written in named:
            continue
        defined = transposed(written, definitions)
        # The defined form must be in use beyond its definition: a slip shadows a term the paper writes.
        if defined is None or len(uses.get(defined, ())) < _DEFINED_USES:
            continue
        definition = definitions[defined]
        placed, start, end = places[0]
        violation = AcronymTransposed(written, defined, len(places))
        defined_at = ctx.related(definition.file, definition.acronym.start, definition.acronym.end, f"{defined} defined here")
        evidence = Evidence(
            kind="acronym with a defined one's letters transposed",
            statements=[
                Statement(file=definition.file, range=defined_at.range, quote=definition.acronym.short, subject=defined, role="definition"),
                Statement(
                    file=placed.file,
                    range=ctx.range(placed.file, *placed.block.plain.source_span(start, end)),
                    quote=written,
                    subject=written,
                    role="use",
                ),
            ],
            reason="same letters in another order, never defined itself",
        )
        confidence = 0.8 if len(places) >= _REPEATED_USES else 0.6
        yield ctx.flag_block(violation, placed, start, end, related=[defined_at], evidence=evidence, confidence=confidence)


def _body_uses(ctx: RuleContext) -> tuple[dict[str, list[tuple[PlacedBlock, int, int]]], set[str]]:
    """Each acronym of the body prose (a definition's own parenthesis included), at its places in
    reading order; and those named next to a citation."""
    uses: dict[str, list[tuple[PlacedBlock, int, int]]] = {}
    named: set[str] = set()
    for section in ctx.index.manuscript.sections:
        for short, placed, start, end, next_to_citation in _section_uses(SectionKey(section)):
            if next_to_citation:
                named.add(short)
            uses.setdefault(short, []).append((placed, start, end))
    return uses, named


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _section_uses(key: SectionKey) -> tuple[tuple[str, PlacedBlock, int, int, bool], ...]:
    """A body section's acronyms of three letters or more: (acronym, block, plain span, named next to a citation)."""
    section = key.section
    if not is_body_section(section.kind, section.title):
        return ()
    return tuple(
        (short, placed, start, end, next_to_citation)
        for placed in section.blocks
        if placed.kind in PROSE
        for word, start, end, next_to_citation in acronym_words(placed.block.plain.text)
        if len(short := singular(word)) >= MIN_TRANSPOSED_LETTERS and short not in WELL_KNOWN
    )
