"""TAB006: in a table whose bold marks the best of each row, a bold cell that is not the best of its row."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import slack
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import Grid, author_rule_macros, cell_statement, read_direction, table_blocks

_ROWS = 4  # bold rows needed before the table's own use of bold says what bold means
_AGREEING = 0.8  # the share of them whose bold is the best of its row


@violation_type
class BoldNotRowBest(Violation):
    table: str | None  # its label
    row: str  # the row's name, as printed
    marked: str  # the bold cell as written
    marked_column: str
    better: str
    better_column: str
    higher_is_better: bool
    agreeing: int  # rows whose bold is their best
    rows: int  # rows with bold

    @property
    def message(self) -> str:
        name = f"Table {self.table}" if self.table else "a table"
        best = "highest" if self.higher_is_better else "lowest"
        return (
            f"{name} (row {self.row}) marks {self.marked} ({self.marked_column}) in bold, but {self.better} ({self.better_column}) is"
            f" {'higher' if self.higher_is_better else 'lower'}; in {self.agreeing} of its {self.rows} rows bold marks the row's {best} value"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.row} {self.marked} {self.better}"


@rule("TAB006", "bold-not-row-best", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION)
def bold_not_row_best(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Reads what bold means in a table from the table itself: when bold sits in several columns
    and, in nearly every row that has bold (four rows or more, four in five), marks that row's
    highest value (or in each its lowest), bold marks the best of each row: methods or metrics
    compared across the columns, one dataset or language pair per row. A row whose bold cell
    is beaten by another cell of the same row (beyond rounding) is flagged. Rows written
    wholly in bold (a highlighted method) and rows without bold are left alone; where the
    table has spanning column groups, each group is a row of its own.

    A table with column groups may bold each group's best and, in nearly every row with bold,
    the best of the whole row too ("Bold highlighting indicates top scores" over step-wise and
    final-return baselines): there a row whose best value is plain while a worse one is bold is
    flagged as well.

    ## Why is this bad?
    Bold is the table's claim of which method wins on that row; a reader counting wins reads
    the bold. A bold on the wrong cell credits the wrong method, and any "wins" tally built on
    it is wrong too.

    ## Example
    ```latex
    Pair  & BLEU & chrF & MiF1 \\\\
    DE-EN & .564 & .661 & \\textbf{.744} \\\\
    ZH-EN & \\textbf{.780} & .736 & .824 \\\\
    ```

    ## Use instead
    ```latex
    ZH-EN & .780 & .736 & \\textbf{.824} \\\\
    ```

    ## Evidence
    "moderate: bold marks the best of its row elsewhere in the table": the direction is the
    table's own, read from where its other bold cells sit; "moderate: the best of the row is bold
    elsewhere in the table" for a row whose plain best breaks the whole-row reading.

    ## Fix safety
    No fix: the bold may be right and a value wrong.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        if _opposite_metrics(grid):
            continue
        readings = [_reading(grid, grid.groups(), _bold_is_best, _EVERY_BOLD)]
        if grid.groups():  # bold on each column group's best may also mark the row's best: a row whose best is plain breaks it
            readings.append(_reading(grid, [], _best_is_bold, _BEST_BOLD))
        seen: set[tuple[int, int]] = set()
        for reading in filter(None, readings):
            for line in reading.breaking:
                yield from _report(ctx, placed, grid, line, reading, seen)


Line = list[Cell]


@record
class _Reading:
    """What bold means in a table, read from nearly every row with bold, and the rows that break it."""

    breaking: list[Line]
    sense: int
    agreeing: int
    rows: int
    kind: str  # the evidence class


_EVERY_BOLD = "moderate: bold marks the best of its row elsewhere in the table"
_BEST_BOLD = "moderate: the best of the row is bold elsewhere in the table"


def _reading(grid: Grid, groups: list[range], agrees: Callable[[Line, int], bool], kind: str) -> _Reading | None:
    """The table's rows (or column groups of rows) with bold, read one way: None unless nearly all agree."""
    lines = [line for row in grid.body_rows() for line in _row_lines(grid, row, groups)]
    for sense in (1, -1):
        agreeing = [line for line in lines if agrees(line, sense)]
        if len(agreeing) >= max(_ROWS, _AGREEING * len(lines)) and len({cell.column for line in lines for cell in line if cell.bold}) >= 2:
            return _Reading([line for line in lines if line not in agreeing], sense, len(agreeing), len(lines), kind)
    return None


