"""NUM016: the extent of a change a sentence states against a baseline row of a cited table ("reduces the tracking
error by up to 22.4% compared to L1", "4-7x lower memory than idtracker.ai"), or a plain change ("improves over Prior
by 1.9 points"), that no cell pair gives.

## How it decides
A sentence states the extent of a change when it has a word of change (reduces, improves, lower, higher,
faster, ...), a word of comparison (compared to, relative to, over, than, against, versus, outperforms) and
an extent of the change: a percentage ("by up to P%", "by as much as P%", "improvements ranging from A% to
B%", "by between A% and B%") or a ratio ("up to 40x faster", "4-7x lower", "2.5 to 46.7 times faster"), or a mean of the changes
("surpasses PiCO by an average of 2.13% on CIFAR-10", "an average improvement of 6x"), or one plain change: "by 1.9
points", "by 4.1 accuracy points", "by 6.6 pp", "a 3.2-point gain", "by 2.3%", "1.9x faster". Points are a difference
(of two fraction cells, in percentage points); a percentage is a difference or a share of the baseline, unless
"relative" or "absolute" says which. A plain change that is approximate or a bound ("about 5%", "over 40 times"), one of
a list ("by 0.68% and 1.33%", "respectively"), or in a sentence of averages or means is not read. An
extent of a setting the comparison holds over ("better than L1 for payloads from 10% to 50%") is none: the
extent must follow "by" or a noun of change, or come before a word of change.

The sentence (else its paragraph) must cite a table with `\\ref` that has a row of the method (a row the sentence
names before its comparison: "PackNet-SAN lowers ... compared to BTS", else one headed "Ours", "our ..." or
"proposed") and a row the sentence names by its header's words: the baseline ("L1", "BPR"; a
citation in a header names nothing, and "L_1" is "L1"; "the baseline" names a row headed "Baseline"). Where a table repeats the baseline in several
blocks (one per setting), each row of the method is set against the baseline row nearest above it.

The changes are read in the columns whose header the words just before the extent name ("the height error
by up to 67.7%" reads "Height Err."), else in every numeric column; a mean's columns are named first by the
words after it, up to the next number ("by an average of 2.13% on CIFAR-10 and 2.72% on CIFAR-100"), and so are a plain
change's ("by 4.1 accuracy points on ImageNet"). A change is the method's cell against
the baseline's, as a share of the baseline (relative), as a difference (points) or as the larger cell over
the smaller (a ratio), each with the span the cells' rounding allows. Every end of the extent must be one
of those changes of its kind, within that span and the end's own rounding or cut (a whole ratio, "4-7x",
within a tenth); an end that none gives is the finding. "Up to P%" is read as the largest change, so it
must be one of them too: a largest change past P makes P false, and one short of P was not attained. A
mean must be the mean of the changes read, as relative changes, differences or ratios, within its rounding. A plain
change names one pair of cells: some pair of the columns read must give it. Where several cited tables hold the rows,
the pair meant is unknown and the check is silent.

A sentence that names no baseline row but sets "our" method against the baselines as a whole ("variants of our
model achieve higher performance than baseline models, with improvements ranging from 10% to 69%", "outperforms
the state of the art by up to 30%") is read against all the table's rows: the paper's own rows are those headed
"Ours" (or "proposed"), else those a word names that the paper writes after "our" anywhere ("our mixture models"
names "Projection Mixture"), and the others are the rows they are set against (no aggregate, no change row, none set
apart in italics as concurrent work), block by
block where the table repeats them per setting (each run of other rows with the run of own rows after it), in every
table of a float of subtables under the cited label. In each block and column read, the best own cell gains over the
best other cell, on the column's better side (its header's or caption's, else the side the sentence says its numbers
go: "higher", "lower"; a column of no known side is not read); a gain on the worse side is negative. A range's low end must be the least of those gains, and its high end (or an "up to") the greatest, or the
greatest over the weakest other row (a headline may be read against the weakest baseline); within the cells' rounding
and the end's, a whole multiple of ten ("up to 30%") being a round figure read to its tens. A plain change of "our"
method over the others' best ("outperforming the previous best by 2.05% on WebVision", "over the state of the art")
must be the gain of the best own row over the best other row in one of the columns read.

The check is silent when the table has no row of the method, or the sentence names no baseline row and does not
speak of "our" method against the baselines as a whole, or no cell pair gives a change at all.

Confidence 0.6 (information). Evidence: "weak: no cell pair gives the stated change"; against the baselines as a
whole, "weak: the extremes of our best rows' gains over the others' best", and for a plain gain over the others' best,
"weak: our best rows' gain over the others' best".
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from itertools import product
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import BlockKind, Table
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import ShownTable, body_cells, each_cited, name_words
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..printed_tables import paragraph_keys, sentence_tables
from ..tables.direction import read_direction, stated_direction
from ..tables.model import is_aggregate_row
from .cell_changes import Change, cell_change, extreme_change, mean_change, signed_gain
from .extents import (
    End,
    against_tables_and_words,
    own_blocks,
    own_names,
    stated_averages,
    stated_bounds,
    stated_finding,
    stated_gains,
    stated_ranges,
    stated_ratio_ranges,
    tables_and_statements,
)
from .model import CHANGE_HEADER

_CHANGE = DeferredPattern(
    r"\b(?:reduc|improv|lower|higher|decreas|increas|gain|outperform|better|drop|fewer|faster|speed|boost|cut|smaller|larger|surpass|beat|exceed)",
    re.IGNORECASE,
)
_AGAINST = DeferredPattern(
    r"\b(?:compared\s+(?:to|with)|relative\s+to|over|than|against|versus|vs\.?|outperform\w*|surpass\w*|beat\w*|exceed\w*)(?=\s)",
    re.IGNORECASE,
)
_OURS = DeferredPattern(r"\b(?:ours|our|proposed)\b", re.IGNORECASE)
# A citation in a row's header names no row; a subscript glued to its letter is part of the name ("L_1" is "L1").
_CITATION = DeferredPattern(r"\\\w*cite\w*\s*(?:\[[^\]]*\]\s*)*\{[^}]*\}")
_SUBSCRIPT = DeferredPattern(r"(?<=[A-Za-z])_\{?([A-Za-z0-9]+)\}?")
# The extent is of the change: "by up to 22.4%", "improvements ranging from 10% to 69%", "a 10-20% reduction"
# (not a setting the comparison holds over: "better than L1 for noise from 10% to 50%").
_OF_CHANGE_BEFORE = DeferredPattern(
    r"(?:\bby|\b(?:improvement|reduction|gain|increase|decrease|speed-?up|drop)s?(?:\s+(?:of|ranging|range))?)\s+$", re.IGNORECASE
)
_OF_CHANGE_AFTER = DeferredPattern(
    r"\s*(?:\w+\s+)?(?:improvement|reduction|gain|increase|decrease|lower|higher|less|fewer|faster|better|speed-?up|drop)", re.IGNORECASE
)
# A row headed "Baseline" is named by "the baseline" (its word names no other row: it is in every table's header).
_BASELINE_ROW = DeferredPattern(r"\s*(?:\\textbf\{)?baseline\}?\s*$", re.IGNORECASE)
_THE_BASELINE = DeferredPattern(r"\bthe\s+baseline\b(?!s)", re.IGNORECASE)
# A sentence of "our" method against the baselines as a whole ("variants of our model achieve higher performance than
# baseline models", "outperforms all baselines"): its rows are the paper's own against every other row.
_OTHERS = DeferredPattern(
    r"\bbaselines?\b|\bstate[- ]of[- ]the[- ]art\b|\b(?:other|existing|competing|prior|previous|all)\s+(?:methods|models|approaches|systems)\b",
    re.IGNORECASE,
)
# A plain gain over the baselines as a whole is over their best: "outperforming the previous best by 2.05%".
_BEST_OTHER = DeferredPattern(
    r"\b(?:previous|prior|next|second)[- ]best\b|\b(?:best|strongest)\s+(?:baseline|competitor|competing)|\bstate[- ]of[- ]the[- ]art\b",
    re.IGNORECASE,
)
# A plain change of a bound or an approximation ("over 40 times", "about 5%") or of a list ("by 0.68% and 1.33%", read
# respectively) is no one pair's change.
_APPROXIMATE = DeferredPattern(
    r"(?:\b(?:about|approximately|around|roughly|nearly|almost|over|than|least|most|some)|≈|~|\\sim|\\approx)\s*$", re.IGNORECASE
)
_LISTED = DeferredPattern(r"\s*(?:,|and\b|or\b)\s*\d|[\s\S]*\brespectively\b", re.IGNORECASE)
# Which way a sentence says its method's numbers go, for a column whose table does not say which side is better.
_HIGHER_WORD = DeferredPattern(r"\b(?:higher|larger|increas\w*|more)\b", re.IGNORECASE)
# A change told as a speed: "7.1% faster" is most often the ratio of the times less one, not a share of the baseline's.
_SPEED_WORD = DeferredPattern(r"\b(?:faster|slower|quicker|speed-?ups?|sped\s+up|throughput)\b", re.IGNORECASE)
_LOWER_WORD = DeferredPattern(r"\b(?:lower|smaller|reduc\w*|decreas\w*|fewer|less)\b", re.IGNORECASE)
_EXTENT_UNIT = DeferredPattern(r"\d\s*(?:%|x\b|×|times|-?fold)|\b(?:points?|pp|ppts?|pts?|per\s?cent)\b")
# A plain change in a sentence of averages may be their mean or a mean's change: it is read as neither.
_AVERAGE_WORD = DeferredPattern(r"\b(?:average[sd]?|mean|avg)\b", re.IGNORECASE)
_NUMBER_AHEAD = DeferredPattern(r"(?<![\w.-])[-−]?\d")
# The words just before an extent that may name its column: "reduces the average height error by up to".
_NAMING_WINDOW = 60


@dataclass(frozen=True, slots=True, eq=False)
class _Extent:
    anchor: Finding  # first: the reader keeps the rest, and its finding is given last
    ends: tuple[End, ...]
    quote: str
    metric: frozenset[str]  # the words before the extent, which may name its column
    after: frozenset[str]  # the words after an average ("by an average of 2.13% on CIFAR-10"), which name its columns first
    mean: bool  # the extent is the mean of the changes over the columns read, not their bound or range
    relative: bool  # a percentage end may be a share of the baseline ("by 2.3%"; not "by 2.3 points", "2.3% absolute")
    difference: bool  # an end may be a difference of the cells ("by 2.3 points"; not "a 2.3% relative gain")
    speed: bool  # a percentage end may be the ratio less one, as a speed-up is told ("7.1% faster": 100 s against 93.4 s)
    named: frozenset[str]  # the sentence's words, which name the baseline row
    subject: frozenset[str]  # the words before its comparison, which may name the method's row
    the_baseline: bool  # the sentence speaks of "the baseline", a row headed so
    ours_over_others: bool  # the sentence sets "our" method against the baselines as a whole, naming none
    plain: bool  # one change of one pair of cells ("by 1.9 points"), not an extent of several
    going: int  # +1 when the sentence says its method's numbers are higher, -1 lower, 0 when it says neither or both
    labels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _OwnNames:
    """The words a section's paragraphs name the paper's own method by ("our mixture models": "mixture")."""

    words: frozenset[str]


@violation_type
class ExtremesNotGiven(Violation):
    """A stated range or bound (`quote`) of the gains of the paper's own rows (`ours`) over the best of the other rows
    (`others`) of `table`, where the per-column gains run `changes`."""

    quote: str
    ours: str
    others: str
    table: str
    changes: str

    @property
    def message(self) -> str:
        return f'"{self.quote}": per column of {self.table}, the best of {self.ours} against the best of {self.others} gives {self.changes}'

    @property
    def identity(self) -> str:
        return f"{self.quote} {self.table} {self.others}"


@violation_type
class ChangeNotGiven(Violation):
    """A stated change (`quote`) of `method` against `baseline` that no cell pair of `table` gives."""

    quote: str
    method: str
    baseline: str
    table: str
    changes: str  # what the pairs give: "relative changes 3.5%–70.0%", "ratios 1.1x–30.0x"

    @property
    def message(self) -> str:
        return f'"{self.quote}": no column of {self.table} gives {self.method} this change against {self.baseline} ({self.changes})'

    @property
    def identity(self) -> str:
        return f"{self.quote} {self.table} {self.baseline}"


class _Read(NamedTuple):
    """An extent where a sentence states it (`at` to `until`), with how its ends are read."""

    at: int
    until: int
    ends: tuple[End, ...]
    mean: bool = False
    worded: bool = False  # its words say it is a change ("by an average of"), wherever it stands
    relative: bool = True
    difference: bool = True
    plain: bool = False  # one change of one pair of cells ("by 1.9 points"), not an extent of several


def _naming_words(text: str) -> frozenset[str]:
    """The words by which a sentence names a row and a header names its row."""
    return frozenset(name_words(_SUBSCRIPT.sub(r"\1", _CITATION.sub(" ", text))))


def _row_name(table: Table, row: int) -> str:
    return " ".join(_CITATION.sub(" ", table.row_header(row)).replace("~", " ").split())


def _pairs(table: Table, stated: _Extent) -> list[tuple[int, int]]:
    """(method row, baseline row): each row of the method against each named baseline nearest above it. The
    method's row is one the sentence names before its comparison, else a row headed "Ours" (or "proposed")."""
    rows = sorted({cell.row for cell in body_cells(table) if cell.value is not None})
    words = {row: _naming_words(table.row_header(row)) for row in rows}
    methods = [row for row in rows if words[row] and words[row] <= stated.subject]
    if not methods:
        methods = [row for row in rows if _OURS.search(table.row_header(row))]
    baselines: dict[frozenset[str], list[int]] = {}
    for row in rows:
        if row not in methods and words[row] and words[row] <= stated.named:
            baselines.setdefault(words[row], []).append(row)
        elif row not in methods and stated.the_baseline and _BASELINE_ROW.match(table.row_header(row)):
            baselines.setdefault(frozenset({"baseline"}), []).append(row)
    pairs = []
    for method in methods:
        for group in baselines.values():
            above = [row for row in group if row < method]
            pairs.append((method, above[-1] if above else group[0]))
    return pairs


