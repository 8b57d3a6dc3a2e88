"""Blocks of a table's rows: a table that stacks one block of the same methods per dataset or setting.

A claim made of "both datasets" reads each block's row against its own block's rows, not against the
other datasets' numbers (TAB003, TAB007, TAB017).
"""

from __future__ import annotations

from collections.abc import Collection

from ....latex.model import Cell
from .model import Grid

Block = tuple[tuple[object, ...], str]


def row_blocks(grid: Grid, rows: list[int]) -> dict[int, Block]:
    """Each of `rows`' block (the rows with a number): its group of rows (rules, ✓/✗ marks) and the title row
    above it ("Partially Failing Motors" spanning the table), the title also naming the block."""
    title, wanted = "", set(rows)
    blocks: dict[int, Block] = {}  # row → (block key, block title)
    for row in grid.body_rows():
        if not any(grid.numeric(row, column) for column in grid.columns()):
            title = " ".join(grid.row_header(row).split()) or title
        elif row in wanted:
            blocks[row] = ((*grid.row_set(row), title), title)
    return blocks


def stacked(grid: Grid, blocks: dict[int, Block], claimed: Collection[int]) -> bool:
    """The claimed rows sit one in each of two or more blocks that repeat the same other methods (one block
    per dataset or setting), not in groups of variants ("Ours-small" above a rule, "Ours-large" below)."""
    keys = [blocks[row][0] for row in claimed if row in blocks]
    others = {
        key: frozenset(" ".join(grid.row_header(row).split()) for row, block in blocks.items() if block[0] == key and row not in claimed)
        for key in keys
    }
    return len(keys) == len(set(keys)) > 1 and len(set(others.values())) == 1 and bool(next(iter(others.values())))


def contests(grid: Grid, rows: list[int], claimed_rows: Collection[int], cells: list[Cell]) -> list[list[Cell]]:
    """The column's cells the claim sets against each other: all of them, or block by block in a table that
    stacks one block of the same methods per dataset or setting ("the best on both datasets")."""
    blocks = row_blocks(grid, rows)
    if not stacked(grid, blocks, [row for row in rows if row in claimed_rows]):
        return [cells]
    return [
        [cell for cell in cells if blocks.get(cell.row, ((), ""))[0] == blocks[row][0]]
        for row in rows
        if row in claimed_rows and row in blocks
    ]
