"""The intervals a table gives where its header, caption or notes, not the cell, say they are intervals.

Three layouts, as tables of estimates print them:
- one cell holds the estimate and its interval, "1.45 (1.21, 1.74)" or "1.45 [1.21–1.74]", under a header or a
  caption that names the interval ("OR (95% CI)", "median (IQR)", "mean (range)");
- a column of intervals, "(1.21, 1.74)" or "1.21 to 1.74", headed by an interval's name ("95% CI"), bounds the
  estimate column nearest to its left;
- two adjacent columns headed as the lower and the upper bound ("Lower", "Upper"; "2.5%", "97.5%"; "LCL", "UCL")
  bound the estimate column nearest to their left.
The estimate column is the nearest one left of the interval that holds a number in the row and is no spread or
test (SE, SD, t, z, p, df, N, R-hat): "Mean | SD | 95% CI" bounds the mean. An estimate and an interval whose
headers put them on two scales (a log odds ratio and the odds ratio's bounds) are not paired.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ....latex.record import record
from .model import BOUNDS, ReportedInterval, interval_number

_INTERVAL_HEADER = DeferredPattern(
    r"(?<!\w)(?:CIs?|C\.I\.|CrIs?|HDIs?|HPDIs?|(?:confidence|credible|credibility|compatibility|uncertainty)\s+intervals?)(?!\w)",
    re.IGNORECASE,
)
# A spread or a range printed beside its centre contains it just as an interval does: "median (IQR)", "mean (range)".
_SPREAD_HEADER = DeferredPattern(r"\b(?:IQR|interquartile|range|min(?:imum)?\s*[-–,]\s*max(?:imum)?)\b", re.IGNORECASE)
_IN_CELL = DeferredPattern(rf"^\s*(?P<estimate>[-−–]?\s?(?:\d+(?:\.\d*)?|\.\d+))\s*[*†‡]*\s*(?P<percent>%)?\s*[\[(]\s*{BOUNDS}\s*[\])]\s*$")
_BOUNDS_CELL = DeferredPattern(rf"^\s*[\[(]?\s*{BOUNDS}\s*[\])]?\s*$")
_LOWER_HEADER = DeferredPattern(
    r"^\s*(?:(?:CI|95\s*%\s*CI)?\s*lower(?:\s+(?:bound|limit|CI|95\s*%(?:\s*CI)?))?|LCL|CI\s*low|2\.5\s*%(?:\s*quantile)?|Q?2\.5)\s*$",
    re.IGNORECASE,
)
_UPPER_HEADER = DeferredPattern(
    r"^\s*(?:(?:CI|95\s*%\s*CI)?\s*upper(?:\s+(?:bound|limit|CI|95\s*%(?:\s*CI)?))?|UCL|CI\s*high|97\.5\s*%(?:\s*quantile)?|Q?97\.5)\s*$",
    re.IGNORECASE,
)
# What stands between an estimate and its interval without being the estimate: spreads, tests, sizes, diagnostics.
_NOT_ESTIMATE_HEADER = DeferredPattern(
    r"^\s*(?:S\.?E\.?M?|S\.?D\.?|std\.?\s*(?:err(?:or|\.)?|dev(?:iation|\.)?)|standard\s+(?:error|deviation)|t|z|W|Wald|F|"
    r"p|p[-\s]?values?|Pr\s*\(>\s*\|[tz]\|\)|Sig\.?|df|d\.?f\.?|N|n|ESS|R-?hat|\\?hat\{?R\}?|R̂|[tz][-\s]?(?:value|stat(?:istic)?))\s*$",
    re.IGNORECASE,
)
_ANOTHER_SCALE = DeferredPattern(r"\blog|\bln\b|\bexp\b|\bexponentiated|\blogit", re.IGNORECASE)


@record(slots=True)
class TableInterval:
    """An interval a table gives an estimate: the interval read as prose reads one, and the cells it sits in."""

    interval: ReportedInterval
    estimate: Cell
    bounds: Cell  # the cell of the interval, or of its lower bound where the bounds have columns of their own


def table_intervals(table: Table, notes: str) -> Iterator[TableInterval]:
    """Every interval of `table` that its header, caption or `notes` name, with the estimate it bounds."""
    words = f"{table.caption or ''} {notes}"
    widest = max((len(row) for row in table.rows), default=0)
    headers = [_plain(table.column_header(column)) for column in range(widest)]
    named_by_caption = _INTERVAL_HEADER.search(words) is not None
    interval_columns = {column for column, header in enumerate(headers) if _INTERVAL_HEADER.search(header)}
    spread_columns = {column for column, header in enumerate(headers) if _SPREAD_HEADER.search(header)}
    bound_pairs = [
        column for column in range(widest - 1) if _LOWER_HEADER.match(headers[column]) and _UPPER_HEADER.match(headers[column + 1])
    ]
    if not (named_by_caption or interval_columns or spread_columns or bound_pairs):
        return
    for row in table.rows[table.header_rows :]:
        by_column = {cell.column: cell for cell in row}
        for cell in row:
            named = named_by_caption or cell.column in interval_columns or cell.column in spread_columns
            if named and (match := _IN_CELL.match(cell.text)):
                yield TableInterval(_interval(match, match.group("estimate"), bool(match.group("percent"))), cell, cell)
            elif cell.column in interval_columns and (match := _BOUNDS_CELL.match(cell.text)):
                estimate = _estimate_left_of(cell.column, by_column, headers)
                if estimate is not None:
                    yield TableInterval(_interval(match, _written(estimate), estimate.percent), estimate, cell)
        for column in bound_pairs:
            low, high = by_column.get(column), by_column.get(column + 1)
            estimate = _estimate_left_of(column, by_column, headers)
            if low is None or high is None or low.value is None or high.value is None or estimate is None:
                continue
            bounds = _BOUNDS_CELL.match(f"{low.text.strip()}, {high.text.strip()}")
            if bounds is not None:
                yield TableInterval(_interval(bounds, _written(estimate), estimate.percent), estimate, low)


def _plain(header: str) -> str:
    return header.replace("$", "").replace("\\", "").strip()


def _estimate_left_of(column: int, by_column: dict[int, Cell], headers: list[str]) -> Cell | None:
    """The nearest cell left of `column` that is an estimate on the interval's scale: "Mean | SD | 95% CI" bounds the mean."""
    for left in range(column - 1, 0, -1):
        cell = by_column.get(left)
        if cell is None or cell.value is None or _NOT_ESTIMATE_HEADER.match(headers[left]) or _BOUNDS_CELL.match(cell.text):
            continue
        if bool(_ANOTHER_SCALE.search(headers[left])) != bool(_ANOTHER_SCALE.search(headers[column])):
            return None
        return cell
    return None


def _written(cell: Cell) -> str:
    """A cell's number as its places print it, without the stars or marks around it ("1.45***")."""
    return f"{cell.value:.{cell.decimals}f}"


def _interval(bounds: re.Match[str], estimate_text: str, in_percent: bool) -> ReportedInterval:
    bounds_percent = "%" in bounds.group(0)[bounds.start("low") - bounds.start() :]
    return ReportedInterval(
        interval_number(bounds.group("low")),
        interval_number(bounds.group("high")),
        bounds.group("low").strip(),
        bounds.group("high").strip(),
        bounds.start("low"),
        bounds.end("high"),
        interval_number(estimate_text),
        estimate_text,
        0,
        in_percent != bounds_percent,
        in_percent,
    )
