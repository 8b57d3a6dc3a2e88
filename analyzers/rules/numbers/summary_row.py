"""NUM017: a range or an extreme a sentence states of a variable ("accuracies ranged from 35% to 95% (standard
deviation = 10%)", "accuracies up to 75%", "the highest at 92.15%") against the row of a table of summary statistics
(columns Min, Max, Mean, SD, Median) that it summarises.

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

An extreme stated alone is a maximum ("up to 95%", "as high as", "a maximum of 1,565", "the highest at 92.15%")
or a minimum ("as low as", "a minimum of 0", "the lowest percent at 3.09%"); a sentence's first of each are one
statement. It has no second end to tie it to a row by its cells, so it describes only rows the sentence names, in
any table of summary statistics of the paper (cited first): by "N = k", by every word of the header (two words at
least in a table the sentence does not cite: "word stimuli" names no row Word), or together, by the words
their headers share ("the percent of votes for the candidate" names the rows Percent of votes for Joe Biden, ...
for Donald Trump, ... for Hillary Clinton when the sentence names no word beyond those of any row): such rows are
one, whose Min is their lowest and whose Max their highest. It is a finding when no row it describes has the
extreme as its Min or Max (a sentence of a sample size whose rows sit in several tables, one of which agrees, is
no finding).

Confidence 0.6 (information). Evidence: "weak: a summary row with the range's ends gives another statistic"
when the row is tied by its Min and Max; "weak: a summary row the sentence names disagrees" when the sentence
names the row; "weak: a summary row the sentence names gives another extreme" for an extreme.
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
# An extreme stated alone: "accuracies up to 95%", "a maximum of 1,565", "the lowest percent at 3.09%" (a word between
# the superlative and its number names the quantity); the group says which end of the variable it is.
_EXTREME = DeferredPattern(
    r"\b(?:(?P<max>up\s+to|as\s+high\s+as|(?:a|the)\s+maximum\s+(?:of|at|was|is)|(?:the\s+)?highest(?:\s+[a-z]+)?\s+(?:at|of|was|is))"
    r"|(?P<min>as\s+low\s+as|(?:a|the)\s+minimum\s+(?:of|at|was|is)|(?:the\s+)?lowest(?:\s+[a-z]+)?\s+(?:at|of|was|is)))\s+"
    + NUMBER
    + r"(?!\w|[.,]\d)"  # a sentence's full stop may follow the percent sign; "1,565" is no 1
)
_NAMED = "the sentence names the row"
_TOGETHER = "the sentence names the rows together by the words their headers share: their lowest Min, their highest Max"
_SIZE_HEADER = DeferredPattern(r"^\W*\$?[Nn]\$?\W*$")


@dataclass(frozen=True, slots=True, eq=False)
class _Summary:
    low: End | None
    high: End | None
    extremes: bool  # stated as a minimum or a maximum, not a range: only a row the sentence names is described
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


def _disagreements(stated: _Summary, row: dict[int, Cell], columns: dict[str, int], whose: str = "its") -> list[str]:
    """What the row gives otherwise than the sentence: its ends, then each statistic it has a column for."""
    told = []
    for name, end in (("min", stated.low), ("max", stated.high), *stated.statistics):
        cell = row.get(columns[name]) if name in columns else None
        if cell is not None and end is not None and not cell_gives(cell, end):
            told.append(f"{whose} {name} is {cell.text.strip()}, not {end.written}")
    return told


def _named_by_header(table: Table, row: int, stated: _Summary, cited: bool) -> bool:
    """The sentence names the row by every word of its header, two words at least in a table it does not cite (one
    word, "word stimuli" against a row Word, is too common to tie a sentence to a table)."""
    header = name_words(table.row_header(row))
    return len(header) >= (1 if cited else 2) and header <= stated.words


def _named_by_size(table: Table, cells: dict[int, Cell], columns: dict[str, int], stated: _Summary) -> bool:
    """The sentence names the row by "N = k" against a column headed n."""
    sizes = [column for column, cell in cells.items() if column not in columns.values() and _SIZE_HEADER.match(table.column_header(column))]
    return stated.size is not None and any(cells[column].value == stated.size for column in sizes)


def _named_together(table: Table, rows: dict[int, dict[int, Cell]], stated: _Summary) -> list[int]:
    """The rows the sentence names together by the words their headers share ("the percent of votes for the
    candidate" of rows Percent of votes for Joe Biden, ... for Donald Trump): two rows or more whose headers' words
    the sentence names are the same two words or more, and no row's named words go beyond them (a sentence that names
    one member names it alone)."""
    named = {row: frozenset(word for word in name_words(table.row_header(row)) & stated.words if len(word) > 2) for row in rows}
    shared = [words for words in set(named.values()) if len(words) >= 2 and sum(other == words for other in named.values()) >= 2]
    if len(shared) != 1 or any(words > shared[0] for words in named.values()):
        return []
    return [row for row, words in named.items() if words == shared[0]]


def _extent(rows: list[dict[int, Cell]], columns: dict[str, int]) -> dict[int, Cell]:
    """The Min and Max cells of several rows together: the lowest Min and the highest Max."""
    extent: dict[int, Cell] = {}
    for name, pick in (("min", min), ("max", max)):
        cells = [cells[columns[name]] for cells in rows if columns[name] in cells]
        if cells:
            extent[columns[name]] = pick(cells, key=_value)
    return extent


def _bound_rows(stated: _Summary, table: Table, cited: bool) -> list[tuple[str, list[str], str]]:
    """The rows of a summary table the statement describes, each with how a message names it, its disagreements and
    how the sentence names it (empty when it does not): the rows it names (an extreme, in any table: it has no second end to tie it to a
    row), else those whose Min and Max are its ends; none when it names no row and runs from the Min column's lowest
    cell to the Max column's highest (a range over every row). Rows named together are one row: their extent."""
    columns = statistic_columns(table)
    rows = _row_cells(table) if columns else {}
    naming = cited or stated.extremes
    # "N = 20" names one row; a header may be a group's, printed on its first row ("test sample size" beside all of them).
    named = [row for row, cells in rows.items() if naming and _named_by_size(table, cells, columns, stated)] or [
        row for row in rows if naming and _named_by_header(table, row, stated, cited)
    ]
    if named:
        return [(_row_name(table, row, stated.size), _disagreements(stated, rows[row], columns), _NAMED) for row in named]
    together = _named_together(table, rows, stated) if stated.extremes else []
    if together:
        name = ", ".join(" ".join(table.row_header(row).split()) for row in together)
        return [(name, _disagreements(stated, _extent([rows[row] for row in together], columns), columns, "their"), _TOGETHER)]
    if stated.low is None or stated.high is None or stated.extremes:
        return []
    lows = [cells[columns["min"]] for cells in rows.values() if columns["min"] in cells]
    highs = [cells[columns["max"]] for cells in rows.values() if columns["max"] in cells]
    if lows and highs and cell_gives(min(lows, key=_value), stated.low) and cell_gives(max(highs, key=_value), stated.high):
        return []
    return [
        (_row_name(table, row, None), _disagreements(stated, cells, columns), "")
        for row, cells in rows.items()
        if cell_gives(cells.get(columns["min"]), stated.low) and cell_gives(cells.get(columns["max"]), stated.high)
    ]


