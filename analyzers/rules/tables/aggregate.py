"""TAB001: an Avg / Mean / Total row or column that its cells do not give."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...quantities import AGGREGATE_COLUMN_HEADER, slack, spelled
from ...registry import Scope, rule
from ...violation import Violation
from .model import (
    Grid,
    Statistic,
    adds_up,
    author_rule_macros,
    derived_agrees,
    is_aggregate_row,
    runs,
    signed,
    statistics_of,
    table_blocks,
)

# The other statistics of a distribution: a Mean column beside two of them is one more of its statistics.
_DISTRIBUTION_HEADER = re.compile(r"^\W*(median|min|minimum|max|maximum|std|sd|s\.d\.|stdev|iqr|q1|q3)\b", re.IGNORECASE)


@dataclass(frozen=True)
class AggregateMismatch(Violation):
    table: str | None  # its label
    where: str  # "row Avg", "column Mean"
    aggregate: str  # the cell as written
    cells: int
    recomputed: tuple[tuple[str, str], ...]  # (statistic, value): what the aggregate most likely is first

    @property
    def message(self) -> str:
        name = f"Table {self.table}" if self.table else "a table"
        (first, value), *others = self.recomputed
        also = "".join(f" and their {statistic} is {other}" for statistic, other in others)
        return f"{name} ({self.where}) gives the aggregate {self.aggregate}, but the {first} of its {self.cells} cells is {value}{also}"

    @property
    def fix_title(self) -> str:
        return "Replace with the recomputed {} {}".format(*self.recomputed[0])

    @property
    def identity(self) -> str:
        return f"{self.table} {self.aggregate} {self.recomputed[0][1]}"


@rule(
    "TAB001", "table-aggregate-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION
)
def table_aggregate_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes the cells of an Avg / Average / Mean / Overall / Total / Sum row or column
    (a column also when its header names the aggregate of a measure: "Overall Error Rate",
    "Mean F1 (%)") and flags one that equals neither the mean nor the sum of the cells it
    summarises; a row named for an error measure (MAE, RMSE) is the mean of the absolute
    values or the root mean square of the signed errors above it (or their mean).
    Rounding of every cell is allowed for (of many cells, the four standard deviations their
    independent roundings leave, not the worst case of all rounded one way), an aggregate
    cut after its places rather than rounded is read as such, `±std` parts are
    ignored, bold and `%` are read through, and empty cells are skipped. Because an average often covers only some of the
    columns, every run of adjacent cells next to the aggregate is tried before flagging; an
    aggregate row that closes a group of rows ("Video, Audio, Overall" twice, for two
    conditions) may cover the rows since the previous aggregate row.
    In a derived column (an "Imp. ×" or "Δ" column whose cells are the ratio or difference
    of two other columns, row by row), the aggregate row may hold that ratio or difference
    of its own aggregates instead. A sum printed negative ("− 2343" excluded) gives its parts'
    total as well. Tables ruled with the author's own macros
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
    0.85 for a near miss (within twice the rounding allowance).

    ## Evidence
    "strong: a named aggregate whose line otherwise adds up" at 0.9 or more; "moderate: …" for
    one doubt (0.7 or more), "weak: …" for two. Severity follows the class's measured precision.

    ## Fix safety
    The fix writes the recomputed statistic (the mean; the sum of a Total; the mean of the
    absolute values of an MAE) of the cells it was compared with. It is unsafe:
    the average may be weighted or cover other columns, and a wrong average may mean a
    wrong cell.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        yield from _aggregate_columns(ctx, placed, grid)
        yield from _aggregate_rows(ctx, placed, grid)


def _aggregate_columns(ctx: RuleContext, placed: PlacedBlock, grid: Grid) -> Iterator[Finding]:
    """Each Avg column against the other, non-aggregate columns of its row."""
    rows, columns = grid.body_rows(), grid.columns()
    if sum(1 for column in columns if _DISTRIBUTION_HEADER.match(grid.own_header(column))) >= 2:
        return  # "Mean, Median, Min, Max": a row describes values the table does not show
    for column in columns:
        if AGGREGATE_COLUMN_HEADER.match(grid.own_header(column)):
            others = [c for c in columns if c != column and not AGGREGATE_COLUMN_HEADER.match(grid.own_header(c))]
            line = [(grid.numeric(row, column), [grid.numeric(row, c) for c in others]) for row in rows]
            statistics = statistics_of(grid.own_header(column))
            yield from _check_line(ctx, placed, grid, line, column_wise=False, groups=grid.groups(), statistics=statistics)


def _aggregate_rows(ctx: RuleContext, placed: PlacedBlock, grid: Grid) -> Iterator[Finding]:
    """Each Avg row against the other, non-aggregate rows of its column."""
    rows, columns = grid.body_rows(), grid.columns()
    aggregate_rows = [row for row in rows if is_aggregate_row(grid.row_header(row))]
    for row in aggregate_rows:
        others = [r for r in rows if r not in aggregate_rows]
        line = [
            (grid.numeric(row, column), [grid.numeric(r, column) for r in others])
            for column in columns
            if not derived_agrees(grid, row, column, others)
        ]
        # An aggregate row may close a group: it summarises the rows since the previous aggregate row.
        opened = max((r + 1 for r in aggregate_rows if r < row), default=grid.header_rows)
        statistics = statistics_of(grid.row_header(row))
        yield from _check_line(ctx, placed, grid, line, column_wise=True, groups=[range(opened, row)], statistics=statistics)


def _check_line(
    ctx: RuleContext,
    placed: PlacedBlock,
    grid: Grid,
    line: list[tuple[Cell | None, list[Cell | None]]],
    column_wise: bool,
    groups: Sequence[range],
    statistics: Sequence[Statistic],
) -> Iterator[Finding]:
    """Check every aggregate cell of one Avg column (or row); trust the line only if most of it adds up."""
    verdicts = []
    for total, peers in line:
        present = [cell for cell in peers if cell is not None]
        if total is not None and len(present) >= 2:
            verdicts.append((total, present, adds_up(total, present, column_wise, groups, statistics)))
    matches = sum(1 for *_, ok in verdicts if ok)
    wrong = [(total, peers) for total, peers, ok in verdicts if not ok]
    if not wrong or matches == 0 or len(wrong) > max(1, matches // 2):
        return  # an "Avg" that never adds up is weighted, or is not an aggregate at all
    for aggregate, cells in wrong:
        yield _report_aggregate(ctx, placed, grid, aggregate, cells, column_wise, matches, statistics, groups if column_wise else ())


def _report_aggregate(
    ctx: RuleContext,
    placed: PlacedBlock,
    grid: Grid,
    total: Cell,
    peers: list[Cell],
    column_wise: bool,
    matches: int,
    statistics: Sequence[Statistic],
    closed: Sequence[range] = (),
) -> Finding:
    chosen = runs(total, peers, column_wise, closed)[0]
    values: list[float] = [cell.value for cell in chosen]  # type: ignore[misc]  # numeric cells
    table = placed.block.table
    assert table is not None  # only table blocks are checked
    header = grid.row_header(total.row) if not column_wise else grid.own_header(total.column)
    where = f"row {header}" if not column_wise else f"column {header}"
    recomputed = tuple((statistic.name, signed(statistic.compute(values), total.decimals)) for statistic in statistics)
    violation = AggregateMismatch(table.label, ctx.index.printed(where), total.text, len(chosen), recomputed)
    # The aggregate's own name: an Avg column's header, an Avg row's header (not where the cell sits).
    confidence = _aggregate_confidence(grid.own_header(total.column) if not column_wise else header, total, chosen, matches, statistics)
    evidence = Evidence(
        kind=next(kind for floor, kind in _EVIDENCE if confidence >= floor),
        statements=[
            Statement(
                file=placed.file, range=ctx.range(placed.file, total.start, total.end), quote=total.text, subject=where, role="result"
            )
        ],
        reason="; ".join(f"the {name} of the {len(chosen)} cells is {value}" for name, value in recomputed),
    )
    return ctx.flag(
        violation,
        placed.file,
        total.start,
        total.end,
        edits=[ctx.edit(placed.file, *_number_span(ctx, placed.file, total), recomputed[0][1])],
        related=[ctx.related(placed.file, chosen[0].start, chosen[-1].end, "the cells it summarises")],
        confidence=confidence,
        evidence=evidence,
    )


# The evidence class of a confidence (see "## Confidence"): how many of its doubts a finding has.
_EVIDENCE = (
    (0.9, "strong: a named aggregate whose line otherwise adds up"),
    (0.7, "moderate: an Overall, a near miss, or one other aggregate of its line adds up"),
    (0.0, "weak: two doubts of an Overall, a near miss, one other aggregate adds up"),
)


def _aggregate_confidence(header: str, total: Cell, chosen: list[Cell], matches: int, statistics: Sequence[Statistic]) -> float:
    """See TAB001's "## Confidence"."""
    confidence = 0.95
    if re.match(r"^\W*overall\b", header, re.IGNORECASE):
        confidence *= 0.8
    if matches < 2:
        confidence *= 0.8
    values: list[float] = [cell.value for cell in chosen]  # type: ignore[misc]  # numeric cells
    allowance = slack(total.decimals) + max(slack(cell.decimals) for cell in chosen)
    miss = min(abs(statistic.compute(values) - total.value) for statistic in statistics)  # type: ignore[operator]
    if miss <= 2 * allowance:
        confidence *= 0.85
    return round(confidence, 3)


def _number_span(ctx: RuleContext, file: str, cell: Cell) -> tuple[int, int]:
    """The source span of the cell's main number, for a fix that keeps its decoration."""
    match = re.search(re.escape(spelled(cell.value, cell.decimals)), ctx.source(file).text[cell.start : cell.end])  # type: ignore[arg-type]
    return (cell.start + match.start(), cell.start + match.end()) if match else (cell.start, cell.end)
