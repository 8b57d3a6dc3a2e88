"""Which tables a claim of every line speaks of when its paragraph cites none, and what the prose presenting a table
says its better side is: the readings the TAB claim rules share beyond the tables a sentence cites, and how they
report a claim against its cells."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, Cell
from ...context import RuleContext, Spot
from ...finding import Evidence, Finding
from ...quantities import block_refs, speaks_of_tables, without_refs
from ...violation import Violation
from .direction import prose_direction
from .model import LabelledTable, sentences_citing, table_blocks

# The evidence qualifier of a claim read against its section's tables, its paragraph citing none (`claim_sentences`).
SECTIONED = "in a table its section cites, its paragraph citing none"


def claim_sentences(placed: PlacedBlock, in_section: tuple[str, ...]) -> Iterator[tuple[int, str, tuple[str, ...], bool]]:
    """`citing_sentences`, and in a paragraph that cites nothing its sentences with the tables its section cites or
    places (`in_section`, from `section_cited`): (start, sentence, labels, sectioned). For a rule whose claims are made
    of every line, and whose rows or columns the claim names, which a table of another experiment seldom shares."""
    cited = tuple(sorted(block_refs(placed.block)))
    for start, sentence, labels in sentences_citing(placed.block.plain.text, cited or in_section):
        yield start, sentence, labels, not cited


def section_cited(section: Section) -> tuple[str, ...]:
    """The labels a section's paragraphs and captions cite, and those of the tables it places: what a claim in a
    paragraph that cites nothing may speak of ("The gradient norm method shows a consistent improvement over other
    methods", two paragraphs after the one citing the tables)."""
    cited = {label for placed in section.blocks if speaks_of_tables(placed) for label in block_refs(placed.block)}
    placed_tables = {label for placed in table_blocks(section) for label in (placed.block.table.label, *placed.block.labels) if label}  # type: ignore[union-attr]
    return tuple(sorted(cited | placed_tables))


def presented_directions(section: Section) -> tuple[tuple[str, int], ...]:
    """For each table a paragraph of the section cites, the direction the metrics it names say (`prose_direction`),
    where every such paragraph names metrics of that one direction: "Tables 1 and 2 show how our approach performs.
    Each row shows the mean accuracy when selecting n samples" makes a higher cell of either the better one."""
    said: dict[str, set[int]] = {}
    for placed in section.blocks:
        labels = block_refs(placed.block) if placed.kind is BlockKind.PARAGRAPH else ()
        if labels:  # most paragraphs cite nothing: their metrics are not read
            sense = prose_direction(without_refs(placed.block.plain.text))
            for label in labels:
                said.setdefault(label, set()).add(sense)
    return tuple(sorted((label, senses.pop()) for label, senses in said.items() if len(senses) == 1 and 0 not in senses))


def claim_finding(
    ctx: RuleContext,
    cited: LabelledTable,
    spot: Spot,
    violation: Violation,
    cells: tuple[Cell, Cell],
    role: str,
    evidence: Evidence,
    **kwargs: Any,
) -> Finding:
    """A claim's finding at its words, with the claimed cell of the cited table and the cell against it (its `role`)."""
    claimed, other = cells
    related = [cited.related(ctx, cell, f"{said} value {cell.text}") for cell, said in ((claimed, "claimed"), (other, role))]
    return ctx.report_at(spot, violation.message, identity=violation.identity, related=related, evidence=evidence, **kwargs)