def _columns(table: Table, stated: _Extent) -> list[int]:
    """The numeric columns the words after an average name, else those the words before the extent name, else all."""
    columns = sorted({cell.column for cell in body_cells(table) if cell.value is not None})
    for words in (stated.after, stated.metric):
        named = [column for column in columns if words & name_words(table.column_header(column))]
        if named:
            return named
    return columns


def _changes(table: Table, stated: _Extent) -> tuple[list[Change], tuple[int, int]] | None:
    """Every change of the method against its baseline in the columns read, and the first pair of rows."""
    pairs = _pairs(table, stated)
    cells = {(cell.row, cell.column): cell for cell in body_cells(table) if cell.value is not None}
    changes = [
        cell_change(cells[method, column], cells[baseline, column])
        for method, baseline in pairs
        for column in _columns(table, stated)
        if (method, column) in cells and (baseline, column) in cells
    ]
    return (changes, pairs[0]) if changes else None


def _told_changes(changes: list[Change], stated: _Extent) -> str:
    """What the changes are, of the stated end's kind: "relative changes 3.5%–70.0%", "differences 0.8–2.9"."""
    times = stated.ends[0].times
    points = not (times or stated.relative)
    spans = [change.ratio if times else (change.points or change.difference) if points else change.relative for change in changes]
    middles = sorted((span[0] + span[1]) / 2 for span in spans if span is not None)
    unit, kind = ("x", "ratio") if times else ("", "difference") if points else ("%", "relative change")
    if not middles:
        return f"no {kind}s"
    low, high = f"{middles[0]:.1f}{unit}", f"{middles[-1]:.1f}{unit}"
    return f"{kind} {low}" if low == high else f"{kind}s {low}–{high}"


