"""ARI018: a change in percent of a share's level ("72% …, marking an 18% increase from 2025") that is the difference in points from the level the paper states elsewhere.

## How it decides
The sentence writes one level of a share, "P% of <noun>", and a change in percent from a period or a case
("an 18% increase from 2025", "a 10% drop compared to the baseline") whose level it does not give
(level_changes.py). The level it is from is looked for in every other sentence of the paper: a level
"B% of <noun>" of the same noun, in a sentence holding every word that names what the changed level
measures ("demand met cfe reference case"), other than P. When exactly one such value is stated, in the
direction the change says (an increase from a lower level), and the change is not P's change relative
to it but their difference, within the rounding of all three numbers, the sentence called points a
percent: 72% against 54% is 18 points, a 33% increase. A change that neither gives is left alone: the
level it is from may be one the paper never states.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...quantities import spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .bases import BasedPercentage, Reading
from .level_changes import LevelChange, StatedLevel, level_changes, same_share, stated_levels
from .model import Written
from .prose import prose_blocks, quoted


@violation_type
class ChangeInPoints(Violation):
    stated: LevelChange
    base: Written | None  # the level stated elsewhere, once the paper's levels are read

    @property
    def message(self) -> str:
        level, change = self.stated.level, self.stated.change
        words = "increase" if self.stated.rise else "decrease"
        said = (
            f"{spelled(change.value, change.decimals)}% {words} is stated for {spelled(level.value, level.decimals)}% of {self.stated.noun}"
        )
        if self.base is None:
            return said
        base = spelled(self.base.value, self.base.decimals)
        relative = abs(level.value - self.base.value) / self.base.value * 100
        return f"{said}, but it is the difference in points from the {base}% stated elsewhere: the relative {words} is {relative:.1f}%"

    @property
    def identity(self) -> str:
        return ChangeInPoints(self.stated, None).message


@record(slots=True, eq=False)
class _Level:
    """A share's level, where the paper states it."""

    stated: StatedLevel
    statement: Statement


@record(slots=True, eq=False)
class _Change:
    """A change of a share's level, placed while its section was read; its message and evidence wait for the levels."""

    stated: LevelChange
    statement: Statement
    anchor: Finding


def _in_points(change: LevelChange, base: Written) -> bool:
    """The change is the difference of the level from `base` in points and not the change relative to it, in the
    direction it says."""
    if (change.level.value > base.value) != change.rise:
        return False
    read = BasedPercentage(change.level, change.change, base, estimate=False)
    return read.recomputes({Reading.POINTS}) and not read.recomputes({Reading.CHANGE_OF_BASE})


def _against_stated_levels(ctx: RuleContext, parts: list[tuple[Section, list[_Level | _Change]]]) -> Iterator[Finding]:
    """Each change of a share's level against the one other level the paper states of that share."""
    items = [item for _, found in parts for item in found]
    levels = [item for item in items if isinstance(item, _Level)]
    for item in items:
        if not isinstance(item, _Change):
            continue
        change = item.stated
        bases = {
            level.stated.level.value: level
            for level in levels
            if same_share(change, level.stated) and level.stated.level.value != change.level.value
        }
        if len(bases) != 1:
            continue  # no level of the share, or several: the change's base is not known
        (base,) = bases.values()
        if not _in_points(change, base.stated.level):
            continue
        evidence = Evidence(
            kind="weak: a change in percent that is the difference in points from the one level stated elsewhere",
            statements=[item.statement, base.statement],
            reason=f"the only other level the paper states of the {change.noun} gives the change in points, not in percent",
        )
        violation = ChangeInPoints(change, base.stated.level)
        yield item.anchor.model_copy(update={"message": violation.message, "evidence": evidence})


@rule(
    "ARI018",
    "change-in-points-from-level",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=_against_stated_levels,
    placed_parts=True,  # each change's finding and each level's statement, placed in their section
)
def change_in_points_from_level(ctx: RuleContext, section: Section) -> Iterator[_Level | _Change]:
    """## What it does
    Reads a share's level stated with its change in percent from a period or a case whose level the
    sentence does not give ("72% of demand is met by CFE in the reference case, marking an 18%
    increase from 2025"), finds the level the paper states of the same share elsewhere ("In the
    reference case, only 54% of demand is met with CFE"), and flags the change when it is the
    difference of the two levels in points rather than the change relative to the earlier one.

    ## Why is this bad?
    From 54% to 72% is 18 percentage points, a 33% increase. "An 18% increase" tells the reader the
    share grew by a fifth where it grew by a third: points and percent of a share are different
    quantities, and the headline change is understated (or overstated) by the confusion.

    ## Example
    ```latex
    In the reference case, only 54\\% of demand is met with CFE.
    ...
    In 2030, 72\\% of demand is met by CFE in the reference case, marking an 18\\% increase from 2025.
    ```

    ## Use instead
    ```latex
    In 2030, 72\\% of demand is met by CFE in the reference case, 18 percentage points more than in 2025.
    ```

    ## Evidence
    "weak: a change in percent that is the difference in points from the one level stated
    elsewhere": the earlier level is found by the share's noun and the words naming it, not by what
    the sentence points at, so the rule reports at information until measured.

    ## Fix safety
    No fix: the change may be meant in points (say so) or in percent (recompute it).
    """
    for placed in prose_blocks(section):
        text = placed.block.plain.text
        changes = level_changes(text)
        for change in changes:
            statement = quoted(ctx, placed, change.start, change.end, "stated change")
            anchor = ctx.flag_block(ChangeInPoints(change, None), placed, change.change.start, change.change.end)
            yield _Change(change, statement, anchor)
        for level in stated_levels(text):
            if all(level.level.start != change.level.start for change in changes):  # the changed level is not its own base
                yield _Level(level, quoted(ctx, placed, level.start, level.end, "stated level"))
