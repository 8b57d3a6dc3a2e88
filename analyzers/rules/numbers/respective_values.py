"""NUM013: "X and Y reach 60% and 51%, respectively", where the cited table's cell for one pair holds another value.

## How it decides
The sentence must hold "respectively" and a list of two or more numbers before it ("60% and 51%",
"0.30 and 0.05", "60%/51%"), cite a table (or sit in a paragraph or caption that does), and bind a list
of that table's rows or columns to the numbers as the tables family reads a "respectively" sentence
(analyzers/rules/tables/respectively.py): item i names one row and one column, so one cell. The list of
names must be as long as the list of numbers, and every item must name a numeric cell.

A number agrees with its cell when it is the cell rounded or cut (a percentage of a fraction cell
multiplied by 100). The binding proves itself on the other pairs: a number is flagged only when another
pair of the same list agrees with its cell, so a list that binds to something other than these cells
(settings, sizes, another table's figures) disagrees everywhere and is left alone. The flagged number
must also be written as finely as its cell (one place fewer is a rounding) and lie within a quarter of
its value. A list whose numbers are the cells in swapped order (each number the other item's cell) is a
finding of its own. Sentences that compare or derive ("improves by", "than", "gap", "drop") state
differences, not cells, and are left alone.

Evidence: "weak: a respectively pair bound to one cell, another value, another pair agrees" and
"weak: a respectively list whose numbers are its cells swapped"; information until measured.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.record import record
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import agrees, speaks_of_tables
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import Grid, LabelledTable, against_cited, cited_tables, citing_sentences, fed_tables, labelled_tables
from ..tables.respectively import Stated, bind, may_pair, stated_list
from .misquote import as_written, comparing, near

_COMPARING = comparing()
AGREEING = "weak: a respectively pair bound to one cell, another value, another pair agrees"
SWAPPED = "weak: a respectively list whose numbers are its cells swapped"


@violation_type
class RespectiveValueMisquoted(Violation):
    quote: str  # the number as written
    table: str
    where: str  # "row CoT, column GSM8K", as printed
    cell: str  # the cell as written
    swapped: bool = False

    @property
    def message(self) -> str:
        how = "in swapped order" if self.swapped else "with another value"
        return f'the text pairs {self.quote} with Table {self.table} ({self.where}) "respectively", {how}: the table says {self.cell}'

    @property
    def identity(self) -> str:
        return f"{self.table} {self.where} {self.quote}"


@record(slots=True, eq=False)
class _PairedValues:
    labels: tuple[str, ...]
    sentence: str
    numbers: tuple[Stated, ...]
    spots: tuple[Spot, ...]  # one per number


def _claims(ctx: RuleContext, placed: PlacedBlock) -> Iterator[_PairedValues]:
    for start, sentence, labels in citing_sentences(placed):
        if not may_pair(sentence) or _COMPARING.search(sentence):
            continue
        numbers = stated_list(sentence)
        if numbers:
            spots = tuple(ctx.spot(placed, start + number.start, start + number.end) for number in numbers)
            yield _PairedValues(labels, sentence, numbers, spots)


def _agrees(number: Stated, cell: Cell) -> bool:
    value, places = _as_written(number, cell)
    return agrees(abs(number.value), number.decimals, abs(value)) or agrees(abs(value), places, abs(number.value))


def _as_written(number: Stated, cell: Cell) -> tuple[float, int]:
    assert cell.value is not None
    return as_written(number.value, number.percent, cell.value, cell.decimals)


def _misquoted(number: Stated, cell: Cell) -> bool:
    value, places = _as_written(number, cell)
    return near(number.value, value) and number.decimals >= places - 1 and not _agrees(number, cell)


# The grid, and each misquoted number's index with its cell; whether the list is its cells swapped.
_Misquotes = tuple[Grid, list[tuple[int, Cell]], bool]


def _misquotes(grid: Grid, claim: _PairedValues) -> _Misquotes | None:
    """The numbers that disagree with the cell their pair names, when another pair agrees (or the list is swapped)."""
    pairs = bind(grid, claim.sentence)
    if pairs is None or len(pairs) != len(claim.numbers) or any(len(pair.columns) != 1 for pair in pairs):
        return None
    cells = [cell for pair in pairs if (cell := grid.numeric(pair.row, pair.columns[0])) is not None]
    if len(cells) != len(pairs) or len({(cell.row, cell.column) for cell in cells}) != len(cells):
        return None
    agreeing = [_agrees(number, cell) for number, cell in zip(claim.numbers, cells, strict=True)]
    if len(cells) == 2 and not any(agreeing) and all(map(_agrees, claim.numbers, reversed(cells))):
        return grid, list(enumerate(cells)), True
    wrong = [(index, cell) for index, cell in enumerate(cells) if not agreeing[index] and _misquoted(claim.numbers[index], cell)]
    return (grid, wrong, False) if wrong and any(agreeing) else None


def _report(ctx: RuleContext, claim: _PairedValues, label: str, cited: LabelledTable, found: _Misquotes) -> Finding:
    grid, wrong, swapped = found
    index, cell = wrong[0]
    number = claim.numbers[index]
    printed = ctx.index.printed
    where = printed(f"row {' '.join(grid.row_header(cell.row).split())}, column {grid.column_name(cell.column)}")
    violation = RespectiveValueMisquoted(number.text, label, where, cell.text, swapped)
    evidence = Evidence(
        kind=SWAPPED if swapped else AGREEING, reason=f"item {index + 1} of the list names {where}, which holds {cell.text}"
    )
    related = [cited.related(ctx, cell, f"the table's value {cell.text}")]
    return ctx.report_at(claim.spots[index], violation.message, identity=violation.identity, related=related, evidence=evidence)


@rule(
    "NUM013",
    "respective-value-misquotes-cell",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, against_cited(_PairedValues, _misquotes, _report)),
)
def respective_value_misquotes_cell(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _PairedValues]:
    """## What it does
    Flags a number of a "respectively" list ("X and Y reach 60% and 51%, respectively") that the cell its
    pair names in the table the sentence (or its paragraph) cites does not hold, when another pair of the
    same list matches its cell; and a two-number list whose numbers are its two cells in swapped order.

    ## Why is this bad?
    "Respectively" binds each number to one row and column. A stale number or a swapped pair reports a
    result the table does not, and the agreeing pair makes the reader trust the whole sentence.

    ## Example
    ```latex
    DICES and OpinionQA keep 60\\% and 51\\% of the information, respectively (Table~\\ref{tab:kept}).
    % tab:kept: DICES & 60\\% \\\\ OpinionQA & 56\\% \\\\
    ```

    ## Use instead
    ```latex
    DICES and OpinionQA keep 60\\% and 56\\% of the information, respectively (Table~\\ref{tab:kept}).
    ```

    ## Fix safety
    No fix is applied: the sentence or the table may be the one that is wrong.
    """
    yield from labelled_tables(ctx, section)
    for placed in section.blocks:
        if speaks_of_tables(placed) and may_pair(placed.block.plain.text):
            yield from _claims(ctx, placed)