def _told_mean(mean: Change) -> str:
    """What the mean change is, as a share of the baseline and as a difference."""
    relative = f"{sum(mean.relative) / 2:.2f}% relative, " if mean.relative else ""
    return f"the mean change is {relative}{sum(mean.difference) / 2:.2f} as a difference"


def _judged(stated: _Extent, tables: Mapping[str, tuple[Table, ...]], own: frozenset[str]) -> Iterator[Finding]:
    """Against the baseline the sentence names, else (it names none, and speaks of "our" method against the
    baselines) its extremes against the best gains of the paper's own rows (named by `own` too) over the others."""
    if any(_pairs(table, stated) for _, table in each_cited(stated.labels, tables)):
        yield from _not_given(stated, tables)
    elif stated.ours_over_others and not stated.mean:
        yield from _extremes_not_given(stated, tables, own)


def _blocks_of(table: Table, own: frozenset[str]) -> list[tuple[list[int], list[int]]]:
    """The rows of the paper's own method (headed "Ours" or "proposed", else named by a word the paper names its own
    method by: `own`) with the other rows they compare with (no aggregate, no change row, none set apart), block by block."""
    rows = sorted({cell.row for cell in body_cells(table) if cell.value is not None})
    headers = {row: table.row_header(row) for row in rows}
    compared = [
        row for row in rows if not is_aggregate_row(headers[row]) and not CHANGE_HEADER.search(headers[row]) and not table.set_apart(row)
    ]
    mine = {row for row in compared if _OURS.search(headers[row])} or {
        row for row in compared if any(own & {word, *word.split("-")} for word in _naming_words(headers[row]))
    }
    return own_blocks(compared, mine)


