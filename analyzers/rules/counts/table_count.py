"""CNT002: a count a sentence states for a table it cites ("Table 3 lists the top 10 genes") that the table's rows do not give."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...memo import TEXT_CACHE_SIZE
from ...quantities import TableAt, shown_table, tables_at_by_label
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .table_rows import COUNTED_NEAR, LISTED_IN, TableCount, countable, listings, names_listed, table_counts

# A count said to be listed in the table is surely of its rows; a known set counted beside its citation may be of
# something the table breaks down another way.
_CONFIDENCE = {LISTED_IN: 1.0, COUNTED_NEAR: 0.6}


@violation_type
class TableCountMismatch(Violation):
    claim: TableCount
    rows: int

    @property
    def message(self) -> str:
        claim = self.claim
        return f"the text says Table {claim.label} lists {claim.stated} {claim.noun}, but the table has {self.rows} rows"


@dataclass(frozen=True, slots=True, eq=False)
class _CountedTable(TableAt):
    countable: bool  # its rows can be counted (see table_rows.countable)


@dataclass(frozen=True, slots=True, eq=False)
class _Claim:
    claim: TableCount
    anchor: Finding  # where the count is written, placed while its section was read


def _claims_against_tables(ctx: RuleContext, parts: list[tuple[Section, list[_CountedTable | _Claim]]]) -> Iterator[Finding]:
    """Each count against the table it cites, wherever that table sits."""
    tables = tables_at_by_label(parts, _CountedTable)
    for _, items in parts:
        for item in items:
            cited = tables.get(item.claim.label) if isinstance(item, _Claim) else None
            if cited is None or not cited[0].countable:
                continue
            table = cited[1]
            if not names_listed(table, item.claim.noun) or item.claim.stated in set(listings(table)):  # type: ignore[union-attr]
                continue
            claim, anchor = item.claim, item.anchor  # type: ignore[union-attr]
            violation = TableCountMismatch(claim, next(listings(table)))
            evidence = Evidence(
                kind=claim.evidence,
                statements=[Statement(file=anchor.file, range=anchor.range, quote=f"{claim.stated} {claim.noun}", role="stated count")],
                reason="no reading of the table's rows (with or without group titles, continued rows, aggregates) or columns gives the count",
            )
            confidence = _CONFIDENCE[claim.evidence]
            update = {"message": violation.message, "identity": violation.identity, "evidence": evidence, "confidence": confidence}
            yield anchor.model_copy(update=update)


@rule(
    "CNT002",
    "table-count-mismatch",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=_claims_against_tables,
    placed_parts=True,  # tables by block index within the section, counts by their findings' ranges
)
def table_count_mismatch(ctx: RuleContext, section: Section) -> Iterator[_CountedTable | _Claim]:
    """## What it does
    Counts the rows of a table that a sentence says lists a number of things: "Table 3
    contains the top 10 genes", "Table~\\ref{t} lists all 48 sequences", "the 16 gene sets
    listed in Table 4"; or, in a sentence citing one table and nothing else, a known set it
    counts ("Table 2 gives the statistics of all four datasets", "our nine languages (Table 3)"),
    not a part of another count ("2 of the 40 genes", "Of the 40 languages, …") nor a pick ("the
    first two rows", "the remaining 12 genes"). The table may be counted several ways, and any of
    them agrees: all body rows, rows without the titles of groups ("Panel A"), rows with a name
    (not continuing the row above), rows without a summary row (Average, Total, Combined, "all
    splits (aggregate)"), one group's rows under its title, distinct row names, or columns (a
    table of methods side by side), or entries drawn apart by rules (an entry over several
    lines), or the rows of one stretch between rules. The table must speak of the counted things: the noun's head word is in its caption,
    its header or its first column ("genes" and a header "Gene"). Bounds and selections ("at
    least 10 genes", "3 of the 12 genes"), settings ("5 runs"), a table said to list more
    ("shown in Table 3, along with …"), and tables laid out as several tabulars are left alone.

    ## Why is this bad?
    The count is what a reader takes away without counting; when the table lists another
    number, a row was added or dropped after the sentence was written, or the count is wrong
    wherever else the paper repeats it.

    ## Example
    ```latex
    Table~\\ref{tab:genes} contains the top 3 genes.
    % tab:genes lists four genes
    ```

    ## Use instead
    ```latex
    Table~\\ref{tab:genes} contains the top 4 genes.
    ```

    ## Evidence
    "strong: the cited table's rows counted" for a count said to be listed in the table;
    "moderate: a known set counted beside the table's citation" (confidence 0.6) for the rest,
    which may count what the table breaks down another way.
    """
    for block, placed in enumerate(section.blocks):
        shown = shown_table(placed)
        if shown is not None:
            source = ctx.source(placed.file).text[placed.block.start : placed.block.end]
            yield _CountedTable(shown.labels, block, countable(shown.table, source))
        if placed.kind not in (BlockKind.PARAGRAPH, BlockKind.CAPTION, BlockKind.FOOTNOTE) or "ref" not in placed.block.plain.text:
            continue
        for start, claim in _counts(placed.block.plain.text):
            yield _Claim(claim, ctx.report_block(placed, start + claim.start, start + claim.end, ""))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _counts(text: str) -> tuple[tuple[int, TableCount], ...]:
    """The counts a paragraph's sentences state for a table, each with its sentence's start: kept by text, so an
    edit reads its paragraph alone."""
    return tuple((start, claim) for start, end in sentence_spans(text) for claim in table_counts(text[start:end]))
