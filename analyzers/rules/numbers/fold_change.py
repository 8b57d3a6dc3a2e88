"""NUM015: a fold change a sentence states of a table's row ("a 256-fold increase of HSPA6") that none of the row's log fold changes gives.

## How it decides
A table of log fold changes heads its columns "L2FC", "log2FC", "logFC", "log2 fold change" (base
2, as DESeq2, edgeR and limma report them; "log10" is base 10). A sentence states a fold change
as "N-fold", "N fold" or "N times" before a word of change (increase, higher, more, up, ...) and
names a row of such a table by its header, written as a word of its own (a gene symbol such as
"HSPA6"; a header of two characters or fewer, or without a digit or two capitals, is too common
to name a row: "Total"). The fold is tied to the row named nearest before it in the sentence, else the
first named after it. The row's every log fold cell gives a fold, base to the power of the cell
without its sign (a decrease writes a negative log); the stated fold holds when one of them gives it
within the rounding of the cell and of the stated number, or within a tenth after "about",
"approximately" or "~". A stated fold no cell of the row gives is flagged with the folds it gives:
the sentence quotes another comparison than the table's, or mistakes a log for its fold.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import searched_by_text, shown_table, slack
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import Grid, cell_statement

LOG_FOLD = DeferredPattern(
    r"\b(?:l2fc|lfc|log_?\{?(?:2|10)\}?\s*-?\s*(?:fc|\(fc\)|fold)|logfc|log\s*-?\s*(?:2|10)?\s*-?\s*fold)", re.IGNORECASE
)
FOLD = DeferredPattern(
    r"(?<![\w.])(?P<about>(?:about|approximately|nearly|roughly|~|∼|≈)\s*)?(?P<n>\d+(?:\.\d+)?)\s*(?:-\s*|\s)?(?:fold|times)"
    r"(?=\s+(?:\w+\s+){0,2}?(?:increase|decrease|higher|lower|more|less|greater|up|down|change|enrich|abundance|reduc|elevat))",
    re.IGNORECASE,
)
_may_state_fold = searched_by_text(DeferredPattern(r"fold|times", re.IGNORECASE))
# A header that can name a row in a sentence: a symbol with a digit or two capitals ("HSPA6", "Abcd1", "MAFF"), not a word ("Total").
_NAMING_HEADER = DeferredPattern(r"\d|[A-Z].*[A-Z]")


@violation_type
class FoldNotInRow(Violation):
    stated: str  # "256 fold"
    row: str
    label: str | None
    folds: tuple[str, ...]  # "2^5.73 = 53" for each log fold cell of the row

    @property
    def message(self) -> str:
        table = f"Table {self.label}" if self.label else "the table"
        return f'"{self.stated}" of {self.row}: no log fold change of its row in {table} gives it ({", ".join(self.folds)})'

    @property
    def identity(self) -> str:
        return f"{self.stated} {self.row} {self.label}"


@record(slots=True, eq=False)
class _LogTable:
    """A table with columns of log fold changes, by its block's place in its section, and its rows by header."""

    block: int
    columns: tuple[tuple[int, float], ...]  # (column, base)
    rows: dict[str, int]


@record(slots=True, eq=False)
class StatedFold:
    """A fold a sentence states, as plain values: a section's parts are kept in the analysis cache."""

    block: int  # the paragraph's place among its section's blocks
    sentence: str
    offset: int  # of the sentence in the block's plain text
    start: int  # of the fold in the sentence
    end: int
    number: str  # "256"
    about: bool  # "about", "~": an estimate

    @classmethod
    def of(cls, block: int, sentence: str, offset: int, fold: re.Match[str]) -> StatedFold:
        return cls(block, sentence, offset, fold.start(), fold.end(), fold.group("n"), bool(fold.group("about")))

    def gives(self, log: float, decimals: int, base: float) -> bool:
        """Whether a log fold change, within its rounding, gives the stated fold within its own."""
        value = float(self.number)
        margin = value * 0.1 if self.about else slack(len(self.number.partition(".")[2]))
        low, high = (float(base ** (abs(log) + sign * slack(decimals))) for sign in (-1, 1))
        return low - margin <= value <= high + margin


def _log_table(block: int, grid: Grid) -> _LogTable | None:
    columns = tuple(
        (column, 10.0 if "10" in found.group(0) else 2.0)
        for column in grid.columns()
        if (found := LOG_FOLD.search(grid.column_header(column)))
    )
    if not columns:
        return None
    rows = {header: row for row in grid.body_rows() if len(header := grid.row_header(row)) > 2 and _NAMING_HEADER.search(header)}
    return _LogTable(block, columns, rows)


