"""NUM021: a rate the prose states under one name of a complementary pair ("failure rate", "error rate", "refusal")
where the table its sentence cites gives the rate's complement ("Success Rate", "Accuracy", "Loan take-up"), and
either holds the very values the prose gives, or values whose complements are not the prose's.

## How it decides
The sentence must cite a table (or sit in a paragraph that does) and name one measure of a complementary pair
(analyzers/complements.py: accuracy and error rate, success and failure, take-up and refusal, retention and
attrition, coverage and miss rate, response and non-response, acceptance and rejection, compliance and
non-compliance, agreement and disagreement, sensitivity and false negative rate, specificity and false positive
rate). Its numbers are the measure's: a number written just before the name ("3% of refusals", "99.7% accuracy")
is that name's, any other the nearest name's before it ("failure rates of the mediated (M = 0.22) and ...").
Only shares are rates: a percentage up to 100, a fraction up to 1 without a unit. Spreads (SD, SE, ±), p-values,
statistics, sample sizes, settings, bounds and listed values are no rates and are left out.

The cited table must name the complement and never the measure itself, in a row header or a column header:
a table that gives both lets the prose quote either, and NUM001 reads its cells. A line (row or column) named
the complement is then read against the numbers:
- **same values**: two numbers or more are each a distinct cell of the line, as written (a fraction cell may be
  quoted as a percentage), and none is the complement of one (0.5 is its own complement, and proves nothing);
- **not complementary**: one number is the complement of a cell of the line (100% less it, or 1 less it), which
  ties the sentence to the line, and another is neither a cell nor a complement of one, while lying near the
  complement of a cell not yet tied, written as finely as that cell.

Evidence: "moderate: the cited table gives the prose's values under the complement's name" and "weak: a rate
and its complement in the cited table do not add up, another pair does"; information until measured.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.numbers import NumberMention, Role
from ....latex.record import record
from ...complements import Measure, complement_of, measure_named, measures_in
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import agrees, speaks_of_tables
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import Grid, LabelledTable, against_cited, cited_tables, citing_sentences, fed_tables, labelled_tables
from .misquote import as_written, near
from .model import SPREAD, may_quote, mentions

SAME_VALUES = "moderate: the cited table gives the prose's values under the complement's name"
NOT_COMPLEMENTARY = "weak: a rate and its complement in the cited table do not add up, another pair does"
_RATES = (Role.VALUE, Role.APPROXIMATE)
_SPREAD_BEFORE = 12  # characters before a number where "SD =" or "±" makes it a spread
_JUST_BEFORE = DeferredPattern(r"\s*(?:of\s+)?(?:the\s+)?(?:overall\s+|mean\s+|average\s+)?", re.IGNORECASE)  # "3% of the refusals"


@violation_type
class ComplementMisstated(Violation):
    quote: str  # the numbers as written: "0.22 and 0.31"
    measure: str  # what the prose calls them
    table: str
    line: str  # "row Success Rate", as printed
    complement: str  # what the table calls them
    cell: str  # the cell the number is set against, as written ("" when the numbers are the line's cells)
    left: str  # the cell's complement as the number writes it

    @property
    def message(self) -> str:
        said = f"the text gives {self.quote} as the {self.measure}, but Table {self.table} gives"
        if not self.cell:
            return f"{said} the same values as the {self.complement} ({self.line})"
        return f"{said} the {self.complement} as {self.cell} ({self.line}), which leaves {self.left}"

    @property
    def identity(self) -> str:
        return f"{self.table} {self.line} {self.measure} {self.quote}"


@record(slots=True, eq=False)
class _Rate:
    value: float
    decimals: int
    percent: bool
    text: str


@record(slots=True, eq=False)
class _StatedRates:
    labels: tuple[str, ...]
    measure: Measure
    rates: tuple[_Rate, ...]
    spots: tuple[Spot, ...]  # one per rate


def _claims(ctx: RuleContext, placed: PlacedBlock) -> Iterator[_StatedRates]:
    text = placed.block.plain.text
    for start, sentence, labels in citing_sentences(placed):
        shares = [mention for mention in mentions(text) if mention.sentence_start == start and _is_rate(mention, text)]
        names = measures_in(sentence) if shares else ()  # the names last: a sentence of rates is rare, a scan is not cheap
        if not names:
            continue
        by_measure: dict[int, list[NumberMention]] = {}
        for mention in shares:
            owner = _owner(names, mention.plain_start - start, mention.plain_end - start, sentence)
            if owner is not None:
                by_measure.setdefault(owner, []).append(mention)
        for owner, numbers in by_measure.items():
            measure = names[owner][2]
            if measure is None:
                continue
            rates = tuple(_Rate(number.value, number.decimals, number.percent, number.text) for number in numbers)
            spots = tuple(ctx.spot(placed, number.plain_start, number.plain_end) for number in numbers)
            yield _StatedRates(labels, measure, rates, spots)


def _is_rate(mention: NumberMention, text: str) -> bool:
    """A share stated as a result: a percentage up to 100 or a fraction up to 1, not a spread ("SD = 0.05")."""
    before = text[max(0, mention.plain_start - _SPREAD_BEFORE) : mention.plain_start]
    share = 0 <= mention.value <= (100 if mention.percent else 1) and (mention.percent or not mention.unit)
    return share and mention.role in _RATES and may_quote(mention) and not SPREAD.search(before)


def _owner(names: tuple[tuple[int, int, Measure | None], ...], at: int, until: int, sentence: str) -> int | None:
    """The measure name a number belongs to: the one written just after it ("3% of refusals"), else the nearest
    before it."""
    for index, (start, _, _) in enumerate(names):
        if start >= until and _JUST_BEFORE.fullmatch(sentence, until, start):
            return index
    before = [index for index, (_, end, _) in enumerate(names) if end <= at]
    return before[-1] if before else None


@dataclass(frozen=True, slots=True)
class _Line:
    name: str  # "row Success Rate", "column Acc"
    cells: tuple[Cell, ...]


def _lines_named(grid: Grid, measure: Measure) -> tuple[list[_Line], bool]:
    """The table's rows and columns named the measure's complement whose cells are shares (a count of failures is
    none), and whether any row or column is named the measure itself."""
    complement = complement_of(measure)
    rows = [
        (f"row {' '.join(grid.row_header(row).split())}", grid.row_header(row), [grid.numeric(row, column) for column in grid.columns()])
        for row in grid.body_rows()
    ]
    columns = [
        (f"column {grid.column_name(column)}", grid.column_header(column), [grid.numeric(row, column) for row in grid.body_rows()])
        for column in grid.columns()
    ]
    lines: list[_Line] = []
    own = False
    for name, header, line in (*rows, *columns):
        read = measure_named(header)
        own = own or read is measure
        cells = tuple(cell for cell in line if cell is not None)
        if read is complement and cells and all(0 <= (cell.value or 0) <= 100 for cell in cells):
            lines.append(_Line(name, cells))
    return lines, own


def _shown(rate: _Rate, cell: Cell) -> tuple[float, int, float]:
    """The cell as the rate writes it, its places, and the whole the two are shares of (100 or 1)."""
    assert cell.value is not None
    value, places = as_written(rate.value, rate.percent, cell.value, cell.decimals)
    whole = 100.0 if rate.percent or value > 1 or rate.value > 1 else 1.0
    return value, places, whole


def _same(rate: _Rate, cell: Cell) -> bool:
    value, places, _ = _shown(rate, cell)
    return agrees(rate.value, rate.decimals, value) or agrees(value, places, rate.value)


def _complements(rate: _Rate, cell: Cell) -> bool:
    value, places, whole = _shown(rate, cell)
    return agrees(rate.value, min(rate.decimals, places), whole - value)


# The rate found against the line, the cell it is set against, and the cell's complement ("" for the same value).
_Verdict = tuple[_Line, int, Cell, str]


def _misstated(grid: Grid, claim: _StatedRates) -> _Verdict | None:
    """The first line named the complement that the rates misstate, in a table that never names the measure itself."""
    lines, own = _lines_named(grid, claim.measure)
    if own:
        return None
    for line in lines:
        found = _same_values(line, claim) or _not_complementary(line, claim)
        if found is not None:
            return found
    return None


def _same_values(line: _Line, claim: _StatedRates) -> _Verdict | None:
    """Two rates or more, each a distinct cell of the complement's line, none a complement of one."""
    if len(claim.rates) < 2 or any(_complements(rate, cell) for rate in claim.rates for cell in line.cells):
        return None
    matched = [cell for rate in claim.rates if (cell := next((cell for cell in line.cells if _same(rate, cell)), None))]
    if len(matched) != len(claim.rates) or len({id(cell) for cell in matched}) != len(matched):
        return None  # a rate no cell holds, or two rates one cell holds
    return line, 0, matched[0], ""


