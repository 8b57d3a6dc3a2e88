"""How the arithmetic family reports a cell of a computed column: what the cell says, what its inputs give."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ....latex.manuscript import PlacedBlock
from ....latex.record import record
from ...context import RuleContext
from ...finding import Evidence, Finding
from ...violation import Violation, violation_type
from ..tables.model import Grid, cell_statement, signed
from .columns import Fit, Outcome, best, explained


@record(slots=True)
class MissedRow:
    """One row of a computed column, as printed, against what its inputs give."""

    table: str | None  # its label
    row: str
    column: str
    written: str
    formula: str  # "Long method / Files × 100"
    recomputed: str
    others: int  # how many other rows follow the formula

    @classmethod
    def of(cls, ctx: RuleContext, grid: Grid, fit: Fit, row: int) -> MissedRow:
        printed = ctx.index.printed
        value = fit.series.values[row]
        a, b = fit.inputs[row]
        exact = fit.formula.compute(a.value, b.value) or 0.0
        return cls(
            grid.table.label,
            printed(grid.row_header(row)),
            printed(fit.series.name),
            " ".join(value.cell.text.split()),
            fit.formula.formula.format(a=printed(fit.a.name), b=printed(fit.b.name)),
            signed(exact, value.decimals),
            fit.held,
        )

    def sentence(self, name: str) -> str:
        table = f"Table {self.table}" if self.table else "a table"
        return (
            f"{table} (row {self.row}, column {self.column}) gives {self.written}, but {self.formula} is {self.recomputed},"
            f" the {name} the column's other {self.others} rows give"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.column} {self.written} {self.recomputed}"


@violation_type
class MissedRowViolation(Violation):
    """A row of a computed column that its inputs do not give; `computed` names what the column is."""

    missed: MissedRow
    computed = ""

    @property
    def message(self) -> str:
        return self.missed.sentence(self.computed)

    @property
    def identity(self) -> str:
        return self.missed.identity


def report_breaks(
    ctx: RuleContext, placed: PlacedBlock, grid: Grid, fits: Sequence[Fit], violation: Callable[[MissedRow], Violation], rows_give: str
) -> Iterator[Finding]:
    """Each row that misses the formula most rows follow, unless another formula gives it; `rows_give` ends the
    evidence class ("give the share")."""
    found = best(fits)
    if found is None:
        return
    kind = f"strong: four rows or more {rows_give}" if found.held >= 4 else f"moderate: three rows {rows_give}"
    if found.held * 3 < len(found.outcomes) * 2:  # a run of rows misses it: which rows are wrong is less sure
        kind = f"moderate: most rows {rows_give}, over a third do not"
    for row in found.rows(Outcome.MISSED):
        if not explained(fits, row):
            yield report_missed(ctx, placed, grid, violation(MissedRow.of(ctx, grid, found, row)), found, row, kind)


def report_missed(ctx: RuleContext, placed: PlacedBlock, grid: Grid, violation: Violation, fit: Fit, row: int, kind: str) -> Finding:
    """Flag the row's cell, with the cells it is computed from as its evidence."""
    cell = fit.series.values[row].cell
    a, b = fit.inputs[row]
    # An in-cell share's count is in its own cell; a step's two inputs are in one column.
    inputs = [part for index, part in enumerate((a.cell, b.cell)) if part is not cell and (index == 0 or part is not a.cell)]
    evidence = Evidence(
        kind=kind,
        statements=[cell_statement(ctx, placed.file, grid, cell)]
        + [cell_statement(ctx, placed.file, grid, part, "input") for part in inputs],
        reason=f"{fit.held} other rows of the column follow {fit.formula.name} {fit.formula.formula.format(a=fit.a.name, b=fit.b.name)}",
    )
    return ctx.flag(
        violation,
        placed.file,
        cell.start,
        cell.end,
        related=[ctx.related(placed.file, part.start, part.end, "computed from") for part in inputs],
        evidence=evidence,
    )
