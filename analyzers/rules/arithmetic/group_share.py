"""ARI021: a "count (share)" cell that is not its count's share of its group's N, or a variable's shares that do not add to 100%.

## How it decides

Cells. A characteristic's count and share are a "count (share)" cell, or a count beside a share
column ("n" then "%"). The share's group size is the N its column's header states ("Control (n =
180)"), else the count of the nearest size row ("N", "Total") above it in the count's column, or of
the first size row for the rows above it (a "Total" closing the table; a table may stack two
samples, each under its own total), else the one N its caption states. The share must be the count
over N, rounded or truncated to its places (or as a proportion, for shares up to 1). The table must
show that its shares are of that N: at least one other share is its count's share of its N (two,
unless every N is stated in its column's header), and no more miss than give it (a table of shares
of another base, a subgroup or the row, misses in most cells). A share its row's counts give (a
cross-tabulation's row percentages), or its variable's block gives (the block's rows without a
share, "missing" or "mixed", left out of the base: the share of those who answered) is no slip. A
share that some other base below N gives is reported apart ("(unsure)", information), and so is a
cell backed by fewer than three agreeing cells or by more than one missing cell per two agreeing
ones.

Blocks. A variable's categories are two rows or more, ended by a title row (a label over empty
cells), a size or aggregate row, a category label (a first cell written where the rows below leave
it empty: "Sex" over "female", "male") and a rule, unless rules are drawn under most rows. Their
shares in a column (a percentage, a number in a "%" column, or the share of a "count (share)"
cell, in every row) add to 100% within one unit of each share's last place (rounding and
truncation). The block must be a partition of the sample: the same rows add to 100% in another
column ("strong"), where the rows may be the block's first three or more, the other variables
left under its title; or, when no column of the block adds up, two other blocks of the same
column do ("moderate", reported apart as unsure: a variable that allows several answers, or
leaves a category out, misses 100% without a slip). Only a characteristics table's blocks are
read: one whose shares are of their groups' N, or that states an N and has no counts beside its
shares. Notes or a block title that say several answers were allowed or a category is left out
(missing, not reported) leave the block alone.

Rows. A variable's categories may stand side by side instead, in adjacent share columns ("Agree
(%)", "Neutral (%)", "Disagree (%)"), one row per item or group. A row whose shares across the run
miss 100% (by more than one unit of each share's last place) is flagged when three rows or more,
and at least two for each row that misses, add up across the same columns: the whole run, or its
widest part of three columns or more (a run that also holds a "%" column of another variable). A
run no part of which adds up is no variable's categories (accuracies side by side) and is left alone. Such a finding's
class is "moderate: the other rows add to 100% across the same columns", unsure below four such rows.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import PlacedBlock, Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import Grid, author_rule_macros, cell_statement, signed, table_blocks, table_notes
from .columns import Value
from .group_shares import (
    CountShare,
    GroupSize,
    answered_base,
    block_shares,
    block_title,
    count_shares,
    group_sizes,
    partition,
    row_percentage,
    said_not_a_partition,
    share_blocks,
    share_column_runs,
    share_of,
    side_by_side,
    smaller_base,
    whole_missed,
)

_SURE = 0.85
_UNSURE = 0.6  # measured apart, information until its own class is measured precise
_SIZE_STATED = {
    "header": "strong: its column's header states the group's N",
    "row": "moderate: the table's N row states the group's size",
    "caption": "moderate: the caption states the sample's N",
}


def _named(table: str | None) -> str:
    return f"Table {table}" if table else "a table"


@violation_type
class ShareNotOfGroup(Violation):
    table: str | None  # its label
    row: str
    column: str
    count: int
    size: int
    written: str  # the share as printed
    recomputed: str

    @property
    def message(self) -> str:
        return (
            f"{_named(self.table)} (row {self.row}, column {self.column}): {self.count:,} of {self.size:,} is {self.recomputed}%,"
            f" but the cell gives {self.written}"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.row} {self.column} {self.count} {self.written}"


@violation_type
class SharesMissWhole(Violation):
    table: str | None
    place: str  # "column Treatment", "row Ant"
    parts: str  # "rows 18--30, 31--50, 51+", "columns Design, Requirement, Other"
    shares: tuple[str, ...]  # as printed
    total: str

    @property
    def message(self) -> str:
        return f"{_named(self.table)} ({self.place}): the shares of {self.parts} add up to {self.total}%, not 100%"

    @property
    def identity(self) -> str:
        return f"{self.table} {self.place} {' '.join(self.shares)}"


@rule(
    "ARI021",
    "share-of-group-size-mismatch",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
)
def share_of_group_size_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes the shares of a sample-characteristics table ("Table 1"): a "count (share)" cell,
    "Female, n (%) & 96 (48.0)", or an "n" cell beside a "%" cell, must be its count's share of its
    group's N (stated in the column's header, "Treatment ($N=200$)", in an "N" or "Total" row, or in
    the caption), and the shares of one variable's categories (the rows under "Age group", or a row's
    "Agree", "Neutral" and "Disagree" columns) must add up to 100% within their rounding. Tables of shares of another base, and variables that allow
    several answers or leave a category out, are left alone ("How it decides").

    ## Why is this bad?
    Readers compare groups by their shares and skip the counts. A share that its own count and N
    do not give, or categories that do not make up the whole sample, mean a count, a share or a
    participant was mistyped or lost between the analysis and the table.

    ## Example
    ```latex
                 & Treatment ($N=200$) & Control ($N=180$) \\\\ \\midrule
    Female, n (\\%) & 96 (48.0) & 90 (55.0) \\\\
    Smoker, n (\\%) & 50 (25.0) & 45 (25.0) \\\\
    Diabetes, n (\\%) & 30 (15.0) & 27 (15.0) \\\\
    Age group     &           &           \\\\
    18--30        & 40\\%     & 35\\%     \\\\
    31--50        & 35\\%     & 40\\%     \\\\
    51+           & 15\\%     & 25\\%     \\\\
    ```

    ## Use instead
    ```latex
    Female, n (\\%) & 96 (48.0) & 90 (50.0) \\\\
    51+           & 25\\%     & 25\\%     \\\\
    ```

    ## Evidence
    A cell: its N stated by its "column's header" (strong), "N row" or "caption" (moderate); a
    block: "the same rows add to 100% in another column" (strong) or "the column's other blocks"
    (moderate); a row: "the other rows add to 100% across the same columns" (moderate).

    ## Fix safety
    No fix: the count, the share or the N may be the wrong one.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        yield from _check_table(ctx, placed, grid, table_notes(section, placed))
        yield from _check_rows(ctx, placed, grid)


def _check_table(ctx: RuleContext, placed: PlacedBlock, grid: Grid, notes: str) -> Iterator[Finding]:
    """The shares its group's N does not give, then the blocks of a characteristics table that miss 100%."""
    sizes = group_sizes(grid, notes)
    items = count_shares(grid)
    bound = [(item, size) for item in items if (size := sizes.get((item.cell.row, item.group))) is not None]
    missed = [(item, size) for item, size in bound if not share_of(item.count, size.value, item.share)]
    agreeing = len(bound) - len(missed)
    stated = all(size.stated_in == "header" for _, size in bound)  # the author wrote each group's N over its shares
    if agreeing < (1 if stated else 2) or len(missed) > agreeing:
        if items or not sizes:
            return  # no characteristics table: its shares are of another base (a subgroup, the row), or of none stated
        missed = []
    unexplained = [(item, size) for item, size in missed if not row_percentage(grid, item) and not answered_base(grid, item, items)]
    for item, size in unexplained:
        base = smaller_base(item.count, size.value, item.share)
        sure = base is None and agreeing >= 3 and agreeing >= 2 * len(missed)
        yield _report_cell(ctx, placed, grid, item, size, base, sure)
    reported = {(item.cell.row, item.cell.column) for item, _ in missed}
    yield from _check_blocks(ctx, placed, grid, notes, reported)


