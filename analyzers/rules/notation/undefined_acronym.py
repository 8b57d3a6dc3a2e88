"""NOT005: an acronym used repeatedly but never expanded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from ....latex.manuscript import PlacedBlock, Section
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import (
    PROSE,
    WELL_KNOWN,
    acronym_definitions,
    acronym_words,
    glossary_entries,
    is_body_section,
    singular,
)

_MAX_UNDEFINED_REPORTS = 3
_MIN_UNDEFINED_USES = 3
_MANY_UNDEFINED_USES = 5


class _AcronymTally(NamedTuple):
    uses: int
    blocks: int
    first: Finding  # on the first use; the combine writes the paper-wide count into the message


class _AcronymUses(NamedTuple):
    tallies: dict[str, _AcronymTally]  # in order of first use
    exempt: frozenset[str]  # named next to a citation, or outside body prose
    # Per source run: its file, whether it holds a glossary package command, the entries it declares.
    glossary: tuple[tuple[str, bool, frozenset[str]], ...]


@violation_type
class UndefinedAcronym(Violation):
    short: str
    uses: int  # in the whole paper: the sections' counts, added up by the combine

    @property
    def message(self) -> str:
        return f"{self.short} is used {self.uses} times but never defined"

    @property
    def identity(self) -> str:
        return self.short


def _most_used_undefined(ctx: RuleContext, parts: list[tuple[Section, list[_AcronymUses]]]) -> Iterator[Finding]:
    totals: dict[str, list[Any]] = {}  # short → [uses, blocks, first finding], in order of first use
    exempt: set[str] = set()
    glossary_files: set[str] = set()
    glossary: dict[str, set[str]] = {}
    for _, section_parts in parts:
        for part in section_parts:
            exempt |= part.exempt
            for file, package, entries in part.glossary:
                if package:
                    glossary_files.add(file)
                glossary.setdefault(file, set()).update(entries)
            for short, tally in part.tallies.items():
                total = totals.setdefault(short, [0, 0, tally.first])
                total[0] += tally.uses
                total[1] += tally.blocks
    # Glossary entries count in a file that uses the glossaries package commands.
    declared = {short for file in glossary_files for short in glossary.get(file, ())}
    candidates = [
        (short, uses, first)
        for short, (uses, blocks, first) in totals.items()
        if short not in exempt and short not in declared and uses >= _MIN_UNDEFINED_USES and blocks > 1
    ]
    candidates.sort(key=lambda item: -item[1])
    for short, uses, first in candidates[:_MAX_UNDEFINED_REPORTS]:
        yield first.model_copy(
            update={
                "message": UndefinedAcronym(short, uses).message,
                "confidence": 0.8 if uses >= _MANY_UNDEFINED_USES else 0.6,
            }
        )


@rule(
    "NOT005",
    "undefined-acronym",
    Category.CONTEXT_MISALIGNMENT,
    Severity.HINT,
    reads=("acronyms", "blocks", "structure"),
    scope=Scope.SECTION,
    combine=_most_used_undefined,
    placed_parts=True,  # counts, names and the first use's finding
)
def undefined_acronym(ctx: RuleContext, section: Section) -> Iterator[_AcronymUses]:
    """## What it does
    Marks an acronym the body text uses repeatedly (three times or more, in more than one
    paragraph) but never expands, neither inline ("large language model (LLM)") nor with an
    acronym package. Widely known acronyms
    (GPU, URL, PDF, CNN, …), names that appear next to a citation (a cited method or
    dataset) and names in tables are skipped.

    ## Why is this bad?
    Readers outside the subfield cannot decode the short form.

    ## Example
    ```latex
    We fine-tune with KTO ... KTO converges faster ... KTO is stable.
    ```

    ## Use instead
    ```latex
    We fine-tune with Kahneman-Tversky optimisation (KTO) ...
    ```

    ## Fix safety
    No fix: only the author knows the expansion.

    ## Confidence
    0.8 for an acronym used five times or more, 0.6 below: a short form used only a few
    times may be a name the reader knows from the cited work.
    """
    defined = {singular(a.short) for _, a in acronym_definitions(ctx)}
    body = is_body_section(section.kind, section.title)
    uses: dict[str, list[tuple[PlacedBlock, int, int]]] = {}
    exempt: set[str] = set()
    for placed in section.blocks:
        words = acronym_words(placed.block.plain.text)
        if placed.kind not in PROSE or not body:
            exempt.update(short for short, _, _, _ in words)
            continue
        for short, start, end, named in words:
            if short in defined or short in WELL_KNOWN or len(short) > 6:
                continue
            if named:
                exempt.add(short)
            uses.setdefault(short, []).append((placed, start, end))
    tallies = {short: _tally(ctx, short, places) for short, places in uses.items()}
    glossary = tuple(entry for entry in (glossary_entries(ctx, run) for run in section.runs) if entry is not None)
    yield _AcronymUses(tallies, frozenset(exempt), glossary)


def _tally(ctx: RuleContext, short: str, places: list[tuple[PlacedBlock, int, int]]) -> _AcronymTally:
    """A section's uses of `short` at `places` (block, plain start, plain end): counted, and a finding on the first."""
    first, start, end = places[0]
    return _AcronymTally(
        len(places), len({placed.index for placed, _, _ in places}), ctx.report_block(first, start, end, "", identity=short)
    )