def _not_complementary(line: _Line, claim: _StatedRates) -> _Verdict | None:
    """A rate near the complement of a cell, but not it, while another rate is the complement of another cell."""
    tied = {id(cell) for rate in claim.rates for cell in line.cells if _complements(rate, cell)}
    if not tied:
        return None
    for index, rate in enumerate(claim.rates):
        if any(_same(rate, cell) or _complements(rate, cell) for cell in line.cells):
            continue
        for cell in line.cells:
            value, places, whole = _shown(rate, cell)
            if id(cell) not in tied and rate.decimals >= places and near(rate.value, whole - value):
                return line, index, cell, f"{whole - value:.{places}f}{'%' if rate.percent else ''}"
    return None


def _report(ctx: RuleContext, claim: _StatedRates, label: str, cited: LabelledTable, found: _Verdict) -> Finding:
    line, index, cell, left = found
    other = complement_of(claim.measure).name
    printed = ctx.index.printed(line.name)
    if left:
        quote, kind = claim.rates[index].text, NOT_COMPLEMENTARY
        reason = f"another {claim.measure.name} of the sentence is the complement of a cell of the {other} line, {printed}"
        violation = ComplementMisstated(quote, claim.measure.name, label, printed, other, cell.text, left)
    else:
        quote, kind = " and ".join(rate.text for rate in claim.rates), SAME_VALUES
        reason = f"each {claim.measure.name} of the sentence is a cell of the {other} line, {printed}"
        violation = ComplementMisstated(quote, claim.measure.name, label, printed, other, "", "")
    related = [cited.related(ctx, cell, f"the table's {other} {cell.text}")]
    evidence = Evidence(kind=kind, reason=reason)
    return ctx.report_at(claim.spots[index], violation.message, identity=violation.identity, related=related, evidence=evidence)


