"""ARI011: one of several changes a sentence states line by line of a table ("26% on Amazon, 17% on
Goodbooks") that the pair of rows giving the others does not give.

## How it decides
The sentence states changes (a gain, an improvement, a margin, "better", "lower") and two
percentages at least, none of them "points" or "up to". Each percentage is tied to the header of
a line across the table (a column, or a row when the methods stand side by side) named nearest to
it, within a few words and with no other percentage between; a header of more than two
distinctive words is not looked for. The table is the one the sentence cites, else one its
paragraph cites, else one of the three shown last before it, in its section or an earlier one (a
float often stands before the heading of the section that discusses it; each subtable apart).

The two things compared are found, not named: every pair of lines the other way is tried, with
the change taken relative to one of them (the same one on every line), each percentage within
the rounding of the two cells and its own. Where the sentence or the one before it names lines
(half their header's words at least), the pair must hold one. A pair that gives all the
percentages but one, and more than it misses (as many, when the sentence names both lines), is
the comparison meant; the percentage it misses is flagged, unless another pair explaining as
many misses a different one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, Table
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ....latex.source import value_hash
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...quantities import TableAt, referenced_labels, shown_table, spelled, tabulars_by_label
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .line_changes import PairFit, Stated, attach, cells_by_side, named_sides, pair_fits, settled, stated_percentages
from .model import Written

_RECENT = 3  # tables shown last before an uncited sentence that it may discuss


@violation_type
class LineChangeMiscomputed(Violation):
    stated: str  # "12%"
    line: str
    label: str
    claimed: str
    compared: str
    values: tuple[str, str]
    recomputed: float
    others: tuple[str, ...]  # "69% on Amazon"

    @property
    def message(self) -> str:
        return (
            f"{self.stated} on {self.line} does not follow from Table {self.label}: {self.claimed} {self.values[0]} and "
            f"{self.compared} {self.values[1]} there are a change of {self.recomputed:.1f}%, though the same two give the "
            f"sentence's {', '.join(self.others)}"
        )


@record(slots=True, eq=False)
class _Sentence:
    sentence: str
    before: str  # the sentence before it: where the compared lines may be named
    percents: tuple[Written, ...]
    labels: tuple[str, ...]  # the tables the sentence cites, else those its paragraph cites
    block: int  # the paragraph's place among its section's blocks
    offset: int  # of the sentence in the block's plain text


@dataclass(frozen=True, slots=True, eq=False)
class _ShownAt(TableAt):
    cells: str  # the table's grid, its cells counted from its start, digested: what it gives every section's sentences


@record(slots=True, eq=False)
class _Shown:
    """The paper's tables by label, and each section's tables in reading order, by the section's place."""

    by_label: dict[str, tuple[Table, ...]]
    placed: list[tuple[int, list[Table]]]

    def recent(self, place: int) -> list[Table]:
        """The tables shown last before the section at `place`, the latest first."""
        return [table for at, tables in self.placed if at < place for table in tables][::-1][:_RECENT]


def _fed(part: list[object]) -> tuple[tuple[tuple[str, ...], str], ...] | None:
    """What a section's tables give every section's sentences (None: it shows none), without their offsets."""
    return tuple((item.labels, item.cells) for item in part if isinstance(item, _ShownAt)) or None


def _shown(ctx: RuleContext, feeding: list[tuple[int, Section, list[object]]]) -> _Shown:
    shown = [
        (place, [(item.labels, item.table(section)) for item in part if isinstance(item, _ShownAt)]) for place, section, part in feeding
    ]
    by_label = tabulars_by_label(labelled for _, tables in shown for labelled in tables)
    return _Shown(by_label, [(place, [table for _, table in tables]) for place, tables in shown])


def _in_section(ctx: RuleContext, shown: _Shown, place: int, section: Section, part: list[TableAt | _Sentence]) -> Iterator[Finding]:
    """Each sentence of the section against the tables it (or its paragraph) cites, else the few shown last before
    it: a float often stands before the heading of the section that discusses it."""
    recent = shown.recent(place)
    for item in part:
        if isinstance(item, TableAt):
            recent = [item.table(section), *recent[: _RECENT - 1]]
        else:
            tables = [table for label in item.labels for table in shown.by_label.get(label, ())] or recent
            yield from _first_contradiction(ctx, section.blocks[item.block], item, tables)


