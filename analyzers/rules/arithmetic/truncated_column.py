"""ARI007: a computed column (share, ratio, step) whose values are cut after their last digit instead of rounded."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import Grid, author_rule_macros, cell_statement, table_blocks
from .columns import Fit, Outcome, Series, best, is_share_column, names_change, pair_fits, series_of, share_fits, step_fits
from .table_report import MissedRow


@violation_type
class ColumnTruncated(Violation):
    first: MissedRow  # the first row whose value only truncation gives
    truncated: int  # how many rows only truncation gives

    @property
    def message(self) -> str:
        first = self.first
        table = f"Table {first.table}" if first.table else "a table"
        return (
            f"{table} (column {first.column}) cuts its values instead of rounding them: {self.truncated} rows "
            f"print the computed value truncated (row {first.row}: {first.formula} is {first.recomputed}, printed {first.written})"
        )

    @property
    def identity(self) -> str:
        return f"{self.first.table} {self.first.column} truncated"


@rule("ARI007", "truncated-column", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION)
def truncated_column(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Finds a computed column (a percentage of two count columns, a Δ or ratio column of two
    columns of its row, a step from the row above) whose printed values are the computed
    values cut after their last digit rather than rounded: two rows or more that only
    truncation gives, and no row that only rounding gives. Every input is taken as the
    interval its own rounding leaves, so only a value that no rounding of the inputs allows
    counts as truncated.

    ## Why is this bad?
    A truncated value is biased downwards by up to a whole unit of its last place (2.18 printed
    2.1×, 0.607% printed 0.60%), and a reader who recomputes a cell finds it wrong; the table
    should say it truncates, or round.

    ## Example
    ```latex
    Project & Ours  & Baseline & Imp. \\\\
    Ant     & 0.517 & 0.237    & 2.1$\\times$ \\\\
    Columba & 0.601 & 0.264    & 2.2$\\times$ \\\\
    JRuby   & 0.783 & 0.620    & 1.2$\\times$ \\\\
    ```

    ## Use instead
    ```latex
    Ant     & 0.517 & 0.237    & 2.2$\\times$ \\\\
    Columba & 0.601 & 0.264    & 2.3$\\times$ \\\\
    JRuby   & 0.783 & 0.620    & 1.3$\\times$ \\\\
    ```

    ## Evidence
    "moderate: two rows or more only truncated", reported once per column, on its first truncated row.

    ## Fix safety
    No fix: the column's rows are rounded one by one.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        columns = series_of(grid)
        for target in columns:
            found = _computed_as(grid, target, columns)
            if found is None or not found.truncates():
                continue
            rows = found.rows(Outcome.TRUNCATED)
            first = MissedRow.of(ctx, grid, found, rows[0])
            cell = found.series.values[rows[0]].cell
            evidence = Evidence(
                kind="moderate: two rows or more only truncated",
                statements=[cell_statement(ctx, placed.file, grid, found.series.values[row].cell) for row in rows],
                reason=f"{len(rows)} rows give the {found.formula.name} cut, none only rounded",
            )
            yield ctx.flag(ColumnTruncated(first, len(rows)), placed.file, cell.start, cell.end, evidence=evidence)


def _computed_as(grid: Grid, target: Series, columns: Sequence[Series]) -> Fit | None:
    """How the column is computed, if it is: from its row's columns, else from the row above, else a share."""
    if names_change(grid, target):
        return best(pair_fits(target, columns)) or best(step_fits(grid, target, columns))
    return best(share_fits(target, columns)) if is_share_column(grid, target) else None
