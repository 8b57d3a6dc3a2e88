"""NUM007: a range or an extreme a sentence states of a cited table ("between 0.648 and 0.659", "the highest
accuracy, 92.15%") that the cells of the column or row it describes contradict.

## How it decides
A range is "between A and B", "from A to B" or "A–B", each end optionally a percentage. The sentence
(else its paragraph) must cite the table with `\\ref`. The range describes a line of the table (a column
or a row) when one of its ends is a cell of that line quoted in full (as many decimals as the cell: 0.648
for 0.648, 64.8% for a fraction cell 0.648) and at least one other cell of the line lies inside the range.
Its other end must then be a cell of that line too: the extreme of the cells it spans. It is a finding
when no cell of the cited table holds that end as written (so the range is not of another column or
row), the end is written as finely as the line's cells (0.659 against cells of three decimals, not "up
to 0.7"), and the end lies past every cell of the line, or past the cells the range spans by more than
the rounding of its last place. A range over a subset of rows is no finding as long as its ends are
cells; a range of another quantity (a setting swept "from 4 to 150") has no end that is a cell. A table of
summary statistics (columns Min and Max) gives a row's extent in two cells: NUM017 reads ranges against it.

A range both of whose ends are cells of a column spans the stretch of the column between them: the cell each end
is (of the cells that hold it, the one nearest it), and every cell between the two. It is a finding when a cell
of that stretch lies outside the range by more than its ends' rounding ("1.5-40%" where 44.38 lies between the
rows of 40.1 and 1.5), one cell at least lies inside it, and an end has decimals or is a percentage (a band of
whole numbers, "aged 18-34", is a category). A row is no stretch (its cells are several quantities), nor is a
change "from 3.91 to 3.45" (a "from" after no word of extent: "ranging", "varies"), an interval of one estimate
("(CI 99.63-100.00%)") or a range over part of the table ("except", "among", "all videos but").

An extreme is "the highest / largest / greatest / maximum" or "the lowest / smallest / minimum", one to
four words naming the quantity, then a number ("a maximum error of -53.6", "the highest accuracy, 92.15%").
It describes a column of a cited table whose header the words name and which holds the number (as a
range's end is held). When no cited table has such a column (the sentence cites a figure, or nothing), it
describes the one column of the paper's other tables that the words name and that holds the number; two
such columns and it describes none. It is a finding when every column it describes holds a cell beyond it
by more than the number's rounding. A negative maximum is one by size ("a maximum error of -3.7" of errors
either side of zero), and so is any extreme of errors all negative ("-53.6" against -53.8).

A line's members are its cells less the aggregates: an aggregate row (Mean, MAE, RMSE, Total, as TAB001
knows them) is no member of a column, nor an aggregate column (Avg.) of a row. A table of summary statistics
(columns Min and Max) describes no extreme.
"Best" and "worst" are left alone (which way is better depends on the metric), and so is a sentence
about part of the table ("among the baselines", "except", "apart from").

Confidence 0.6 (information). Evidence: "weak: past the line's extreme" when a range's end lies beyond
the whole line's extreme, "weak: inside the line, no cell at the end" otherwise, "weak: a cell between the end
cells lies outside the range" for a stretch of a column the range skips a cell of, "weak: a column's
cell beyond the stated extreme" for a cited table's column, and "weak: the one column the words name,
uncited, holds a cell beyond the stated extreme" for a column of a table the sentence does not cite.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import Cell, Table
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import ShownTable, body_cells, each_cited, name_words, slack, spelled
from ...registry import Scope, rule
from ..printed_tables import paragraph_keys, sentence_tables
from .extents import (
    NUMBER,
    End,
    Line,
    LineContradicted,
    against_tables,
    end_of,
    holds,
    shown_as,
    stated_finding,
    stated_ranges,
    statistic_columns,
    table_lines,
    tables_and_statements,
)
from .model import SPREAD, significant_figures
from .restated import HAS_DIGIT

# "the highest accuracy, 92.15%", "a maximum error of -53.6": the words between name the column.
_EXTREME = DeferredPattern(
    r"\b(?:(highest|largest|greatest|maximum)|lowest|smallest|minimum)\b((?:\s+[A-Za-z][\w-]*){1,4}?)\s*(?:of|at|is|was|=|:|,|\()?\s*"
    + NUMBER
    + r"(?!\w|[.,]\d)"  # a sentence's full stop may follow the percent sign ("the highest accuracy, 92.15%.")
)
# A superlative or a range over part of the table ("the highest among the baselines", "all videos but the longest")
# is no claim about a whole column.
_PART = DeferredPattern(r"\b(?:among|except|excluding|other than|apart from|baselines?|all(?:\s+[\w-]+){0,3}\s+but)\b", re.IGNORECASE)
# "from 3.91 to 3.45" after no word of extent is a change, from one cell to another, not a range of the cells between.
_EXTENT_FROM = DeferredPattern(r"\b(?:rang\w*|var(?:y|ies|ied|ying))\s+$", re.IGNORECASE)
# An interval of one estimate ("(CI 99.63-100.00%)", "95% CI: 1.2-3.4") is no extent of the cells around it.
_INTERVAL_BEFORE = DeferredPattern(r"(?:" + SPREAD.pattern + r")\W*(?:\w+\W*)?$")


@dataclass(frozen=True, slots=True, eq=False)
class _Range:
    low: End
    high: End
    quote: str
    stretch: bool  # an extent of the cells between its ends: no change "from A to B", interval, or part of a table
    labels: tuple[str, ...]  # the tables the sentence cites, else those its paragraph cites
    anchor: Finding


@dataclass(frozen=True, slots=True, eq=False)
class _Extreme:
    value: End
    highest: bool
    words: frozenset[str]  # what the words between the superlative and the number name: the column
    quote: str
    labels: tuple[str, ...]
    anchor: Finding


def stated_extremes(sentence: str) -> Iterator[tuple[int, int, End, bool, frozenset[str]]]:
    """The extremes `sentence` states of a quantity it names ("the highest accuracy, 92.15%"): the number,
    whether it is a highest, and the words naming the quantity; none in a sentence about part of a table."""
    if _PART.search(sentence):
        return
    for match in _EXTREME.finditer(sentence):
        highest, named, number, percent = match.groups()
        words = frozenset(name_words(named))
        if words:
            yield match.start(), match.end(), end_of(number, bool(percent)), bool(highest), words


def _written(value: float) -> str:
    return f"{value:.6g}"


def _quotes_a_result(held: End, other: End) -> bool:
    """The end that is a cell quotes a result: two or more figures, a decimal or a percentage (a band of whole
    numbers, "aged 18-34", is a category), and the other end is as fine (a coarser one is a bound stated loosely:
    "from 0.648 to 0.7")."""
    figures = significant_figures(spelled(held.value, held.decimals))
    return figures >= 2 and (held.decimals > 0 or held.percent) and other.decimals >= held.decimals


def _unheld_end(stated: _Range, cells: list[Cell], table_cells: list[Cell]) -> tuple[End, list[float], bool] | None:
    """The end no cell of the table holds while the other is a cell of the line, the values of the line's cells
    the range spans, and whether the end lies past the whole line's extreme; None when the range does not
    contradict the line."""
    low, high = stated.low, stated.high
    for held, other in ((low, high), (high, low)):
        if not _quotes_a_result(held, other) or not any(holds(cell, held) for cell in cells):
            continue
        if any(holds(cell, other) for cell in table_cells):
            continue
        values = [shown_as(cell, other)[0] for cell in cells]
        spanned = [value for value in values if low.value - slack(low.decimals) <= value <= high.value + slack(high.decimals)]
        if len(spanned) < 2:
            continue
        inner = max(spanned) if other is high else min(spanned)
        if abs(inner - other.value) > slack(other.decimals):
            beyond = all(value < other.value for value in values) if other is high else all(value > other.value for value in values)
            return other, spanned, beyond
    return None


def _end_row(cells: list[Cell], end: End) -> int | None:
    """The row of the cell that is the end: of the cells that hold it, the one nearest its value; None when two are."""
    distances = sorted((abs(shown_as(cell, end)[0] - end.value), cell.row) for cell in cells if holds(cell, end))
    if not distances or (len(distances) > 1 and distances[1][0] == distances[0][0]):
        return None
    return distances[0][1]


def _skipped_between(stated: _Range, column: Line) -> tuple[list[float], list[float]]:
    """The cells of the column between the cells of the range's two ends that lie outside the range by more than
    its ends' rounding, and those inside it: a range whose ends are two cells of a stretch of a column spans every
    cell between them."""
    low, high = _end_row(column.cells, stated.low), _end_row(column.cells, stated.high)
    if low is None or high is None:
        return [], []
    first, last = sorted((low, high))
    values = [shown_as(cell, stated.low)[0] for cell in column.cells if first < cell.row < last]
    floor, ceiling = stated.low.value - slack(stated.low.decimals), stated.high.value + slack(stated.high.decimals)
    outside = [value for value in values if not floor <= value <= ceiling]
    return outside, [value for value in values if floor <= value <= ceiling]


def _stretch_contradicted(stated: _Range, line: Line) -> Finding | None:
    """The range, both of whose ends are cells of a column (one quantity, unlike a row), skips a cell between them:
    one cell inside at least (a range of two neighbouring cells, or of cells all outside it, is of something else),
    and an end with decimals or a percentage (a band of whole numbers, "aged 18-34", is a category)."""
    if not (stated.stretch and line.column) or not any(end.decimals > 0 or end.percent for end in (stated.low, stated.high)):
        return None
    outside, inside = _skipped_between(stated, line)
    if not outside or not inside:
        return None
    skipped = max(outside, key=lambda value: max(value - stated.high.value, stated.low.value - value))
    told = f"{_written(skipped)} lies between the cells of its ends"
    reason = f"both ends are cells of {line.name}; a cell between them lies outside the range"
    kind = "weak: a cell between the end cells lies outside the range"
    return stated_finding(stated.anchor, LineContradicted(stated.quote, line.name, told), stated.quote, kind, "range", reason)


def _contradicted(stated: _Range, tables: Mapping[str, tuple[Table, ...]]) -> Iterator[Finding]:
    for label in stated.labels:
        tabulars = [
            table for table in tables.get(label, ()) if not statistic_columns(table)
        ]  # a row's extent is its Min and Max cells, not the spread of a line (NUM017)
        float_cells = [cell for table in tabulars for cell in body_cells(table) if cell.value is not None]  # every part of the float
        for line in (line for table in tabulars for line in table_lines(table)):
            found = _unheld_end(stated, line.cells, float_cells)
            if found is None:
                skipping = _stretch_contradicted(stated, line)
                if skipping is not None:
                    yield skipping
                    return
                continue
            end, spanned, beyond = found
            told = f"no cell is {end.written}; the cells the range spans run {_written(min(spanned))}–{_written(max(spanned))}"
            kind = "weak: past the line's extreme" if beyond else "weak: inside the line, no cell at the end"
            reason = f"one end is a cell of {line.name}; the other is no cell of the table"
            yield stated_finding(stated.anchor, LineContradicted(stated.quote, line.name, told), stated.quote, kind, "range", reason)
            return


def _named_columns(stated: _Extreme, tables: Iterable[Table]) -> list[Line]:
    """The columns of `tables` whose header the claim's words name and which hold its number (a table of summary
    statistics gives a row's extent in its Min and Max cells, not in a column's spread)."""
    end = stated.value
    return [
        line
        for table in tables
        if not statistic_columns(table)
        for line in table_lines(table)
        if line.column and stated.words & name_words(line.header) and any(holds(cell, end) for cell in line.cells)
    ]


def _column_extreme(stated: _Extreme, line: Line) -> float:
    """The column's extreme the claim names: its highest or its lowest. A negative maximum is one by size ("a maximum
    error of -3.7" of errors either side of zero), and so is any extreme of errors all negative."""
    values = [shown_as(cell, stated.value)[0] for cell in line.cells]
    negative = stated.value.value < 0
    if negative and stated.highest:
        return max(values, key=abs)
    sign = -1.0 if negative and all(value <= 0 for value in values) else 1.0
    return max(values, key=lambda v: sign * v) if stated.highest else min(values, key=lambda v: sign * v)


