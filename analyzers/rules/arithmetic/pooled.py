"""A pooled row ("Overall", "All", "Total") of a table that gives each group's size: its values are
the groups' values weighted by their sizes (or plainly averaged, or summed).

A table that reports groups with their sizes (n, #, Count) and then an Overall row pools the
groups: its size is the sum of theirs, and each of its values is the mean of the groups' values
weighted by size, as it would be computed over the pooled items. The reader below finds such a row
(its size must be the sum of the groups' sizes, or it pools something else) and, column by column,
what the groups' cells give for it, within the rounding of every cell.
"""

from __future__ import annotations

import re

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell
from ....latex.record import record
from ...quantities import slack
from ..tables.model import Grid

_POOLED_ROW = DeferredPattern(r"^\W*(?:overall|all|total|pooled|combined|average|avg\.?|mean)\b", re.IGNORECASE)
_SIZE_HEADER = DeferredPattern(
    r"^\W*(?:n|#|no\.|count|size|samples?|instances|examples|images|items|cases|subjects|participants|patients|queries|"
    r"questions|sentences|documents|#\s*\w+|number\s+of\s+\w+)\W*$",
    re.IGNORECASE,
)


@record(slots=True)
class Pooled:
    """One cell of a pooled row, and what its groups' cells give for it."""

    cell: Cell
    groups: tuple[Cell, ...]  # the groups' cells in its column
    weighted: float  # the size-weighted mean
    mean: float
    total: float

    def matches_weighted(self) -> bool:
        return self._near(self.weighted)

    def matches_mean(self) -> bool:
        return self._near(self.mean)

    def matches_any(self) -> bool:
        return self._near(self.weighted) or self._near(self.mean) or self._near(self.total, cumulative=True)

    def _near(self, exact: float, cumulative: bool = False) -> bool:
        rounding = max(slack(value.decimals) for value in self.groups) * (len(self.groups) if cumulative else 1)
        return abs((self.cell.value or 0.0) - exact) <= slack(self.cell.decimals) + rounding


@record(slots=True)
class PooledRow:
    row: int
    size_column: int
    cells: tuple[Pooled, ...]

    def pools_by_size(self) -> bool:
        """Two cells or more are the weighted mean, one of them not also the plain mean: the row pools by size."""
        weighted = [pooled for pooled in self.cells if pooled.matches_weighted()]
        return len(weighted) >= 2 and any(not pooled.matches_mean() for pooled in weighted)


def pooled_rows(grid: Grid) -> list[PooledRow]:
    """Rows named Overall / All / Total whose size cell is the sum of the sizes of the body rows above them."""
    found = []
    body = list(grid.body_rows())
    for row in body:
        if not _POOLED_ROW.match(grid.row_header(row)):
            continue
        groups = [above for above in body if above < row and not _POOLED_ROW.match(grid.row_header(above))]
        for column in grid.columns():
            sizes = _sizes(grid, [*groups, row], column) if len(groups) >= 2 and _SIZE_HEADER.match(grid.own_header(column)) else None
            if sizes is None or sum(sizes[:-1]) != sizes[-1]:
                continue
            cells = tuple(
                pooled for other in grid.columns() if other != column and (pooled := _pooled(grid, row, other, groups, sizes[:-1]))
            )
            found.append(PooledRow(row, column, cells))
            break
    return found


def _sizes(grid: Grid, rows: list[int], column: int) -> list[float] | None:
    """The rows' sizes in the column, when every one is a positive whole count."""
    cells = [grid.numeric(row, column) for row in rows]
    sizes = [cell.value for cell in cells if cell is not None and cell.value and cell.value > 0 and cell.decimals == 0 and not cell.percent]
    return sizes if len(sizes) == len(rows) else None


def _pooled(grid: Grid, row: int, column: int, groups: list[int], sizes: list[float]) -> Pooled | None:
    cell = grid.numeric(row, column)
    values = [value for above in groups if (value := grid.numeric(above, column)) is not None and value.value is not None]
    if cell is None or cell.value is None or len(values) != len(groups):
        return None
    plain = [value.value or 0.0 for value in values]
    weighted = sum(value * size for value, size in zip(plain, sizes, strict=True)) / sum(sizes)
    return Pooled(cell, tuple(values), weighted, sum(plain) / len(plain), sum(plain))