def _row_name(table: Table, row: int, size: int | None) -> str:
    """The row's header, else the "N = k" that names it, else its number."""
    return " ".join(table.row_header(row).split()) or (f"n = {size}" if size is not None else str(row + 1))


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
            shown, header, told, naming = bound[0]
            name = f"Table {shown.labels[0]}" if shown.labels else "the table"
            violation = SummaryRowDisagrees(stated.quote, name, header, "; ".join(told))
            if stated.extremes:
                kind = "weak: a summary row the sentence names gives another extreme"
            elif naming:
                kind = "weak: a summary row the sentence names disagrees"
            else:
                kind = "weak: a summary row with the range's ends gives another statistic"
            reason = naming or "the range's ends are the row's Min and Max"
            yield stated_finding(stated.anchor, violation, stated.quote, kind, "extreme" if stated.extremes else "range", reason)
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
    whose Min and Max are 0.35 and 0.95 has SD 0.11. Flags too a maximum or a minimum stated of
    the rows a sentence names ("for N = 100, accuracies up to 75%") that their Max or Min cells
    contradict (the row n = 100 has Max 0.81). Which row a statement describes is told below.

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
    """The ranges a paragraph states, with the statistics beside them, and the extremes it states alone, kept by text
    so an edit re-reads its paragraph alone."""
    paragraph_refs = tuple(sorted(referenced_labels(text) | frozenset(describes)))
    ranged = (paragraph_refs or _STATED.search(text)) and next(stated_ranges(text), None) is not None
    if not ranged and not _EXTREME.search(text):
        return ()  # no range with a table or a statistic to tie it to a row, and no extreme
    found: list[tuple[int, int, partial[_Summary]]] = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        labels = tuple(referenced_labels(sentence)) or paragraph_refs
        ranges = list(stated_ranges(sentence))
        words = frozenset(name_words(sentence))
        extreme = _extreme_stated(sentence, ranges)
        if extreme is not None:
            at, until, low, high = extreme
            quote = _PERCENT_MACRO.sub("%", " ".join(sentence[at:until].split()))
            size = _size_before(sentence, at)
            found.append((start + at, start + until, partial(_Summary, low, high, True, (), words, size, quote, labels)))
        if not ranges or (not labels and not _STATED.search(sentence)):
            continue  # neither a statistic to tie a range to a row nor a table to name one in
        starts = [at for at, *_ in ranges[1:]] + [len(sentence)]  # a range's statistics follow it, up to the next range or size
        starts = [
            next((m.start() for m in _SIZE.finditer(sentence, until, following)), following)
            for (_, until, *_), following in zip(ranges, starts, strict=True)
        ]
        for (at, until, low, high), following in zip(ranges, starts, strict=True):
            quote = _PERCENT_MACRO.sub("%", " ".join(sentence[at:until].split()))
            statistics = _statistics(sentence[until:following])
            size = _size_before(sentence, at)
            found.append((start + at, start + until, partial(_Summary, low, high, False, statistics, words, size, quote, labels)))
    return tuple(found)


def _size_before(sentence: str, at: int) -> int | None:
    """The "N = k" nearest before `at`: the row of a table by sample size that the sentence speaks of."""
    sizes = list(_SIZE.finditer(sentence, 0, at))
    return int(sizes[-1].group(1)) if sizes else None


def _extreme_stated(sentence: str, ranges: list[tuple[int, int, End, End]]) -> tuple[int, int, End | None, End | None] | None:
    """The sentence's first stated minimum and first stated maximum outside its ranges ("the lowest percent at 3.09%
    and the highest at 92.15%"): where they run and their values; None when it states neither."""
    ends: dict[str, tuple[int, int, End]] = {}
    for match in _EXTREME.finditer(sentence):
        if any(at < match.end() and match.start() < until for at, until, *_ in ranges):
            continue
        name = "max" if match.group("max") else "min"
        ends.setdefault(name, (match.start(), match.end(), end_of(match.group(3), bool(match.group(4)))))
    if not ends:
        return None
    spans = [(at, until) for at, until, _ in ends.values()]
    low, high = ends.get("min"), ends.get("max")
    return min(spans)[0], max(until for _, until in spans), low[2] if low else None, high[2] if high else None
