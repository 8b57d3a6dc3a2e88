"""TAB016: an underlined (second-best-marked) cell that is not the second best of what it is compared with.

## How it decides
What the underline means comes from the table's caption or notes ("the best and second best in bold and
underline", "runner-up underlined"); a note that gives the underline another meaning leaves the table alone.
Where no text says, the table says it itself: three underlined cells or more, and four in five of them the
second of the cells they are compared with.

An underlined cell is compared as TAB002 compares a bold one (`marks.py`): with the column's rows that are
no reference (oracle, upper bound, fully supervised), of its own setting (a dataset or task column, a block
of rows named once); across the column when the underlines of the column sit in one group of rows and its
bold in at most one, else within its own group of rows; several bold values there mark a best per
sub-setting, and the column is left alone. A cell both bold and underlined is the best's mark.
It is flagged when two cells beat it beyond rounding, and one of them beats the other beyond rounding: it is
third or lower, and the second best is another cell. Cells tied for the best ahead of it leave it second.
Several underlined values in one group mark runner-ups tied within their spreads: one is flagged only when
the second best's ± interval leaves its own.
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
from ...quantities import slack
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .marks import BOLD_MEANS_OTHER, P_COLUMN, Settings, marked_groups, marks_rows, rivals_of, row_name, row_settings
from .model import DIRECTION_WEIGHT, WITHIN_SPREAD, Grid, author_rule_macros, cell_statement, spread_overlaps, table_blocks, table_notes

_READ_FROM_TABLE = 0.8  # no text says what the underline means: the table's own underlines do
_UNDERLINES = 3  # underlined cells needed before the table's own use of the underline says what it means
_AGREEING = 0.8  # the share of them that are the second of what they are compared with
# A caption or note that says the underline marks the second best ("second best ... underlined", "runner-up").
_SECOND_STATED = DeferredPattern(
    r"underlin\w*[^.]{0,80}\b(?:second|runners?[- ]up)|\b(?:second|runners?[- ]up)\b[^.]{0,80}underlin", re.IGNORECASE
)
_UNDERLINE_NAMED = DeferredPattern(r"underlin", re.IGNORECASE)


@violation_type
class SecondMarkNotSecondBest(Violation):
    table: str | None  # its label
    header: str  # the column's header, as written
    column: str  # the column's header, as printed
    marked: str  # the underlined cell as written
    second_row: str  # the second best row's name, as printed
    second: str  # the second best cell as written
    higher_is_better: bool

    @property
    def message(self) -> str:
        return (
            f"{self.marked} is marked second best in column {self.column}, but row {self.second_row} has "
            f"{self.second}, the second best ({'higher' if self.higher_is_better else 'lower'} is better)"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.header} {self.marked} {self.second}"


@record(slots=True)
class _Ranked:
    """An underlined cell and the cells ahead of it among those it is compared with."""

    marked: Cell
    ahead: list[Cell]  # the cells that beat it beyond rounding, best first
    sense: int
    source: str  # where the column's direction was read
    shared: bool  # several values of its group are underlined: runner-ups tied within their spreads

    @property
    def second(self) -> Cell | None:
        """The second best when it is not the underlined cell: the best cell ahead that the best beats beyond
        rounding; where the underline is shared, one whose ± interval also leaves the underlined cell's."""
        if not self.ahead:
            return None
        best = self.ahead[0]
        behind = [cell for cell in self.ahead if _beats(best, cell, self.sense)]
        if not behind or (self.shared and _intervals_overlap(self.marked, behind[0])):
            return None
        return behind[0]

    @property
    def is_second(self) -> bool:
        return bool(self.ahead) and self.second is None


@rule(
    "TAB016",
    "second-mark-not-second-best",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
)
def second_mark_not_second_best(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags an underlined (`\\underline`, `\\uline`, `\\ul`, a `\\second`-style macro) cell that is not
    the second best value of its column, in a table whose underline marks the second best: its caption or
    a note says so ("second best underlined", "runner-up"), or most of its underlined cells (three or
    more, four in five) are the second of their column. The column's better side, its groups of rows, the
    oracle / upper-bound rows left out and the rounding allowed are TAB002's: an underlined cell is third
    or lower when two cells beat it beyond rounding and one of them beats the other.

    ## Why is this bad?
    The underline is a claim as the bold is: "this is the runner-up". A reader who compares a method
    with the strongest baseline reads the underline; on a worse number it names the wrong runner-up
    and hides how close the real one comes.

    ## Example
    ```latex
    \\caption{Accuracy (\\%). Best in bold, second best underlined.}
    Method & A & B \\\\ \\hline
    Base  & 71.2 & 65.3 \\\\
    Prior & 74.5 & \\underline{66.1} \\\\
    Other & \\underline{75.9} & 68.2 \\\\
    Ours  & \\textbf{77.3} & \\textbf{69.0} \\\\
    ```

    ## Use instead
    ```latex
    Prior & 74.5 & 66.1 \\\\
    Other & \\underline{75.9} & \\underline{68.2} \\\\
    ```

    ## Evidence
    "strong: the notes say the underline marks the second best" where the caption or a note says so;
    "moderate: the table's underlines mark the second best" where the table's own underlines say it.

    ## Confidence
    TAB002's, by where the column's direction was read and whether the gap is within the cells' ± spreads;
    times 0.8 when the meaning of the underline is read from the table alone.

    ## Fix safety
    No fix: the underline may be right and a value wrong.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros, table_notes(section, placed))  # type: ignore[arg-type]
        stated = bool(_SECOND_STATED.search(grid.notes))
        if not any(map(_underlined, grid.numbers.values())) or (not stated and _UNDERLINE_NAMED.search(grid.notes)):
            continue  # no underline, or the notes give it a meaning of their own
        settings = row_settings(grid)
        for found in _runner_up_marks(grid, settings, stated):
            if found.second is not None:
                yield _report(ctx, placed, grid, settings, found, stated)


