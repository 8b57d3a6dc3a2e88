"""The arithmetic of a table's computed columns, read so that each cell can be recomputed.

A careful reader redoes the columns a table computes from its other columns: a percentage column
that is one count column over another ("# with long method" over "# of files"), a step column
that is the change from the row above ("Δ between iterations"), and the parenthesised share of a
"131 (0.60)" cell. A column is read as a `Series` (its numbers, row by row); a `Formula` says
how it follows from one or two other series, and `fit` tells, row by row, whether the printed
value is the result rounded, the result cut after its last digit (truncated), or neither. Every
input is taken as the interval its own rounding leaves, so a result is never asked to be more
exact than its inputs allow.
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import pairwise

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell
from ....latex.record import record
from ...memo import SECTION_CACHE_SIZE, Same
from ...quantities import slack
from ..tables.model import DERIVATIONS, DERIVED_HEADER, Grid, is_aggregate_row

# A column of percentages or proportions, by its header: "% of files", "Share", "Proportion".
_SHARE_HEADER = DeferredPattern(r"%|\bper\s*cent|\bpercent(?:age)?s?\b|\bshares?\b|\bproportions?\b|\bfractions?\b", re.IGNORECASE)
# A column of changes, by its header: those TAB004 names ("Δ", "Gain", "Imp. ×"), and growth.
_GROWTH = DeferredPattern(r"\bgrowth\b", re.IGNORECASE)
# A cell that writes a count and its share in parentheses: "131 (0.60)", "548 (58.7\%)".
_COUNT_AND_SHARE = DeferredPattern(r"^\s*(\d{1,3}(?:,\d{3})+|\d+)\s*\(\s*(\d+(?:\.\d+)?)\s*\\?%?\s*\)\s*$")


@record(slots=True)
class Value:
    """A number of a series: its value, its decimal places, and the cell it is written in."""

    value: float
    decimals: int
    cell: Cell
    exact: bool = False  # a count: no rounding to allow for

    @property
    def low(self) -> float:
        return self.value if self.exact else self.value - slack(self.decimals)

    @property
    def high(self) -> float:
        return self.value if self.exact else self.value + slack(self.decimals)


@record(slots=True)
class Series:
    """A column's numbers by body row (aggregate rows left out), with its printed name."""

    name: str
    column: int
    values: dict[int, Value]
    in_cell_share: bool = False  # the parenthesised shares of "count (share)" cells

    def whole_counts(self) -> bool:
        return all(value.decimals == 0 and value.value >= 0 for value in self.values.values())


def series_of(grid: Grid) -> tuple[Series, ...]:
    """Each numeric column of the table's body, and the in-cell shares of a column of "count (share)" cells.
    Read once per grid (one per table, `Grid.of`): four rules read each table's columns."""
    return _series(Same(grid))


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _series(same: Same[Grid]) -> tuple[Series, ...]:
    grid = same.value
    rows = [row for row in grid.body_rows() if not is_aggregate_row(grid.row_header(row))]
    found = []
    for column in grid.columns():
        name = grid.column_name(column)
        values = {
            row: Value(cell.value, cell.decimals, cell) for row in rows if (cell := grid.numeric(row, column)) and cell.value is not None
        }
        if len(values) >= 2:
            found.append(Series(name, column, values))
        shares = {row: share for row in rows if (share := _in_cell_share(grid, row, column))}
        if len(shares) >= 2:
            found.append(Series(name, column, shares, in_cell_share=True))
    return tuple(found)


def _in_cell_share(grid: Grid, row: int, column: int) -> Value | None:
    cell = grid.cells.get((row, column))
    counted = count_and_share(cell) if cell is not None else None
    return counted[1] if counted is not None else None


def count_and_share(cell: Cell) -> tuple[int, Value] | None:
    """The count and the parenthesised share of a "count (share)" cell: "131 (0.60)", "548 (58.7\\%)"."""
    match = _COUNT_AND_SHARE.match(cell.text)
    if match is None:
        return None
    written = match.group(2)
    return int(match.group(1).replace(",", "")), Value(float(written), len(written.partition(".")[2]), cell)


def is_share_column(grid: Grid, series: Series) -> bool:
    """A column of percentages by its header or its cells, which no other rule reads as a named derivation (Δ, ratio)."""
    if series.in_cell_share:
        return True
    header = grid.column_header(series.column)
    if DERIVED_HEADER.search(header):
        return False
    return bool(_SHARE_HEADER.search(header)) or all(value.cell.percent for value in series.values.values())


def names_change(grid: Grid, series: Series) -> bool:
    """A column headed as a value derived from others: "Δ", "Diff.", "Imp. ×", "Ratio", "Growth"."""
    header = grid.column_header(series.column)
    return bool(DERIVED_HEADER.search(header) or _GROWTH.search(header))


class Outcome(enum.Enum):
    ROUNDED = "rounded"  # only the result rounded gives the printed value
    TRUNCATED = "truncated"  # only the result cut after the printed digits gives it
    EITHER = "either"  # the result rounded and cut give it alike
    MISSED = "missed"  # neither


@record(slots=True)
class Formula:
    """How a series follows from its inputs: `compute` over the inputs' values, named for a message."""

    name: str  # "share", "step"
    formula: str  # "{a} / {b} × 100"
    compute: Callable[[float, float], float | None]