def _opposite_metrics(grid: Grid) -> bool:
    """Columns whose text cells (their headers, or a header row the table did not set apart) name
    metrics of opposite directions (accuracy and error): a row mixes them, so none of its values is
    the row's best."""
    senses = {
        read_direction(cell.text, None)[0]
        for cell in grid.cells.values()
        if cell.value is None and cell.column_span == 1 and cell.column in grid.columns()
    }
    return {1, -1} <= senses


def _row_lines(grid: Grid, row: int, groups: list[range]) -> list[Line]:
    """The cells of a row compared with each other: the whole row, or each spanning group of columns;
    only those with bold on some but not all of their cells."""
    cells = [cell for column in grid.columns() if (cell := grid.numeric(row, column)) and not cell.text.lstrip().startswith("(")]
    parts = [[cell for cell in cells if cell.column in group] for group in groups] if groups else [cells]
    return [part for part in parts if len(part) >= 2 and any(cell.bold for cell in part) and not all(cell.bold for cell in part)]


def _bold_is_best(line: list[Cell], sense: int) -> bool:
    best = max(sense * cell.value for cell in line)  # type: ignore[operator]
    return all(sense * cell.value >= best - 2 * slack(cell.decimals) for cell in line if cell.bold)  # type: ignore[operator]


def _best_is_bold(line: Line, sense: int) -> bool:
    best = max(sense * cell.value for cell in line)  # type: ignore[operator]
    return any(sense * cell.value >= best - 2 * slack(cell.decimals) for cell in line if cell.bold)  # type: ignore[operator]


def _report(
    ctx: RuleContext, placed: PlacedBlock, grid: Grid, line: Line, reading: _Reading, seen: set[tuple[int, int]]
) -> Iterator[Finding]:
    """Each bold cell of a breaking row beaten by the row's best, once however many readings it breaks."""
    sense, agreeing, rows = reading.sense, reading.agreeing, reading.rows
    best = max(line, key=lambda cell: sense * cell.value)  # type: ignore[operator]
    printed = ctx.index.printed
    for marked in (cell for cell in line if cell.bold):
        if sense * (best.value - marked.value) <= slack(min(marked.decimals, best.decimals)) or _column_best(grid, marked, sense):  # type: ignore[operator]
            continue  # within rounding, or the bold may mark the best of its column
        if (marked.start, best.start) in seen:
            continue
        seen.add((marked.start, best.start))
        violation = BoldNotRowBest(
            placed.block.table.label,  # type: ignore[union-attr]
            printed(" ".join(grid.row_header(marked.row).split())),
            marked.text,
            printed(grid.column_name(marked.column)),
            best.text,
            printed(grid.column_name(best.column)),
            sense > 0,
            agreeing,
            rows,
        )

        evidence = Evidence(
            kind=reading.kind,
            statements=[cell_statement(ctx, placed.file, grid, marked), cell_statement(ctx, placed.file, grid, best)],
            reason=f"in {agreeing} of {rows} rows with bold, bold is the row's {'highest' if sense > 0 else 'lowest'} value",
        )
        yield ctx.flag(
            violation,
            placed.file,
            marked.start,
            marked.end,
            related=[ctx.related(placed.file, best.start, best.end, f"better value {best.text}")],
            evidence=evidence,
        )


def _column_best(grid: Grid, marked: Cell, sense: int) -> bool:
    column = [cell for row in grid.body_rows() if (cell := grid.numeric(row, marked.column))]
    return all(sense * (marked.value - cell.value) >= 0 for cell in column)  # type: ignore[operator]
