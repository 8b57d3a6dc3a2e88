"""How a sentence states the extent of a set of values (NUM007, NUM016, NUM017): a range's two ends ("between 0.648
and 0.659", "from 10% to 69%", "1.5--40%") and an upper bound ("by up to 22.4%", "by as much as 30%"), each end a
number with its decimals and whether it is a percentage; and how a table of summary statistics (columns Min, Max,
Mean, SD) gives a row's extent."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Protocol, TypeVar

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import BlockKind, Cell, Table
from ....latex.numbers import WRITTEN_NUMBER, written_value
from ...context import RuleContext
from ...finding import Evidence, Finding, Statement
from ...memo import TEXT_CACHE_SIZE
from ...quantities import (
    AGGREGATE_COLUMN_HEADER,
    ShownTable,
    agrees,
    body_cells,
    fed_shown_tables,
    judged_against_tables,
    name_words,
    shown_table,
    spelled,
)
from ...registry import Pairwise
from ...violation import Violation, violation_type
from ..printed_tables import judged_by_number, shown_tables_by_label
from ..tables.model import is_aggregate_row

Stated = TypeVar("Stated")


class HeldWords(Protocol):
    """A section's part that holds words the whole paper's statements are judged with."""

    @property
    def words(self) -> frozenset[str]: ...


Words = TypeVar("Words", bound=HeldWords)
# What a paragraph states, read from its text and the floats it describes: (start, end, the statement given its anchor).
Reader = Callable[[str, tuple[str, ...]], tuple[tuple[int, int, Callable[[Finding], Stated]], ...]]

# A percentage is "%", siunitx's "\percent" as the plain text keeps it ("\SI{35}{\percent}" reads "35 \percent"), or
# the word, as economics and the social sciences write it ("78 percent", "3 per cent").
_PERCENT = r"\s*(?:%|\\percent\b)|\s+per\s?cent\b"
NUMBER = r"(" + WRITTEN_NUMBER + r")(" + _PERCENT + ")?"
_RANGE = DeferredPattern(
    r"\bbetween\s+" + NUMBER + r"\s+and\s+" + NUMBER
    + r"|\bfrom\s+" + NUMBER + r"\s+to\s+" + NUMBER
    + r"|(?<![\w.,-])" + NUMBER + r"\s*(?:--|–|—|-)\s*" + NUMBER
    + r"(?(12)(?!\w|[.,]\d)|(?![\w.,]|-\d))"  # after its percent sign (group 12), a sentence's full stop: "1.5--40%."
)  # fmt: skip
# "by up to 22.4%", "by as much as 30%", "up to 40x": a bound the set of values must reach, a percentage or a ratio.
_UP_TO = DeferredPattern(r"\b(?:up\s+to|as\s+much\s+as)\s+(" + WRITTEN_NUMBER + r")(?:(" + _PERCENT + r")|\s*(?:x|×|times|-?fold)\b)")
# "by an average of 2.13%", "on average by 27%", "an average improvement of 6x": the mean of a set of changes, in its
# words; or "by 2.1% on average", "2.3x faster on average": a number whose change its neighbours must tell.
_AVERAGE_UNIT = r"(?:(" + _PERCENT + r")|(\s*(?:x|×|times|-?fold)\b))"
_AVERAGE = DeferredPattern(
    r"\b(?:by\s+an\s+average\s+of|on\s+average\s+by(?:\s+an?)?|an?\s+average\s+(?:improvement|gain|increase|decrease|reduction|drop|speed-?up)\s+of)"
    r"\s+([-−]?\d+(?:\.\d+)?)" + _AVERAGE_UNIT + "?"
    r"|(?<![\w.])([-−]?\d+(?:\.\d+)?)" + _AVERAGE_UNIT + r"(?=(?:\s+[\w-]+){0,2}?\s+on\s+average\b)"
)
# "by 1.9 points", "by 4.1 accuracy points", "by 2.3%", "a 3.2-point gain", "by 2.5x": one change, as a percentage
# (points or relative), as points (percentage points, "pp", "ppt", "pts", a metric's points) or as a ratio; "relative" or
# "absolute" after it says which a percentage is.
_GAIN = DeferredPattern(
    r"(?<![\w.,-])(\d+(?:\.\d+)?)(?:("
    + _PERCENT
    + r")|(-?\s*(?:(?:percentage|absolute|[\w@-]+)\s+)?(?:points?|pp|ppts?|pts?|p\.p\.)(?!\w))"
    r"|(\s*(?:x|×|times|-?fold)\b))(?:\s*[(,]?\s*(relative|absolute)\b)?"
)
# "4-7x lower", "between 2.5 and 46.7 times faster", "a 2–3-fold reduction": a range of ratios.
_TIMES = r"\s*(?:x|×|times|-?fold)\b"
_RATIO_RANGE = DeferredPattern(r"(?<![\w.,-])(\d+(?:\.\d+)?)\s*(?:x|×)?\s*(?:--|–|—|-|to|and)\s*(\d+(?:\.\d+)?)" + _TIMES)

# The header of a column of summary statistics: the statistic's name alone, perhaps in bold or with its unit in
# brackets ("Max (ms)"); a longer name is another quantity ("Mean absolute error").
_STATISTIC_HEADER = DeferredPattern(
    r"^\W*(?:\\text\w+\{)?\s*(?:(min|minimum)|(max|maximum)|(mean|average|avg)|(median)|(sd|s\.d|std|standard\s+deviation))"
    r"\.?\}?\s*(?:[(\[][^()\[\]]*[)\]])?\W*$",
    re.IGNORECASE,
)
_STATISTICS = ("min", "max", "mean", "median", "sd")

# The name a paper gives its own method: "our mixture-of-interests models", "our M-LSTM model" (a phrase of more than
# a name, "our measure of the model", names none).
_OWN_NAME = DeferredPattern(
    r"\bour\s+((?:(?!(?:of|the|and|or|for|to|in|on|with|by|at|as|a|an|this|that|these)\s)[\w-]+\s+){0,2}?)"
    r"(?:model|method|approach|algorithm|system|framework|network|architecture|variant|technique|controller|policy|agent)s?\b",
    re.IGNORECASE,
)
# Words after "our" that name no method of its own: "our proposed model", "our baseline models".
_NOT_OWN = frozenset({"proposed", "new", "novel", "full", "final", "best", "own", "simple", "baseline", "baselines", "two", "three"})


@dataclass(frozen=True, slots=True)
class End:
    """One end of a stated extent: its value, its decimals and whether it is a percentage."""

    value: float
    decimals: int
    percent: bool
    times: bool = False  # a ratio: "4x", "2.5 times"

    @property
    def written(self) -> str:
        unit = "%" if self.percent else "x" if self.times else ""
        return ("-" if self.value < 0 else "") + spelled(self.value, self.decimals) + unit


def end_of(text: str, percent: bool) -> End:
    return End(*written_value(text), percent)


def stated_ranges(sentence: str) -> Iterator[tuple[int, int, End, End]]:
    """The ranges of `sentence`, low end first; a year span ("2005–2014") is none."""
    for match in _RANGE.finditer(sentence):
        groups = [group for group in match.groups()]
        pair = next(groups[i : i + 4] for i in (0, 4, 8) if groups[i] is not None)
        percent = bool(pair[1] or pair[3])
        ends = sorted((end_of(pair[0], percent), end_of(pair[2], percent)), key=lambda end: end.value)
        if all(end.decimals == 0 and 1900 <= end.value <= 2100 for end in ends):
            continue
        yield match.start(), match.end(), ends[0], ends[1]


def stated_bounds(sentence: str) -> Iterator[tuple[int, int, End]]:
    """The upper bounds of `sentence` stated as percentages ("by up to 22.4%") or ratios ("up to 40x")."""
    for match in _UP_TO.finditer(sentence):
        end = end_of(match.group(1), bool(match.group(2)))
        yield match.start(), match.end(), end if end.percent else End(end.value, end.decimals, False, times=True)


def stated_averages(sentence: str) -> Iterator[tuple[int, int, End, bool]]:
    """The mean changes of `sentence` ("by an average of 2.13%", "2.1% higher on average"), each with whether its
    words say it is a change (a number followed by "on average" may be a mean of anything)."""
    for match in _AVERAGE.finditer(sentence):
        worded = match.group(1) is not None
        number, percent, times = match.groups()[0:3] if worded else match.groups()[3:6]
        end = end_of(number, bool(percent))
        yield match.start(), match.end(), End(end.value, end.decimals, end.percent, times=bool(times)), worded


class Gain(NamedTuple):
    """A plain change a sentence states (`stated_gains`): its end and whether it may be relative, a difference."""

    start: int
    end: int
    stated: End
    relative: bool
    difference: bool


def stated_gains(sentence: str) -> Iterator[Gain]:
    """The plain changes of `sentence` ("by 1.9 points", "by 2.3%", "a 3.2-point gain", "by 2.5x"), each number with
    its unit: a percentage is relative or points (unless "relative" or "absolute" says which), points are a difference."""
    for match in _GAIN.finditer(sentence):
        number, percent, points, times, qualifier = match.groups()
        end = end_of(number, bool(percent))
        if times:
            yield Gain(match.start(), match.end(), End(end.value, end.decimals, False, times=True), False, False)
        else:
            yield Gain(match.start(), match.end(), end, bool(percent) and qualifier != "absolute", bool(points) or qualifier != "relative")


def stated_ratio_ranges(sentence: str) -> Iterator[tuple[int, int, End, End]]:
    """The ranges of ratios of `sentence` ("4-7x lower", "2.5 to 46.7 times faster"), low end first."""
    for match in _RATIO_RANGE.finditer(sentence):
        low, high = sorted((end_of(match.group(1), False), end_of(match.group(2), False)), key=lambda end: end.value)
        yield match.start(), match.end(), End(low.value, low.decimals, False, True), End(high.value, high.decimals, False, True)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def own_names(text: str) -> frozenset[str]:
    """The words a paragraph names the paper's own method by: "our mixture-of-interests models" gives
    "mixture-of-interests"."""
    return frozenset(word for match in _OWN_NAME.finditer(text) for word in name_words(match.group(1)) if word not in _NOT_OWN)


def own_blocks(rows: Sequence[int], mine: Collection[int]) -> list[tuple[list[int], list[int]]]:
    """The table's `rows` as blocks of the paper's own rows (`mine`) with the other rows they compare with, where a
    table repeats its rows per setting: each run of other rows with the run of own rows after it (other rows after
    the last own run join its block). Only the blocks with both."""
    blocks: list[tuple[list[int], list[int]]] = []
    for row in rows:
        if not blocks or (row not in mine and blocks[-1][0]):
            blocks.append(([], []))
        blocks[-1][0 if row in mine else 1].append(row)
    if len(blocks) > 1 and not blocks[-1][0]:
        blocks[-2][1].extend(blocks.pop()[1])
    return [(ours, others) for ours, others in blocks if ours and others]


def tables_and_statements(ctx: RuleContext, section: Section, read: Reader[Stated]) -> Iterator[ShownTable | Stated]:
    """The tables `section` shows, and what `read` finds stated in its paragraphs and captions, each anchored where
    it is stated (information until measured)."""
    for placed in section.blocks:
        here = shown_table(placed)
        if here is not None:
            yield here
        if placed.kind in (BlockKind.PARAGRAPH, BlockKind.CAPTION):
            for start, end, stated in read(placed.block.plain.text, tuple(placed.block.describes)):
                yield stated(ctx.report_block(placed, start, end, "", confidence=0.6))


def statements_of(parts: Sequence[tuple[Section, Sequence[object]]], kind: type[Stated]) -> Iterator[Stated]:
    """The statements of type `kind` that sections' parts hold, in reading order."""
    return (item for _, items in parts for item in items if isinstance(item, kind))