SHARE = Formula("share", "{a} / {b} × 100", lambda a, b: a / b * 100 if b > 0 else None)
PROPORTION = Formula("proportion", "{a} / {b}", lambda a, b: a / b if b > 0 else None)
STEP = Formula("step", "{a} − the {b} above", lambda a, b: a - b)
RELATIVE_STEP = Formula("relative step", "({a} − the {b} above) / the {b} above × 100", lambda a, b: (a - b) / b * 100 if b else None)


def outcome(printed: Value, formula: Formula, a: Value, b: Value) -> Outcome | None:
    """How `printed` follows from `a` and `b`; None when the inputs' rounding leaves the result open
    (more than four units of the printed value's last place) or undefined."""
    corners = [result for x in (a.low, a.high) for y in (b.low, b.high) if (result := formula.compute(x, y)) is not None]
    if len(corners) < 4:
        return None
    low, high = min(corners), max(corners)
    allowance, step = slack(printed.decimals), 10.0**-printed.decimals
    if high - low > 4 * step:
        return None
    rounded = low - allowance <= printed.value <= high + allowance
    cut_low, cut_high = sorted(math.trunc(bound / step + 1e-9) * step for bound in (low, high))
    cut = cut_low - 1e-9 <= printed.value <= cut_high + 1e-9
    return {(True, True): Outcome.EITHER, (True, False): Outcome.ROUNDED, (False, True): Outcome.TRUNCATED}.get(
        (rounded, cut), Outcome.MISSED
    )


@record(slots=True)
class Fit:
    """A formula of one or two input series that a series follows, row by row."""

    series: Series
    formula: Formula
    a: Series
    b: Series
    outcomes: dict[int, Outcome]  # by row, for the rows whose inputs and result are all there
    inputs: dict[int, tuple[Value, Value]]

    def rows(self, wanted: Outcome) -> list[int]:
        return [row for row, found in self.outcomes.items() if found is wanted]

    @property
    def held(self) -> int:
        return len(self.outcomes) - len(self.rows(Outcome.MISSED))

    def established(self) -> bool:
        """No accident of two columns: three rows or more follow it and at least two in three of the rows
        checked, or five rows or more and most of them (a run of wrong rows at the end of a long table)."""
        missed = len(self.outcomes) - self.held
        return (self.held >= 3 and self.held * 3 >= len(self.outcomes) * 2) or (self.held >= 5 and self.held > missed)

    def truncates(self) -> bool:
        """Two rows or more give the value only cut after its digits, and none only rounded: the column truncates."""
        return len(self.rows(Outcome.TRUNCATED)) >= 2 and not self.rows(Outcome.ROUNDED)


def _fit(series: Series, formula: Formula, a: Series, b: Series, pairs: Iterator[tuple[int, Value, Value]]) -> Fit:
    outcomes: dict[int, Outcome] = {}
    inputs: dict[int, tuple[Value, Value]] = {}
    for row, left, right in pairs:
        printed = series.values.get(row)
        found = outcome(printed, formula, left, right) if printed is not None else None
        if found is not None:
            outcomes[row] = found
            inputs[row] = (left, right)
    return Fit(series, formula, a, b, outcomes, inputs)


def share_fits(target: Series, others: Sequence[Series]) -> list[Fit]:
    """Every pair of count columns whose share (or proportion, for a column of values up to 1) the target follows."""
    counts = [other for other in others if other is not target and not other.in_cell_share and other.whole_counts()]
    formulas = (SHARE, PROPORTION) if all(value.value <= 1 for value in target.values.values()) else (SHARE,)
    fits = []
    for part in counts:
        for whole in counts:
            if part is whole:
                continue
            rows = [row for row in target.values if row in part.values and row in whole.values]
            for formula in formulas:
                counted = ((row, replace(part.values[row], exact=True), replace(whole.values[row], exact=True)) for row in rows)
                fits.append(_fit(target, formula, part, whole, counted))
    return [found for found in fits if found.established()]


def step_fits(grid: Grid, target: Series, others: Sequence[Series]) -> list[Fit]:
    """Every column whose change from the row above (difference, or relative change) the target follows:
    a "Δ" column beside the values it steps through."""
    if not names_change(grid, target):
        return []
    fits = []
    for source in others:
        if source.column == target.column or source.in_cell_share:
            continue
        rows = sorted(source.values)
        steps = [(row, source.values[row], source.values[above]) for above, row in pairwise(rows) if row == above + 1]
        for formula in (STEP, RELATIVE_STEP):
            fits.append(_fit(target, formula, source, source, iter(steps)))
    return [found for found in fits if found.established()]


def explained(fits: Sequence[Fit], row: int) -> bool:
    """Whether some fit reads the row's value right: a row another formula gives is no slip."""
    return any(found.outcomes.get(row, Outcome.MISSED) is not Outcome.MISSED for found in fits)


def pair_fits(target: Series, others: Sequence[Series]) -> list[Fit]:
    """Every pair of other columns whose ratio, difference, relative change or share the column follows, row by row."""
    inputs = [other for other in others if other.column != target.column and not other.in_cell_share]
    fits = []
    for derivation in DERIVATIONS:
        formula = Formula(derivation.name, derivation.formula, derivation.compute)
        for a in inputs:
            for b in inputs:
                if a is not b:
                    rows = (row for row in target.values if row in a.values and row in b.values)
                    fits.append(_fit(target, formula, a, b, ((row, a.values[row], b.values[row]) for row in rows)))
    return [found for found in fits if found.established()]


def best(fits: Sequence[Fit]) -> Fit | None:
    """The fit most rows follow, fewest rows missing it on a tie."""
    return max(fits, key=lambda found: (found.held, -len(found.rows(Outcome.MISSED))), default=None)
