"""TAB001: an Avg / Mean / Total row or column that its cells do not give.

## How it decides

Because an average often covers only some of the columns, every run of adjacent cells next to the
aggregate is tried before flagging; an aggregate row that closes a group of rows ("Video, Audio,
Overall" twice, for two conditions) may cover the rows since the previous aggregate row. In a
derived column (an "Imp. ×" or "Δ" column whose cells are the ratio or difference of two other
columns, row by row), the aggregate row may hold that ratio or difference of its own aggregates
instead. A sum printed negative ("− 2343" excluded) gives its parts' total as well. Tables ruled
with the author's own macros (`\\newcommand\\shline{…\\hline…}`) are split into header and body
like any other.

An aggregate line (an Avg column, or an Avg row) is trusted as a plain statistic of its cells
only when most of its cells add up: one that never does is taken for a weighted mean or a
statistic of values the table does not show, and is left alone. A line is also trusted when a
same-named aggregate of another table of its section (the "mean" column of the unseen-category
table beside the seen-category one) recomputes in three cells or more, every one: the authors
compute that aggregate plainly. Then every cell that misses its statistic by less than a tenth is
flagged, unless the caption calls the mean weighted; a cell further off is another statistic, not a
slip. Such a finding has its own evidence class, "moderate: a same-named aggregate of another
table recomputes, this one misses by little".
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cached_property

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...quantities import AGGREGATE_COLUMN_HEADER, slack, spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
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
_DISTRIBUTION_HEADER = DeferredPattern(r"^\W*(median|min|minimum|max|maximum|std|sd|s\.d\.|stdev|iqr|q1|q3)\b", re.IGNORECASE)


@violation_type
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
    cut after its places rather than rounded is read as such, `±std` parts are ignored, bold
    and `%` are read through, and empty cells are skipped. Which cells an aggregate covers,
    and when a line that mostly misses is still read, is told under "How it decides".

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
    lines = [line for placed in table_blocks(section) for line in _lines(placed, Grid.of(placed.block.table, rule_macros))]  # type: ignore[arg-type]
    recomputing = {(line.name, line.column_wise) for line in lines if line.recomputes()}
    for line in lines:
        sister = (line.name, line.column_wise) in recomputing and not line.recomputes()
        yield from _check_line(ctx, line, sister)


@record
class _Line:
    """One Avg column (or row) of a table: each aggregate cell with the cells of its row (or column)."""

    placed: PlacedBlock
    grid: Grid
    name: str  # the aggregate's header, folded: "mean"
    cells: list[tuple[Cell, list[Cell]]]
    column_wise: bool
    groups: Sequence[range]
    statistics: Sequence[Statistic]

    @classmethod
    def of(
        cls,
        placed: PlacedBlock,
        grid: Grid,
        header: str,
        line: list[tuple[Cell | None, list[Cell | None]]],
        column_wise: bool,
        groups: Sequence[range],
    ) -> _Line:
        cells = [(total, present) for total, peers in line if total is not None and len(present := [c for c in peers if c]) >= 2]
        name = " ".join(re.findall(r"\w+", header.casefold()))
        return cls(placed, grid, name, cells, column_wise, groups, statistics_of(header))

    @cached_property
    def verdicts(self) -> list[tuple[Cell, list[Cell], bool]]:
        return [(total, peers, adds_up(total, peers, self.column_wise, self.groups, self.statistics)) for total, peers in self.cells]

    def run(self, total: Cell, peers: list[Cell]) -> list[Cell]:
        """The cells the aggregate most likely covers; an aggregate row may close a group of rows."""
        return runs(total, peers, self.column_wise, self.groups if self.column_wise else ())[0]

    def recomputes(self) -> bool:
        """Three cells or more, every one the statistic of its cells: the table computes this aggregate plainly."""
        return len(self.verdicts) >= 3 and all(ok for *_, ok in self.verdicts)


def _lines(placed: PlacedBlock, grid: Grid) -> Iterator[_Line]:
    """Each Avg column against the other, non-aggregate columns of its row; each Avg row against the
    other, non-aggregate rows of its column."""
    rows, columns = grid.body_rows(), grid.columns()
    # "Mean, Median, Min, Max": a row describes values the table does not show.
    if sum(1 for column in columns if _DISTRIBUTION_HEADER.match(grid.own_header(column))) < 2:
        for column in columns:
            if AGGREGATE_COLUMN_HEADER.match(header := grid.own_header(column)):
                others = [c for c in columns if c != column and not AGGREGATE_COLUMN_HEADER.match(grid.own_header(c))]
                line = [(grid.numeric(row, column), [grid.numeric(row, c) for c in others]) for row in rows]
                yield _Line.of(placed, grid, header, line, column_wise=False, groups=grid.groups())
    aggregate_rows = [row for row in rows if is_aggregate_row(grid.row_header(row))]
    for row in aggregate_rows:
        # A Median or SD row beside the Mean describes the rows too: it is none of the values averaged.
        others = [r for r in rows if r not in aggregate_rows and not _DISTRIBUTION_HEADER.match(grid.row_header(r))]
        line = [
            (grid.numeric(row, column), [grid.numeric(r, column) for r in others])
            for column in columns
            if not derived_agrees(grid, row, column, others)
        ]
        # An aggregate row may close a group: it summarises the rows since the previous aggregate row.
        opened = max((r + 1 for r in aggregate_rows if r < row), default=grid.header_rows)
        yield _Line.of(placed, grid, grid.row_header(row), line, column_wise=True, groups=[range(opened, row)])


def _check_line(ctx: RuleContext, line: _Line, sister: bool) -> Iterator[Finding]:
    """Check every aggregate cell of one Avg column (or row); trust the line only if most of it adds up,
    or if a same-named aggregate of another table of the section recomputes in every cell (`sister`)
    and this one's cells miss theirs by little: a slip, not another statistic."""
    matches = sum(1 for *_, ok in line.verdicts if ok)
    wrong = [(total, peers) for total, peers, ok in line.verdicts if not ok]
    mostly = matches > 0 and len(wrong) <= max(1, matches // 2)
    slipped = sister and not _WEIGHTED.search(line.grid.table.caption or "") and all(_near(line, *cells) for cells in wrong)
    if not wrong or not (mostly or slipped):
        return  # an "Avg" that never adds up is weighted, or is not an aggregate at all
    kind = None if mostly else _SISTER  # None: the class of its confidence
    for aggregate, cells in wrong:
        yield _report_aggregate(ctx, line, aggregate, cells, matches, kind)


# A mean its table says is weighted: its cells alone do not give it.
_WEIGHTED = DeferredPattern(r"\bweighted\b", re.IGNORECASE)
_SISTER = "moderate: a same-named aggregate of another table recomputes, this one misses by little"


def _near(line: _Line, total: Cell, peers: list[Cell]) -> bool:
    """The aggregate within a tenth of the statistic its cells give: the same statistic, one value slipped."""
    values: list[float] = [cell.value for cell in line.run(total, peers)]  # type: ignore[misc]  # numeric cells
    exact = line.statistics[0].compute(values)
    return abs(exact - total.value) <= 0.1 * abs(exact)  # type: ignore[operator]  # a numeric cell


def _report_aggregate(ctx: RuleContext, line: _Line, total: Cell, peers: list[Cell], matches: int, kind: str | None) -> Finding:
    placed, grid, column_wise, statistics = line.placed, line.grid, line.column_wise, line.statistics
    chosen = line.run(total, peers)
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
        kind=kind or next(named for floor, named in _EVIDENCE if confidence >= floor),
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