def _column_direction(table: Table, column: int, going: int) -> int:
    """The better side of a column: the table's, else the side the sentence says its method's numbers go."""
    return read_direction(table.column_header(column), table.caption, stated_direction(table.caption or ""))[0] or going


class _Gains(NamedTuple):
    """Per block and column read, the gain of the best own row over the best other row and over the weakest."""

    over_best: list[Change]
    over_weakest: list[Change]
    ours: str
    others: str


def _best_gains(tables: tuple[Table, ...], stated: _Extent, own: frozenset[str]) -> _Gains | None:
    """The gains of the paper's own rows over the others in the tables of a float; None unless a block has both."""
    over_best, over_weakest, ours_named, others_named = [], [], {}, {}
    for table in tables:
        blocks = _blocks_of(table, own)
        cells = {(cell.row, cell.column): cell for cell in body_cells(table) if cell.value is not None}
        for (ours, others), column in product(blocks, _columns(table, stated)):
            better = _column_direction(table, column, stated.going)
            mine = [cells[row, column] for row in ours if (row, column) in cells]
            theirs = sorted((cells[row, column] for row in others if (row, column) in cells), key=lambda cell: better * (cell.value or 0.0))
            if better and mine and theirs:
                best = max(mine, key=lambda cell: better * (cell.value or 0.0))
                over_best.append(signed_gain(best, theirs[-1], better))
                over_weakest.append(signed_gain(best, theirs[0], better))
                ours_named.update(dict.fromkeys(_row_name(table, row) for row in ours))
                others_named.update(dict.fromkeys(_row_name(table, row) for row in others))
    return _Gains(over_best, over_weakest, ", ".join(ours_named), ", ".join(others_named)) if over_best else None