def against_tables(kind: type[Stated], judge: Callable[[Stated, Mapping[str, tuple[Table, ...]]], Iterable[Finding]]) -> Pairwise:
    """A `Pairwise` combine over `tables_and_statements` parts that judges each statement of type `kind` against the
    paper's tables by label (every tabular of a float)."""
    return judged_against_tables(kind, judged_by_number(judge), shown_tables_by_label)


def against_tables_and_words(
    kind: type[Stated], words: type[Words], judge: Callable[[Stated, Mapping[str, tuple[Table, ...]], frozenset[str]], Iterable[Finding]]
) -> Pairwise:
    """`against_tables`, with the words every section's parts of type `words` hold given to `judge` too, wherever
    they are said (the names the paper gives its own method)."""

    def feeds(part: Sequence[object]) -> object | None:
        tables = fed_shown_tables(part)
        held = tuple(sorted(_words_held([part], words)))
        return (tables, held) if tables is not None or held else None

    def shared(
        ctx: RuleContext, feeding: list[tuple[int, Section, list[object]]]
    ) -> tuple[Mapping[str, tuple[Table, ...]], frozenset[str]]:
        return shown_tables_by_label(ctx, feeding), _words_held([part for _, _, part in feeding], words)

    def each(
        ctx: RuleContext, state: tuple[Mapping[str, tuple[Table, ...]], frozenset[str]], place: int, section: Section, part: list[object]
    ) -> Iterator[Finding]:
        tables, held = state

        def with_paper(stated: Stated, by_label: Mapping[str, tuple[Table, ...]]) -> Iterable[Finding]:
            return judge(stated, by_label, held)

        judged = judged_by_number(with_paper)
        for item in part:
            if isinstance(item, kind):
                yield from judged(item, tables)

    return Pairwise(feeds, shared, each)


