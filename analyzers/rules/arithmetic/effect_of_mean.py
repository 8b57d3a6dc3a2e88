"""ARI019: a relative effect a sentence states of an outcome ("increases the likelihood of repeat business by 19%") that no effect of the paper's regression tables over its control mean gives.

## How it decides
The sentence states "<verb of change> <outcome> by N%", the percent not in points (mean_effects.py). The
tables read are the paper's tables with a control-mean row ("Control Mean", "Mean of dep. var.",
"Baseline mean"); of those, the columns the outcome names: a column whose header shares a word with
the outcome, or every column of a table whose caption does ("repeat business" and "Effects on Repeat
Pawning"; "recovering" and "Recovery" are one word by their first five letters). Each named row above
a control-mean row (a treatment arm) over that mean is an effect the sentence may restate. When the
outcome names at least one such effect and none gives the percentage, within the rounding of the
coefficient, the mean and the percentage (an estimate, "about 20%", within a tenth more), the
sentence's effect is flagged with the table effects it was read against. A sentence whose outcome
names no column of such a table is left alone: its effect may come from a table without a mean.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...quantities import shown_table, spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import author_rule_macros, cell_statement
from .cited import TableByBlock
from .mean_effects import StatedEffect, TableEffect, has_mean_row, stated_effects, table_effects
from .prose import prose_blocks, quoted

_SHOWN_EFFECTS = 3  # the table effects the message names, nearest first


@violation_type
class EffectNotOfMean(Violation):
    stated: StatedEffect
    nearest: tuple[float, ...]  # the table effects relative to their means, nearest the stated percentage first

    @property
    def message(self) -> str:
        percent = spelled(self.stated.percent.value, self.stated.percent.decimals)
        said = f"a relative effect of {percent}% is stated"
        if not self.nearest:
            return said
        effects = ", ".join(f"{value:.1f}%" for value in self.nearest)
        return f"{said}, but no effect of the tables its outcome names gives it over the control mean (nearest: {effects})"

    @property
    def identity(self) -> str:
        return EffectNotOfMean(self.stated, ()).message


@record(slots=True, eq=False)
class _Effect:
    """A stated relative effect, placed while its section was read; its message and evidence wait for the tables."""

    stated: StatedEffect
    statement: Statement
    anchor: Finding


def _middle(effect: TableEffect) -> float:
    low, high = effect.percent_range()
    return (low + high) / 2


def _against_mean_tables(ctx: RuleContext, parts: list[tuple[Section, list[TableByBlock | _Effect]]]) -> Iterator[Finding]:
    """Each stated effect against the effects of the tables with a control mean that its outcome names."""
    effects = [item for _, items in parts for item in items if isinstance(item, _Effect)]
    tables = [item.grid(section) for section, items in parts for item in items if isinstance(item, TableByBlock)] if effects else []
    for item in effects:
        stated = item.stated
        named = [(file, grid, effect) for file, grid in tables for effect in table_effects(grid, stated.outcome)]
        if not named or any(effect.gives(stated) for _, _, effect in named):
            continue
        nearest = sorted(named, key=lambda found: abs(_middle(found[2]) - stated.percent.value))[:_SHOWN_EFFECTS]
        evidence = Evidence(
            kind="weak: relative effect against the control means of the tables its outcome names",
            statements=[
                item.statement,
                *(
                    cell_statement(ctx, file, grid, cell, "input")
                    for file, grid, effect in nearest
                    for cell in (effect.effect, effect.mean)
                ),
            ],
            reason=f"none of the {len(named)} effects over a control mean in the tables naming the outcome gives the percentage",
        )
        violation = EffectNotOfMean(stated, tuple(_middle(effect) for _, _, effect in nearest))
        yield item.anchor.model_copy(update={"message": violation.message, "evidence": evidence})


@rule(
    "ARI019",
    "effect-not-of-control-mean",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=_against_mean_tables,
    placed_parts=True,  # tables by block index within the section, each effect's finding placed in its section
)
def effect_not_of_control_mean(ctx: RuleContext, section: Section) -> Iterator[TableByBlock | _Effect]:
    """## What it does
    Recomputes a relative effect a sentence states of an outcome ("increases the likelihood of
    repeat business by 19%") from the regression tables of the paper that give a control mean: each
    treatment coefficient of a column the outcome names, over the control mean of that column. The
    effect is flagged when none of them gives it.

    ## Why is this bad?
    An abstract's "by 19%" is what readers quote; it is the table's coefficient over the control
    group's mean. When the table gives 0.067 on a control mean of 0.32 (21%), the percentage was
    computed from another estimate or another mean than the paper reports, or left from an earlier
    version of the table.

    ## Example
    ```latex
    Forced commitment increases the likelihood of repeat business by 19\\%.
    % Table "Effects on Repeat Pawning": Mandatory structured 0.067, Control Mean 0.32
    ```

    ## Use instead
    ```latex
    Forced commitment increases the likelihood of repeat business by 21\\%.
    ```

    ## Evidence
    "weak: relative effect against the control means of the tables its outcome names": the table
    is found by the words of the outcome, not by a reference, so the rule reports at information
    until measured.

    ## Fix safety
    No fix: the wrong number may be the percentage, the coefficient or the mean.
    """
    rule_macros = author_rule_macros(ctx)
    for block, placed in enumerate(section.blocks):
        shown = shown_table(placed)
        if shown is not None and has_mean_row(shown.table):
            yield TableByBlock(block, rule_macros)
    for placed in prose_blocks(section):
        for stated in stated_effects(placed.block.plain.text):
            statement = quoted(ctx, placed, stated.start, stated.end, "stated effect")
            anchor = ctx.flag_block(EffectNotOfMean(stated, ()), placed, stated.percent.start, stated.percent.end)
            yield _Effect(stated, statement, anchor)
