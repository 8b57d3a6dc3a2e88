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

A sentence that cites no table may name its tables instead: "For DIC and OQA, two clusters keep 60%/51%
respectively", where the paper gives one table per subject, captioned by its name, all with the same columns
(`subject_tables`). The cell is then one address, a row and a column by their header text, that every one of those
tables holds: the address where some number of the list agrees with its own table's cell and whose row and column
the sentence names in some form ("clusters" the row "profile cluster-2", "information" the column "Info
Preserved"). Only one address may qualify; each number is then judged against its own table's cell at it, as above.

Evidence: "weak: a respectively pair bound to one cell, another value, another pair agrees",
"weak: a respectively list whose numbers are its cells swapped" and "weak: a respectively list of subjects, one
table each by its caption, another pair agrees at the same row and column"; information until measured.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import agrees, speaks_of_tables
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import (
    Grid,
    LabelledTable,
    against_cited,
    author_rule_macros,
    cited_tables,
    citing_sentences,
    fed_tables,
    labelled_tables,
)
from ..tables.respectively import Stated, bind, loosely_names, may_pair, stated_list, subject_tables
from .misquote import as_written, comparing, near

_COMPARING = comparing()
AGREEING = "weak: a respectively pair bound to one cell, another value, another pair agrees"
SWAPPED = "weak: a respectively list whose numbers are its cells swapped"
BY_CAPTION = "weak: a respectively list of subjects, one table each by its caption, another pair agrees at the same row and column"


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
    """The paragraph's "respectively" lists of numbers, with the tables each sentence cites (none: its subjects may name
    their tables by caption)."""
    plain = placed.block.plain.text
    cited = {start: labels for start, _, labels in citing_sentences(placed)}
    for start, end in sentence_spans(plain):
        sentence = plain[start:end]
        if not may_pair(sentence) or _COMPARING.search(sentence):
            continue
        numbers = stated_list(sentence)
        if numbers:
            spots = tuple(ctx.spot(placed, start + number.start, start + number.end) for number in numbers)
            yield _PairedValues(cited.get(start, ()), sentence, numbers, spots)


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
    judged = _judged(claim.numbers, cells)
    return (grid, *judged) if judged else None


def _judged(numbers: tuple[Stated, ...], cells: list[Cell]) -> tuple[list[tuple[int, Cell]], bool] | None:
    """The numbers that disagree with their cells, when another pair agrees; or the list as its two cells swapped."""
    agreeing = [_agrees(number, cell) for number, cell in zip(numbers, cells, strict=True)]
    if len(cells) == 2 and not any(agreeing) and all(map(_agrees, numbers, reversed(cells))):
        return list(enumerate(cells)), True
    wrong = [(index, cell) for index, cell in enumerate(cells) if not agreeing[index] and _misquoted(numbers[index], cell)]
    return (wrong, False) if wrong and any(agreeing) else None


def _report(ctx: RuleContext, claim: _PairedValues, label: str, cited: LabelledTable, found: _Misquotes, kind: str = AGREEING) -> Finding:
    grid, wrong, swapped = found
    index, cell = wrong[0]
    number = claim.numbers[index]
    printed = ctx.index.printed
    where = printed(f"row {' '.join(grid.row_header(cell.row).split())}, column {grid.column_name(cell.column)}")
    violation = RespectiveValueMisquoted(number.text, label, where, cell.text, swapped)
    evidence = Evidence(kind=SWAPPED if swapped else kind, reason=f"item {index + 1} of the list names {where}, which holds {cell.text}")
    related = [cited.related(ctx, cell, f"the table's value {cell.text}")]
    return ctx.report_at(claim.spots[index], violation.message, identity=violation.identity, related=related, evidence=evidence)


# A cell's place in a table by its headers' text, the same in every table of one layout.
_Address = tuple[str, str]


def _address(grid: Grid, cell: Cell) -> _Address:
    return " ".join(grid.row_header(cell.row).split()), grid.column_name(cell.column)


def _cells_by_address(grid: Grid) -> dict[_Address, Cell]:
    cells = (grid.numeric(row, column) for row in grid.body_rows() for column in grid.columns())
    return {_address(grid, cell): cell for cell in cells if cell is not None}


def _by_subject(ctx: RuleContext, by_label: Mapping[str, tuple[LabelledTable, ...]], claim: _PairedValues) -> Finding | None:
    """A number of a list of subjects that name one table each by caption, misquoting its own table's cell at the one
    address the sentence names where another number agrees with its own table's (see the module docstring)."""
    tables = list({id(table): table for tabulars in by_label.values() for table in tabulars}.values())
    chosen = subject_tables(claim.sentence, [table.table.caption or "" for table in tables])
    if chosen is None or len(chosen) != len(claim.numbers):
        return None
    rule_macros = author_rule_macros(ctx)
    grids = [Grid.of(tables[index].table, rule_macros, tables[index].notes) for index in chosen]
    if len({tuple(grid.column_name(column) for column in grid.columns()) for grid in grids}) != 1:
        return None  # not one table per subject of one layout
    cells = [_cells_by_address(grid) for grid in grids]
    shared = set.intersection(*(set(held) for held in cells))
    addresses = {
        address
        for number, held in zip(claim.numbers, cells, strict=True)
        for address, cell in held.items()
        if address in shared and _agrees(number, cell) and all(loosely_names(claim.sentence, header) for header in address)
    }
    if len(addresses) != 1:
        return None
    (address,) = addresses
    judged = _judged(claim.numbers, [held[address] for held in cells])
    if judged is None or judged[1]:
        return None  # a swap across tables is a list of subjects in another order, not a misquote
    index, cell = judged[0][0]
    table = tables[chosen[index]]
    return _report(ctx, claim, table.labels[0], table, (grids[index], [(index, cell)], False), BY_CAPTION)


def _against_tables(
    ctx: RuleContext, by_label: Mapping[str, tuple[LabelledTable, ...]], place: int, section: Section, part: Sequence[object]
) -> Iterator[Finding]:
    """The claims against the tables they cite, and the lists that cite none against the tables their subjects name."""
    yield from _against_cited(ctx, by_label, place, section, part)
    for claim in part:
        if isinstance(claim, _PairedValues) and not claim.labels and (finding := _by_subject(ctx, by_label, claim)):
            yield finding


_against_cited = against_cited(_PairedValues, _misquotes, _report)


@rule(
    "NUM013",
    "respective-value-misquotes-cell",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, _against_tables),
)
def respective_value_misquotes_cell(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _PairedValues]:
    """## What it does
    Flags a number of a "respectively" list ("X and Y reach 60% and 51%, respectively") that the cell its
    pair names in the table the sentence (or its paragraph) cites does not hold, when another pair of the
    same list matches its cell; and a two-number list whose numbers are its two cells in swapped order.
    A sentence that cites no table is read against one table per subject ("For DIC and OQA, ... 60%/51%
    respectively"), each chosen by its caption, at the row and column where another pair agrees.

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