def _words_held(parts: Iterable[Sequence[object]], kind: type[Words]) -> frozenset[str]:
    return frozenset(word for part in parts for item in part if isinstance(item, kind) for word in item.words)


def stated_finding(anchor: Finding, violation: Violation, quote: str, kind: str, role: str, reason: str) -> Finding:
    """The finding at `anchor` that `violation` tells, with the statement (`quote`) as its evidence of class `kind`."""
    statement = Statement(file=anchor.file, range=anchor.range, quote=quote, role=role)
    evidence = Evidence(kind=kind, statements=[statement], reason=reason)
    return anchor.model_copy(update={"message": violation.message, "identity": violation.identity, "evidence": evidence})


def statistic_columns(table: Table) -> dict[str, int]:
    """The columns of summary statistics by statistic ("min", "max", "mean", "median", "sd"); empty unless the
    table has both a Min and a Max column."""
    found: dict[str, int] = {}
    for column in sorted({cell.column for cell in body_cells(table)}):
        if (statistic := statistic_named(table.column_header(column))) is not None:
            found.setdefault(statistic, column)
    return found if "min" in found and "max" in found else {}


def statistic_named(header: str) -> str | None:
    """The summary statistic ("min", "max", "mean", "median", "sd") a header names alone; None for another quantity."""
    match = _STATISTIC_HEADER.match(" ".join(header.split()))
    return _STATISTICS[match.lastindex - 1 if match.lastindex else 0] if match is not None else None