@rule(
    "NUM021",
    "complement-misstated",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, against_cited(_StatedRates, _misstated, _report)),
)
def complement_misstated(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _StatedRates]:
    """## What it does
    Flags a rate the prose states under one name of a complementary pair (a failure rate, an error
    rate, a refusal share) where the table its sentence cites gives the complement (a success rate,
    an accuracy, a take-up) and holds the prose's very values, or a value whose complement is not
    the prose's while another value of the sentence is its cell's complement.

    ## Why is this bad?
    A rate and its complement add up to 100%. The same numbers under both names, or a pair that
    does not add up, means one of the two names or one of the values is wrong, and a reader cannot
    tell whether the method fails 22% of the time or succeeds 22% of the time.

    ## Example
    ```latex
    The failure rates of the mediated (M=0.22) and non-mediated (M=0.31) conditions differ (Table~\\ref{t}).
    % t: Measure & M & N \\\\ Success Rate & 0.22 & 0.31
    ```

    ## Use instead
    ```latex
    The success rates of the mediated (M=0.22) and non-mediated (M=0.31) conditions differ (Table~\\ref{t}).
    ```

    ## Fix safety
    No fix: the prose's name or the table's may be the one that is wrong.
    """
    yield from labelled_tables(ctx, section)
    for placed in section.blocks:
        if speaks_of_tables(placed):
            yield from _claims(ctx, placed)  # the sentences that cite a table first: few of them, and read by all
