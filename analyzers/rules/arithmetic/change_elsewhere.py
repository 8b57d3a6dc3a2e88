"""ARI013: a Δ column whose cell in one row is not the change of its value column from what another table gives for that row.

## How it decides
A column headed as a change ("Δ", "Gain", "Diff.") that neither two columns of its own row nor
the row above explain (TAB004 and ARI006 read those) may be the change from a value the paper
prints elsewhere: an online score against the offline score of the main results table. Its
value column is the nearest numeric column to its left that is not itself a change. The values
it may be taken from are the cells of every other table in the paper on a row of the same
header, in a column whose header names the value column's ("LPT (Ours)" for "LPT"; "LPT-EI" is
another method). A row holds when one of its reference cells gives the change (value minus
reference, or the reverse; the difference, or the change relative to the reference in percent)
within the rounding of all three numbers. The reference is decided by the rows that recompute:
when three rows or more and two in three (or five rows or more and most rows) hold under one
formula, each row that none of its reference cells gives is flagged. A row no other table holds
is left alone: the change may be from a number the paper never prints.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import shown_table
from ...registry import Scope, rule
from ..tables.model import DERIVED_HEADER, Grid, author_rule_macros, cell_statement
from .cited import TableByBlock
from .columns import Fit, Formula, Outcome, Series, Value, names_change, outcome, pair_fits, series_of, step_fits
from .table_report import MissedRow, MissedRowViolation

# The changes a Δ column may take from its reference, each way round.
_FORMULAS = (
    Formula("difference", "{a} − {b}", lambda a, b: a - b),
    Formula("difference", "{b} − {a}", lambda a, b: b - a),
    Formula("relative change", "({a} − {b}) / {b} × 100", lambda a, b: (a - b) / b * 100 if b else None),
)
_WORD = DeferredPattern(r"[^\s()\[\]{},;:]+")


@record(slots=True)
class ChangeElsewhere(MissedRowViolation):
    computed = "change from the other table"


@record(slots=True, eq=False)
class _Reference:
    """A cell of another table for one row of the change column."""

    file: str
    grid: Grid
    value: Value


@record(slots=True, eq=False)
class _ChangeColumn:
    """A change column its own table does not explain, with the column of values it is a change of."""

    placed: PlacedBlock
    grid: Grid
    change: Series
    value: Series


@record(slots=True, eq=False)
class _ChangeAt:
    """A `_ChangeColumn` as a section's part keeps it: its table by block place, its two columns by their place among
    the table's series, so that it holds no offsets and is read where its section holds it now."""

    table: TableByBlock
    change: int
    value: int

    def column(self, section: Section) -> _ChangeColumn:
        _, grid = self.table.grid(section)
        columns = series_of(grid)
        return _ChangeColumn(section.blocks[self.table.block], grid, columns[self.change], columns[self.value])


def _words(header: str) -> frozenset[str]:
    return frozenset(word.casefold() for word in _WORD.findall(header))


def _row_key(header: str) -> str:
    return " ".join(header.split()).casefold()


def references(column: _ChangeColumn, tables: Sequence[tuple[str, Grid]]) -> dict[int, list[_Reference]]:
    """For each row of the change column, the cells other tables give on a row of its header under a column naming its value column."""
    named = _words(column.grid.own_header(column.value.column))
    rows = {_row_key(column.grid.row_header(row)): row for row in column.change.values if row in column.value.values}
    found: dict[int, list[_Reference]] = {}
    if not named:
        return found
    for file, grid in tables:
        if grid.table is column.grid.table:
            continue
        wanted = [col for col in grid.columns() if named <= _words(grid.own_header(col))]
        for body_row in grid.body_rows() if wanted else ():
            row = rows.get(_row_key(grid.row_header(body_row)))
            for col in wanted if row is not None else ():
                cell = grid.numeric(body_row, col)
                if row is not None and cell is not None and cell.value is not None:
                    found.setdefault(row, []).append(_Reference(file, grid, Value(cell.value, cell.decimals, cell)))
    return found


def _held(column: _ChangeColumn, formula: Formula, row: int, reference: _Reference) -> bool:
    found = outcome(column.change.values[row], formula, column.value.values[row], reference.value)
    return found is not None and found is not Outcome.MISSED


def _fit(column: _ChangeColumn, formula: Formula, by_row: dict[int, list[_Reference]]) -> tuple[Fit, dict[int, _Reference]]:
    """The formula's outcome on each row with a reference, and the reference each row was read against (the one that
    gives it, else the first)."""
    outcomes: dict[int, Outcome] = {}
    inputs: dict[int, tuple[Value, Value]] = {}
    chosen: dict[int, _Reference] = {}
    for row, candidates in by_row.items():
        giving = [reference for reference in candidates if _held(column, formula, row, reference)]
        chosen[row] = (giving or candidates)[0]
        outcomes[row] = Outcome.ROUNDED if giving else Outcome.MISSED
        inputs[row] = (column.value.values[row], chosen[row].value)
    reference = Series("the other table's value", -1, {row: found.value for row, found in chosen.items()})
    return Fit(column.change, formula, column.value, reference, outcomes, inputs), chosen