def _first_contradiction(ctx: RuleContext, placed: PlacedBlock, item: _Sentence, tables: Sequence[Table]) -> Iterator[Finding]:
    """The percentages the first table (and direction) with a settled pair contradicts."""
    for table in tables:
        for by_rows in (True, False):
            headers = _headers(table, not by_rows)
            stated = attach(item.sentence, item.percents, headers)
            if len(stated) < 2:
                continue
            named = named_sides(item.before + " " + item.sentence, _headers(table, by_rows))
            for fit in settled(pair_fits(table, by_rows, stated, named)):
                yield from (_report(ctx, placed, item, table, by_rows, fit, missed) for missed in fit.missed)
                return


def _headers(table: Table, rows: bool) -> list[str]:
    """The header of each row (or column), by index; the row-header column and header rows have none."""
    if rows:
        return ["" if row < table.header_rows else table.row_header(row) for row in range(len(table.rows))]
    width = max((cell.column + 1 for row in table.rows for cell in row), default=0)
    return [""] + [table.column_header(column) for column in range(1, width)]


def _report(ctx: RuleContext, placed: PlacedBlock, item: _Sentence, table: Table, by_rows: bool, fit: PairFit, missed: Stated) -> Finding:
    cells = cells_by_side(table, by_rows)
    sides, lines = _headers(table, by_rows), _headers(table, not by_rows)
    a, b = cells[(fit.claimed, missed.line)], cells[(fit.compared, missed.line)]
    percent = missed.percent
    violation = LineChangeMiscomputed(
        f"{spelled(percent.value, percent.decimals)}%",
        _short(lines[missed.line]),
        table.label or "",
        _short(sides[fit.claimed]),
        _short(sides[fit.compared]),
        (spelled(a.value or 0.0, a.decimals), spelled(b.value or 0.0, b.decimals)),
        fit.change(cells, missed.line),
        tuple(f"{spelled(held.percent.value, held.percent.decimals)}% on {_short(lines[held.line])}" for held in fit.held),
    )
    start, end = item.offset + percent.start, item.offset + percent.end
    statement = ctx.related_block(placed, item.offset, item.offset + len(item.sentence), "stated changes")
    evidence = Evidence(
        kind="moderate: the pair the sentence's other changes give" if len(fit.held) > 1 else "weak: a named pair giving another change",
        statements=[Statement(file=statement.file, range=statement.range, quote=" ".join(item.sentence.split()), role="stated changes")],
        reason=f"{len(fit.held)} other percentage(s) of the sentence follow the same two lines; this one does not",
    )
    return ctx.flag_block(violation, placed, start, end, evidence=evidence)


def _short(header: str) -> str:
    return " ".join(header.split())[:40]


@rule(
    "ARI011",
    "change-per-line-mismatch",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=Pairwise(_fed, _shown, _in_section),  # an edit judges the edited section's sentences, all only when a table changes
    placed_parts=True,  # tables and sentences by block index within the section
)
def change_per_line_mismatch(ctx: RuleContext, section: Section) -> Iterator[TableAt | _Sentence]:
    """## What it does
    Recomputes the changes a sentence states dataset by dataset (or metric by metric) of a table:
    "It beats the baseline by 69\\% on Amazon and by 12\\% on Goodbooks". The two rows compared
    are the pair whose relative change gives the other percentages; a percentage that pair does
    not give, within the rounding of the cells, is flagged.

    ## Why is this bad?
    Per-dataset gains are what a reader quotes. When the same two rows give every gain but one,
    that one was computed from other numbers than those printed, or mistyped.

    ## Example
    ```latex
    It beats the baseline by 69\\% on Amazon and by 12\\% on Goodbooks.
    % table: Factorization & 0.1001 & 0.0738 \\\\ Embedding Mixture & 0.1696 & 0.0853
    ```

    ## Use instead
    ```latex
    It beats the baseline by 69\\% on Amazon and by 16\\% on Goodbooks.
    ```

    ## Evidence
    "moderate: the pair the sentence's other changes give" when two percentages or more follow
    the pair; "weak: a named pair giving another change" when the sentence (or the one before)
    names both rows and one other percentage follows them.

    ## Fix safety
    No fix: the wrong number may be the percentage or either cell.
    """
    for block, placed in enumerate(section.blocks):
        here = shown_table(placed)
        if here is not None:
            yield _ShownAt(here.labels, block, value_hash(here.table.shifted(-here.table.start)))
        if placed.kind is BlockKind.PARAGRAPH and "%" in placed.block.plain.text:
            yield from _sentences(block, placed)


def _sentences(block: int, placed: PlacedBlock) -> Iterator[_Sentence]:
    text = placed.block.plain.text
    paragraph_refs = tuple(referenced_labels(text))
    before = ""
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        percents = stated_percentages(sentence)
        if percents:
            yield _Sentence(sentence, before, percents, tuple(referenced_labels(sentence)) or paragraph_refs, block, start)
        before = sentence