def _beyond(stated: _Extreme, extreme: float) -> bool:
    """The column's extreme lies past the stated one by more than its rounding (by size, for a negative maximum)."""
    value = stated.value.value
    if value < 0 and stated.highest:
        return abs(extreme) - abs(value) > slack(stated.value.decimals)
    return abs(extreme - value) > slack(stated.value.decimals)


def _extreme_contradicted(stated: _Extreme, tables: Mapping[str, tuple[Table, ...]]) -> Iterator[Finding]:
    """The claim against the named columns of the tables it cites that hold its number; when none does, against the
    one column of the paper's other tables that the words name and that holds it. A finding when every such column
    holds a cell beyond the number."""
    if not _quotes_a_result(stated.value, stated.value):
        return
    columns = _named_columns(stated, (table for _, table in each_cited(stated.labels, tables)))
    kind, cited = "weak: a column's cell beyond the stated extreme", True
    if not columns:
        columns = _named_columns(stated, (table for label, tabulars in tables.items() if label not in stated.labels for table in tabulars))
        kind, cited = "weak: the one column the words name, uncited, holds a cell beyond the stated extreme", False
        if len(columns) != 1:
            return  # no column, or several, of the paper is the one the claim names
    beyond = [(line, extreme) for line in columns if _beyond(stated, extreme := _column_extreme(stated, line))]
    if len(beyond) < len(columns):
        return  # a named column has the number as its extreme
    line, extreme = beyond[0]
    violation = LineContradicted(stated.quote, line.name, f"it holds {_written(extreme)}")
    reason = f"the number is a cell of {line.name}, which holds a cell beyond it"
    if not cited:
        reason += "; the sentence cites no table holding it, and no other column of the paper is named so and holds it"
    yield stated_finding(stated.anchor, violation, stated.quote, kind, "extreme", reason)


