"""TAB004: a derived column (Δ, ratio, improvement) whose cell in one row does not follow from its row."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import DERIVED_HEADER, Fit, Grid, author_rule_macros, derivation_statements, derivations, is_aggregate_row, signed, table_blocks


@violation_type
class DerivedCellMismatch(Violation):
    table: str | None  # its label
    row: str  # the row's name, as printed
    column: str  # the derived column's header, as printed
    written: str  # the cell as written
    formula: str  # "SN − UN"
    recomputed: str
    name: str  # the derivation: "difference"
    rows: int  # how many other rows follow it

    @property
    def message(self) -> str:
        name = f"Table {self.table}" if self.table else "a table"
        return (
            f"{name} (row {self.row}, column {self.column}) gives {self.written}, but {self.formula} is {self.recomputed},"
            f" the {self.name} the column's other {self.rows} rows give"
        )

    @property
    def fix_title(self) -> str:
        return f"Replace with the recomputed {self.name} {self.recomputed}"

    @property
    def identity(self) -> str:
        return f"{self.table} {self.column} {self.written} {self.recomputed}"


@rule("TAB004", "derived-cell-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION)
def derived_cell_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes a derived column: one whose header names a value derived from two others
    ("Δ", "Diff.", "Imp. ×", "Ratio", "Speed-up", "Rel. change") and whose cells are, row by
    row, the difference, ratio, relative change or percentage share of two other columns of
    the table. When every row but one follows the same derivation of the same two columns
    (four rows or more, at least four in five), the one that does not is flagged with the
    value the others' rule gives. Rounding of all three cells is allowed for (the result over
    the interval each rounded input stands for), and so is truncation; a row that another
    derivation of the table explains, and aggregate rows (Avg, Total), are left alone.

    ## Why is this bad?
    A derived column is what readers quote ("+4.9 points", "2.2× faster"). A cell that does not
    follow from its own row is a slip in the derived value or in one of the values it is
    derived from, and either way the table reports something its numbers do not support.

    ## Example
    ```latex
    Pair  & SN   & UN   & $\\Delta$ \\\\
    DE-EN & .211 & -.026 & .24 \\\\
    FR-EN & .182 & .066 & .17 \\\\
    EN-FR & .104 & .042 & .06 \\\\
    ```

    ## Use instead
    ```latex
    FR-EN & .182 & .066 & .12 \\\\
    ```

    ## Evidence
    "strong: the header names a derivation its other rows follow" when four rows or more follow
    it and one does not.

    ## Fix safety
    The fix writes the recomputed value. It is unsafe: the wrong cell may be one of the two the
    value is derived from.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        rows = [row for row in grid.body_rows() if not is_aggregate_row(grid.row_header(row))]
        for column in grid.columns():
            if DERIVED_HEADER.search(grid.column_header(column)):
                yield from _breaks(ctx, placed, grid, column, rows)


def _breaks(ctx: RuleContext, placed: PlacedBlock, grid: Grid, column: int, rows: list[int]) -> Iterator[Finding]:
    """The rows that break the derivation the column follows everywhere else."""
    fits = derivations(grid, column, rows)
    if not fits or any(not found.failed for found in fits):
        return  # no derivation, or one that every row follows
    best = max(fits, key=lambda found: len(found.held))
    if len(best.held) < 4 or len(best.failed) * 5 > (len(best.held) + len(best.failed)):
        return
    explained = {row for found in fits if found.nearly_every_row for row in found.held}
    for row in best.failed:
        if row not in explained:
            yield _report(ctx, placed, grid, best, grid.numeric(row, column))  # type: ignore[arg-type]  # a failed row has the cell


def _report(ctx: RuleContext, placed: PlacedBlock, grid: Grid, best: Fit, cell: Cell) -> Finding:
    left, right = grid.numeric(cell.row, best.a), grid.numeric(cell.row, best.b)
    assert left is not None and right is not None  # a failed row has the three cells
    exact = best.derivation.compute(left.value, right.value)  # type: ignore[arg-type]
    recomputed = signed(exact or 0.0, cell.decimals)
    printed = ctx.index.printed
    formula = best.derivation.formula.format(a=printed(grid.column_name(best.a)), b=printed(grid.column_name(best.b)))
    table = placed.block.table
    violation = DerivedCellMismatch(
        table.label,  # type: ignore[union-attr]
        printed(grid.row_header(cell.row)),
        printed(grid.column_name(cell.column)),
        cell.text,
        formula,
        recomputed,
        best.derivation.name,
        len(best.held),
    )

    evidence = Evidence(
        kind="strong: the header names a derivation its other rows follow",
        statements=derivation_statements(ctx, placed.file, grid, cell, left, right),
        reason=f"{left.text} and {right.text} give {recomputed}; {len(best.held)} other rows follow the {best.derivation.name}",
    )
    return ctx.flag(
        violation,
        placed.file,
        cell.start,
        cell.end,
        edits=[ctx.edit(placed.file, cell.start, cell.end, recomputed)],
        related=[ctx.related(placed.file, part.start, part.end, "derived from") for part in (left, right)],
        evidence=evidence,
    )