def _named_row(stated: StatedFold, table: _LogTable) -> tuple[int, str] | None:
    """The row the fold is stated of: named nearest before it in the sentence, else first after it."""
    at = stated.start
    named = [
        (match.start(), header)
        for header in table.rows
        for match in re.finditer(rf"(?<![\w-]){re.escape(header)}(?![\w-])", stated.sentence)
    ]
    before = [found for found in named if found[0] < at]
    chosen = max(before, default=None) or min(named, default=None)
    return (table.rows[chosen[1]], chosen[1]) if chosen else None


def _against_tables(ctx: RuleContext, parts: list[tuple[Section, list[_LogTable | StatedFold]]]) -> Iterator[Finding]:
    tables = [(section, item) for section, items in parts for item in items if isinstance(item, _LogTable)]
    for section, items in parts:
        for stated in items:
            if isinstance(stated, StatedFold):
                yield from _contradicted(ctx, section.blocks[stated.block], stated, tables)


def _contradicted(ctx: RuleContext, placed: PlacedBlock, stated: StatedFold, tables: list[tuple[Section, _LogTable]]) -> Iterator[Finding]:
    """The fold of the paragraph `placed` against the rows it names, each table read where its section holds it now."""
    for section, table in tables:
        named = _named_row(stated, table)
        if named is None:
            continue
        row, header = named
        shown = section.blocks[table.block]
        grid = Grid.of(shown.block.table)  # type: ignore[arg-type]  # a table block: its text parses the same
        cells = [cell for column, _ in table.columns if (cell := grid.numeric(row, column)) and cell.value is not None]
        bases = dict(table.columns)
        if not cells or any(stated.gives(cell.value or 0.0, cell.decimals, bases[cell.column]) for cell in cells):
            continue
        folds = tuple(
            f"{bases[cell.column]:g}^{abs(cell.value or 0.0):.{cell.decimals}f} = {bases[cell.column] ** abs(cell.value or 0.0):.3g}"
            for cell in cells
        )
        quote = " ".join(stated.sentence[stated.start : stated.end].split())
        violation = FoldNotInRow(quote, header, grid.table.label, folds)
        start, end = stated.offset + stated.start, stated.offset + stated.end
        evidence = Evidence(
            kind="moderate: a fold stated of a row of log fold changes",
            statements=[cell_statement(ctx, shown.file, grid, cell, "log fold change") for cell in cells],
            reason=f"the sentence names row {header}; base to the power of each of its log fold changes",
        )
        related = [ctx.related(shown.file, cell.start, cell.end, "log fold change of the row") for cell in cells]
        yield ctx.flag_block(violation, placed, start, end, related=related, evidence=evidence)


@rule(
    "NUM015",
    "fold-not-log-fold",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=_against_tables,
    placed_parts=True,  # tables and sentences by block index within the section
)
def fold_not_log_fold(ctx: RuleContext, section: Section) -> Iterator[_LogTable | StatedFold]:
    """## What it does
    Recomputes a fold change a sentence states of a gene (or any row) of a table that reports
    log fold changes: "HSPA6 shows a 256-fold increase", where the table gives HSPA6 an L2FC of
    5.73 (2^5.73 = 53). When no log fold change of the named row gives the stated fold, within
    the rounding of both, the sentence is flagged with the folds the row gives.

    ## Why is this bad?
    A fold change is the number a reader remembers. One that no column of the row gives quotes
    another comparison than the one the sentence names, or reads a log as a fold.

    ## Example
    ```latex
    HSPA6 shows a 256-fold increase in the caudate.
    % Symbol & L2FC \\\\  HSPA6 & 5.73
    ```

    ## Use instead
    ```latex
    HSPA6 shows a 53-fold increase in the caudate.
    ```

    ## Evidence
    "moderate: a fold stated of a row of log fold changes".

    ## Fix safety
    No fix: the sentence may quote the wrong comparison, or the table may.
    """
    for block, placed in enumerate(section.blocks):
        shown = shown_table(placed)
        if shown is not None and any(LOG_FOLD.search(cell.text) for row in shown.table.rows[: shown.table.header_rows] for cell in row):
            table = _log_table(block, Grid.of(shown.table))
            if table is not None:
                yield table
        if placed.kind in (BlockKind.PARAGRAPH, BlockKind.CAPTION) and _may_state_fold(text := placed.block.plain.text):
            for start, end in sentence_spans(text):
                for fold in FOLD.finditer(text[start:end]):
                    yield StatedFold.of(block, text[start:end], start, fold)
