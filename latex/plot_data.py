"""The numbers a pgfplots figure plots, read as a table: `\\addplot coordinates {(A,3.1) (B,8.2)};`.

A sentence citing such a figure ("3.1x faster", "up to 8.2") describes the plotted points, which
sit in the source like a table's cells. Each plotted x is a row (named by its symbolic coordinate,
by its tick label, or by the number), each series a column (named by its legend entry; series
without one share a column named by the y label): the rules that read a cited table read it.
Only data written in the figure is read: `\\addplot table {file.csv}` and `\\addplot {x^2}` are not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .deferred_pattern import DeferredPattern
from .model import Cell, Table
from .tables import read_cell_number, read_number

_AXIS = DeferredPattern(r"\\begin\s*\{(axis|semilogxaxis|semilogyaxis|loglogaxis)\}(.*?)\\end\s*\{\1\}", re.DOTALL)
# An \addplot with its options, up to the data it plots: `coordinates {` or `table[…] {`.
_ADDPLOT = DeferredPattern(r"\\addplot\+?\s*(?:\[[^\]]*\]\s*)?(?:plot\s*(?:\[[^\]]*\]\s*)?)?(coordinates|table\s*(?:\[[^\]]*\])?)\s*\{")
_POINT = DeferredPattern(r"\(\s*([^(),]+?)\s*,\s*([^(),]+?)\s*\)")
_LEGEND = DeferredPattern(r"\\legend\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_LEGEND_ENTRY = DeferredPattern(r"\\addlegendentry\s*(?:\[[^\]]*\])?\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
# An axis option `name={…}` (after a comma or the bracket: "minor xtick" is another option).
_OPTION = r"[,\[]\s*{name}\s*=\s*\{{((?:[^{{}}]|\{{[^{{}}]*\}})*)\}}"
_MACRO = DeferredPattern(r"\\[A-Za-z@]+\*?|[{}$]|\\[ ,;!]")
# A plot of more points (a dense curve) is read by the eye, not quoted point by point.
_MOST_POINTS = 200
_COMMENT = DeferredPattern(r"(?<!\\)%[^\n]*")


def plotted_tables(source: str, start: int, end: int) -> list[Table]:
    """The tables of the axes in `source[start:end]` (a figure), one per axis that plots numbers written in it."""
    text = _COMMENT.sub(lambda match: " " * len(match.group(0)), source[start:end])
    tables = []
    for axis in _AXIS.finditer(text):
        table = _axis_table(text, axis, start)
        if table is not None:
            tables.append(table)
    return tables


def _axis_table(text: str, axis: re.Match[str], offset: int) -> Table | None:
    body, body_start = axis.group(2), axis.start(2)
    series = list(_series(body))
    if not series or sum(len(points) for points in series) > _MOST_POINTS:
        return None
    legend = _legend(body)
    ticks = _tick_names(body, "y" if re.search(r"[,\[]\s*xbar\b", body) else "x")  # the axis that names the points
    y_label = _plain(_option(body, "ylabel") or "") or "value"
    columns = [legend[index] if index < len(legend) else y_label for index in range(len(series))]
    names = list(dict.fromkeys(columns))
    rows: dict[str, dict[int, Cell]] = {}
    for column_name, points in zip(columns, series):
        column = names.index(column_name) + 1
        for name, value, at, until in points:
            start, end = offset + body_start + at, offset + body_start + until
            cell = Cell(0, column, value, start, end)
            read_cell_number(cell)
            if cell.value is not None:
                row_name = ticks.get(name, name)
                rows.setdefault(row_name, {0: Cell(0, 0, row_name, start, start)})[column] = cell
    header_at = offset + axis.start()
    grid = [[Cell(0, column, name, header_at, header_at) for column, name in enumerate(["", *names])]]
    grid += [[cells[column] for column in sorted(cells)] for cells in rows.values()]
    for number, row in enumerate(grid):
        for cell in row:
            cell.row = number
    return Table(grid, header_at, offset + axis.end(), axis.group(1), 1)


def _series(body: str) -> Iterator[list[tuple[str, str, int, int]]]:
    """Each plot's points as (x name, y text, start, end of the y text): `(A, 3.1)`, or `(3.1, A)` in a chart
    of horizontal bars, whose names are on the y axis."""
    for plot in _ADDPLOT.finditer(body):
        data_start = plot.end()
        data_end = _closing(body, data_start - 1)
        if data_end is None:
            continue
        points = list(_points(body, data_start, data_end) if plot.group(1) == "coordinates" else _inline_rows(body, data_start, data_end))
        if points:
            yield points


def _points(body: str, start: int, end: int) -> Iterator[tuple[str, str, int, int]]:
    for point in _POINT.finditer(body, start, end):
        horizontal = read_number(point.group(2)) is None and read_number(point.group(1)) is not None
        name, value = (2, 1) if horizontal else (1, 2)
        yield point.group(name), point.group(value), point.start(value), point.end(value)


def _inline_rows(body: str, start: int, end: int) -> Iterator[tuple[str, str, int, int]]:
    """The first two columns of a table written inline, under its header: `x y \\\\ 1 3.1 \\\\ 2 4.0`."""
    lines = [line for line in re.finditer(r"[^\n\\]+", body[start:end]) if line.group(0).strip()]
    if len(lines) < 2 or not any(read_number(word) is not None for word in lines[1].group(0).split()):
        return  # a file name, not data
    for line in lines[1:]:
        words = list(re.finditer(r"\S+", line.group(0)))
        if len(words) >= 2:
            at = start + line.start() + words[1].start()
            yield words[0].group(0), words[1].group(0), at, at + len(words[1].group(0))


def _closing(text: str, opening: int) -> int | None:
    depth = 0
    for index in range(opening, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return index
    return None


def _legend(body: str) -> list[str]:
    listed = _LEGEND.search(body) or re.search(_OPTION.format(name="legend entries"), body)
    entries = _split(listed.group(1)) if listed else [match.group(1) for match in _LEGEND_ENTRY.finditer(body)]
    return [_plain(entry) for entry in entries]


def _tick_names(body: str, axis: str) -> dict[str, str]:
    """The label each numbered tick of `axis` shows: `xtick={0,1}, xticklabels={Homogeneous, FlexCrypt}`."""
    ticks, labels = _option(body, f"{axis}tick"), _option(body, f"{axis}ticklabels")
    if not ticks or not labels:
        return {}
    return {tick.strip(): _plain(label) for tick, label in zip(_split(ticks), _split(labels)) if _plain(label)}


def _option(body: str, name: str) -> str | None:
    match = re.search(_OPTION.format(name=re.escape(name)), body)
    return match.group(1) if match else None


def _split(values: str) -> list[str]:
    """A comma-separated list whose items may hold braced commas."""
    items, depth, current = [], 0, ""
    for char in values:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append(current)
            current = ""
        else:
            current += char
    return [*items, current]


def _plain(text: str) -> str:
    return " ".join(_MACRO.sub(" ", text).split())
