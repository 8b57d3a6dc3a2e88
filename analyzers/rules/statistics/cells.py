"""Impossible values in a table's cells, where the column or the row says what the number is.

A cell holds a bare number; what it measures is in its header. Two headers make a bound sure:
- a p-value column ("p", "p-value", "Pr(>|z|)", "Sig.", every number of it in [0, 1]: a "p" of
  orders or dimensions is not one) whose cell is exactly 0 (".000", "0.0e+00"), and, in a table
  whose caption, notes or header speak of p-values, a zero in scientific notation ("0.0e+00" is
  how software prints an underflowed p);
- a share in a descriptive-statistics table (columns Mean and Max): a row named a percent,
  share, proportion or fraction whose mean and minimum are on the 0–1 scale, as another share of
  the table is (its maximum at most 1), and whose maximum lies a little above 1. A percentage
  on the 0–100 scale has a mean above 1 or a maximum well above 2, and is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ....latex.record import record
from .model import ZERO_P
from .table_p import p_columns

_SPEAKS_OF_P = DeferredPattern(r"\bp[-\s]?values?\b|\bPr\s*\(>", re.IGNORECASE)
# "0.0e+00", "0e0", "0.00E-00", "0 × 10^0": the zero of a p printed by software.
_SCIENTIFIC_ZERO = DeferredPattern(r"(?<![\d.])0(?:\.0+)?\s*(?:[eE][+-]?0+|[×x]\s*10\^\{?[+-]?0+\}?)(?!\d)")
# ".000", "0.00": a p of exactly 0 as a p column prints it (a bare "0" may be an order or a count).
_PLAIN_ZERO = DeferredPattern(r"^\s*0?\.0{2,}\s*$")
_SHARE = DeferredPattern(r"\b(?:percent(?:age)?|share|proportion|fraction)\b", re.IGNORECASE)
_MEAN = DeferredPattern(r"^\s*(?:mean|average|avg\.?)\s*$", re.IGNORECASE)
_MAX = DeferredPattern(r"^\s*(?:max(?:imum)?\.?)\s*$", re.IGNORECASE)
_MIN = DeferredPattern(r"^\s*(?:min(?:imum)?\.?)\s*$", re.IGNORECASE)
# A share overflowing 1 by a slip; a larger maximum more likely means a 0–100 percentage.
_OVERFLOW_CAP = 2.0


@record(slots=True)
class ImpossibleCell:
    """A cell whose number its column or row makes impossible, and why."""

    cell: Cell
    written: str
    why: str
    kind: str


def impossible_cells(table: Table, notes: str) -> Iterator[ImpossibleCell]:
    yield from _zero_p_cells(table, notes)
    yield from _overflowing_shares(table)


def _zero_p_cells(table: Table, notes: str) -> Iterator[ImpossibleCell]:
    columns = {column for column in p_columns(table) if _probabilities(table, column)}
    headers = " ".join(cell.text for row in table.rows[: table.header_rows] for cell in row)
    speaks_of_p = bool(columns) or _SPEAKS_OF_P.search(f"{notes} {headers}") is not None
    for row in table.rows[table.header_rows :]:
        for cell in row[1:]:
            zero = _SCIENTIFIC_ZERO.search(cell.text) if speaks_of_p else None
            if zero is None and cell.column in columns and _PLAIN_ZERO.match(cell.text):
                zero = _PLAIN_ZERO.match(cell.text)
            if zero is not None:
                written = f"p = {zero.group(0).strip()}"
                yield ImpossibleCell(cell, written, ZERO_P, "moderate: a p-value cell of 0")


def _probabilities(table: Table, column: int) -> bool:
    """Every number of the column lies in [0, 1]: a column of p-values, not a "p" of orders or dimensions."""
    values = [cell.value for row in table.rows[table.header_rows :] for cell in row if cell.column == column and cell.value is not None]
    return bool(values) and all(0 <= value <= 1 for value in values)


def _overflowing_shares(table: Table) -> Iterator[ImpossibleCell]:
    header = {cell.column: cell.text for row in table.rows[: table.header_rows] for cell in row}
    mean = next((column for column, text in header.items() if _MEAN.match(text)), None)
    most = next((column for column, text in header.items() if _MAX.match(text)), None)
    least = next((column for column, text in header.items() if _MIN.match(text)), None)
    if mean is None or most is None:
        return
    shares = []
    for row in table.rows[table.header_rows :]:
        values = {cell.column: cell for cell in row if cell.value is not None and not cell.percent}
        if row and _SHARE.search(row[0].text) and mean in values and most in values:
            shares.append((row[0].text, values[mean].value, values[most], values[least].value if least in values else None))
    on_unit_scale = any(0 < top.value <= 1 for _, average, top, _ in shares if average is not None and top.value is not None)
    for name, average, top, bottom in shares if on_unit_scale else ():
        assert average is not None and top.value is not None
        if 0 <= average <= 1 and 1 < top.value <= _OVERFLOW_CAP and (bottom is None or 0 <= bottom <= 1):
            why = f"'{name.strip()}' is a share on the 0–1 scale (mean {average:g}), as the table's other shares are, and cannot exceed 1"
            yield ImpossibleCell(top, f"max {top.text.strip()}", why, "moderate: a share's maximum above 1")
