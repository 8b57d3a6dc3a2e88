"""ARI006: a Δ column whose cell in one row is not the change from the row above that its other rows give."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import Scope, rule
from ..tables.model import Grid, author_rule_macros, table_blocks
from .columns import names_change, pair_fits, series_of, step_fits
from .table_report import MissedRowViolation, report_breaks


@record
class StepCellMismatch(MissedRowViolation):
    computed = "change from the row above"


@rule("ARI006", "step-column-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION)
def step_column_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes a column headed as a change ("Δ between iterations", "Gain", "Diff.") whose
    cells are the change of another column from the row above: its difference, or its relative
    change in percent. When three rows or more and two in three (or five rows or more and most rows) follow the same
    change of the same column, a row that does not is flagged with the value the change gives.
    Rounding of all the numbers is allowed for; a column that a derivation of two columns of
    its own row explains (TAB004 reads those) is left alone, and so is a row another column's
    change explains.

    ## Why is this bad?
    A column of steps is what a reader scans for where the gain stops. A step that the values
    it sits between do not give misreports the trend, or one of the values is wrong.

    ## Example
    ```latex
    Iteration & F1    & $\\Delta$ \\\\
    1         & 0.718 & -     \\\\
    2         & 0.856 & 0.138 \\\\
    3         & 0.924 & 0.068 \\\\
    4         & 0.912 & -0.012 \\\\
    5         & 0.963 & 0.029 \\\\
    ```

    ## Use instead
    ```latex
    5         & 0.963 & 0.051 \\\\
    ```

    ## Evidence
    "strong: four rows or more give the step" when four rows or more follow it; "moderate: three
    rows give the step" otherwise; "moderate: most rows give the step, over a third do not" when
    five rows or more follow it but fewer than two in three.

    ## Fix safety
    No fix: the wrong number may be either value the step is taken between.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        columns = series_of(grid)
        for target in columns:
            if target.in_cell_share or not names_change(grid, target) or pair_fits(target, columns):
                continue  # not headed as a change, or a derivation of its own row's columns: not a step
            yield from report_breaks(ctx, placed, grid, step_fits(grid, target, columns), StepCellMismatch, "give the step")
