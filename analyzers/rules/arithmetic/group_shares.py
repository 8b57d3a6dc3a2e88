"""The shares a sample-characteristics table ("Table 1") gives of its groups, read so that each can be recomputed.

Such a table states each group's size (a column headed "Treatment (N = 200)", an "N" or "Total"
row, or a caption's single "N = 209") and, row by row, each characteristic as "count (share)":
"Female, n (%) & 96 (48.0)". The share is the count over its column's size. A variable's
categories ("Age group" over "18–30", "31–50", "51+") are a block of rows whose shares add up to
the whole, 100%, within the rounding of each share.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell
from ....latex.record import record
from ..tables.blocks import row_blocks
from ..tables.model import Grid, count, is_aggregate_row, label_columns, size_rows
from .columns import SHARE, Outcome, Value, count_and_share, is_share_column, outcome, series_of

# A group size as written in a header or a caption: "N=209", "(n = 180)", "$N = 1{,}024$".
_STATED_SIZE = DeferredPattern(r"(?<![A-Za-z])[Nn]\s*=\s*(\d{1,3}(?:,\d{3})+|\d+)(?![\d.])")
# Words that say a variable's shares need not add up to the whole: several answers allowed, or a category left out.
_NOT_A_PARTITION = DeferredPattern(
    r"all\s+that\s+appl|more\s+than\s+one|multiple\s+(?:answers|responses|choices|selections)|not\s+mutually|"
    r"\bmissing\b|not\s+(?:reported|stated|shown|included|listed)|\bunknown\b|\bexcluded\b|prefer\s+not",
    re.IGNORECASE,
)


@record(slots=True)
class GroupSize:
    """A column's group size and where the table states it."""

    value: int
    stated_in: str  # "header", "row" or "caption"
    cell: Cell | None  # the size row's cell, when a row states it


def group_sizes(grid: Grid, notes: str) -> dict[tuple[int, int], GroupSize]:
    """Each body cell's group size, by row and column: its column header's "N = 200", else the count of the nearest
    size row above it in its column (a table may stack two samples, each under its own "Total"), else the caption's
    N when the caption states one N and neither a header nor a size row states any. The rows above the first size
    row take its count (a "Total" closing the table)."""
    rows = set(size_rows(grid))
    headers = {column: GroupSize(stated, "header", None) for column in grid.columns() if (stated := _one_size(grid.column_header(column)))}
    caption = _one_size(notes) if not headers and not rows else None
    sizes: dict[tuple[int, int], GroupSize] = {}
    for column in grid.columns():
        counted = {row: GroupSize(int(cell.value), "row", cell) for row in sorted(rows) if (cell := count(grid, row, column))}  # type: ignore[arg-type]
        above = next(iter(counted.values()), None)  # a total closing the table is the size of the rows above it
        for row in grid.body_rows():
            if row in rows:
                above = counted.get(row)
            elif size := headers.get(column) or above or (GroupSize(caption, "caption", None) if caption else None):
                sizes[row, column] = size
    return sizes


def _one_size(text: str) -> int | None:
    found = {int(match.replace(",", "")) for match in _STATED_SIZE.findall(text.replace("{,}", ","))}
    return found.pop() if len(found) == 1 else None


@record(slots=True)
class CountShare:
    """A characteristic's count and its share in one row: a "count (share)" cell, or an "n" cell beside a "%" cell."""

    cell: Cell  # the share's cell
    count: int
    share: Value
    group: int  # the count's column, whose group size the share is of


def count_shares(grid: Grid) -> list[CountShare]:
    """The table's "count (share)" cells, and its count cells beside a share column ("n", "%"), outside its size and
    aggregate rows."""
    skipped = set(size_rows(grid))
    paired = share_columns(grid)
    found = []
    for row in grid.body_rows():
        if row in skipped or is_aggregate_row(grid.row_header(row)):
            continue
        for cell in grid.table.rows[row]:
            counted = count_and_share(cell)
            if counted is not None:
                found.append(CountShare(cell, *counted, cell.column))
            elif cell.column in paired and (share := grid.numeric(row, cell.column)) and share.spread is None:
                beside = count(grid, row, cell.column - 1)
                if beside is not None and cell.column - 1 not in paired:
                    found.append(CountShare(share, int(beside.value), Value(share.value, share.decimals, share), beside.column))  # type: ignore[arg-type]
    return found


def share_columns(grid: Grid) -> set[int]:
    """The columns of shares, by their header ("%", "Share") or their cells (percentages)."""
    return {series.column for series in series_of(grid) if not series.in_cell_share and is_share_column(grid, series)}


def share_of(count: int, size: int, share: Value) -> bool:
    """Whether `share` is `count` of `size`, as a percentage (or a proportion, for a share up to 1), rounded or truncated."""
    exact = (Value(count, 0, share.cell, exact=True), Value(size, 0, share.cell, exact=True))
    if share.value <= 1 and size and abs(count / size - share.value) <= 10.0**-share.decimals:
        return True
    return outcome(share, SHARE, *exact) is not Outcome.MISSED


def smaller_base(count: int, size: int, share: Value) -> int | None:
    """A base between the count and the group size of which `share` is the count's share (the share of those who
    answered, when some did not), or None."""
    if share.value <= 0:
        return None
    unit = 10.0**-share.decimals
    low = math.ceil(count * 100 / (share.value + unit))
    high = math.floor(count * 100 / max(share.value - unit / 2, 1e-9))
    return next((base for base in range(max(low, count, 1), min(high, size - 1) + 1) if share_of(count, base, share)), None)


