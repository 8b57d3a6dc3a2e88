"""TAB002: a bold (best-marked) cell that is not the best of what it is compared with."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...quantities import slack
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .marks import BOLD_MEANS_OTHER, P_COLUMN, marked_groups, marks_rows, rivals_of, row_name, row_settings
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
    oracle / teacher / upper-bound / random / human / extra-data rows (named in any text cell), and rows set
    apart in italics (concurrent work: the name and every number italic), are left alone. So are tables whose bold means something else: the caption or a note of the
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
        settings = row_settings(grid)
        if BOLD_MEANS_OTHER.search(grid.notes) or marks_rows(grid, settings):
            continue
        for column in grid.columns():
            sense, source = grid.direction(column)
            if sense and not P_COLUMN.match(grid.own_header(column)):
                yield from _bold_in_column(ctx, placed, grid, column, settings, sense, source)


def _bold_in_column(
    ctx: RuleContext, placed: PlacedBlock, grid: Grid, column: int, settings: dict[int, tuple[str, ...]], sense: int, source: str
) -> Iterator[Finding]:
    """Each group of rows with bold in this column, its bold cell against the rows it is compared with."""
    cells, marked_sets = marked_groups(grid, column, settings, lambda cell: cell.bold)
    for members in marked_sets:
        marked = [cell for cell in members if cell.bold]
        if len({cell.value for cell in marked}) > 1:
            continue  # several bold values in one group: per sub-setting, not one best
        # Bold in one group only claims the best of the column; bold in several, of each group.
        rivals = rivals_of(marked[0], grid, settings)
        found = _better(marked[0], rivals(members), rivals(cells if len(marked_sets) == 1 else members), sense, grid)
        if found is not None:
            yield _report_bold(ctx, placed, grid, settings, column, marked[0], *found, sense, source)


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
        printed(row_name(grid, best.row, settings)),
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
