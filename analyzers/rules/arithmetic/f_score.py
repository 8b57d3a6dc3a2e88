"""ARI022: an F1 that a table prints above the harmonic mean of the precision and recall printed beside it.

## How it decides
A table's F1 column (its lowest header "F1", "F-score", "F1 measure", "F_1") is paired with the precision and the
recall columns under the same spanning header ("NLP-based Precision | Recall | F1 measure"), the nearest to its left;
a table that lists the measures as rows ("Precision", "Recall", "F1" down its first column) pairs its rows the same
way. Single letters ("P | R | F") are read only as three adjacent columns in that order, so a regression table's
"R | F | p" is never read. In each row the F1 must not exceed the harmonic mean 2PR / (P + R) beyond the rounding
of the three cells, on one scale (all fractions or all percentages).

The bound holds however the scores were averaged: the harmonic mean is concave, so the mean of per-class, per-fold
or per-seed F1s is at most the harmonic mean of the mean precision and the mean recall (Jensen's inequality); a
micro-averaged F1 equals it. An F1 below the harmonic mean is what a macro average prints, and is never flagged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import Grid, author_rule_macros, cell_statement, table_blocks

_PRECISION = DeferredPattern(r"^\s*(?:precision|prec\.?)\s*(?:\(\s*\\?%\s*\))?\s*$", re.IGNORECASE)
_RECALL = DeferredPattern(r"^\s*(?:recall|rec\.?)\s*(?:\(\s*\\?%\s*\))?\s*$", re.IGNORECASE)
_F1 = DeferredPattern(
    r"^\s*(?:F[-\s]?1|F_\{?1\}?|F1[-\s]?(?:score|measure)|F[-\s]?(?:score|measure))\s*(?:\(\s*\\?%\s*\))?\s*$", re.IGNORECASE
)
# The letters alone, read only as three adjacent headers in this order.
_LETTERS = ("P", "R", "F")
# Read a header as its words: "$F_1$" is "F_1", "\textbf{Recall}" is "Recall".
_COMMAND = DeferredPattern(r"\\[A-Za-z]+")
_MATH_MARKS = DeferredPattern(r"[${}]")


@record(slots=True)
class Measures:
    """The precision, recall and F1 lines of one group of a table: columns, or rows where the measures head the rows."""

    precision: int
    recall: int
    f1: int


@violation_type
class FScoreAboveHarmonicMean(Violation):
    table: str | None
    line: str
    measure: str  # the F1 line's name, its spanning header's included: "Ant F1"
    f1: str
    precision: str
    recall: str
    harmonic_mean: str

    @property
    def message(self) -> str:
        table = f"Table {self.table}" if self.table else "a table"
        return (
            f"{table} gives {self.measure} {self.f1} for {self.line}, above the harmonic mean {self.harmonic_mean} of its precision"
            f" {self.precision} and recall {self.recall}: no averaging of F1 scores exceeds it"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.line} {self.f1}"


@rule(
    "ARI022",
    "f-score-above-harmonic-mean",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
)
def f_score_above_harmonic_mean(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes the harmonic mean of each precision and recall a table prints beside an F1
    (columns "Precision | Recall | F1" under one header, or rows named so) and flags an F1 above
    it, beyond the rounding of the three cells.

    ## Why is this bad?
    F1 is the harmonic mean of precision and recall, and an average of F1 scores (macro, weighted,
    over folds or seeds) is never above the harmonic mean of the averaged precision and recall: the
    harmonic mean is concave. An F1 above it is a mistyped cell, or scores copied from different
    runs or thresholds; a reader comparing systems by F1 compares the wrong numbers.

    ## Example
    ```latex
    Model & Precision & Recall & F1 \\
    B     & 80.2      & 70.1   & 79.9 \\
    ```

    ## Use instead
    ```latex
    B     & 80.2      & 70.1   & 74.8 \\
    ```

    ## Fix safety
    No fix: any of the three cells may be the wrong one.

    ## Evidence
    "strong: an F1 above the harmonic mean of its precision and recall" (the headers name the three measures;
    an F1 below the harmonic mean, a macro average's, is never reported).
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        for measures in _measure_columns(grid):
            for row in range(grid.header_rows, len(grid.table.rows)):
                cells = [grid.numeric(row, column) for column in (measures.precision, measures.recall, measures.f1)]
                yield from _judged(ctx, placed, grid, cells, grid.row_header(row), grid.column_name(measures.f1))
        for measures in _measure_rows(grid):
            for column in range(1, grid.width):
                cells = [grid.numeric(row, column) for row in (measures.precision, measures.recall, measures.f1)]
                yield from _judged(ctx, placed, grid, cells, grid.column_name(column), grid.row_header(measures.f1))


def header_words(header: str) -> str:
    return " ".join(_MATH_MARKS.sub("", _COMMAND.sub(" ", header)).split())


def measure_lines(headers: list[str], groups: list[str]) -> list[Measures]:
    """Each F1 line with the nearest precision and recall lines before it in its group (the same spanning header)."""
    found = []
    for at, header in enumerate(headers):
        if _F1.match(header):
            before = [line for line in range(at - 1, -1, -1) if groups[line] == groups[at]]
            precision = next((line for line in before if _PRECISION.match(headers[line])), None)
            recall = next((line for line in before if _RECALL.match(headers[line])), None)
            if precision is not None and recall is not None:
                found.append(Measures(precision, recall, at))
        elif header == "F" and at >= 2 and (headers[at - 2], headers[at - 1]) == _LETTERS[:2] and len(set(groups[at - 2 : at + 1])) == 1:
            found.append(Measures(at - 2, at - 1, at))
    return found


def _measure_columns(grid: Grid) -> list[Measures]:
    headers = [header_words(grid.own_header(column)) for column in range(grid.width)]
    spans = grid.groups()
    groups = [next((str(span.start) for span in spans if column in span), "") for column in range(grid.width)]
    return measure_lines(headers, groups)


def _measure_rows(grid: Grid) -> list[Measures]:
    rows = range(grid.header_rows, len(grid.table.rows))
    headers = [header_words(grid.row_header(row)) if row in rows else "" for row in range(len(grid.table.rows))]
    return measure_lines(headers, [""] * len(headers))


def _judged(ctx: RuleContext, placed: PlacedBlock, grid: Grid, cells: list[Cell | None], line: str, measure: str) -> Iterator[Finding]:
    precision, recall, f1 = cells
    if precision is None or recall is None or f1 is None:
        return
    bound = _harmonic_mean_bound(precision, recall)
    if bound is None or not _one_scale(precision, recall, f1) or f1.value - _half_unit(f1) <= bound:  # type: ignore[operator]
        return
    printed = ctx.index.printed
    harmonic = 2 * precision.value * recall.value / (precision.value + recall.value)  # type: ignore[operator]
    written = spelled(harmonic, max(f1.decimals, 1))
    table = placed.block.table
    violation = FScoreAboveHarmonicMean(
        table.label,  # type: ignore[union-attr]
        printed(line),
        printed(header_words(measure)),
        f1.text.strip(),
        precision.text.strip(),
        recall.text.strip(),
        written,
    )
    statements = [
        cell_statement(ctx, placed.file, grid, cell, role) for cell, role in ((f1, "result"), (precision, "input"), (recall, "input"))
    ]
    evidence = Evidence(
        kind="strong: an F1 above the harmonic mean of its precision and recall",
        statements=statements,
        reason=f"2PR/(P+R) is {written} at most {spelled(bound, max(f1.decimals, 1) + 1)} within rounding; an average of F1s never exceeds the harmonic mean of the averages",
    )
    related = [ctx.related(placed.file, cell.start, cell.end, "harmonic mean of") for cell in (precision, recall)]
    yield ctx.flag(violation, placed.file, f1.start, f1.end, related=related, evidence=evidence)


def _half_unit(cell: Cell) -> float:
    return 0.5 * 10.0**-cell.decimals


def _harmonic_mean_bound(precision: Cell, recall: Cell) -> float | None:
    """The largest harmonic mean the two cells allow, each anywhere its rounding leaves it."""
    high_p = precision.value + _half_unit(precision)  # type: ignore[operator]
    high_r = recall.value + _half_unit(recall)  # type: ignore[operator]
    if high_p <= 0 or high_r <= 0:
        return None
    return 2 * high_p * high_r / (high_p + high_r)


def _one_scale(*cells: Cell) -> bool:
    """All three fractions (at most 1) or all percentages; a table that mixes them says nothing sure."""
    values = [cell.value for cell in cells]
    if any(value is None or value < 0 for value in values):
        return False
    return all(value <= 1 for value in values) or all(value > 1 for value in values)  # type: ignore[operator]
