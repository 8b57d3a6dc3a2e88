"""NUM017: a range a sentence states of a variable ("accuracies ranged from 35% to 95% (standard deviation = 10%)")
against the row of a table of summary statistics (columns Min, Max, Mean, SD, Median) that it summarises.

## How it decides
A table of summary statistics has a column headed "Min" (or "Minimum") and one headed "Max" (or "Maximum"),
and may have columns headed "Mean" (or "Average"), "Median" and "SD" (or "Std", "Standard deviation"). A
sentence states a range ("from A to B", "between A and B", "A–B") and, in the same sentence, may state
the variable's mean, median or standard deviation ("(standard deviation = 10%)", "with a mean of 0.62",
APA's "M = 4.50, SD = 4.19").

The rows the range describes are, in a table the sentence (else its paragraph) cites, the rows the sentence
names: by all the words of its header, or by "N = 20" where the table has a column headed "n" holding 20
(the nearest such "N = k" before the range). Else they are the rows whose Min and Max cells are the range's
two ends, in a cited table first, else in any table of summary statistics of the paper (two cells in the
right columns tie the sentence to the row). A range that names no row and runs from the Min column's lowest
cell to the Max column's highest is of every row together and describes none. An end or a statistic agrees
with a cell when one is the other rounded (0.35 ↔ 35%, 0.105 ↔ 10%).

It is a finding when rows are described and none agrees on both ends and on every statistic stated after
the range (up to the next range or "N = k"); the message tells the first such row's disagreements. Several
rows with the range's ends and none named (items all rated "from 1 to 5") leave the row unknown: no finding.

Confidence 0.6 (information). Evidence: "weak: a summary row with the range's ends gives another statistic"
when the row is tied by its Min and Max; "weak: a summary row the sentence names disagrees" when the sentence
names the row.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import Cell, Table
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import ShownTable, TableAt, body_cells, name_words, referenced_labels, shown_table, shown_tables
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .extents import NUMBER, End, cell_gives, end_of, stated_finding, stated_ranges, statements_of, statistic_columns, tables_and_statements

# A statistic the sentence states beside its range: "(standard deviation = 10%)", "with an average of 0.620".
# APA's "M = 4.50", "Mdn = 4", "SD = 4.19" too (the single letters only before "=").
_STATED = DeferredPattern(
    r"\b(?:(?P<mean>mean|average|(?-i:M)(?=\s*=))|(?P<median>median|(?-i:Mdn)(?=\s*=))|(?P<sd>standard\s+deviation|std|s\.d|SD))"
    r"\b\.?\s*(?:\w+\s+)?(?:=|of|:|was|is)?\s*" + NUMBER + r"(?![\w.])",
    re.IGNORECASE,
)
_STATISTIC_NAMES = ("mean", "median", "sd")
_PERCENT_MACRO = DeferredPattern(r"\s*\\percent\b")  # quoted as the reader sees it: "35%"
_SIZE = DeferredPattern(r"\b[Nn]\s*=\s*(\d+)\b")
_SIZE_HEADER = DeferredPattern(r"^\W*\$?[Nn]\$?\W*$")


@dataclass(frozen=True, slots=True, eq=False)
class _Summary:
    low: End
    high: End
    statistics: tuple[tuple[str, End], ...]  # ("sd", 10%): what the sentence states beside the range
    words: frozenset[str]  # the sentence's words, which may name a row
    size: int | None  # the "N = k" nearest before the range
    quote: str
    labels: tuple[str, ...]  # the tables the sentence cites, else those its paragraph cites
    anchor: Finding


@violation_type
class SummaryRowDisagrees(Violation):
    """A stated range (`quote`) that the summary row `row` of `table` gives otherwise, as `told` says."""

    quote: str
    table: str
    row: str
    told: str

    @property
    def message(self) -> str:
        return f'"{self.quote}" against {self.table} (row {self.row}): {self.told}'

    @property
    def identity(self) -> str:
        return f"{self.quote} {self.table} {self.row}"


def _row_cells(table: Table) -> dict[int, dict[int, Cell]]:
    rows: dict[int, dict[int, Cell]] = {}
    for cell in body_cells(table):
        if cell.value is not None:
            rows.setdefault(cell.row, {})[cell.column] = cell
    return rows


def _disagreements(stated: _Summary, row: dict[int, Cell], columns: dict[str, int]) -> list[str]:
    """What the row gives otherwise than the sentence: its ends, then each statistic it has a column for."""
    told = []
    for name, end in (("min", stated.low), ("max", stated.high), *stated.statistics):
        cell = row.get(columns[name]) if name in columns else None
        if cell is not None and not cell_gives(cell, end):
            told.append(f"its {name} is {cell.text.strip()}, not {end.written}")
    return told


def _named_by_header(table: Table, row: int, stated: _Summary) -> bool:
    """The sentence names the row by every word of its header."""
    header = name_words(table.row_header(row))
    return bool(header) and header <= stated.words


def _named_by_size(table: Table, cells: dict[int, Cell], columns: dict[str, int], stated: _Summary) -> bool:
    """The sentence names the row by "N = k" against a column headed n."""
    sizes = [column for column, cell in cells.items() if column not in columns.values() and _SIZE_HEADER.match(table.column_header(column))]
    return stated.size is not None and any(cells[column].value == stated.size for column in sizes)


def _bound_rows(stated: _Summary, table: Table, cited: bool) -> list[tuple[int, list[str], bool]]:
    """The rows of a summary table the range describes, each with its disagreements and whether the sentence
    names it: the rows it names, else those whose Min and Max are its ends; none when it names no row and runs
    from the Min column's lowest cell to the Max column's highest (a range over every row)."""
    columns = statistic_columns(table)
    rows = _row_cells(table) if columns else {}
    # "N = 20" names one row; a header may be a group's, printed on its first row ("test sample size" beside all of them).
    named = [row for row, cells in rows.items() if cited and _named_by_size(table, cells, columns, stated)] or [
        row for row in rows if cited and _named_by_header(table, row, stated)
    ]
    if named:
        return [(row, _disagreements(stated, rows[row], columns), True) for row in named]
    lows = [cells[columns["min"]] for cells in rows.values() if columns["min"] in cells]
    highs = [cells[columns["max"]] for cells in rows.values() if columns["max"] in cells]
    if lows and highs and cell_gives(min(lows, key=_value), stated.low) and cell_gives(max(highs, key=_value), stated.high):
        return []
    return [
        (row, _disagreements(stated, cells, columns), False)
        for row, cells in rows.items()
        if cell_gives(cells.get(columns["min"]), stated.low) and cell_gives(cells.get(columns["max"]), stated.high)
    ]


def _value(cell: Cell) -> float:
    return cell.value or 0.0


def _disagreeing(stated: _Summary, tables: Sequence[ShownTable]) -> Iterator[Finding]:
    """The tables the sentence cites decide when a row of theirs is bound; else any summary table of the paper."""
    cited = [shown for shown in tables if set(shown.labels) & set(stated.labels)]
    for candidates in (cited, [shown for shown in tables if shown not in cited]):
        bound = [(shown, row, told, named) for shown in candidates for row, told, named in _bound_rows(stated, shown.table, shown in cited)]
        if any(not told for _, _, told, _ in bound) or (len(bound) > 1 and not bound[0][3]):
            return  # a row gives the whole sentence, or several rows have these ends and the sentence names none
        if bound:
            shown, row, told, named = bound[0]
            name = f"Table {shown.labels[0]}" if shown.labels else "the table"
            header = " ".join(shown.table.row_header(row).split()) or (f"n = {stated.size}" if named else str(row + 1))
            violation = SummaryRowDisagrees(stated.quote, name, header, "; ".join(told))
            kind = (
                "weak: a summary row the sentence names disagrees"
                if named
                else "weak: a summary row with the range's ends gives another statistic"
            )
            reason = "the sentence names the row" if named else "the range's ends are the row's Min and Max"
            yield stated_finding(stated.anchor, violation, stated.quote, kind, "range", reason)
            return


def _against_tables(ctx: RuleContext, parts: Sequence[tuple[Section, list[TableAt | _Summary]]]) -> Iterator[Finding]:
    statements = list(statements_of(parts, _Summary))
    tables = [shown for shown in shown_tables(parts) if statistic_columns(shown.table)] if statements else []
    for stated in statements if tables else ():
        yield from _disagreeing(stated, tables)


@rule(
    "NUM017",
    "summary-row-contradicted",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=_against_tables,
    placed_parts=True,  # tables by block index within the section, ranges by their findings' ranges
)
def summary_row_contradicted(ctx: RuleContext, section: Section) -> Iterator[TableAt | _Summary]:
    """## What it does
    Flags a range a sentence states of a variable, with its mean, median or standard deviation,
    when the row of a table of summary statistics (columns Min, Max, Mean, SD) it describes gives
    another value: "accuracies ranged from 35% to 95% (standard deviation = 10%)" where the row
    whose Min and Max are 0.35 and 0.95 has SD 0.11. Which row a range describes is told below.

    ## Why is this bad?
    The sentence and the table report one distribution; a statistic that differs between them was
    copied from another run, another row or another version of the table.

    ## Example
    ```latex
    Accuracies ranged from 35\\% to 95\\% (standard deviation = 10\\%; Table~\\ref{t}).
    % t: n & mean & min & max & std \\\\ 20 & 0.67 & 0.35 & 0.95 & 0.11
    ```

    ## Use instead
    ```latex
    Accuracies ranged from 35\\% to 95\\% (standard deviation = 11\\%; Table~\\ref{t}).
    ```

    ## Fix safety
    No fix: the table may be the side that is wrong.
    """
    yield from (TableAt(shown.labels, block) for block, placed in enumerate(section.blocks) if (shown := shown_table(placed)))
    yield from (item for item in tables_and_statements(ctx, section, _stated_in) if isinstance(item, _Summary))


def _statistics(text: str) -> tuple[tuple[str, End], ...]:
    """The statistics `text` states ("(standard deviation = 10%)"): those after a range, up to the next range."""
    return tuple(
        (next(name for name in _STATISTIC_NAMES if match.group(name)), end_of(match.group(4), bool(match.group(5))))
        for match in _STATED.finditer(text)
    )


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _stated_in(text: str, describes: tuple[str, ...]) -> tuple[tuple[int, int, partial[_Summary]], ...]:
    """The ranges a paragraph states, with the statistics beside them, kept by text so an edit re-reads its paragraph alone."""
    paragraph_refs = tuple(sorted(referenced_labels(text) | frozenset(describes)))
    if not (paragraph_refs or _STATED.search(text)) or next(stated_ranges(text), None) is None:
        return ()  # no range, or neither a table nor a statistic to tie one to a row
    found: list[tuple[int, int, partial[_Summary]]] = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        labels = tuple(referenced_labels(sentence)) or paragraph_refs
        ranges = list(stated_ranges(sentence))
        if not ranges or (not labels and not _STATED.search(sentence)):
            continue  # neither a statistic to tie a range to a row nor a table to name one in
        words = frozenset(name_words(sentence))
        starts = [at for at, *_ in ranges[1:]] + [len(sentence)]  # a range's statistics follow it, up to the next range or size
        starts = [
            next((m.start() for m in _SIZE.finditer(sentence, until, following)), following)
            for (_, until, *_), following in zip(ranges, starts, strict=True)
        ]
        for (at, until, low, high), following in zip(ranges, starts, strict=True):
            sizes = list(_SIZE.finditer(sentence, 0, at))
            size = int(sizes[-1].group(1)) if sizes else None
            quote = _PERCENT_MACRO.sub("%", " ".join(sentence[at:until].split()))
            statistics = _statistics(sentence[until:following])
            found.append((start + at, start + until, partial(_Summary, low, high, statistics, words, size, quote, labels)))
    return tuple(found)
