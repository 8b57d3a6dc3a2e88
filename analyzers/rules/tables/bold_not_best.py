"""TAB002: a bold (best-marked) cell that is not the best of what it is compared with."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...quantities import slack
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import (
    DIRECTION_WEIGHT,
    SET_APART,
    WITHIN_SPREAD,
    Grid,
    author_rule_macros,
    spread_overlaps,
    table_blocks,
    table_notes,
)


@violation_type
class BoldNotBest(Violation):
    table: str | None  # its label
    header: str  # the column's header, as written
    column: str  # the column's header, as printed
    marked: str  # the bold cell as written
    better_row: str  # the better row's name, as printed
    better: str  # the better cell as written
    set_apart: bool  # the better row belongs to another group of rows
    higher_is_better: bool

    @property
    def message(self) -> str:
        group = " (in another group of rows)" if self.set_apart else ""
        return (
            f"{self.marked} is marked best in column {self.column}, but row {self.better_row}{group} has "
            f"{self.better} ({'higher' if self.higher_is_better else 'lower'} is better)"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.header} {self.marked} {self.better}"


@rule("TAB002", "bold-not-best", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION)
def bold_not_best(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a bold (or `\\best`-style highlighted) cell that is not the best value of its
    column. The direction comes from ↑/↓ in the header, else from the metric's name in the
    header, else from the caption or a note saying which side is better ("lower is better"), else
    from the metric's name in the caption: accuracy, F1, AUC, BLEU are higher-better; error, loss, perplexity,
    FID, distances, failures, "epochs to" converge are lower-better. Columns whose direction is unknown, and
    oracle / teacher / upper-bound / random / human / extra-data rows (named in any text cell)
    are left alone. So are tables whose bold means something else: the caption or a note of the
    table says bold marks significance or the best of each row, or most bold cells (in three rows or more) are the
    best of their own row within their header group, and more of them than of their column:
    methods compared across columns, one game or language pair per row. A column of p-values
    ("p", "Sig.") is no metric: bold there marks significance.

    Bold often marks the best of a group of rows: the rows between two rules (`\\midrule`,
    `\\hline`, `\\cline`, `\\addlinespace`, the author's own rule macros), or the rows with the
    same marks in a ✓/✗ column ("uses extra data"), or a block of rows named once in a text column
    over the empty cells below it (`\\multirow{3}{*}{ViT-S}`) beside a column naming every row. When a column has bold in several groups,
    each group is judged on its own; several different bold values within one group are left
    alone.

    ## Why is this bad?
    Bold is a claim: "this is the best result". A bold that sits on a worse number moves
    the reader's eye to the wrong winner; it is claim distortion.

    ## Example
    ```latex
    Method & Acc.~$\\uparrow$ \\\\ \\midrule
    Baseline & 81.2 \\\\
    Ours & \\textbf{79.5} \\\\
    ```

    ## Use instead
    ```latex
    Baseline & \\textbf{81.2} \\\\
    Ours & 79.5 \\\\
    ```

    ## Confidence
    1.0 when the better row is in the bold cell's own group and ↑/↓ gives the direction;
    times 0.95 when the direction comes from the metric's name in the header, 0.9 from a caption
    or note that says which side is better, 0.85 from the metric's name in the caption; times 0.85 when the gap is within the cells' ± spreads; times 0.6 when the bold
    cell is the best of its own group (of two rows or more, or set apart by a ✓/✗ column) and
    only a row of another group is better: bold may mark the best of its group, so the
    finding is information.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        table = placed.block.table
        grid = Grid.of(table, rule_macros, table_notes(section, placed))  # type: ignore[arg-type]
        settings = _row_settings(grid)
        if _BOLD_MEANS_OTHER.search(grid.notes) or _marks_rows(grid, settings):
            continue
        for column in grid.columns():
            sense, source = grid.direction(column)
            if sense and not _P_COLUMN.match(grid.own_header(column)):
                yield from _bold_in_column(ctx, placed, grid, column, settings, sense, source)


def _bold_in_column(
    ctx: RuleContext, placed: PlacedBlock, grid: Grid, column: int, settings: dict[int, tuple[str, ...]], sense: int, source: str
) -> Iterator[Finding]:
    """Each group of rows with bold in this column, its bold cell against the rows it is compared with."""
    cells = [cell for row in grid.body_rows() if (cell := grid.numeric(row, column)) and not grid.is_reference(row)]
    bold = [cell for cell in cells if cell.bold]
    if not bold or len(bold) * 2 > len(cells):
        return
    by_set: dict[tuple[tuple[int, tuple[str, ...]], tuple[str, ...]], list[Cell]] = {}
    for cell in cells:
        by_set.setdefault((grid.row_set(cell.row), settings[cell.row]), []).append(cell)
    marked_sets = [members for members in by_set.values() if any(cell.bold for cell in members)]
    for members in marked_sets:
        marked = [cell for cell in members if cell.bold]
        if len({cell.value for cell in marked}) > 1:
            continue  # several bold values in one group: per sub-setting, not one best
        # Bold in one group only claims the best of the column; bold in several, of each group.
        rivals = _rivals(marked[0], grid, settings)
        found = _better(marked[0], rivals(members), rivals(cells if len(marked_sets) == 1 else members), sense, grid)
        if found is not None:
            yield _report_bold(ctx, placed, grid, settings, column, marked[0], *found, sense, source)


_P_COLUMN = DeferredPattern(r"^\W*(?:\$?p\$?(?:[- ]?values?)?|sig\.?|significance)\W*$", re.IGNORECASE)
# A caption or note that gives bold another meaning: significance, or the best of each row.
_BOLD_MEANS_OTHER = DeferredPattern(
    r"(?:bold\w*|highlight\w*)[^.]{0,80}\b(?:signific\w*|p\s*[<≤])|signific\w*[^.]{0,60}\b(?:bold\w*|highlight\w*)"
    r"|\b(?:each|every|per)\s+row\b|\brow-?wise\b",
    re.IGNORECASE,
)


def _marks_rows(grid: Grid, settings: dict[int, tuple[str, ...]]) -> bool:
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


def _row_settings(grid: Grid) -> dict[int, tuple[str, ...]]:
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


def _rivals(marked: Cell, grid: Grid, settings: dict[int, tuple[str, ...]]) -> Callable[[list[Cell]], list[Cell]]:
    """The cells a bold one competes with: rows of its own setting that name something (a row whose text
    cells are all empty continues the one above: another setting of the same method)."""

    def named(row: int) -> bool:
        return any(cell.value is None and cell.text.strip() for cell in grid.table.rows[row])

    def rivals(cells: list[Cell]) -> list[Cell]:
        return [cell for cell in cells if cell is marked or (settings[cell.row] == settings[marked.row] and named(cell.row))]

    return rivals


def _better(marked: Cell, members: list[Cell], candidates: list[Cell], sense: int, grid: Grid) -> tuple[Cell, bool] | None:
    """A cell better than the bold one beyond rounding, from its own group first; and whether
    only another group beats it while it is the best of a group of its own (set apart)."""

    def beats(cell: Cell) -> bool:
        return sense * (cell.value - marked.value) > slack(min(marked.decimals, cell.decimals))  # type: ignore[operator]

    best_within = max(members, key=lambda cell: sense * cell.value)  # type: ignore[operator]
    if beats(best_within):
        return best_within, False
    best = max(candidates, key=lambda cell: sense * cell.value)  # type: ignore[operator]
    if not beats(best):
        return None
    set_apart = len(members) >= 2 or grid.row_set(best.row)[1] != grid.row_set(marked.row)[1]
    return best, set_apart


def _row_name(grid: Grid, row: int, settings: dict[int, tuple[str, ...]]) -> str:
    """A row's name: its header, or in a table of blocks its block's name with its text cells ("ViT-S MSE")."""
    if not settings[row]:
        return grid.row_header(row)
    texts = [" ".join(cell.text.split()) for cell in grid.table.rows[row] if cell.value is None and cell.text.strip()]
    return " ".join(dict.fromkeys([*settings[row], *texts]))


def _report_bold(
    ctx: RuleContext,
    placed: PlacedBlock,
    grid: Grid,
    settings: dict[int, tuple[str, ...]],
    column: int,
    marked: Cell,
    best: Cell,
    set_apart: bool,
    sense: int,
    source: str,
) -> Finding:
    table = placed.block.table
    header = " ".join(grid.own_header(column).split()) or f"column {column + 1}"
    confidence = DIRECTION_WEIGHT[source] * (WITHIN_SPREAD if spread_overlaps(marked, best) else 1.0) * (SET_APART if set_apart else 1.0)
    if set_apart:
        kind = "weak: only a row of another group is better"
    elif source == "claim":
        kind = "moderate: a better row in its own group, direction from a claim"
    else:
        kind = f"strong: a better row in its own group, direction from the {source}"

    def side(cell: Cell) -> Statement:
        subject = f"row {grid.row_header(cell.row)}, column {header}"
        return Statement(
            file=placed.file, range=ctx.range(placed.file, cell.start, cell.end), quote=cell.text, subject=subject, role="result"
        )

    evidence = Evidence(
        kind=kind,
        statements=[side(marked), side(best)],
        reason=f"bold claims the best of column {header}; {'higher' if sense > 0 else 'lower'} is better",
    )
    printed = ctx.index.printed
    violation = BoldNotBest(
        table.label,  # type: ignore[union-attr]
        header,
        printed(header),
        marked.text,
        printed(_row_name(grid, best.row, settings)),
        best.text,
        set_apart,
        sense > 0,
    )
    return ctx.flag(
        violation,
        placed.file,
        marked.start,
        marked.end,
        related=[ctx.related(placed.file, best.start, best.end, f"better value {best.text}")],
        confidence=round(confidence, 3),
        evidence=evidence,
    )