def _judged(stated: object, tables: Mapping[str, tuple[Table, ...]]) -> Iterator[Finding]:
    """A stated range or extreme against the tables (a part's tables judge nothing)."""
    if isinstance(stated, _Range):
        yield from _contradicted(stated, tables)
    elif isinstance(stated, _Extreme):
        yield from _extreme_contradicted(stated, tables)


@rule(
    "NUM007",
    "range-not-in-table",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),  # a table named by its printed number: the numbering reads the counters macros set
    scope=Scope.SECTION,
    combine=against_tables(object, _judged),
)
def range_not_in_table(ctx: RuleContext, section: Section) -> Iterator[ShownTable | _Range | _Extreme]:
    """## What it does
    Flags a range that a sentence states of a table it cites when one end is a cell of a column
    or row and the other end is no cell of the table: "Ensembl, RefSeq and CAT were comparably
    similar (between 0.648 and 0.659 Jaccard similarity; Table~\\ref{t})" where the column's
    cells spanned are 0.648, 0.649 and 0.658, and a range whose two ends are cells of a column
    when a cell between them lies outside it ("1.5-40%" where 44.38 lies between the rows of
    40.1 and 1.5). Flags too an extreme stated of a column whose cells go beyond it: "the
    highest accuracy, 92.15%" where the Accuracy column holds 92.45.
    Which line a range or an extreme describes, and when an end is a loose bound rather than a
    quoted cell, is told below.

    ## Why is this bad?
    A range or an extreme summarises the table for the reader; an end that no cell holds, or a
    "highest" that another cell beats, was copied from an older version of the table or
    mistyped, and misstates the spread or the winner.

    ## Example
    ```latex
    The three sets are similar (between 0.648 and 0.659, Table~\\ref{t}).
    % t: A & 0.658 \\\\ B & 0.649 \\\\ C & 0.648
    ```

    ## Use instead
    ```latex
    The three sets are similar (between 0.648 and 0.658, Table~\\ref{t}).
    ```

    ## Fix safety
    No fix: the table may be the side that is wrong.
    """
    return tables_and_statements(ctx, section, _stated_in)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _stated_in(text: str, describes: tuple[str, ...]) -> tuple[tuple[int, int, Callable[[Finding], _Range | _Extreme]], ...]:
    """The ranges and extremes a paragraph states of the tables it cites (a caption, of its own float too):
    (start, end, the statement given its anchor), kept by text so that an edit re-reads the edited paragraph alone."""
    paragraph_refs = paragraph_keys(text, describes)
    if not paragraph_refs and not _EXTREME.search(text):
        return ()  # a range is judged against a cited table; an extreme may name a column of any table
    found: list[tuple[int, int, Callable[[Finding], _Range | _Extreme]]] = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        if not HAS_DIGIT(sentence):  # a range's ends and an extreme are numbers
            continue
        labels = sentence_tables(sentence, paragraph_refs)
        for at, until, low, high in stated_ranges(sentence) if labels else ():
            quote = " ".join(sentence[at:until].split())
            change = quote.startswith("from") and not _EXTENT_FROM.search(sentence, 0, at)
            stretch = not (change or _INTERVAL_BEFORE.search(sentence, 0, at) or _PART.search(sentence))
            found.append((start + at, start + until, partial(_Range, low, high, quote, stretch, labels)))
        for at, until, value, highest, words in stated_extremes(sentence):
            quote = " ".join(sentence[at:until].split())
            found.append((start + at, start + until, partial(_Extreme, value, highest, words, quote, labels)))
    return tuple(found)
