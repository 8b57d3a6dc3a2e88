"""TAB008: an average a sentence states of a cited table's column that no group of the column's rows gives.

## How it decides

A sentence that cites a table (`\\ref{tab:…}`) and states "an average accuracy of 0.5962" or "a
mean error of 1.3 eV" speaks of a column the words between "average" and the number name: a
header word that is one of them or begins one ("ACC" for "accuracy"). A table that has an
Average, Mean or Total row or column of its own is left to the rules that read quotes of cells.
Which rows the average is over the sentence rarely says, so every group a reader could mean is
tried: all the body rows, the rows between two rules, the rows under each label of a label column
written once over the rows it heads (a `\\multirow` "ViT-S" over its methods), and all the rows but
a reference (teacher, oracle) or Baseline row. The value is read as a quote of one of those means
when it equals one within the rounding of the value and of the cells. A value that equals none,
and lies within 3% of the closest, is flagged with that mean: the same quantity, and a number
that slipped or rows left out unsaid. A value further off is an average of something the table
does not show, and is left alone. Such a finding's class is "moderate: a stated average that no
group of the cited column's rows gives".
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...quantities import AGGREGATE_COLUMN_HEADER, each_cited, searched_by_text, sentence_refs, slack, speaks_of_tables, spelled
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .model import (
    MEAN,
    Grid,
    LabelledTable,
    author_rule_macros,
    cells_rounding,
    cited_tables,
    fed_tables,
    is_aggregate_row,
    labelled_tables,
)

# "an average accuracy of 0.5962", "the mean error is 1.3": the words between name the column. "Mean absolute
# error", "mean average precision" are metrics of their own, not an average over the table's rows.
_STATED = DeferredPattern(
    r"\b(?:average|mean)(?!\s+(?:absolute|squared?|average|reciprocal|relative|log|opinion|rank)\b)"
    r"(?P<what>(?:\s+[A-Za-z][\w-]*){1,3}?)\s+(?:of|is|was|=|reaches|reached)\s+(?P<value>[-−]?\d*\.\d+)",
    re.IGNORECASE,
)
_may_state_average = searched_by_text(_STATED)
# "… of 0.5962 for ViT compared to 0.7675 for R50": the same average of other rows, stated right after.
_ALSO = DeferredPattern(
    r"[^.;:]{0,60}?\b(?:compared\s+(?:to|with)|versus|vs\.?|against|while|and)\s+(?:\w+\s+){0,2}?(?P<value>[-−]?\d*\.\d+)(?![\d.])"
)
_NEAR = 0.03  # a stated average this close to a mean of the rows is the same quantity
_BASELINE = DeferredPattern(r"\bbaseline\b", re.IGNORECASE)


@violation_type
class StatedAverageMissed(Violation):
    table: str  # the cited label
    column: str  # as printed
    stated: str
    rows: str  # "its 13 rows", "the 6 rows under ViT-S"
    recomputed: str

    @property
    def message(self) -> str:
        return (
            f"the text states an average {self.column} of {self.stated}, but no group of the rows of Table {self.table}"
            f" gives it: the mean of {self.rows} is {self.recomputed}"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.column} {self.stated}"


@record(slots=True, eq=False)
class _Stated:
    """A sentence's stated average, the tables it cites, and where to report it."""

    labels: tuple[str, ...]
    what: set[str]  # the words that name the column
    value: float
    written: str
    decimals: int
    finding: Finding


def _against_tables(
    ctx: RuleContext, by_label: Mapping[str, tuple[LabelledTable, ...]], place: int, section: Section, part: list[LabelledTable | _Stated]
) -> Iterator[Finding]:
    """Each stated average of a section against the named columns of the tables its sentence cites, wherever they sit."""
    rule_macros = author_rule_macros(ctx)
    for stated in part:
        if not isinstance(stated, _Stated):
            continue
        cited = [(label, Grid.of(table.table, rule_macros)) for label, table in each_cited(stated.labels, by_label)]
        means = [(label, grid, column, rows, mean) for label, grid in cited for column, rows, mean in _means(grid, stated.what)]
        if not means or any(_quotes(stated, grid, column, rows, mean) for _, grid, column, rows, mean in means):
            continue
        label, grid, column, rows, mean = min(means, key=lambda found: abs(found[4] - stated.value))
        if abs(mean - stated.value) <= _NEAR * abs(mean):
            yield _report(ctx, stated, label, grid, column, rows, mean)


def _means(grid: Grid, what: set[str]) -> Iterator[tuple[int, tuple[str, list[int]], float]]:
    """(column, (the rows' description, the rows), their mean) for each column the words name and each group of its rows."""
    rows = list(grid.body_rows())
    if any(is_aggregate_row(grid.row_header(row)) for row in rows) or any(
        AGGREGATE_COLUMN_HEADER.match(grid.own_header(column)) for column in grid.columns()
    ):
        return  # the table states its own average: a quote of it is another rule's
    for column in grid.columns():
        if not _names(what, grid.own_header(column)):
            continue
        held = [row for row in rows if grid.numeric(row, column)]
        for described in _row_groups(grid, held):
            values = [cell.value for row in described[1] if (cell := grid.numeric(row, column)) and cell.value is not None]
            if len(values) >= 3:
                yield column, described, sum(values) / len(values)


