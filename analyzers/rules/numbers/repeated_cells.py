"""One result repeated in two tables: the cells that two tables hold under the same row and column names.

A main table and an ablation (or a per-dataset and a summary table) often repeat some results: the same
method's score on the same dataset. Where two tables repeat several results and all agree but one, that one
is the same quantity with two values ("the same system's score 92.2 in one table and 92.3 in another").
The agreement of the others is what shows the two tables report the same quantities: tables of two settings
(5-shot and 10-shot) under the same headers disagree nearly everywhere and are left alone.

Two tables may name their columns apart (one sets the epoch in a column of its own, the other in its
headers); there a row of the same name that repeats three or more results alike with their spreads pairs
the value it holds with another spread (`_row_spreads`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.record import record
from ...context import RuleContext
from ...quantities import CellAt, body_cells, name_words, spelled
from .model import CellPlace, lowest_headers, section_tables, significant_figures

# Two tables must repeat this many results that agree before one that differs is reported, at most one
# in `_AGREEING_PER_SLIP` of the repeated results may differ, and never more than `_SLIPS`: tables that
# differ in many repeated cells report another quantity (other runs, another baseline) under one name.
_AGREEING = 3
_AGREEING_PER_SLIP = 3
_SLIPS = 2
# A cell whose names match more cells of the other table than this agrees with one of them by chance.
_CANDIDATES = 2
# A row or column that summarises its own table's cells: an average, a total, an error over them all.
_SUMMARY = DeferredPattern(r"^\W*(?:avg|average|mean|overall|total|sum|all|mae|rmse|mse|std|sd)\b", re.IGNORECASE)
# A cell of one value, written with its spread at most: not "mean 49.24 ± 8.21, max 115.37".
_ONE_VALUE = DeferredPattern(r"^[^\d]*\d[\d.,]*(?:[^\d]+\d[\d.,]*)?[^\d]*$")


@record(slots=True)
class KeyedCell:
    """A numeric body cell with the names of its row and of its column (the header nearest above it)."""

    table: str  # the table's label, or where it starts
    row: frozenset[str]
    column: frozenset[str]
    above: frozenset[str]  # the words of the column's headers above its own ("Final Return" over "LPT")
    value: float
    decimals: int
    spread: float | None
    text: str
    place: CellPlace  # not offsets: the cells are kept while their section's lines stand, which an edit above them moves
    section: str
    describe: str


def keyed_cells(ctx: RuleContext, section: Section) -> tuple[KeyedCell, ...]:
    """The section's numeric table cells whose row and column both have names."""
    cells = []
    title = section.title or section.kind.value
    for placed, table in section_tables(section):
        headers = lowest_headers(table)
        above: dict[int, frozenset[str]] = {}  # by column, the words of its headers: read once per column
        for cell in body_cells(table):
            if cell.value is None:
                continue
            row, column = _key(table.row_header(cell.row)), _key(headers[(cell.row, cell.column)])
            if row is None or column is None or not _ONE_VALUE.match(cell.text):
                continue  # an aggregate summarises its own table's cells, which another table need not share
            if row and column and row != column:
                if cell.column not in above:
                    above[cell.column] = frozenset(name_words(table.column_header(cell.column)))
                cells.append(_keyed(ctx, CellAt(placed, cell), (row, column, above[cell.column] - column), title))
    return tuple(cells)


@lru_cache(maxsize=4096)
def _key(header: str) -> frozenset[str] | None:
    """A header's distinctive words, or its text when it has none ("Ours"); None for an aggregate ("Average"). Read
    once per header text: every cell of a row or column asks."""
    if _SUMMARY.match(header):
        return None
    return frozenset(name_words(header) or ({" ".join(header.lower().split())} if re.search("[A-Za-z]", header) else set()))


def _keyed(ctx: RuleContext, at: CellAt, names: tuple[frozenset[str], frozenset[str], frozenset[str]], section: str) -> KeyedCell:
    placed, cell, (row, column, above) = at.placed, at.cell, names
    return KeyedCell(
        table=at.label or f"{placed.file}:{placed.block.table.start if placed.block.table else 0}",
        row=row,
        column=column,
        above=above,
        value=cell.value or 0.0,
        decimals=cell.decimals,
        spread=cell.spread,
        text=" ".join(cell.text.split()),
        place=CellPlace(placed.file, *ctx.positions(placed.file, cell.start, cell.end)),
        section=section,
        describe=at.describe(),
    )


