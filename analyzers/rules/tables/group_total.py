"""TAB005: a group of count rows (female, male) that does not give the sample size its table states (n)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation
from .model import Grid, author_rule_macros, cell_statement, count, label_columns, row_groups, row_label, size_rows, table_blocks


@dataclass(frozen=True)
class GroupMissesTotal(Violation):
    table: str | None  # its label
    column: str  # the column's header, as printed
    parts: tuple[tuple[str, str], ...]  # (row label, count as written)
    total_row: str
    total: str  # as written
    agreeing: str  # another column where the same rows give its total

    @property
    def message(self) -> str:
        name = f"Table {self.table}" if self.table else "a table"
        rows = ", ".join(label for label, _ in self.parts)
        addition = " + ".join(value for _, value in self.parts)
        given = sum(int(value.replace(",", "")) for _, value in self.parts)
        return (
            f"{name} (column {self.column}): rows {rows} give {addition} = {given:,}, but row {self.total_row} gives {self.total}"
            f" (in column {self.agreeing} the same rows give its {self.total_row})"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.column} {' '.join(value for _, value in self.parts)} {self.total}"


@rule("TAB005", "group-total-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION)
def group_total_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Adds up the counts of each group of rows that a table states beside its sample size: a row
    named n, N, Total, All or Sample size, and groups of rows set apart by rules or by a category
    label (Sex: female, male; Site: 1, 2, 3), as a sample-characteristics table lays them out.
    A group whose counts do not give the stated size in one column is flagged when the same
    rows do give it in another column (so the group is a partition of the sample, not a
    selection of it). Only whole counts are added; a group with an empty or non-count cell in
    the column is left alone.

    ## Why is this bad?
    A breakdown that does not add up to its sample means a count was mistyped or a participant
    went missing from one of the tables; either way a reader cannot tell which number is right.

    ## Example
    ```latex
          & MDD & HC  \\\\ \\hline
    n      & 934 & 934 \\\\ \\hline
    female & 556 & 548 \\\\
    male   & 378 & 368 \\\\
    ```

    ## Use instead
    ```latex
    female & 556 & 566 \\\\
    ```

    ## Evidence
    "strong: the same rows give the total in another column".

    ## Fix safety
    No fix: any of the counts may be the wrong one.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        for total_row in size_rows(grid):
            for group in (group for group in row_groups(grid, total_row) if len(group) >= 2):
                yield from _check_group(ctx, placed, grid, total_row, group)


def _check_group(ctx: RuleContext, placed: PlacedBlock, grid: Grid, total_row: int, group: list[int]) -> Iterator[Finding]:
    """Each column where the group's counts miss the total, when another column shows the group adds up."""
    given: dict[int, tuple[Cell, list[Cell]]] = {}
    for column in grid.columns():
        total = count(grid, total_row, column)
        parts = [part for row in group if (part := count(grid, row, column)) is not None]
        if total is not None and len(parts) == len(group):
            given[column] = (total, parts)
    agreeing = [column for column, (total, parts) in given.items() if sum(part.value for part in parts) == total.value]  # type: ignore[misc]
    if not agreeing:
        return  # the group is not a partition of the sample: a selection, or categories that overlap
    for column, (total, parts) in given.items():
        if column not in agreeing:
            yield _report(ctx, placed, grid, total_row, total, parts, agreeing[0])


def _report(ctx: RuleContext, placed: PlacedBlock, grid: Grid, total_row: int, total: Cell, parts: list[Cell], agreeing: int) -> Finding:
    printed = ctx.index.printed
    label = printed(row_label(grid, total_row))
    violation = GroupMissesTotal(
        placed.block.table.label,  # type: ignore[union-attr]
        printed(grid.column_name(total.column)),
        tuple((printed(row_label(grid, part.row, label_columns(grid, total_row))), part.text.strip()) for part in parts),
        label,
        total.text.strip(),
        printed(grid.column_name(agreeing)),
    )

    evidence = Evidence(
        kind="strong: the same rows give the total in another column",
        statements=[cell_statement(ctx, placed.file, grid, cell, "count", row_label(grid, cell.row)) for cell in (total, *parts)],
        reason=f"the parts add up to {int(sum(part.value for part in parts)):,}",  # type: ignore[misc]
    )
    return ctx.flag(
        violation,
        placed.file,
        parts[0].start,
        parts[-1].end,
        related=[ctx.related(placed.file, total.start, total.end, f"stated {label}")],
        evidence=evidence,
    )
