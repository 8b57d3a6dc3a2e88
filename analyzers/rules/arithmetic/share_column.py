"""ARI005: a percentage column whose cell in one row is not the share of the two count columns the other rows divide."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import Scope, rule
from ..tables.model import Grid, author_rule_macros, table_blocks
from .columns import is_share_column, series_of, share_fits
from .table_report import MissedRowViolation, report_breaks


@record
class ShareCellMismatch(MissedRowViolation):
    computed = "share"


@rule("ARI005", "share-column-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION)
def share_column_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes a column of percentages (headed "%", "percent", "share", "proportion", or
    whose cells are percentages, and the shares in "131 (0.60)" cells) from the two count
    columns it divides: when three rows or more and two in three (or five rows or more and most rows) give the
    percentage as one count column over another, a row that gives neither the rounded nor
    the truncated share is flagged. Each count is exact and the percentage may be rounded to
    its places; aggregate rows (Average, Total) are left alone, and so is a row that another
    pair of count columns explains.

    ## Why is this bad?
    A reader takes the percentage and skips the counts. A share that its own row's counts do
    not give is a slip in the count or in the percentage, and one of them is reported wrongly.

    ## Example
    ```latex
    Project & Files & Long method & \\% \\\\
    Ant     & 73    & 57          & 78.1 \\\\
    JEdit   & 108   & 74          & 68.5 \\\\
    JRuby   & 163   & 107         & 65.5 \\\\
    ```

    ## Use instead
    ```latex
    JRuby   & 163   & 107         & 65.6 \\\\
    ```

    ## Evidence
    "strong: four rows or more give the share" when four rows or more follow it; "moderate: three
    rows give the share" otherwise; "moderate: most rows give the share, over a third do not" when
    five rows or more follow it but fewer than two in three.

    ## Fix safety
    No fix: the wrong number may be either count.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        columns = series_of(grid)
        for target in columns:
            if not is_share_column(grid, target):
                continue
            yield from report_breaks(ctx, placed, grid, share_fits(target, columns), ShareCellMismatch, "give the share")