def _round_figure(end: End) -> End:
    """A whole multiple of ten ("up to 30%") is a round figure of a headline, read to its tens (30% for 32.2%)."""
    return End(end.value, -1, end.percent, end.times) if end.decimals == 0 and end.value and end.value % 10 == 0 else end


def _told_extremes(lowest: Change, highest: Change, over_weakest: Change, times: bool) -> str:
    """What the gains are: "relative gains from 4.2% to 69.4% (up to 70.1% over the weakest)"."""
    unit, kind = ("x", "ratios") if times else ("%", "relative gains")
    spans = [change.ratio if times else change.relative for change in (lowest, highest, over_weakest)]
    if any(span is None for span in spans):
        return f"no {kind} of one sign"
    low, high, weakest = ((span[0] + span[1]) / 2 for span in spans if span is not None)
    return f"{kind} from {low:.1f}{unit} to {high:.1f}{unit}" + (
        f" (up to {weakest:.1f}{unit} over the weakest)" if weakest > high + 0.05 else ""
    )


def _extremes_not_given(stated: _Extent, tables: Mapping[str, tuple[Table, ...]], own: frozenset[str]) -> Iterator[Finding]:
    """A range's ends must be the least and the greatest per-column gain of the paper's best row over the others'
    best, an "up to" the greatest: judged against the first cited float whose tables have both."""
    # A plain gain over the others' best says which row is better, not which side: on a column of no known side,
    # either side may be the better one.
    sides = [replace(stated, going=going) for going in (1, -1)] if stated.plain and not stated.going else [stated]
    for label in stated.labels:
        tabulars = tables.get(label, ())
        sided = [found for side in sides if (found := _best_gains(tabulars, side, own))]
        if not sided:
            continue
        table = tabulars[0]
        name = f"Table {table.label}" if table.label else "the table"
        if stated.plain:
            yield from _best_gain_not_given(stated, sided, name)
            return
        found = sided[0]
        lowest, highest = extreme_change(found.over_best, highest=False), extreme_change(found.over_best, highest=True)
        # The greatest gain may be read over the weakest other row ("up to 80% over the baselines").
        greatest = (highest, extreme_change(found.over_weakest, highest=True))
        ends = [_round_figure(end) for end in stated.ends]
        low_given = len(ends) == 1 or lowest.gives(ends[0])
        if low_given and any(bound.gives(ends[-1]) for bound in greatest):
            return
        told = _told_extremes(lowest, highest, greatest[1], stated.ends[0].times)
        violation = ExtremesNotGiven(stated.quote, found.ours, found.others, name, told)
        reason = "a range's ends are the least and the greatest per-column gain of the best own row over the best other row; an 'up to' the greatest, also over the weakest"
        yield stated_finding(
            stated.anchor, violation, stated.quote, "weak: the extremes of our best rows' gains over the others' best", "extent", reason
        )
        return


