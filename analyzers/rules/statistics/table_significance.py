"""STAT012: a sentence says none of a table's tests is significant, and the table's p column disagrees.

## How it decides
The readers are in `statistics/table_p.py`. A sentence claims that none of the tests it speaks of
is significant only with a universal word ("none of these associations were significant", "all
were non-significant", "not significant for any", "all ps > .10"), makes no exception, and its
paragraph names no corrected threshold. Its level is the one it states, else .05.

The table is the one the sentence references, by `\\ref` or by its printed number ("Table 3",
see `printed_tables.py`), else the one its paragraph references, else the section's one table
with a p-value column, before or after the paragraph (results sections often discuss a table
placed after the text). A claim is contradicted when a cell of the table's p column shows
significance whatever its rounding: "0.049" is below .05, "0.05" is not. A cited table without a
p column is read by its stars, where its legend defines them ("* p < .05, ** p < .01"): a cell
whose stars stand for the sentence's level or below is a significant test. The section's one
table is read by its p column only: a table the paragraph does not cite may star other tests.

A sentence may speak of some of the table's rows only ("these associations"): the rows it means
are not read, so the finding names the significant row for the reader to judge.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import each_cited, shown_table, tables_at_by_label
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..printed_tables import paragraph_tables, printed_key, sentence_tables, with_printed
from ..tables.model import table_notes
from .model import StarredTable, star_legend
from .table_p import NoneSignificant, corrected, none_significant, p_columns, row_name, significant_cells, starred_cells


@violation_type
class NoneSignificantContradicted(Violation):
    quote: str
    table: str
    row: str
    p: str
    level: float
    starred: bool = False  # `p` is a cell whose stars the table's legend defines

    @property
    def message(self) -> str:
        level = f"{self.level:g}".lstrip("0")
        if self.starred:
            return f'"{self.quote}", but {self.table} stars {self.row} ({self.p}), significant at {level} by its legend'
        p = f"p {self.p}" if self.p.startswith(("<", "≤")) else f"p = {self.p}"
        return f'"{self.quote}", but {self.table} gives {p} for {self.row}, significant at {level}'

    @property
    def identity(self) -> str:
        return f"{self.quote} {self.row} {self.p}"


@record(slots=True, eq=False)
class _Claim:
    claim: NoneSignificant
    quote: str
    labels: tuple[str, ...]  # the tables the sentence or its paragraph references
    section_table: StarredTable | None  # else the section's one table of p-values
    anchor: Finding


def _claims_against_tables(ctx: RuleContext, parts: list[tuple[Section, list[StarredTable | _Claim]]]) -> Iterator[Finding]:
    labelled = tables_at_by_label(parts, StarredTable)
    tables = with_printed(labelled, ctx)
    for section, items in parts:
        for item in items:
            if not isinstance(item, _Claim):
                continue
            cited = [(f"Table {label}", at_table) for label, at_table in each_cited(item.labels, tables)]
            citing = [label for label in item.labels if label in tables or not printed_key(label)]  # a number bound to no table cites none
            own = item.section_table
            shown = [("the section's table of p-values", (own, own.table(section)))] if not citing and own is not None else []
            for name, (at, table) in cited or shown:
                level = item.claim.level
                cell = next(significant_cells(table, level), None)
                starred = next(starred_cells(table, dict(at.legend), level), None) if cited and not p_columns(table) else None
                if cell is None and starred is None:
                    continue
                shown_cell = cell or starred
                assert shown_cell is not None  # one of them is
                row = row_name(table, shown_cell.row)
                written = shown_cell.text.strip()
                violation = NoneSignificantContradicted(
                    item.quote, name, f"'{row}'" if row else "a row", written, level, starred is not None
                )
                evidence = _evidence(cited != [], starred is not None, all(label not in labelled for label in item.labels))
                yield item.anchor.model_copy(update={"message": violation.message, "identity": violation.identity, "evidence": evidence})
                break


def _evidence(cited: bool, starred: bool, by_number: bool) -> Evidence:
    if starred:
        return Evidence(kind="weak: a starred cell of the cited table", reason="the table's legend marks a test significant at the level")
    kind = "weak: the section's one table of p-values"
    if cited:
        kind = "moderate: the p column of the table its number names" if by_number else "moderate: the cited table's p column"
    return Evidence(kind=kind, reason="a p below the level is a significant test")


@rule(
    "STAT012",
    "none-significant-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=_claims_against_tables,
    placed_parts=True,  # tables by block index within the section, claims by their findings' ranges
)
def none_significant_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[StarredTable | _Claim]:
    """## What it does
    Reads a sentence that says none of the tests it speaks of is significant ("None of these
    associations were statistically significant", "all ps > .10") against the p-value column
    of the table it references (else the section's one table with a p-value column), and flags
    it when a cell of that column is below the level whatever its rounding, or, in a cited table
    without a p column, when a cell bears stars its legend defines at the level or below.

    ## Why is this bad?
    A reader who takes the sentence at its word overlooks the significant result the table
    prints; a reader who reads the table doubts the sentence and the analysis behind it.

    ## Example
    ```latex
    None of these associations were statistically significant (Table~\\ref{tab:switch}).
    % tab:switch: Type of comparison ... & 0.049 \\\\ Herd effects ... & 0.012
    ```

    ## Use instead
    ```latex
    Only the type of comparison (p = 0.049) and herd effects (p = 0.012) were significant.
    ```

    ## Fix safety
    No fix: the sentence may speak of fewer rows than the table holds.

    ## Evidence
    "moderate: the cited table's p column" ("moderate: the p column of the table its number names"
    when the text types "Table 3" instead of a `\\ref`); "weak: the section's one table of p-values" when the
    paragraph references no table; "weak: a starred cell of the cited table" when the stars decide.
    """
    tables = [
        (StarredTable(shown.labels, block, tuple(star_legend(table_notes(section, placed)).items())), shown.table)
        for block, placed in enumerate(section.blocks)
        if (shown := shown_table(placed))
    ]
    yield from (at for at, _ in tables)
    paragraphs = [
        placed
        for placed in section.blocks
        if placed.kind in (BlockKind.PARAGRAPH, BlockKind.CAPTION) and _may_claim(placed.block.plain.text)
    ]
    with_p = [at for at, table in tables if p_columns(table)] if paragraphs else []
    for placed in paragraphs:
        yield from _paragraph_claims(ctx, placed, with_p[0] if len(with_p) == 1 else None)


def _may_claim(text: str) -> bool:
    return "ignifican" in text or " ps" in text or "p-values" in text


def _paragraph_claims(ctx: RuleContext, placed: PlacedBlock, section_table: StarredTable | None) -> Iterator[_Claim]:
    text = placed.block.plain.text
    paragraph_refs = paragraph_tables(placed.block)
    is_corrected = corrected(text)
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        claim = none_significant(sentence, is_corrected)
        if claim is None:
            continue
        cited = sentence_tables(sentence, paragraph_refs)
        anchor = ctx.report_block(placed, start + claim.start, start + claim.end, "")
        yield _Claim(claim, " ".join(sentence[claim.start : claim.end].split()), cited, section_table, anchor)
