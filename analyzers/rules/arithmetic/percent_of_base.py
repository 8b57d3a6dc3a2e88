"""ARI015: a percentage a sentence states of a value and a base it gives, which they do not give.

## How it decides
Economics, medicine and systems papers restate an effect or a measurement relative to a base in
the same clause: "reduce the hazard rate by 1.78 ppt, which represents a 38% decrease from the
average hazard rate (4.7%)", "a decrease of 204 pesos (out of a group mean of 942), equivalent to
22%", "a slowdown of 1.2, which is 48% lower than the baseline's 2.3". The value is the last
number before the connecting words (", which is", ", or", "representing", "equivalent to", ", a"),
parentheses aside; the base is the number the words after the percentage lead to ("of", "a
decrease from", "lower than"), or a parenthesis "(out of … N)", or, where the pair comes first
("0.79 minutes, versus 1.13 minutes for the old method, which is a 44% improvement"), the number
before "versus". A rank ("the 99%ile slowdown") is no value. The percentage is read every way
it can be meant: the value's share of the base, the change between them relative to either, or
their difference in points; each within the rounding of all three numbers, and an estimate
("about", "≈") within a tenth more. Only where no reading gives it is the sentence flagged. A list
of percentages, a range, a bound ("over 20%") and a factor after the base ("10x of lock") are not
read.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .bases import BasedPercentage, based_percentages
from .prose import prose_blocks, quoted


@violation_type
class PercentOfBaseMiscomputed(Violation):
    stated: BasedPercentage

    @property
    def message(self) -> str:
        value, percent, base = self.stated.value, self.stated.percent, self.stated.base
        a, b = value.value, base.value
        return (
            f"{spelled(percent.value, percent.decimals)}% is stated of {spelled(a, value.decimals)} and {spelled(b, base.decimals)}, "
            f"whose share is {a / b * 100:.1f}%, relative change {abs(a - b) / b * 100:.1f}% and difference {abs(a - b):g}"
        )


@rule("ARI015", "percent-of-base-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def percent_of_base_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes a percentage that a sentence states of a value and a base it writes in the same
    clause: "by 1.78 ppt, which represents a 38% decrease from the average rate (4.7%)", "a
    decrease of 204 pesos (out of a group mean of 942), equivalent to 22%". The percentage must be
    the value's share of the base, their change relative to either, or their difference in points,
    within the rounding of all three numbers.

    ## Why is this bad?
    The percentage is how a reader remembers the size of the effect. When the value and the base
    beside it give another, one of the three numbers is wrong.

    ## Example
    ```latex
    a reduction of 1.78 ppt, which represents a 48\\% decrease from the average rate (4.7\\%)
    ```

    ## Use instead
    ```latex
    a reduction of 1.78 ppt, which represents a 38\\% decrease from the average rate (4.7\\%)
    ```

    ## Evidence
    "moderate: value, percentage and base in one clause": the value before the connecting words,
    the base after the percentage (or in "(out of … N)", or before "versus"), no reading of the three agreeing.

    ## Fix safety
    No fix: the wrong number may be any of the three.
    """
    for placed in prose_blocks(section):
        for stated in based_percentages(placed.block.plain.text):
            if stated.recomputes():
                continue
            first, last = stated.value.start, max(stated.percent.end, stated.base.end)
            evidence = Evidence(
                kind="moderate: value, percentage and base in one clause",
                statements=[quoted(ctx, placed, first, last, "stated percentage")],
                reason="neither the share of the base, the change relative to either number, nor their difference gives the percentage",
            )
            yield ctx.flag_block(PercentOfBaseMiscomputed(stated), placed, stated.percent.start, stated.percent.end, evidence=evidence)
