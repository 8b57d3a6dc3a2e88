"""NUM011: two numbers of a sentence that the table holds the other way round.

## How it decides
A sentence pairs each of two numbers with a cell by naming the cell's header: "the first payment is 7.9%
larger (col 2), and 9.7% more pay in full (col 3)", "60% and 51% for DICES and OpinionQA, respectively". When
the first number is the second cell's value and the second the first's, and neither is its own cell's, the
values were swapped on their way from the table.

The two cells are of one table that the sentence references (else one its paragraph does), in one row (the
sentence names their columns) or in one column (it names their rows); what tells them apart is the words of the
header one has and the other lacks, and the sentence must name both. The sentence pairs the number it writes
first with the header it names first. With "respectively", the names are those listed beside that word (not an
earlier mention of one), and only when the two numbers are the sentence's only results: with a third, which of
them the list pairs is not told ("0.4, 0.3 and 0.6 in the resolved, intermediate and boosted categories,
respectively, against 0.4, 0.4 and 0.5 without pile-up"). Otherwise each number takes the name beside it: the
first name after it (names after their numbers: "1.2 (col 2) and 3.4 (col 3)"), or the last name before it since
the result before (names before them: "for A, 1.2; for B, 3.4"). Each reading the sentence's names allow must
give the first number the first cell's name and the second the second's: in "A (M = 0.18) and B (M = 0.47),
whereas A ... B ..." the names after the numbers would pair 0.18 with B, but the names before them pair it with
A, and the sentence is passed.

A number agrees with a cell as written, rounded or cut, or as a fraction cell's percentage (7.9% for 0.079). The
numbers must be results written with a decimal point or as percentages; a whole number agrees with too many
cells. The cells' values differ, and neither is a spread (a standard error under its estimate). The finding is
information; its evidence class says whether the sentence itself references the table ("moderate: …") or only
its paragraph does ("weak: …").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import combinations
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.numbers import Role
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Fix, Severity, TextEdit
from ...quantities import agrees, named_at, spelled
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .figures import TableCells, fed_by, held, quoted, section_figures, sentences, table_cells
from .model import Figures, Quote, TableCell

RESPECTIVELY = DeferredPattern(r"\brespectively\b", re.IGNORECASE)


@violation_type
class SwappedValues(Violation):
    """Two prose numbers (`first`, `second`) that the sentence gives to two cells (`first_cell`, `second_cell`, of
    `table`), which hold them the other way round (`first_held`, `second_held`)."""

    first: str
    second: str
    first_cell: str
    second_cell: str
    first_held: str
    second_held: str
    table: str

    @property
    def message(self) -> str:
        return (
            f"text gives {self.first} to {self.first_cell} and {self.second} to {self.second_cell}, "
            f"which hold {self.first_held} and {self.second_held}: the two values are swapped"
        )

    @property
    def fix_title(self) -> str:
        return f"Swap {self.first} and {self.second}"

    @property
    def identity(self) -> str:
        return f"{self.first} {self.second} {self.table} {self.first_held} {self.second_held} swapped"


def quotes_cell(quote: Quote, cell: TableCell) -> bool:
    """The number is the cell as written, rounded or cut, or a fraction cell's percentage."""
    if agrees(quote.value, quote.decimals, cell.value):
        return True
    return quote.percent and abs(cell.value) <= 1 and cell.decimals >= 2 and agrees(quote.value, quote.decimals, cell.value * 100)


def _told_apart(first: TableCell, second: TableCell) -> tuple[frozenset[str], frozenset[str]] | None:
    """The header words each of two cells of one row (or one column) has and the other lacks, or None when the
    cells share neither a row nor a column header."""
    # A row "Ours" has no distinctive word: it is the authors' own.
    if (first.row_words or first.ours) and first.row_words == second.row_words and first.ours == second.ours:
        own, other = first.column_words - second.column_words, second.column_words - first.column_words
    elif first.column_words and first.column_words == second.column_words:
        own, other = first.row_words - second.row_words, second.row_words - first.row_words
    else:
        return None
    return (own, other) if own and other else None


def _at(quote: Quote) -> int:
    """Where the number stands in its sentence as the quote keeps it (whitespace collapsed)."""
    return len(re.sub(r"\s+", " ", quote.before.lstrip()))


class _Listing(NamedTuple):
    """How a sentence lists its results: where each stands, and whether two are all it states."""

    places: list[int]
    alone: bool