def _best_gain_not_given(stated: _Extent, sided: list[_Gains], name: str) -> Iterator[Finding]:
    """A plain gain over the best of the others ("outperforming the previous best by 2.05%") must be the gain of the
    paper's best row over the others' best in a column read (one the sentence names, else any), on a side read."""
    gains = [gain for found in sided for gain in found.over_best]
    if any(gain.gives(end, stated.relative, stated.difference, stated.speed) for gain in gains for end in stated.ends):
        return
    found = sided[0]  # told on the side the table or the sentence gives, else the higher
    violation = ExtremesNotGiven(stated.quote, found.ours, found.others, name, _told_changes(found.over_best, stated))
    reason = "a plain gain over the best other row is the gain of the best own row over the best other row in a column read"
    yield stated_finding(stated.anchor, violation, stated.quote, "weak: our best rows' gain over the others' best", "extent", reason)


def _not_given(stated: _Extent, tables: Mapping[str, tuple[Table, ...]]) -> Iterator[Finding]:
    """Judged against the one cited table with a pair of rows (a float's tabulars each a table): where several have
    one, the pair meant is unknown."""
    bound = {id(table): (table, found) for _, table in each_cited(stated.labels, tables) if (found := _changes(table, stated))}
    if len(bound) != 1:
        return
    [(table, (changes, (method, baseline)))] = bound.values()
    read = [mean_change(changes)] if stated.mean else changes
    if all(any(change.gives(end, stated.relative, stated.difference, stated.speed) for change in read) for end in stated.ends):
        return
    told = _told_mean(mean_change(changes)) if stated.mean else _told_changes(changes, stated)
    name = f"Table {table.label}" if table.label else "the table"
    violation = ChangeNotGiven(stated.quote, _row_name(table, method), _row_name(table, baseline), name, told)
    reason = "the stated change is no relative change, difference or ratio of the method's cell and the baseline's"
    yield stated_finding(stated.anchor, violation, stated.quote, "weak: no cell pair gives the stated change", "extent", reason)