def _runner_up_marks(grid: Grid, settings: Settings, stated: bool) -> list[_Ranked]:
    """The table's underlined cells ranked, where its underline marks the second best of a column: its notes say
    so, or four in five of its underlined cells (three or more) are; none where its bold marks no column's best."""
    if BOLD_MEANS_OTHER.search(grid.notes) or marks_rows(grid, settings):
        return []
    ranked = [found for column in grid.columns() for found in _ranked(grid, column, settings)]
    if not stated and (len(ranked) < _UNDERLINES or sum(found.is_second for found in ranked) < _AGREEING * len(ranked)):
        return []
    return ranked


def _underlined(cell: Cell) -> bool:
    return cell.underline and not cell.bold


def _ranked(grid: Grid, column: int, settings: Settings) -> Iterator[_Ranked]:
    """Each underlined cell of a column whose direction is known, with the cells ahead of it."""
    sense, source = grid.direction(column)
    if not sense or P_COLUMN.match(grid.own_header(column)):
        return
    cells, underlined_sets = marked_groups(grid, column, settings, _underlined)
    _, bold_sets = marked_groups(grid, column, settings, lambda cell: cell.bold)
    across_column = len(underlined_sets) == 1 and len(bold_sets) <= 1
    for members in underlined_sets:
        compared = cells if across_column else members
        if len({cell.value for cell in compared if cell.bold}) > 1:
            continue  # several bold values: a best per sub-setting, and a runner-up per sub-setting
        marked = [cell for cell in members if _underlined(cell)]
        shared = len({cell.value for cell in marked}) > 1
        for cell in marked:
            rivals = rivals_of(cell, grid, settings)(compared)
            ahead = sorted((rival for rival in rivals if _beats(rival, cell, sense)), key=lambda rival: -sense * rival.value)  # type: ignore[operator]
            yield _Ranked(cell, ahead, sense, source, shared)


def _beats(cell: Cell, other: Cell, sense: int) -> bool:
    return sense * (cell.value - other.value) > slack(min(cell.decimals, other.decimals))  # type: ignore[operator]


def _intervals_overlap(first: Cell, second: Cell) -> bool:
    """Two `mean ± std` cells whose intervals meet: a tie the author may mark twice."""
    return bool(abs(first.value - second.value) <= (first.spread or 0) + (second.spread or 0))  # type: ignore[operator]


def _report(ctx: RuleContext, placed: PlacedBlock, grid: Grid, settings: Settings, found: _Ranked, stated: bool) -> Finding:
    marked, second, sense = found.marked, found.second, found.sense
    assert second is not None
    header = " ".join(grid.own_header(marked.column).split()) or f"column {marked.column + 1}"
    confidence = (
        DIRECTION_WEIGHT[found.source] * (WITHIN_SPREAD if spread_overlaps(marked, second) else 1.0) * (1.0 if stated else _READ_FROM_TABLE)
    )
    kind = (
        "strong: the notes say the underline marks the second best" if stated else "moderate: the table's underlines mark the second best"
    )
    evidence = Evidence(
        kind=kind,
        statements=[cell_statement(ctx, placed.file, grid, marked), cell_statement(ctx, placed.file, grid, second)],
        reason=f"the underline claims the second best of column {header}; {'higher' if sense > 0 else 'lower'} is better",
    )
    printed = ctx.index.printed
    violation = SecondMarkNotSecondBest(
        placed.block.table.label,  # type: ignore[union-attr]
        header,
        printed(header),
        marked.text,
        printed(row_name(grid, second.row, settings)),
        second.text,
        sense > 0,
    )
    return ctx.flag(
        violation,
        placed.file,
        marked.start,
        marked.end,
        related=[ctx.related(placed.file, second.start, second.end, f"second best value {second.text}")],
        confidence=round(confidence, 3),
        evidence=evidence,
    )
