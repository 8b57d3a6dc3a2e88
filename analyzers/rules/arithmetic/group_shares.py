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
from ..tables.model import Grid, count, is_aggregate_row, size_rows
from .columns import SHARE, Outcome, Value, count_and_share, outcome

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


def group_sizes(grid: Grid, notes: str) -> dict[int, GroupSize]:
    """Each column's group size: its own header's "N = 200", else the size row's count in it, else the caption's N
    when the caption states one N and no column states its own."""
    sizes: dict[int, GroupSize] = {}
    rows = size_rows(grid)
    for column in grid.columns():
        stated = _one_size(grid.column_header(column))
        if stated is not None:
            sizes[column] = GroupSize(stated, "header", None)
        elif rows and (cell := count(grid, rows[0], column)) is not None:
            sizes[column] = GroupSize(int(cell.value), "row", cell)  # type: ignore[arg-type]  # a count
    caption = _one_size(notes)
    if caption is not None and not sizes:
        sizes = {column: GroupSize(caption, "caption", None) for column in grid.columns()}
    return sizes


def _one_size(text: str) -> int | None:
    found = {int(match.replace(",", "")) for match in _STATED_SIZE.findall(text.replace("{,}", ","))}
    return found.pop() if len(found) == 1 else None


@record(slots=True)
class CountShare:
    """A "count (share)" cell of a characteristic's row."""

    cell: Cell
    count: int
    share: Value


def count_shares(grid: Grid) -> list[CountShare]:
    """The table's "count (share)" cells, outside its size and aggregate rows."""
    skipped = set(size_rows(grid))
    found = []
    for row in grid.body_rows():
        if row in skipped or is_aggregate_row(grid.row_header(row)):
            continue
        for cell in grid.table.rows[row]:
            counted = count_and_share(cell)
            if counted is not None:
                found.append(CountShare(cell, *counted))
    return found


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


def row_percentage(grid: Grid, item: CountShare) -> bool:
    """Whether the share is of its row's counts (a cross-tabulation's row percentages), not of its column."""
    row = [counted[0] for cell in grid.table.rows[item.cell.row] if (counted := count_and_share(cell)) is not None]
    return len(row) >= 2 and share_of(item.count, sum(row), item.share)


def share_blocks(grid: Grid) -> list[list[int]]:
    """The rows of each variable, two or more: the rows under a title row (a label over empty cells), or, in a table
    without title rows, between rules; a size or aggregate row ends a block."""
    skipped = set(size_rows(grid))
    titled = any(not _has_number(grid, row) for row in grid.body_rows())
    blocks: list[list[int]] = []
    key: object = None
    current: object = None
    for row in grid.body_rows():
        if row in skipped or is_aggregate_row(grid.row_header(row)):
            key = current = None
            continue
        if not _has_number(grid, row):
            key = row  # a title: the rows below are its variable's
            continue
        row_key = key if titled else grid.row_set(row)
        if row_key != current or not blocks or blocks[-1][-1] != row - 1:
            blocks.append([])
            current = row_key
        blocks[-1].append(row)
    return [block for block in blocks if len(block) >= 2]


def _has_number(grid: Grid, row: int) -> bool:
    return any(grid.numeric(row, column) for column in grid.columns())


def partition(grid: Grid, block: Sequence[int]) -> list[int] | None:
    """The block's leading rows whose shares add up to 100% in some column: the whole block, or its categories above
    rows of other variables left under its title ("Low", "Middle", "High" above "Included herd effects"); None when
    no column adds up."""
    for end in range(len(block), 1, -1):
        rows = list(block[:end])
        if any((shares := block_shares(grid, rows, column)) is not None and not whole_missed(shares) for column in grid.columns()):
            return rows
    return None


def block_title(grid: Grid, block: Sequence[int]) -> str:
    """The title row above a block ("Age group"), or empty."""
    return str(row_blocks(grid, list(block))[block[0]][1])


def block_shares(grid: Grid, block: Sequence[int], column: int) -> list[Value] | None:
    """The block's shares in a column: a percentage cell or the share of a "count (share)" cell in every row."""
    shares = []
    for row in block:
        cell = grid.cells.get((row, column))
        counted = count_and_share(cell) if cell is not None else None
        numeric = grid.numeric(row, column)
        if counted is not None:
            shares.append(counted[1])
        elif numeric is not None and numeric.percent and numeric.spread is None:
            shares.append(Value(numeric.value, numeric.decimals, numeric))  # type: ignore[arg-type]  # numeric
        else:
            return None
    return shares


def whole_missed(shares: Sequence[Value]) -> float:
    """How far the shares' sum falls from 100% beyond what their rounding or truncation allows (0 when it adds up)."""
    total = sum(share.value for share in shares)
    allowance = sum(10.0**-share.decimals for share in shares) + 1e-9
    return 0.0 if abs(total - 100) <= allowance else total - 100


def said_not_a_partition(grid: Grid, block: Sequence[int], notes: str) -> bool:
    """The table's notes or the block's title say several answers were allowed or a category is left out (a row
    named "Unknown" or "Missing" is a category the block lists, not one it leaves out)."""
    return bool(_NOT_A_PARTITION.search(f"{notes} {block_title(grid, block)}"))
