"""ARI009: an Overall row of a table that gives its groups' sizes, with a cell that is neither the size-weighted mean, the mean nor the sum of its groups' cells."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import Grid, author_rule_macros, cell_statement, signed, table_blocks
from .pooled import Pooled, pooled_rows


@violation_type
class PooledCellMismatch(Violation):
    table: str | None  # its label
    row: str
    column: str
    written: str
    weighted: str
    mean: str
    groups: int

    @property
    def message(self) -> str:
        table = f"Table {self.table}" if self.table else "a table"
        return (
            f"{table} (row {self.row}, column {self.column}) gives {self.written}, but the mean of its {self.groups} groups"
            f" weighted by their sizes is {self.weighted} (unweighted {self.mean}), as the row's other columns are"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.row} {self.column} {self.written}"


@rule("ARI009", "pooled-row-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION)
def pooled_row_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes an Overall / All / Total row of a table that gives each group's size (a column
    headed n, #, Count, Size, Samples, …) when the row pools the groups: its size is the sum of
    the sizes above it, and two of its other cells or more are the mean of the groups' cells
    weighted by their sizes (one of them not also the plain mean). A cell of that row that is
    neither the weighted mean, the plain mean nor the sum of its column's group cells, within
    the rounding of every cell, is flagged.

    ## Why is this bad?
    The pooled row is the number a paper quotes. One that matches neither the mean nor the mean
    weighted by the group sizes the same table gives was computed over other items, or one of
    the cells is mistyped.

    ## Example
    ```latex
    Split   & n   & Accuracy & F1   \\\\
    Easy    & 300 & 90.0     & 88.0 \\\\
    Hard    & 100 & 70.0     & 60.0 \\\\
    Overall & 400 & 85.0     & 74.0 \\\\
    ```

    ## Use instead
    ```latex
    Overall & 400 & 85.0     & 81.0 \\\\
    ```

    ## Evidence
    "moderate: the row's other cells are size-weighted means".

    ## Fix safety
    No fix: a group's cell may be the wrong one.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        for pooled_row in pooled_rows(grid):
            if not pooled_row.pools_by_size():
                continue
            for pooled in pooled_row.cells:
                if not pooled.matches_any():
                    yield _report(ctx, placed.file, grid, pooled)


def _report(ctx: RuleContext, file: str, grid: Grid, pooled: Pooled) -> Finding:
    printed = ctx.index.printed
    cell = pooled.cell
    violation = PooledCellMismatch(
        grid.table.label,
        printed(grid.row_header(cell.row)),
        printed(grid.column_name(cell.column)),
        " ".join(cell.text.split()),
        signed(pooled.weighted, cell.decimals),
        signed(pooled.mean, cell.decimals),
        len(pooled.groups),
    )
    evidence = Evidence(
        kind="moderate: the row's other cells are size-weighted means",
        statements=[cell_statement(ctx, file, grid, cell)] + [cell_statement(ctx, file, grid, value, "input") for value in pooled.groups],
        reason=f"weighted mean {pooled.weighted:.4g}, mean {pooled.mean:.4g}, sum {pooled.total:.4g}",
    )
    first, last = pooled.groups[0], pooled.groups[-1]
    return ctx.flag(
        violation, file, cell.start, cell.end, related=[ctx.related(file, first.start, last.end, "the groups' cells")], evidence=evidence
    )