def _report_cell(
    ctx: RuleContext, placed: PlacedBlock, grid: Grid, item: CountShare, size: GroupSize, base: int | None, sure: bool
) -> Finding:
    printed = ctx.index.printed
    share = item.share
    exact = item.count / size.value * (1 if share.value <= 1 and share.decimals >= 2 else 100)
    violation = ShareNotOfGroup(
        grid.table.label,
        printed(grid.row_header(item.cell.row)),
        printed(grid.column_name(item.cell.column)),
        item.count,
        size.value,
        signed(share.value, share.decimals),
        signed(exact, max(share.decimals, 1)),
    )
    reason = f"{item.count:,} / {size.value:,} = {exact:.3f}"
    if base is not None:
        reason += f"; of {base:,} (those who answered?) it would be the share printed"
    statements = [cell_statement(ctx, placed.file, grid, item.cell, "share")]
    related = []
    if size.cell is not None:
        statements.append(cell_statement(ctx, placed.file, grid, size.cell, "count"))
        related.append(ctx.related(placed.file, size.cell.start, size.cell.end, "the group's size"))
    evidence = Evidence(kind=_SIZE_STATED[size.stated_in], statements=statements, reason=reason)
    confidence = _SURE if sure else _UNSURE
    return ctx.flag(violation, placed.file, item.cell.start, item.cell.end, related=related, evidence=evidence, confidence=confidence)