def _paired(first: Quote, second: Quote, names: tuple[frozenset[str], frozenset[str]], listing: _Listing) -> bool:
    """The sentence pairs `first` with the first of the two headers and `second` with the other (see the module)."""
    sentence = first.sentence
    own, other = (named_at(sentence, words) for words in names)
    respectively = RESPECTIVELY.search(sentence)
    if respectively:
        if not (listing.alone and own and other):
            return False  # a third result: which of them the listed names pair is not told

        # The names "respectively" pairs are those listed beside it, not an earlier mention of one.
        def nearest(places: list[int]) -> int:
            return min(places, key=lambda at: abs(at - respectively.start()))

        return nearest(own) < nearest(other)
    named = sorted([(at, 0) for at in own] + [(at, 1) for at in other])
    start, end = _at(first), _at(second)
    earlier = max((at for at in listing.places if at < start), default=-1)
    # Names after their numbers: the first name after each number. Names before them: the last name before each,
    # after the result before it. A reading the sentence allows must give each number its own cell's name.
    after = [next((side for at, side in named if at > start and at < end), None), next((side for at, side in named if at > end), None)]
    before = [
        next((side for at, side in reversed(named) if earlier < at < start), None),
        next((side for at, side in reversed(named) if start < at < end), None),
    ]
    readings = [sides for sides in (after, before) if None not in sides]
    return bool(readings) and all(sides == [0, 1] for sides in readings)


def _swaps(first: Quote, second: Quote, cells: list[TableCell], listing: _Listing) -> Iterator[tuple[TableCell, TableCell]]:
    """The cells (first's, second's) that hold the two numbers the other way round."""
    holding_first = [cell for cell in cells if quotes_cell(first, cell)]
    holding_second = [cell for cell in cells if quotes_cell(second, cell)] if holding_first else []
    for mine in holding_second:
        for theirs in holding_first:
            if mine.value == theirs.value or quotes_cell(first, mine) or quotes_cell(second, theirs):
                continue
            names = _told_apart(mine, theirs)
            if names is not None and _paired(first, second, names, listing):
                yield mine, theirs


def _swapped(ctx: RuleContext, cells: TableCells, place: int, section: Section, part: list[Figures]) -> Iterator[Finding]:
    """The section's sentences whose two numbers the table they cite holds swapped."""
    if not cells.by_table:
        return
    for sentence in sentences(part[0].quotes):
        results = [quote for quote in sentence if (quote.decimals or quote.percent) and quote.role is Role.VALUE]
        if len(results) < 2:
            continue
        listing = _Listing([_at(quote) for quote in results], len(results) == 2)
        for label in cells.cited(results[0].pointing):
            table = [cell for cell in cells.by_table.get(label, ()) if not cell.spread]
            for first, second in combinations(results, 2):
                ctx.spend(1)
                yield from (_finding(ctx, first, second, mine, theirs) for mine, theirs in _swaps(first, second, table, listing))


def _finding(ctx: RuleContext, first: Quote, second: Quote, mine: TableCell, theirs: TableCell) -> Finding:
    """`mine` is the cell the sentence gives `first` to, `theirs` the one it gives `second` to."""
    printed = ctx.index.printed
    violation = SwappedValues(
        first=first.text,
        second=second.text,
        first_cell=printed(mine.describe),
        second_cell=printed(theirs.describe),
        first_held=mine.text,
        second_held=theirs.text,
        table=mine.label,
    )
    sides = [quoted(ctx, first), quoted(ctx, second), held(mine), held(theirs)]
    kind = (
        "moderate: two values of a cited table swapped"
        if mine.label in first.pointing.refs
        else "weak: two values of a table the paragraph cites swapped"
    )
    reason = f"{first.text} is {theirs.text} and {second.text} is {mine.text}, the cells the sentence names the other way round"
    edits = [
        TextEdit(file=quote.at.file, range=ctx.range(quote.at.file, *quote.digits), new_text=_digits(other))
        for quote, other in ((first, second), (second, first))
    ]
    return ctx.report_at(
        first.at,
        violation.message,
        identity=violation.identity,
        related=[mine.related, theirs.related],
        fixes=[Fix(title=violation.fix_title, edits=edits)],
        confidence=0.6,
        evidence=Evidence(kind=kind, statements=sides, reason=reason),
    )


def _digits(quote: Quote) -> str:
    return ("-" if quote.value < 0 else "") + spelled(quote.value, quote.decimals)


@rule(
    "NUM011",
    "prose-swaps-table-values",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "structure", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_by, table_cells, _swapped),
)
def prose_swaps_table_values(ctx: RuleContext, section: Section) -> list[Figures]:
    """## What it does
    Flags two numbers of a sentence that it gives to two cells of a table, which hold them the other way
    round: the first number is the second cell's value, the second the first's.

    ## Why is this bad?
    Each number is in the table, so a glance confirms both; only a reader who pairs them with their
    headers sees that the sentence credits each result to the wrong method, dataset or column.

    ## Example
    ```latex
    The first installment is 7.9\\% larger (col 2), and 9.7\\% more pay in full (col 3) (Table~\\ref{tab:m}).
    % tab:m: (2) 9.76, (3) 0.079
    ```

    ## Use instead
    ```latex
    The first installment is 9.7\\% larger (col 2), and 7.9\\% more pay in full (col 3) (Table~\\ref{tab:m}).
    ```

    ## Fix safety
    The fix swaps the two numbers. It is unsafe: the sentence may name the wrong headers instead, or
    the values may be rounded differently than the table writes them.
    """
    return section_figures(ctx, section)