@record(slots=True)
class Repeat:
    """`slip`, a cell of a later table, and `told`, the cell of an earlier table under the same names, with
    how many other results the two tables repeat alike."""

    slip: KeyedCell
    told: KeyedCell
    agreeing: int
    spread_only: bool  # the values agree and their spreads do not ("91.1 ± 1.0" and "91.1 ± 2.6")
    row_only: bool = False  # paired by the row's other results alike, not by the column's name (`_row_spreads`)


def repeats(cells: Sequence[KeyedCell]) -> Iterator[Repeat]:
    """The results two tables repeat with two values, where the tables repeat enough others alike. Kept while
    no table's cell changes (an edit of prose compares no table again), as (slip, told, agreeing, spread only)
    by the cells' places."""
    key = tuple(_compared_as(cell) for cell in cells)
    found = _KEPT.get(key)
    if found is None:
        place = {id(cell): index for index, cell in enumerate(cells)}
        found = tuple(
            (place[id(item.slip)], place[id(item.told)], item.agreeing, item.spread_only, item.row_only) for item in _repeats(cells)
        )
        if len(_KEPT) >= _KEPT_SIZE:
            del _KEPT[next(iter(_KEPT))]
        _KEPT[key] = found
    for slip, told, agreeing, spread_only, row_only in found:
        yield Repeat(cells[slip], cells[told], agreeing, spread_only, row_only)


def _compared_as(cell: KeyedCell) -> tuple[object, ...]:
    """What the comparison reads of a cell: not where it is, which an edit above its table moves."""
    return (cell.table, cell.row, cell.column, cell.above, cell.value, cell.decimals, cell.spread)


# The last few papers' repeats, by their cells as compared.
_KEPT: dict[tuple[tuple[object, ...], ...], tuple[tuple[int, int, int, bool, bool], ...]] = {}
_KEPT_SIZE = 4


def _repeats(cells: Sequence[KeyedCell]) -> Iterator[Repeat]:
    by_table: dict[str, list[KeyedCell]] = {}
    for cell in cells:
        by_table.setdefault(cell.table, []).append(cell)
    found: dict[tuple[int, int], Repeat] = {}
    # A row and column naming several cells of their own table (a group label "Test sample size" beside
    # many rows) identify none of them.
    named = [_named_once(own) for own in by_table.values()]
    for (_, first), (second, names) in combinations([(own, _by_names(own)) for own in named], 2):
        if first.keys().isdisjoint(names):
            continue  # no cell of one is named as a cell of the other
        agreeing, differing = _compared(first, second)
        if agreeing >= _AGREEING and 0 < len(differing) <= _SLIPS and len(differing) * _AGREEING_PER_SLIP <= agreeing:
            for told, slip, spread_only in differing:
                found[id(slip), id(told)] = Repeat(slip, told, agreeing, spread_only)
    for rows, other_rows in combinations([_spread_rows(own) for own in by_table.values()], 2):
        for repeat in _row_spreads(rows, other_rows):
            found.setdefault((id(repeat.slip), id(repeat.told)), repeat)
    yield from found.values()


def _named_once(own: list[KeyedCell]) -> list[KeyedCell]:
    names = Counter((cell.row, cell.column, cell.above) for cell in own)
    return [cell for cell in own if names[cell.row, cell.column, cell.above] == 1]


def _row_spreads(rows: _SpreadRows, other_rows: _SpreadRows) -> Iterator[Repeat]:
    """A row two tables repeat alike, whatever their columns: where the same-named row of both holds three or
    more results written alike with their spreads ("20.6 ± 1.6"), the one value it also shares with another
    spread ("91.1 ± 1.0", "91.1 ± 2.6") is one result copied from a run that changed. The columns need not
    match: one table may set the epoch in a column of its own, the other in its header."""
    for row in rows.keys() & other_rows.keys():
        own, other = rows[row], other_rows[row]
        alike = own.keys() & other.keys()
        if len(alike) < _AGREEING:
            continue
        values = Counter(value for value, _ in own.keys() | other.keys())
        for key, cell in other.items():
            told = next((item for (value, _), item in own.items() if value == key[0]), None)
            if told is not None and key not in alike and values[key[0]] == 2 and _informative(cell):
                yield Repeat(cell, told, len(alike), spread_only=True, row_only=True)