@rule(
    "NUM016",
    "derived-extent-not-in-table",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),  # a table named by its printed number: the numbering reads the counters macros set
    scope=Scope.SECTION,
    combine=against_tables_and_words(_Extent, _OwnNames, _judged),
)
def derived_extent_not_in_table(ctx: RuleContext, section: Section) -> Iterator[ShownTable | _Extent | _OwnNames]:
    """## What it does
    Flags the extent of a change a sentence states of its method against a baseline row of a
    cited table ("reduces the tracking error by up to 22.4% compared to L1", "improvements over
    BPR ranging from 10% to 69%", "4-7x lower memory than idtracker.ai") when no column of the
    table gives the method that change against the baseline: as a share of the baseline's cell,
    as a difference, or as a ratio. Against the baselines as a whole ("variants of our model beat
    baseline models, with improvements ranging from 10% to 69%"), a range's ends must be the least
    and the greatest gain, per column, of the paper's best row over the best other row. A plain
    gain ("improves over Prior by 1.9 points", "by 4.1 accuracy points on ImageNet", "by 2.3%")
    must be one column's change of the two rows, in the column the sentence names if it names
    one; over "the previous best", the gain of the paper's best row over the others' best.

    ## Why is this bad?
    An "up to" or a range of improvements is the headline a reader keeps; one that no pair of
    cells gives was computed from another version of the table or another baseline.

    ## Example
    ```latex
    Compared to L1, ours reduces the error by up to 22.4\\% (Table~\\ref{t}).
    On ImageNet, FooNet improves over Prior by 1.9 points (Table~\\ref{m}).
    % t: L1 & 1.04 & 1.46 \\\\ Ours & 0.85 & 1.40
    % m: Method & CIFAR-100 & ImageNet \\\\ Prior & 66.1 & 57.9 \\\\ FooNet & 69.0 & 60.2
    ```

    ## Use instead
    ```latex
    Compared to L1, ours reduces the error by up to 18.3\\% (Table~\\ref{t}).
    On ImageNet, FooNet improves over Prior by 2.3 points (Table~\\ref{m}).
    ```

    ## Fix safety
    No fix: the table may be the side that is wrong.

    ## Evidence
    "weak: no cell pair gives the stated change" against a named baseline row; "weak: the extremes of our best
    rows' gains over the others' best" against the baselines as a whole; "weak: our best rows' gain over the
    others' best" for a plain gain over the previous best.
    """
    yield from tables_and_statements(ctx, section, _stated_in)
    own = frozenset(word for placed in section.blocks if placed.kind is BlockKind.PARAGRAPH for word in own_names(placed.block.plain.text))
    if own:
        yield _OwnNames(own)


