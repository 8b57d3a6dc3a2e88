"""TAB001: an Avg / Mean / Total row or column that its cells do not give."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...quantities import AGGREGATE_COLUMN_HEADER, AGGREGATE_HEADER, slack, spelled
from ...registry import Scope, rule
from ...violation import Violation
from .model import Grid, adds_up, author_rule_macros, derived_agrees, runs, table_blocks


@dataclass(frozen=True)
class AggregateMismatch(Violation):
    table: str | None  # its label
    where: str  # "row Avg", "column Mean"
    aggregate: str  # the cell as written
    cells: int
    mean: str
    sum: str

    @property
    def message(self) -> str:
        name = f"Table {self.table}" if self.table else "a table"
        return (
            f"{name} ({self.where}) gives the aggregate {self.aggregate}, but the mean of its {self.cells} cells is {self.mean}"
            f" and their sum is {self.sum}"
        )

    @property
    def fix_title(self) -> str:
        return f"Replace with the recomputed mean {self.mean}"

    @property
    def identity(self) -> str:
        return f"{self.table} {self.aggregate} {self.mean}"


@rule(
    "TAB001", "table-aggregate-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION
)
def table_aggregate_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes the cells of an Avg / Average / Mean / Overall / Total / Sum row or column
    (a column also when its header names the aggregate of a measure: "Overall Error Rate",
    "Mean F1 (%)") and flags one that equals neither the mean nor the sum of the cells it
    summarises.
    Rounding of every cell is allowed for, `±std` parts are ignored, bold and `%` are read
    through, and empty cells are skipped. Because an average often covers only some of the
    columns, every run of adjacent cells next to the aggregate is tried before flagging; an
    aggregate row that closes a group of rows ("Video, Audio, Overall" twice, for two
    conditions) may cover the rows since the previous aggregate row.
    In a derived column (an "Imp. ×" or "Δ" column whose cells are the ratio or difference
    of two other columns, row by row), the aggregate row may hold that ratio or difference
    of its own aggregates instead. Tables ruled with the author's own macros
    (`\\newcommand\\shline{…\\hline…}`) are split into header and body like any other.

    ## Why is this bad?
    An altered average is the cheapest way to inflate a result: readers look at the last
    column, not at the arithmetic. PaperAudit plants exactly this ("Table 7 average altered
    without split changes"); it is evidence manipulation.

    ## Example
    ```latex
    Method & A & B & Avg \\\\ \\midrule
    Ours   & 80.0 & 90.0 & 87.0 \\\\
    ```

    ## Use instead
    ```latex
    Ours   & 80.0 & 90.0 & 85.0 \\\\
    ```

    ## Confidence
    0.95 for a header that names the kind (Avg, Average, Mean, Total, Sum), times 0.8 for
    "Overall" (often a pooled figure, not a mean of the cells shown); times 0.8 when only one
    other aggregate of the same line adds up (little evidence the line is a plain mean); times
    0.85 for a near miss (within twice the rounding allowance). Below 0.7 the finding is
    information.

    ## Fix safety
    The fix writes the recomputed mean of all the cells beside the aggregate. It is unsafe:
    the average may be weighted or cover other columns, and a wrong average may mean a
    wrong cell.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        rows, columns = grid.body_rows(), grid.columns()
        for column in columns:
            if AGGREGATE_COLUMN_HEADER.match(grid.own_header(column)):
                others = [c for c in columns if c != column and not AGGREGATE_COLUMN_HEADER.match(grid.own_header(c))]
                line = [(grid.numeric(row, column), [grid.numeric(row, c) for c in others]) for row in rows]
                yield from _check_line(ctx, placed, grid, line, column_wise=False, groups=grid.groups())
        aggregate_rows = [row for row in rows if AGGREGATE_HEADER.match(grid.row_header(row))]
        for row in aggregate_rows:
            others = [r for r in rows if r not in aggregate_rows]
            line = [
                (grid.numeric(row, column), [grid.numeric(r, column) for r in others])
                for column in columns
                if not derived_agrees(grid, row, column, others)
            ]
            # An aggregate row may close a group: it summarises the rows since the previous aggregate row.
            opened = max((r + 1 for r in aggregate_rows if r < row), default=grid.header_rows)
            yield from _check_line(ctx, placed, grid, line, column_wise=True, groups=[range(opened, row)])


def _check_line(
    ctx: RuleContext,
    placed: PlacedBlock,
    grid: Grid,
    line: list[tuple[Cell | None, list[Cell | None]]],
    column_wise: bool,
    groups: Sequence[range] = (),
) -> Iterator[Finding]:
    """Check every aggregate cell of one Avg column (or row); trust the line only if most of it adds up."""
    verdicts = []
    for total, peers in line:
        present = [cell for cell in peers if cell is not None]
        if total is not None and len(present) >= 2:
            verdicts.append((total, present, adds_up(total, present, column_wise, groups)))
    matches = sum(1 for *_, ok in verdicts if ok)
    wrong = [(total, peers) for total, peers, ok in verdicts if not ok]
    if not wrong or matches == 0 or len(wrong) > max(1, matches // 2):
        return  # an "Avg" that never adds up is weighted, or is not an aggregate at all
    for aggregate, cells in wrong:
        yield _report_aggregate(ctx, placed, grid, aggregate, cells, column_wise, matches, groups if column_wise else ())


def _report_aggregate(
    ctx: RuleContext,
    placed: PlacedBlock,
    grid: Grid,
    total: Cell,
    peers: list[Cell],
    column_wise: bool,
    matches: int,
    closed: Sequence[range] = (),
) -> Finding:
    chosen = runs(total, peers, column_wise, closed)[0]
    mean = sum(cell.value for cell in chosen) / len(chosen)  # type: ignore[misc]
    table = placed.block.table
    assert table is not None  # only table blocks are checked
    header = grid.row_header(total.row) if not column_wise else grid.own_header(total.column)
    where = f"row {header}" if not column_wise else f"column {header}"
    recomputed = spelled(mean, total.decimals)
    total_of_cells = spelled(sum(cell.value for cell in chosen), total.decimals)  # type: ignore[misc]
    violation = AggregateMismatch(table.label, ctx.index.printed(where), total.text, len(chosen), recomputed, total_of_cells)
    return ctx.flag(
        violation,
        placed.file,
        total.start,
        total.end,
        edits=[ctx.edit(placed.file, *_number_span(ctx, placed.file, total), recomputed)],
        related=[ctx.related(placed.file, chosen[0].start, chosen[-1].end, "the cells it summarises")],
        # The aggregate's own name: an Avg column's header, an Avg row's header (not where the cell sits).
        confidence=_aggregate_confidence(grid.own_header(total.column) if not column_wise else header, total, chosen, matches),
    )


def _aggregate_confidence(header: str, total: Cell, chosen: list[Cell], matches: int) -> float:
    """See TAB001's "## Confidence"."""
    confidence = 0.95
    if re.match(r"^\W*overall\b", header, re.IGNORECASE):
        confidence *= 0.8
    if matches < 2:
        confidence *= 0.8
    values = [cell.value for cell in chosen]
    allowance = slack(total.decimals) + max(slack(cell.decimals) for cell in chosen)
    miss = min(abs(sum(values) / len(values) - total.value), abs(sum(values) - total.value))  # type: ignore[arg-type, operator]
    if miss <= 2 * allowance:
        confidence *= 0.85
    return round(confidence, 3)


def _number_span(ctx: RuleContext, file: str, cell: Cell) -> tuple[int, int]:
    """The source span of the cell's main number, for a fix that keeps its decoration."""
    match = re.search(re.escape(spelled(cell.value, cell.decimals)), ctx.source(file).text[cell.start : cell.end])  # type: ignore[arg-type]
    return (cell.start + match.start(), cell.start + match.end()) if match else (cell.start, cell.end)