# A table's cells written with their spread, by row and then by value and spread.
_SpreadRows = dict[frozenset[str], dict[tuple[float, float], KeyedCell]]


def _spread_rows(cells: list[KeyedCell]) -> _SpreadRows:
    """A table's cells written with their spread, by row; a value and spread a row holds twice (the same run
    in two columns) identifies neither."""
    rows: _SpreadRows = {}
    repeated = set()
    for cell in cells:
        if cell.spread is None:
            continue
        row = rows.setdefault(cell.row, {})
        key = (cell.value, cell.spread)  # as read from the cell: one text, one value
        if key in row:
            repeated.add((cell.row, key))
        row[key] = cell
    return {name: {key: cell for key, cell in row.items() if (name, key) not in repeated} for name, row in rows.items()}


def _by_names(cells: list[KeyedCell]) -> dict[frozenset[frozenset[str]], list[KeyedCell]]:
    """A table's cells by their row and column names, either way round: each cell of another table is compared
    with the few named as it, not with every cell of this one."""
    found: dict[frozenset[frozenset[str]], list[KeyedCell]] = {}
    for cell in cells:
        found.setdefault(_names(cell), []).append(cell)
    return found


def _compared(
    first: dict[frozenset[frozenset[str]], list[KeyedCell]], second: list[KeyedCell]
) -> tuple[int, list[tuple[KeyedCell, KeyedCell, bool]]]:
    """How many cells of `second` repeat a cell of `first` alike, and those that repeat the one cell they name
    with another value (a cell whose names match several cells of `first` counts only when it agrees with one).
    Agreement counts only across two or more rows and columns: one row two tables share (a group label) may
    hold close values of two settings."""
    alike, differing = [], []
    for cell in second:
        matched = _matching(cell, first)
        if not matched:
            continue
        if len(matched) <= _CANDIDATES and any(_same(cell, other) for other in matched):
            if _informative(cell):
                alike.append(cell)
        elif len(matched) == 1 and _comparable(cell, matched[0]):
            other = matched[0]
            differing.append((other, cell, _same_value(cell, other)))
    spread = len({cell.row for cell in alike}) >= 2 and len({cell.column for cell in alike}) >= 2
    return (len(alike) if spread else 0), differing


def _matching(cell: KeyedCell, cells: dict[frozenset[frozenset[str]], list[KeyedCell]]) -> list[KeyedCell]:
    """The cells named as this one: the same row and column names ("LPT (Ours)" is "LPT"), either way round
    (a table may be the other's transposed), under the same headers above, when both have some ("Memory (GB)"
    and "Time (s)" over "idtracker.ai" are two quantities)."""
    return [other for other in cells.get(_names(cell), ()) if other.above == cell.above or not (other.above and cell.above)]


def _names(cell: KeyedCell) -> frozenset[frozenset[str]]:
    return frozenset((cell.row, cell.column))


def _same_value(cell: KeyedCell, other: KeyedCell) -> bool:
    places = min(cell.decimals, other.decimals)
    return spelled(cell.value, places) == spelled(other.value, places) and (cell.value < 0) == (other.value < 0)


def _same(cell: KeyedCell, other: KeyedCell) -> bool:
    if not _same_value(cell, other):
        return False
    if cell.spread is None or other.spread is None:
        return True
    places = min(cell.decimals, other.decimals)
    return spelled(cell.spread, places) == spelled(other.spread, places)


def _informative(cell: KeyedCell) -> bool:
    """A value two tables share by more than chance: two or more figures, not a bound of a scale (0, 1, 100)."""
    return abs(cell.value) not in (0.0, 1.0, 100.0) and significant_figures(spelled(cell.value, cell.decimals)) >= 2


def _comparable(cell: KeyedCell, other: KeyedCell) -> bool:
    """Two results written alike (both decimals, or both whole) of two or more figures each."""
    written = spelled(cell.value, cell.decimals), spelled(other.value, other.decimals)
    return (cell.decimals > 0) == (other.decimals > 0) and all(significant_figures(text) >= 2 for text in written)