def _against_other_tables(ctx: RuleContext, parts: list[tuple[Section, list[TableByBlock | _ChangeAt]]]) -> Iterator[Finding]:
    columns = [item.column(section) for section, items in parts for item in items if isinstance(item, _ChangeAt)]
    tables = [item.grid(section) for section, items in parts for item in items if isinstance(item, TableByBlock)] if columns else []
    for column in columns:
        yield from _breaks(ctx, column, references(column, tables))


def _breaks(ctx: RuleContext, column: _ChangeColumn, by_row: dict[int, list[_Reference]]) -> Iterator[Finding]:
    fits = [_fit(column, formula, by_row) for formula in _FORMULAS]
    established = [(fit, chosen) for fit, chosen in fits if fit.established()]
    if not established:
        return
    fit, chosen = max(established, key=lambda pair: pair[0].held)
    kind = "moderate: four rows or more give the change from the other table" if fit.held >= 4 else "weak: three rows give it"
    for row in fit.rows(Outcome.MISSED):
        reference = chosen[row]
        other_grid, other = reference.grid, reference.value.cell
        name = f"{other_grid.column_name(other.column)} of Table {other_grid.table.label or 'without a label'}"
        named = replace(fit, b=replace(fit.b, name=name))
        cell = column.change.values[row].cell
        evidence = Evidence(
            kind=kind,
            statements=[
                cell_statement(ctx, column.placed.file, column.grid, cell),
                cell_statement(ctx, column.placed.file, column.grid, column.value.values[row].cell, "input"),
                cell_statement(ctx, reference.file, other_grid, other, "input"),
            ],
            reason=f"{fit.held} other rows of the column follow {fit.formula.formula.format(a=fit.a.name, b='the other table')}",
        )
        related = [ctx.related(reference.file, other.start, other.end, "the other table's value")]
        yield ctx.flag(
            ChangeElsewhere(MissedRow.of(ctx, column.grid, named, row)),
            column.placed.file,
            cell.start,
            cell.end,
            related=related,
            evidence=evidence,
        )


def _value_column(grid: Grid, change: Series, columns: Sequence[Series]) -> Series | None:
    """The nearest numeric column left of the change column that is not itself a change."""
    left = [other for other in columns if other.column < change.column and not other.in_cell_share and not names_change(grid, other)]
    return max(left, key=lambda other: other.column, default=None)


@rule(
    "ARI013",
    "change-against-other-table",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=_against_other_tables,
    placed_parts=True,  # tables by block index within the section, columns by their place in the table
)
def change_against_other_table(ctx: RuleContext, section: Section) -> Iterator[TableByBlock | _ChangeAt]:
    """## What it does
    Recomputes a column headed as a change ("Δ", "Gain") whose cells are the change of the
    value beside them from the value another table of the paper gives on the same row and
    column: an online score and its Δ against the offline table. When most rows recompute, a row
    that does not is flagged with the change the two tables give.

    ## Why is this bad?
    The Δ says how much a setting moved the result. A Δ that the two printed values do not give
    was computed from another number than the one the paper reports, so one of the three is wrong.

    ## Example
    ```latex
    % Table 1 (offline): hopper & 58.52 \\\\  walker & 77.85 \\\\  ant & 80.8
    Dataset & LPT   & $\\Delta$ \\\\
    hopper  & 64.84 & 6.32 \\\\
    walker  & 79.54 & 1.69 \\\\
    ant     & 83.5  & 22.3 \\\\
    ```

    ## Use instead
    ```latex
    ant     & 83.5  & 2.7 \\\\
    ```

    ## Evidence
    "moderate: four rows or more give the change from the other table" when four rows or more
    follow it; "weak: three rows give it" otherwise.

    ## Fix safety
    No fix: the wrong number may be the change or either value.
    """
    rule_macros = author_rule_macros(ctx)
    for block, placed in enumerate(section.blocks):
        shown = shown_table(placed)
        if shown is None:
            continue
        table = TableByBlock(block, rule_macros)
        yield table
        if not any(DERIVED_HEADER.search(cell.text) for row in shown.table.rows[: shown.table.header_rows] for cell in row):
            continue  # no header names a change: no column to check
        grid = Grid.of(shown.table, rule_macros)
        columns = series_of(grid)
        for change in columns:
            if change.in_cell_share or not names_change(grid, change) or pair_fits(change, columns) or step_fits(grid, change, columns):
                continue  # not a change, or one its own table explains
            value = _value_column(grid, change, columns)
            if value is not None:
                yield _ChangeAt(table, columns.index(change), columns.index(value))
