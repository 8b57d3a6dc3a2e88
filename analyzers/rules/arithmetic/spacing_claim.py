"""ARI020: a list of values a sentence says are evenly spaced (or doubling, or log-spaced) that the spacing does not give.

## How it decides
Two shapes are read, each in one sentence that says the values are spaced evenly ("evenly spaced", "in equal steps",
"equidistant", "an even distribution"), double or halve at each step, or are log-spaced. A list of four values or
more that the number reader marks as one enumeration, in one unit and in order, right after the claim with no other
number between, or right before it: "scored from 1 to 2 across an even distribution, yielding the scores 1, 1.34,
1.67, and 2". Each value may be rounded to its places (a value written with fewer places than the most precise of its
list is round: "1" beside "1.34" is 1.00); an even list may be a progression or, spanning a power of ten, geometric;
a log-spaced list may repeat its mantissas every decade ("1e-5, 5e-5, 1e-4, 5e-4"). The list is flagged only when
setting one value aside leaves the others spaced as claimed (an inner value before an end): that value is the slip,
and the value the list's ends give it is named; a table of the section whose column repeats the whole list, row after
row, is quoted at the cell that repeats the slip. Or a count right before the claim, the set's two ends and its step:
"21 evenly-spaced increments; the first was 0 s, the last was 4 s, and consecutive increments differed by 0.4 s";
the ends and step must give the count with both ends counted, or one, and a step that does not divide the range is
left alone (ARI012 reads a range and step beside "a total of N").
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import Grid, author_rule_macros, cell_statement, signed, table_blocks
from .grids import stated_grids
from .prose import prose_blocks, quoted
from .spacing import SpacedList, SteppedSet, spaced_lists, stepped_sets

_LIST_KIND = "moderate: a list said to be spaced evenly, redone from its ends"
_STEPPED_KIND = "moderate: a count beside the ends and step of an evenly spaced set"


@violation_type
class ListNotSpaced(Violation):
    spaced: SpacedList
    slip: int  # the place of the value off the spacing

    @property
    def message(self) -> str:
        spaced = self.spaced
        place = self.slip
        value = spaced.values[place]
        expected = signed(spaced.expected_at(place), value.decimals)
        listed = ", ".join(written.text for written in spaced.values)
        return f"{listed} is said to be {spaced.spacing.value}, which from its ends gives {expected} where it has {value.text}"

    @property
    def identity(self) -> str:
        return ", ".join(written.text for written in self.spaced.values)


@violation_type
class SetMiscounted(Violation):
    stepped: SteppedSet

    @property
    def message(self) -> str:
        stepped = self.stepped
        gives = " or ".join(str(count) for count in stepped.counts())
        how = f"from {stepped.first.text} to {stepped.last.text} in steps of {stepped.step.text}"
        return f"{stepped.count.text} evenly spaced values are stated {how}, which gives {gives}"

    @property
    def identity(self) -> str:
        stepped = self.stepped
        return f"{stepped.count.text} {stepped.first.text} {stepped.last.text} {stepped.step.text}"


@rule("ARI020", "spacing-claim-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION)
def spacing_claim_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Redoes a list of values that a sentence says are evenly spaced, in equal steps, doubling
    or log-spaced: from the list's two ends and its count, each value must be the one the
    spacing gives, within the rounding it is written to. An evenly spaced set given by its
    count, its two ends and its step is recounted the same way.

    ## Why is this bad?
    A reader who checks that "1, 1.34, 1.67, and 2" is an even spacing of 1 to 2 finds 1.33:
    a value mistyped or computed another way than the sentence says, copied into every table
    that repeats it.

    ## Example
    ```latex
    The four crypts are scored from 1 to 2 across an even distribution, yielding the
    scores 1, 1.34, 1.67, and 2.
    ```

    ## Use instead
    ```latex
    The four crypts are scored from 1 to 2 across an even distribution, yielding the
    scores 1, 1.33, 1.67, and 2.
    ```

    ## Evidence
    "moderate: a list said to be spaced evenly, redone from its ends"; "moderate: a count
    beside the ends and step of an evenly spaced set" when the set is given by its count,
    ends and step.

    ## Fix safety
    No fix: the list's ends, its count or the value flagged may be the wrong one.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in prose_blocks(section):
        plain = placed.block.plain.text
        for spaced in spaced_lists(plain):
            slip = None if spaced.spaced() else spaced.slip()
            if slip is None:
                continue  # spaced as claimed, or no one value explains it: not the list the claim describes
            value = spaced.values[slip]
            evidence = Evidence(
                kind=_LIST_KIND,
                statements=[
                    quoted(ctx, placed, spaced.claim_start, spaced.claim_end, "claim"),
                    quoted(ctx, placed, spaced.start, spaced.end, "list"),
                    *_repeated_in_tables(ctx, section, spaced, slip, rule_macros),
                ],
                reason=f"no {spaced.spacing.value} list of {len(spaced.values)} values rounds to the ones written; the others are without this one",
            )
            yield ctx.flag_block(ListNotSpaced(spaced, slip), placed, value.plain_start, value.plain_end, evidence=evidence)
        for stepped in stepped_sets(plain):
            if stepped.recounts() or stated_grids(stepped.count.sentence):
                continue  # recounted, or a grid ARI012 recounts
            evidence = Evidence(
                kind=_STEPPED_KIND,
                statements=[quoted(ctx, placed, stepped.start, stepped.end, "set")],
                reason="the ends and the step give another count of values than the one stated",
            )
            yield ctx.flag_block(SetMiscounted(stepped), placed, stepped.count.plain_start, stepped.count.plain_end, evidence=evidence)


def _repeated_in_tables(
    ctx: RuleContext, section: Section, spaced: SpacedList, slip: int, rule_macros: frozenset[str]
) -> Iterator[Statement]:
    """The cell that repeats the slip, in each table of the section whose column repeats the whole list, row after row."""
    wanted = [value.value for value in spaced.values]
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]  # a table block
        for column in range(grid.width):
            cells = [grid.numbers[row, column] for row in range(len(grid.table.rows)) if (row, column) in grid.numbers]
            for first in range(len(cells) - len(wanted) + 1):
                run = cells[first : first + len(wanted)]
                if all(
                    cell.value == value and cell.row == run[0].row + place
                    for place, (cell, value) in enumerate(zip(run, wanted, strict=True))
                ):
                    yield cell_statement(ctx, placed.file, grid, run[slip], role="table repeating the list")