def _names(what: set[str], header: str) -> bool:
    """The words name the header: one of its words is one of them or begins one ("ACC" of "accuracy"); a word
    of two letters only as an abbreviation ("AP"), not "in" of "Time (in s)"."""
    words = [word.lower() for word in re.findall(r"[A-Za-z]{2,}", header) if len(word) > 2 or word.isupper()]
    return any(spoken.startswith(word) for word in words for spoken in what)


def _row_groups(grid: Grid, rows: list[int]) -> Iterator[tuple[str, list[int]]]:
    """Every group of rows a stated average may be over (see "How it decides")."""
    yield f"its {len(rows)} rows", rows
    kept = [row for row in rows if not grid.is_reference(row) and not _BASELINE.search(" ".join(c.text for c in grid.table.rows[row]))]
    yield f"its {len(kept)} rows other than the baselines", kept
    ruled: dict[int, list[int]] = {}
    for row in rows:
        ruled.setdefault(grid.row_set(row)[0], []).append(row)
    for group in ruled.values():
        yield f"the {len(group)} rows from {grid.row_header(group[0]).strip()}", group
    for column in range(grid.columns().stop):  # the row header's column too
        labels = [row for row in rows if (cell := grid.cells.get((row, column))) and cell.value is None and cell.text.strip()]
        if 2 <= len(labels) <= len(rows) // 2:  # a label written once over the rows it heads
            for first, end in zip(labels, [*labels[1:], rows[-1] + 1], strict=True):
                headed = [row for row in rows if first <= row < end]
                yield f"the {len(headed)} rows under {grid.cells[(first, column)].text.strip()}", headed


def _quotes(stated: _Stated, grid: Grid, column: int, rows: tuple[str, list[int]], mean: float) -> bool:
    cells: list[Cell] = [cell for row in rows[1] if (cell := grid.numeric(row, column)) is not None]
    return abs(mean - stated.value) <= slack(stated.decimals) + cells_rounding(cells, MEAN)


def _report(ctx: RuleContext, stated: _Stated, label: str, grid: Grid, column: int, rows: tuple[str, list[int]], mean: float) -> Finding:
    printed = " ".join(ctx.index.printed(grid.own_header(column)).split())
    recomputed = spelled(mean, max(stated.decimals, 1))
    violation = StatedAverageMissed(label, printed, stated.written, ctx.index.printed(rows[0]), recomputed)
    evidence = Evidence(
        kind="moderate: a stated average that no group of the cited column's rows gives",
        statements=[Statement(file=stated.finding.file, range=stated.finding.range, quote=stated.written, subject=printed, role="result")],
        reason=f"the closest mean of a group of rows of column {printed} is {recomputed}",
    )
    return stated.finding.model_copy(update={"message": violation.message, "identity": violation.identity, "evidence": evidence})


@rule(
    "TAB008",
    "stated-average-mismatch",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, _against_tables),
)
def stated_average_mismatch(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _Stated]:
    """## What it does
    Recomputes an average a sentence states of a table it cites ("an average accuracy of 0.5962
    (Table~\\ref{tab:ablation})") from the rows of the column its words name, over every group
    of rows a reader could mean, and flags a value that none of them gives while one comes within
    3% of it.

    ## Why is this bad?
    A summary figure in the prose is what readers carry away from a table. When no rows of the
    table give it, a number slipped, or the average is over rows the sentence does not say.

    ## Example
    ```latex
    The students reach an average accuracy of 0.60 (Table~\\ref{tab:students}).
    % tab:students: ACC 0.61, 0.63, 0.62
    ```

    ## Use instead
    ```latex
    The students reach an average accuracy of 0.62 (Table~\\ref{tab:students}).
    ```

    ## Fix safety
    No fix: the rows the average is over are the authors' to say.
    """
    yield from labelled_tables(ctx, section)
    for placed in section.blocks:
        if speaks_of_tables(placed) and _may_state_average(placed.block.plain.text):
            yield from _stated(ctx, placed)


def _stated(ctx: RuleContext, placed: PlacedBlock) -> Iterator[_Stated]:
    """The paragraph's stated averages in sentences that cite a table."""
    plain = placed.block.plain.text
    for start, end in sentence_spans(plain):
        sentence = plain[start:end]
        labels = sentence_refs(sentence, placed.block)
        for match in _STATED.finditer(sentence) if labels else ():
            what = {word.lower() for word in re.findall(r"[A-Za-z]{2,}", match.group("what"))}
            also = _ALSO.match(sentence, match.end())
            for number in (match, also) if also else (match,):
                written = number.group("value").replace("−", "-")
                at = start + number.start("value")
                finding = ctx.report_block(placed, at, number.end("value") + start, "")
                yield _Stated(labels, what, float(written), written, len(written.partition(".")[2]), finding)