def answered_base(grid: Grid, item: CountShare, items: Sequence[CountShare]) -> bool:
    """Whether the share is of the counts its variable's block gives shares to: the block's other rows without a share
    (missing, mixed, unknown) left out of the base, as a share of those who answered is."""
    block = next((block for block in share_blocks(grid) if item.cell.row in block), [])
    answered = sum(other.count for other in items if other.group == item.group and other.cell.row in block)
    return item.cell.row in block and answered > 0 and share_of(item.count, answered, item.share)


def row_percentage(grid: Grid, item: CountShare) -> bool:
    """Whether the share is of its row's counts (a cross-tabulation's row percentages), not of its column."""
    row = [counted[0] for cell in grid.table.rows[item.cell.row] if (counted := count_and_share(cell)) is not None]
    return len(row) >= 2 and share_of(item.count, sum(row), item.share)


def share_blocks(grid: Grid) -> list[list[int]]:
    """The rows of each variable, two or more: a block ends at a title row (a label over empty cells), at a size or
    aggregate row, at a category label (a first cell written where the rows below leave it empty: "Sex" over
    "female", "male") and at a rule, unless rules are drawn under most rows (then they separate nothing)."""
    skipped = set(size_rows(grid))
    body = list(grid.body_rows())
    ruled = set(grid.rule_rows) & set(body)
    if len(ruled) * 2 >= len(body):
        ruled = set()
    blocks: list[list[int]] = []
    ended = True
    for row in body:
        if row in skipped or is_aggregate_row(grid.row_header(row)) or not _has_number(grid, row):
            ended = True
            continue
        first = grid.cells.get((row, 0))
        category = len(label_columns(grid, row)) >= 2 and first is not None and bool(first.text.strip())
        if ended or row in ruled or category:
            blocks.append([])
        blocks[-1].append(row)
        ended = False
    return [block for block in blocks if len(block) >= 2]


def _has_number(grid: Grid, row: int) -> bool:
    return any(grid.numeric(row, column) for column in grid.columns())


def partition(grid: Grid, block: Sequence[int]) -> list[int] | None:
    """The block's leading rows whose shares add up to 100% in some column: the whole block, or, under a title row,
    its categories above rows of other variables left under the title ("Low", "Middle", "High" above "Included herd
    effects"); None when no column adds up."""
    shortest = min(len(block), 3) if block_title(grid, block) else len(block)  # a part of a titled block: three categories or more
    for end in range(len(block), shortest - 1, -1):
        rows = list(block[:end])
        if any((shares := block_shares(grid, rows, column)) is not None and not whole_missed(shares) for column in grid.columns()):
            return rows
    return None


def block_title(grid: Grid, block: Sequence[int]) -> str:
    """The title row above a block ("Age group"), or empty."""
    return str(row_blocks(grid, list(block))[block[0]][1])


def block_shares(grid: Grid, block: Sequence[int], column: int) -> list[Value] | None:
    """The block's shares in a column: a percentage cell (or a number in a share column, "%") or the share of a
    "count (share)" cell in every row."""
    shares = []
    in_share_column = column in share_columns(grid)
    for row in block:
        cell = grid.cells.get((row, column))
        counted = count_and_share(cell) if cell is not None else None
        numeric = grid.numeric(row, column)
        if counted is not None:
            shares.append(counted[1])
        elif numeric is not None and (numeric.percent or in_share_column) and numeric.spread is None:
            shares.append(Value(numeric.value, numeric.decimals, numeric))  # type: ignore[arg-type]  # numeric
        else:
            return None
    return shares


def share_column_runs(grid: Grid) -> list[list[int]]:
    """Runs of two or more adjacent share columns ("Agree (%)", "Neutral (%)", "Disagree (%)"): a variable's categories
    side by side, one row per item or group."""
    runs: list[list[int]] = []
    for column in sorted(share_columns(grid)):
        if runs and runs[-1][-1] == column - 1:
            runs[-1].append(column)
        else:
            runs.append([column])
    return [run for run in runs if len(run) >= 2]


def row_shares(grid: Grid, row: int, run: Sequence[int]) -> list[Value] | None:
    """A row's shares in a run of share columns, when every one of them holds a plain number."""
    cells = [grid.numeric(row, column) for column in run]
    if any(cell is None or cell.spread is not None for cell in cells):
        return None
    return [Value(cell.value, cell.decimals, cell) for cell in cells if cell is not None and cell.value is not None]


def side_by_side(grid: Grid, run: Sequence[int]) -> tuple[list[int], dict[int, list[Value]]] | None:
    """The widest part of a run of share columns (all of it, or three adjacent columns or more) across which the rows
    add up to 100%: three rows or more, and two for each row that misses; with each row's shares. None when no part
    holds a variable's categories (accuracies side by side)."""
    for width in range(len(run), min(len(run), 3) - 1, -1):
        for start in range(len(run) - width + 1):
            columns = list(run[start : start + width])
            read = {row: shares for row in grid.body_rows() if (shares := row_shares(grid, row, columns)) is not None}
            missed = sum(1 for shares in read.values() if whole_missed(shares))
            if len(read) - missed >= max(3, 2 * missed):
                return columns, read
    return None


def whole_missed(shares: Sequence[Value]) -> float:
    """How far the shares' sum falls from 100% beyond what their rounding or truncation allows (0 when it adds up)."""
    total = sum(share.value for share in shares)
    allowance = sum(10.0**-share.decimals for share in shares) + 1e-9
    return 0.0 if abs(total - 100) <= allowance else total - 100


def said_not_a_partition(grid: Grid, block: Sequence[int], notes: str) -> bool:
    """The table's notes or the block's title say several answers were allowed or a category is left out (a row
    named "Unknown" or "Missing" is a category the block lists, not one it leaves out)."""
    return bool(_NOT_A_PARTITION.search(f"{notes} {block_title(grid, block)}"))
