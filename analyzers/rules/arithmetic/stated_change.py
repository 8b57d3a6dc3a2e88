"""ARI002: a relative change stated beside the two values it compares, which they do not give.

## How it decides
The pair is read in two shapes. In parentheses after the change: "an improvement of 21% (20.09
vs. 15.54)". Or as the change's endpoints, in the change's own clause, before it or after it: "from
21,587 to 4,137, a reduction of 80.83%", "a 4% increase from 8.50 to 8.84"; a currency sign or a
short unit may stand at each end. Words that open another clause between the pair and the change
("…, and reduces … by 15%", "relative to", "than", "over") say the percentage is of something else,
and a pair of years ("from 2015 to 2020") is a period: neither is read. The change must be the
relative change of the pair, either way round, or their difference in points, within the rounding
of all three numbers.

A factor is read the same way beside the pair it divides: "a 3.1× reduction (107.9 J vs. 32.4 J)", "from
107.9 J to 32.4 J, a 3.1× reduction", "were respectively 0.169 and 0.076 (a 2.2x improvement)", "A has an MSE
of 0.005, while B has a 10x higher MSE of 0.05". It is written "3.1×", "3.1x", "3.1 times" or "3.1-fold" (never
a product, "4 × 4"), and must be the larger value over the smaller (the smaller over the larger for a factor
below one) within the rounding of all three numbers; "over 3x" must hold and "about 3x" come within a tenth.
A pair of what a run is given ("from 8 to 64 GPUs, a 5.2x speedup", "with 2 and 4 nodes, respectively") is
its setting, not what the factor divides, and is not read.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import StatedChange, StatedFactor, stated_changes, stated_factors
from .prose import prose_blocks, quoted


@violation_type
class ChangeMiscomputed(Violation):
    stated: StatedChange

    @property
    def message(self) -> str:
        a, b, c = self.stated.first, self.stated.second, self.stated.change
        low, high = sorted((a.value, b.value))
        base = a.value if self.stated.endpoints else low  # a change from A to B is relative to A
        relative = (high - low) / base * 100 if base else float("nan")
        pair = f"from {spelled(a.value, a.decimals)} to" if self.stated.endpoints else f"for {spelled(a.value, a.decimals)} vs."
        return (
            f"{spelled(c.value, c.decimals)}% is stated {pair} {spelled(b.value, b.decimals)}, "
            f"whose relative change is {relative:.1f}% and difference {high - low:.{max(a.decimals, b.decimals)}f}"
        )


@violation_type
class FactorMiscomputed(Violation):
    stated: StatedFactor

    @property
    def message(self) -> str:
        f, a, b = self.stated.factor, self.stated.first, self.stated.second
        ratio = self.stated.ratios()[0]
        return (
            f"{spelled(f.value, f.decimals)}x is stated for {spelled(a.value, a.decimals)} vs. {spelled(b.value, b.decimals)}, "
            f"whose ratio is {ratio:.2f}x"
        )


@rule("ARI002", "stated-change-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def stated_change_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes a percentage improvement, gain or reduction that a sentence states together
    with the two values it compares: "an improvement of 21% (20.09 vs. 15.54)", "from 8.50 to
    8.84, a 4% increase". The stated
    percentage must be the relative change of the pair (either way round) or their difference
    in points, within the rounding of all three numbers. A factor stated with its pair ("a 3.1×
    reduction (107.9 J vs. 32.4 J)") must be the ratio of the pair.

    ## Why is this bad?
    The stated improvement is the headline a reader quotes; when it does not follow from the
    values beside it, either the improvement or the values are wrong.

    ## Example
    ```latex
    a notable improvement of 21\\% (20.09 vs.\\ 15.54)
    energy drops from 107.9 J to 32.4 J, a 3.1$\\times$ reduction
    ```

    ## Use instead
    ```latex
    a notable improvement of 29\\% (20.09 vs.\\ 15.54)
    energy drops from 107.9 J to 32.4 J, a 3.3$\\times$ reduction
    ```

    ## Evidence
    "strong: change and pair in one sentence": the pair is in parentheses after the change.
    "moderate: change and its endpoints in one clause": the pair is "from A to B" beside it.
    "moderate: factor and its pair in one sentence": a factor ("3.1×") and the two values it divides.
    """
    for placed in prose_blocks(section):
        for stated in stated_changes(placed.block.plain.text):
            if stated.recomputes():
                continue
            start, end = min(stated.change.start, stated.first.start), max(stated.change.end, stated.second.end)
            evidence = Evidence(
                kind="moderate: change and its endpoints in one clause" if stated.endpoints else "strong: change and pair in one sentence",
                statements=[quoted(ctx, placed, start, end, "stated change")],
                reason="neither the relative change (either way) nor the difference of the pair gives the stated percentage",
            )
            yield ctx.flag_block(ChangeMiscomputed(stated), placed, stated.change.start, stated.change.end, evidence=evidence)
        for stated_factor in stated_factors(placed.block.plain.text):
            if stated_factor.recomputes():
                continue
            evidence = Evidence(
                kind="moderate: factor and its pair in one sentence",
                statements=[quoted(ctx, placed, stated_factor.start, stated_factor.end, "stated factor")],
                reason="the ratio of the pair, within the rounding of its values, does not give the stated factor",
            )
            start, end = stated_factor.factor.start, stated_factor.times_end
            yield ctx.flag_block(FactorMiscomputed(stated_factor), placed, start, end, evidence=evidence)