def _naming_end(sentence: str, until: int, starts: list[int]) -> int:
    """Where the words naming an average's columns end: at the next number or extent ("on CIFAR-10 and 2.72% on ...")."""
    number = _NUMBER_AHEAD.search(sentence, until)
    return min(next(start for start in starts if start >= until), number.start() if number else len(sentence))


def _extents_in(sentence: str) -> list[_Read]:
    """The ranges, bounds and means of changes a sentence states, and its plain changes that are none of theirs."""
    extents = [_Read(at, until, (low, high)) for at, until, low, high in stated_ranges(sentence) if low.percent and high.percent]
    extents += [_Read(at, until, (low, high)) for at, until, low, high in stated_ratio_ranges(sentence)]
    extents += [_Read(at, until, (bound,)) for at, until, bound in stated_bounds(sentence)]
    extents += [_Read(at, until, (mean,), mean=True, worded=worded) for at, until, mean, worded in stated_averages(sentence)]
    if _AVERAGE_WORD.search(sentence):
        return extents
    # A plain change that is no end of an extent above: "by 1.9 points", "a 3.2-point gain", "by 2.3%".
    return extents + [
        _Read(gain.start, gain.end, (gain.stated,), relative=gain.relative, difference=gain.difference, plain=True)
        for gain in stated_gains(sentence)
        if not any(read.at < gain.end and gain.start < read.until for read in extents)
        and not _APPROXIMATE.search(sentence, 0, gain.start)
        and not _LISTED.match(sentence, gain.end)
    ]


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _stated_in(text: str, describes: tuple[str, ...]) -> tuple[tuple[int, int, partial[_Extent]], ...]:
    """The extents of change a paragraph states against a baseline, kept by text so an edit re-reads its paragraph alone."""
    paragraph_refs = paragraph_keys(text, describes)
    if not paragraph_refs or not _EXTENT_UNIT.search(text) or not _AGAINST.search(text) or not _CHANGE.search(text):
        return ()  # no sentence of it can state an extent of a change against a row
    found: list[tuple[int, int, partial[_Extent]]] = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        against = _AGAINST.search(sentence)
        if against is None or not _CHANGE.search(sentence):
            continue
        labels = sentence_tables(sentence, paragraph_refs)
        named = _naming_words(sentence)
        subject = _naming_words(sentence[: against.start()])
        extents = _extents_in(sentence)
        starts = sorted(read.at for read in extents) + [len(sentence)]
        for read in extents:
            at, until = read.at, read.until
            if not read.worded and not (_OF_CHANGE_BEFORE.search(sentence, 0, at) or _OF_CHANGE_AFTER.match(sentence, until)):
                continue
            before = sentence[max(at - _NAMING_WINDOW, 0) : at]
            metric = frozenset(name_words(before.partition(" ")[2] if at > _NAMING_WINDOW else before))
            # The columns of a mean, or of a plain change, may be named after it: "by 4.1 points on CIFAR-10".
            named_after = read.mean or read.plain
            after = frozenset(name_words(sentence[until : _naming_end(sentence, until, starts)])) if named_after else frozenset()
            quote = " ".join(sentence[at:until].split())
            the_baseline = bool(_THE_BASELINE.search(sentence))
            # A plain change against the baselines as a whole is over their best, where the sentence says so.
            ours_over_others = bool(_OURS.search(sentence) and (_BEST_OTHER if read.plain else _OTHERS).search(sentence))
            going = bool(_HIGHER_WORD.search(sentence)) - bool(_LOWER_WORD.search(sentence))
            speed = bool(_SPEED_WORD.search(sentence))
            extent = partial(
                _Extent,
                ends=read.ends,
                quote=quote,
                metric=metric,
                after=after,
                mean=read.mean,
                relative=read.relative,
                difference=read.difference,
                speed=speed,
                named=named,
                subject=subject,
                the_baseline=the_baseline,
                ours_over_others=ours_over_others,
                plain=read.plain,
                going=going,
                labels=labels,
            )
            found.append((start + at, start + until, extent))
    return tuple(found)
