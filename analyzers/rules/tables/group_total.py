"""TAB005: a group of count rows (female, male), or a dataset's split columns (train, test), that do not give the size its table states (n).

## How it decides

Rows: see the check's page. Columns: a dataset table gives each dataset's size ("N", "Total",
"# Samples", "Size") beside the sizes of its splits (columns whose header names training,
validation, development or test data and that hold counts). In a row, the splits partition the
dataset, so they must add up to its size. A split larger than the size is resampled or augmented
(no part of it), and a row where some of the splits alone give the size (validation carved out of
training) adds up; a row whose splits miss the size by more than a twentieth counts something
else (a pool the splits are drawn from, sentences against documents) and is left alone. What is
left is a size that its splits miss by a few items: a mistyped count, or a split that lost or
gained rows. Such a finding's class is "moderate: the splits of a dataset miss its size by little".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import combinations

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import Grid, author_rule_macros, cell_statement, count, label_columns, row_groups, row_label, size_rows, table_blocks


@violation_type
class _CountsMissTotal(Violation):
    """Counts written beside the total they should make up, and do not."""

    table: str | None  # its label
    parts: tuple[tuple[str, str], ...]  # (what names the count, the count as written)

    @property
    def named(self) -> str:
        return f"Table {self.table}" if self.table else "a table"

    @property
    def addition(self) -> str:
        given = sum(int(value.replace(",", "")) for _, value in self.parts)
        return f"{' + '.join(value for _, value in self.parts)} = {given:,}"

    @property
    def values(self) -> str:
        return " ".join(value for _, value in self.parts)


@record
class GroupMissesTotal(_CountsMissTotal):
    column: str  # the column's header, as printed
    total_row: str
    total: str  # as written
    agreeing: str  # another column where the same rows give its total

    @property
    def message(self) -> str:
        rows = ", ".join(label for label, _ in self.parts)
        return (
            f"{self.named} (column {self.column}): rows {rows} give {self.addition}, but row {self.total_row} gives {self.total}"
            f" (in column {self.agreeing} the same rows give its {self.total_row})"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.column} {self.values} {self.total}"


@record
class SplitsMissSize(_CountsMissTotal):
    row: str
    column: str  # the size's column
    size: str  # as written

    @property
    def message(self) -> str:
        columns = " + ".join(column for column, _ in self.parts)
        return f"{self.named} (row {self.row}): {columns} give {self.addition}, but column {self.column} gives {self.size}"

    @property
    def identity(self) -> str:
        return f"{self.table} {self.row} {self.values} {self.size}"


@rule("TAB005", "group-total-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION)
def group_total_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Adds up the counts of each group of rows that a table states beside its sample size: a row
    named n, N, Total, All or Sample size, and groups of rows set apart by rules or by a category
    label (Sex: female, male; Site: 1, 2, 3), as a sample-characteristics table lays them out.
    A group whose counts do not give the stated size in one column is flagged when the same
    rows do give it in another column (so the group is a partition of the sample, not a
    selection of it). Only whole counts are added; a group with an empty or non-count cell in
    the column is left alone. A dataset's training, validation and test columns are added up
    against its size column the same way, row by row ("How it decides").

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
    "strong: the same rows give the total in another column"; "moderate: the splits of a dataset
    miss its size by little" for split columns.

    ## Fix safety
    No fix: any of the counts may be the wrong one.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        for total_row in size_rows(grid):
            for group in (group for group in row_groups(grid, total_row) if len(group) >= 2):
                yield from _check_group(ctx, placed, grid, total_row, group)
        yield from _check_splits(ctx, placed, grid)


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
        tuple((printed(row_label(grid, part.row, label_columns(grid, total_row))), part.text.strip()) for part in parts),
        printed(grid.column_name(total.column)),
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


# A column of a dataset's split ("Train", "Validation", "Dev", "Test set size") and one of its size ("N", "# Samples");
# a "Total" column is TAB001's to add up.
_SPLIT_COLUMN = DeferredPattern(r"\b(?:train(?:ing)?|val(?:id(?:ation)?)?|dev(?:elopment)?|test(?:ing)?)\b", re.IGNORECASE)
_SIZE_COLUMN = DeferredPattern(
    r"^\W*(?:n|size|(?:#\s*|no\.\s*(?:of\s+)?|number\s+of\s+)?"
    r"(?:samples|examples|instances|images|sentences|documents|records|items|pairs|utterances|observations))\W*$",
    re.IGNORECASE,
)


def _check_splits(ctx: RuleContext, placed: PlacedBlock, grid: Grid) -> Iterator[Finding]:
    """Each row whose split columns miss its size column by a few items (see "How it decides")."""
    counted = [column for column in grid.columns() if any(count(grid, row, column) for row in grid.body_rows())]
    splits = [column for column in counted if _SPLIT_COLUMN.search(grid.column_header(column))]
    sizes = [column for column in counted if column not in splits and _SIZE_COLUMN.match(grid.column_header(column))]
    if len(splits) < 2 or len(sizes) != 1:
        return
    for row in grid.body_rows():
        size = count(grid, row, sizes[0])
        parts = [part for column in splits if (part := count(grid, row, column)) is not None]
        if size is None or len(parts) != len(splits) or any(part.value >= size.value for part in parts):  # type: ignore[operator]
            continue  # a split missing, or resampled beyond the dataset
        values: list[float] = [part.value for part in parts]  # type: ignore[misc]  # counts
        subsets = (chosen for length in range(2, len(values) + 1) for chosen in combinations(values, length))
        if any(sum(chosen) == size.value for chosen in subsets) or abs(sum(values) - size.value) > size.value / 20:  # type: ignore[operator]
            continue
        yield _report_splits(ctx, placed, grid, row, size, parts)


def _report_splits(ctx: RuleContext, placed: PlacedBlock, grid: Grid, row: int, size: Cell, parts: list[Cell]) -> Finding:
    def printed(text: str) -> str:  # a header as a reader sees it: "N~~~~" is "N"
        return " ".join(ctx.index.printed(text).replace("~", " ").split())

    label = printed(row_label(grid, row))
    column = printed(grid.column_name(size.column))
    written = tuple((printed(grid.column_name(part.column)), part.text.strip()) for part in parts)
    evidence = Evidence(
        kind="moderate: the splits of a dataset miss its size by little",
        statements=[cell_statement(ctx, placed.file, grid, cell, "count", label) for cell in (size, *parts)],
        reason=f"the splits add up to {int(sum(part.value for part in parts)):,}",  # type: ignore[misc]
    )
    violation = SplitsMissSize(placed.block.table.label, written, label, column, size.text.strip())  # type: ignore[union-attr]
    related = [ctx.related(placed.file, part.start, part.end, "a split") for part in parts]
    return ctx.flag(violation, placed.file, size.start, size.end, related=related, evidence=evidence)