def cell_gives(cell: Cell | None, stated: End) -> bool:
    """The cell and the stated value are one number, the finer rounded to the coarser's places; a fraction cell
    is read as a percentage when the statement is one (0.35 ↔ 35%)."""
    if cell is None or cell.value is None:
        return False
    value, decimals = cell.value, cell.decimals
    if stated.percent and not cell.percent and abs(value) <= 1:
        value, decimals = value * 100, max(decimals - 2, 0)
    if stated.decimals >= decimals:
        return agrees(value, decimals, stated.value)
    return agrees(stated.value, stated.decimals, value)


@violation_type
class LineContradicted(Violation):
    """A range, an extreme or a mean (`quote`) that the cells of `line` (a column or a row) contradict, as `told` says."""

    quote: str
    line: str
    told: str

    @property
    def message(self) -> str:
        return f'"{self.quote}" against {self.line}: {self.told}'

    @property
    def identity(self) -> str:
        return f"{self.quote} {self.line}"


class Line(NamedTuple):
    """A column or a row of a table's numeric body cells, with how a message names it."""

    name: str
    header: str
    column: bool
    cells: list[Cell]


def table_lines(table: Table) -> Iterator[Line]:
    """The table's columns, then its rows. An aggregate row (Mean, MAE, Total) is no member of a column, nor an
    aggregate column (Avg.) of a row: it summarises the others, and "the largest error" is not the MAE's."""
    cells = [cell for cell in body_cells(table) if cell.value is not None]
    name = f"Table {table.label}" if table.label else "the table"
    columns = {column: " ".join(table.column_header(column).split()) for column in sorted({cell.column for cell in cells})}
    rows = {row: " ".join(table.row_header(row).split()) for row in sorted({cell.row for cell in cells})}
    summary_rows = {row for row, header in rows.items() if is_aggregate_row(header)}
    summary_columns = {column for column, header in columns.items() if AGGREGATE_COLUMN_HEADER.match(header)}
    for column, header in columns.items():
        if members := [c for c in cells if c.column == column and c.row not in summary_rows]:
            yield Line(f"{name} (column {header or column + 1})", header, True, members)
    for row, header in rows.items():
        if members := [c for c in cells if c.row == row and c.column not in summary_columns]:
            yield Line(f"{name} (row {header or row + 1})", header, False, members)


def shown_as(cell: Cell, end: End) -> tuple[float, int]:
    """The cell as the range writes it: a fraction cell as a percentage when the end is one."""
    value = cell.value or 0.0
    if end.percent and not cell.percent and abs(value) <= 1:
        return value * 100, max(cell.decimals - 2, 0)
    return value, cell.decimals


def holds(cell: Cell, end: End) -> bool:
    """The cell, as the range writes it (rounded to the end's places, one place fewer at most), is this end."""
    value, decimals = shown_as(cell, end)
    return end.decimals >= decimals - 1 and agrees(end.value, end.decimals, value)
