"""A table of model estimates with one column per statistic: estimate, standard error, z or t, p.

Statistics software prints a model's coefficients as rows and their statistics as columns
("Estimate | Std. Error | z value | Pr(>|z|)"); a paper copies them, often for two models side by
side ("β | z | p" for humans, then for the model). The columns are found by their headers, and
each estimate column opens a group that the standard error, statistic and p columns after it
belong to. In each row the statistic is the estimate over its standard error, and the p follows
from the statistic: exactly from a z, and from a t within the range its unknown degrees of freedom
allow (the normal's p, the smallest, to Student's t with 10 degrees of freedom, the largest).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ....latex.record import record
from .regression import UNSTATED_DEGREES, half_unit, outside, p_bounds, p_contradicts, ratio_bounds
from .table_p import P_HEADER

_ESTIMATE = DeferredPattern(r"^(?:estimates?|est\.?|β|\\beta|b|B|coef(?:ficient)?s?\.?|log[- ]?odds)$", re.IGNORECASE)
_ERROR = DeferredPattern(r"^(?:SE|S\.E\.|std\.?\s*err(?:or)?\.?|standard\s+error)$", re.IGNORECASE)
_STATISTIC = DeferredPattern(r"^(?P<name>[zt])(?:[- ]?(?:values?|scores?|stat(?:istics?)?|ratios?))?$", re.IGNORECASE)
_HEADER_REACH = 4


@record(slots=True)
class RowMismatch:
    """A cell that the row's other statistics contradict, and what they give."""

    cell: Cell
    written: str
    expected: str


@dataclass(slots=True)
class _Group:
    estimate: int | None = None
    error: int | None = None
    statistic: int | None = None
    name: str = "z"
    p: int | None = None


def header_words(text: str) -> str:
    """A header cell's words, past a bold macro the plain text kept and math dollars. An author's
    one-letter macro loses its space in the plain text ("\\B z-score" reads "\\Bz-score"), so a
    macro of one capital letter is taken alone."""
    return re.sub(r"^(?:\\(?:[A-Z](?![A-Za-z]*\s)|[A-Za-z]+)\s*)+", "", " ".join(text.split())).strip("$ ")


def _groups(table: Table) -> tuple[int, list[_Group]]:
    """The row that heads the statistic columns (among the first few: a spanning row may stand above it) and its groups."""
    for index, row in enumerate(table.rows[:_HEADER_REACH]):
        groups: list[_Group] = []
        for cell in row[1:]:
            header = header_words(cell.text)
            if _ESTIMATE.match(header) or (not groups and (_ERROR.match(header) or _STATISTIC.match(header))):
                groups.append(_Group())
            group = groups[-1] if groups else None
            if group is None:
                continue
            if _ESTIMATE.match(header) and group.estimate is None:
                group.estimate = cell.column
            elif _ERROR.match(header):
                group.error = cell.column
            elif statistic := _STATISTIC.match(header):
                group.statistic, group.name = cell.column, statistic.group("name").lower()
            elif P_HEADER.match(header):
                group.p = cell.column
        complete = [group for group in groups if group.statistic is not None and (group.p is not None or group.error is not None)]
        if complete:
            return index, complete
    return 0, []


def row_mismatches(table: Table) -> Iterator[RowMismatch]:
    """Each statistic that its row's estimate and standard error cannot give, and each p its statistic cannot."""
    header, groups = _groups(table)
    for row in table.rows[header + 1 :] if groups else ():
        cells: dict[int | None, Cell] = {cell.column: cell for cell in row}
        for group in groups:
            statistic = _number(cells.get(group.statistic))
            if statistic is None:
                continue
            estimate, error = _number(cells.get(group.estimate)), _number(cells.get(group.error))
            if estimate is not None and error is not None and (found := _ratio_mismatch(estimate, error, statistic, group.name)):
                yield found
                continue
            if (found := _p_mismatch(statistic, cells.get(group.p), group.name)) is not None:
                yield found


def _number(cell: Cell | None) -> Cell | None:
    return cell if cell is not None and cell.value is not None and not cell.percent and "<" not in cell.text else None


def _ratio_mismatch(estimate: Cell, error: Cell, statistic: Cell, name: str) -> RowMismatch | None:
    b, se, value = estimate.value or 0.0, error.value or 0.0, abs(statistic.value or 0.0)
    if se <= half_unit(error.decimals) or value == 0:
        return None
    if outside(value, statistic.decimals, *ratio_bounds(b, estimate.decimals, se, error.decimals)):
        expected = f"|{name}| = {abs(b) / se:.2f} from the estimate and its standard error"
        return RowMismatch(statistic, f"{name} = {statistic.text.strip()}", expected)
    return None


def _p_mismatch(statistic: Cell, p_cell: Cell | None, name: str) -> RowMismatch | None:
    if p_cell is None or p_cell.value is None or p_cell.percent:
        return None
    value, half = abs(statistic.value or 0.0), half_unit(statistic.decimals)
    smallest, largest = p_bounds(max(value - half, 0.0), value + half, None if name == "z" else UNSTATED_DEGREES)
    if not p_contradicts("<" if "<" in p_cell.text else "=", p_cell.value, p_cell.decimals, smallest, largest):
        return None
    span = f"p = {smallest:.3g}" if largest - smallest < 1e-4 else f"p from {smallest:.3g} to {largest:.3g}"
    return RowMismatch(p_cell, f"p = {p_cell.text.strip()}", f"{span} from {name} = {statistic.text.strip()}")