def _check_blocks(ctx: RuleContext, placed: PlacedBlock, grid: Grid, notes: str, reported: set[tuple[int, int]]) -> Iterator[Finding]:
    """Each block of a variable's shares that misses 100% where the table shows the block partitions its sample
    (a block with a cell reported already misses it for that cell's slip)."""
    blocks = [block for block in share_blocks(grid) if not said_not_a_partition(grid, block, notes)]
    partitions = {tuple(block): partition(grid, block) for block in blocks}
    for block in blocks:
        rows = partitions[tuple(block)]
        for column in grid.columns():
            shares = block_shares(grid, rows or block, column)
            if shares is None or not whole_missed(shares) or any((row, column) in reported for row in rows or block):
                continue
            if rows is not None:
                yield _report_block(ctx, placed, grid, column, rows, shares, elsewhere=True)
            elif sum(_adds_up(grid, other, column) for other in partitions.values()) >= 2:
                yield _report_block(ctx, placed, grid, column, block, shares, elsewhere=False)


def _adds_up(grid: Grid, rows: list[int] | None, column: int) -> bool:
    shares = block_shares(grid, rows, column) if rows is not None else None
    return shares is not None and not whole_missed(shares)


def _check_rows(ctx: RuleContext, placed: PlacedBlock, grid: Grid) -> Iterator[Finding]:
    """Each row whose shares across a run of share columns miss 100% where most rows add up across them."""
    printed = ctx.index.printed
    for run in share_column_runs(grid):
        found = side_by_side(grid, run)
        if found is None:
            continue  # the columns are no variable's categories: their rows do not add up
        columns, read = found
        missed = [row for row, shares in read.items() if whole_missed(shares)]
        named = f"columns {', '.join(printed(grid.column_name(column)) for column in columns)}"
        kind = "moderate: the other rows add to 100% across the same columns"
        confidence = _SURE if len(read) - len(missed) >= 4 else _UNSURE
        for row in missed:
            yield _report_shares(ctx, placed, grid, (f"row {printed(grid.row_header(row))}", named), read[row], kind, confidence)


def _report_block(
    ctx: RuleContext, placed: PlacedBlock, grid: Grid, column: int, block: list[int], shares: list[Value], elsewhere: bool
) -> Finding:
    printed = ctx.index.printed
    rows = f"rows {', '.join(printed(grid.row_header(row)) for row in block)}"
    title = block_title(grid, block)
    kind = "strong: the same rows add to 100% in another column" if elsewhere else "moderate: the column's other blocks add to 100%"
    named = (f"column {printed(grid.column_name(column))}", rows)
    return _report_shares(ctx, placed, grid, named, shares, kind, _SURE if elsewhere else _UNSURE, printed(title))


def _report_shares(
    ctx: RuleContext,
    placed: PlacedBlock,
    grid: Grid,
    named: tuple[str, str],
    shares: list[Value],
    kind: str,
    confidence: float,
    title: str = "",
) -> Finding:
    """A variable's shares that miss 100%: `named` is where they stand and what they are ("column X", "rows a, b")."""
    total = sum(share.value for share in shares)
    places = max(share.decimals for share in shares)
    violation = SharesMissWhole(
        grid.table.label, *named, tuple(" ".join(share.cell.text.split()) for share in shares), signed(total, places)
    )
    evidence = Evidence(
        kind=kind,
        statements=[cell_statement(ctx, placed.file, grid, share.cell, "share") for share in shares],
        reason=f"{' + '.join(signed(share.value, share.decimals) for share in shares)} = {signed(total, places)}"
        + (f" ({title})" if title else ""),
    )
    first, last = shares[0].cell, shares[-1].cell
    return ctx.flag(violation, placed.file, first.start, last.end, evidence=evidence, confidence=confidence)
