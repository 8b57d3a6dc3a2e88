"""What a table's best-value marks (bold for the best, an underline for the second best) are compared with.

A mark claims a rank within some of a column's cells: the rows of its own setting (a dataset or task
column, or a block of rows named once over the empty cells below it), within its group of rows (rules,
✓/✗ marks) or across the column. A table whose bold means significance, or the best of each row, marks
no column's rank at all (TAB002, TAB016).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell
from .model import Grid

Settings = dict[int, tuple[str, ...]]  # each body row's setting (`row_settings`)
P_COLUMN = DeferredPattern(r"^\W*(?:\$?p\$?(?:[- ]?values?)?|sig\.?|significance)\W*$", re.IGNORECASE)
# A caption or note that gives bold another meaning: significance, or the best of each row.
BOLD_MEANS_OTHER = DeferredPattern(
    r"(?:bold\w*|highlight\w*)[^.]{0,80}\b(?:signific\w*|p\s*[<≤])|signific\w*[^.]{0,60}\b(?:bold\w*|highlight\w*)"
    r"|\b(?:each|every|per)\s+row\b|\brow-?wise\b",
    re.IGNORECASE,
)


def marks_rows(grid: Grid, settings: Settings) -> bool:
    """Bold marks the best of each row, not of each column: methods compared across columns. Most bold
    cells (in three rows or more) are the best of their row, in their column's direction, among the
    columns of their header group (the whole row where a group holds only a value and its spread),
    leaving out reference columns (random, human, oracle) and parenthesised spreads; and more of them
    are the best of their row than of their column."""
    senses = {column: grid.direction(column)[0] for column in grid.columns()}
    # Only bold cells whose column's direction is known can be judged best of anything.
    bold = [
        cell
        for row in grid.body_rows()
        for column in grid.columns()
        if (cell := grid.numeric(row, column)) and cell.bold and senses[column]
    ]
    if len({cell.row for cell in bold}) < 3:
        return False
    groups = grid.groups()
    reference = {column for column in grid.columns() if grid.is_reference_column(column)}

    def comparable(row: int, columns: Iterable[int]) -> list[Cell]:
        return [
            peer
            for column in columns
            if column not in reference and (peer := grid.numeric(row, column)) and not peer.text.lstrip().startswith("(")
        ]

    def row_peers(cell: Cell) -> list[Cell]:
        group = next((group for group in groups if cell.column in group), None)
        peers = comparable(cell.row, group) if group is not None else []
        return peers if len(peers) >= 2 else comparable(cell.row, grid.columns())

    def column_peers(cell: Cell) -> list[Cell]:
        return [
            peer
            for row in grid.body_rows()
            if (peer := grid.numeric(row, cell.column))
            and grid.row_set(row) == grid.row_set(cell.row)
            and settings[row] == settings[cell.row]
        ]

    def best(cell: Cell, peers: list[Cell]) -> bool:
        sense = senses[cell.column]
        others = [peer.value for peer in peers if peer is not cell]
        return bool(others) and all(sense * (cell.value - value) >= 0 for value in others)  # type: ignore[operator]

    by_row = sum(best(cell, row_peers(cell)) for cell in bold)
    by_column = sum(best(cell, column_peers(cell)) for cell in bold)
    return by_row > by_column and by_row >= 0.8 * len(bold)


# A text column that names the setting a row was measured in, not the method it measures.
_SETTING_HEADER = DeferredPattern(r"\b(?:data\s*sets?|tasks?|benchmarks?|splits?|domains?|languages?|corpus|corpora)\b", re.IGNORECASE)


def row_settings(grid: Grid) -> Settings:
    """Each body row's setting: its values in the text columns headed as a dataset, task or benchmark
    (a method-by-dataset table), or carried down over blocks of rows; an empty cell continues the one
    above it (`\\multirow`)."""
    rows = list(grid.body_rows())
    texts = {column: _texts(grid, rows, column) for column in range(grid.columns().stop)}
    labels: list[list[str]] = []
    for column, cells in texts.items():
        headed = column in grid.columns() and _SETTING_HEADER.search(
            grid.own_header(column)
        )  # the row names' column is headed "Dataset" too
        if cells is None or not (headed or _carried(cells, texts, column)):
            continue
        values: list[str] = []
        for text in cells:
            values.append(text or (values[-1] if values else ""))
        labels.append(values)
    return {row: tuple(values[index] for values in labels) for index, row in enumerate(rows)}


def _texts(grid: Grid, rows: list[int], column: int) -> list[str] | None:
    """A text column's body cells, empty where a cell is; None for a column that holds a number."""
    cells = [grid.cells.get((row, column)) for row in rows]
    if any(cell is not None and cell.value is not None for cell in cells):
        return None
    return [" ".join(cell.text.split()) if cell is not None else "" for cell in cells]


def _carried(cells: list[str], texts: dict[int, list[str] | None], column: int) -> bool:
    """A column that names blocks of rows: each name written once over the empty cells of its block
    (two names or more), beside a later text column that names every row (the methods of each block)."""
    named = [text for text in cells if text]
    return (
        bool(cells and cells[0])
        and len(set(named)) >= 2
        and len(named) < len(cells)
        and any(later is not None and all(later) for other, later in texts.items() if other > column)
    )


def marked_groups(grid: Grid, column: int, settings: Settings, marked: Callable[[Cell], bool]) -> tuple[list[Cell], list[list[Cell]]]:
    """A column's cells that compete (no reference row: oracle, upper bound), and its groups of them (rules,
    ✓/✗ marks, setting) that hold a marked cell; no group where over half the cells are marked (a highlighted
    method, not a rank)."""
    cells = [cell for row in grid.body_rows() if (cell := grid.numeric(row, column)) and not grid.is_reference(row)]
    if not any(marked(cell) for cell in cells) or sum(map(marked, cells)) * 2 > len(cells):
        return cells, []
    by_set: dict[tuple[tuple[int, tuple[str, ...]], tuple[str, ...]], list[Cell]] = {}
    for cell in cells:
        by_set.setdefault((grid.row_set(cell.row), settings[cell.row]), []).append(cell)
    return cells, [members for members in by_set.values() if any(marked(cell) for cell in members)]


def rivals_of(marked: Cell, grid: Grid, settings: Settings) -> Callable[[list[Cell]], list[Cell]]:
    """The cells a bold one competes with: rows of its own setting that name something (a row whose text
    cells are all empty continues the one above: another setting of the same method)."""

    def named(row: int) -> bool:
        return any(cell.value is None and cell.text.strip() for cell in grid.table.rows[row])

    def rivals(cells: list[Cell]) -> list[Cell]:
        return [cell for cell in cells if cell is marked or (settings[cell.row] == settings[marked.row] and named(cell.row))]

    return rivals


def row_name(grid: Grid, row: int, settings: Settings) -> str:
    """A row's name: its header, or in a table of blocks its block's name with its text cells ("ViT-S MSE")."""
    if not settings[row]:
        return grid.row_header(row)
    texts = [" ".join(cell.text.split()) for cell in grid.table.rows[row] if cell.value is None and cell.text.strip()]
    return " ".join(dict.fromkeys([*settings[row], *texts]))
