"""ARI002: a relative change stated beside the two values it compares, which they do not give."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import StatedChange, stated_changes
from .prose import prose_blocks, quoted


@violation_type
class ChangeMiscomputed(Violation):
    stated: StatedChange

    @property
    def message(self) -> str:
        a, b, c = self.stated.first, self.stated.second, self.stated.change
        low, high = sorted((a.value, b.value))
        relative = (high - low) / low * 100 if low else float("nan")
        return (
            f"{spelled(c.value, c.decimals)}% is stated for {spelled(a.value, a.decimals)} vs. {spelled(b.value, b.decimals)}, "
            f"whose relative change is {relative:.1f}% and difference {high - low:.{max(a.decimals, b.decimals)}f}"
        )


@rule("ARI002", "stated-change-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def stated_change_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes a percentage improvement, gain or reduction that a sentence states together
    with the two values it compares: "an improvement of 21% (20.09 vs. 15.54)". The stated
    percentage must be the relative change of the pair (either way round) or their difference
    in points, within the rounding of all three numbers.

    ## Why is this bad?
    The stated improvement is the headline a reader quotes; when it does not follow from the
    values beside it, either the improvement or the values are wrong.

    ## Example
    ```latex
    a notable improvement of 21\\% (20.09 vs.\\ 15.54)
    ```

    ## Use instead
    ```latex
    a notable improvement of 29\\% (20.09 vs.\\ 15.54)
    ```

    ## Evidence
    "strong: change and pair in one sentence": the pair is in parentheses after the change.
    """
    for placed in prose_blocks(section):
        for stated in stated_changes(placed.block.plain.text):
            if stated.recomputes():
                continue
            evidence = Evidence(
                kind="strong: change and pair in one sentence",
                statements=[quoted(ctx, placed, stated.change.start, stated.second.end, "stated change")],
                reason="neither the relative change (either way) nor the difference of the pair gives the stated percentage",
            )
            yield ctx.flag_block(ChangeMiscomputed(stated), placed, stated.change.start, stated.change.end, evidence=evidence)
