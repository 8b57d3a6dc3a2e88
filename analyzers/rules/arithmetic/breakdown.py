"""ARI008: a total broken down in parentheses ("951 participants (481 men, 470 women)") whose parts do not give it."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import PartsOfWhole, breakdowns
from .prose import prose_blocks, quoted


@violation_type
class BreakdownMissesTotal(Violation):
    split: PartsOfWhole
    unit: str  # "%" or ""

    @property
    def message(self) -> str:
        parts = " + ".join(self._spelled(part.value, part.decimals) for part in self.split.parts)
        total = self._spelled(sum(part.value for part in self.split.parts), max(part.decimals for part in self.split.parts))
        return (
            f"the parts {parts} = {total}, not the total {self._spelled(self.split.whole.value, self.split.whole.decimals)} they break down"
        )

    def _spelled(self, value: float, decimals: int) -> str:
        return f"{value:,.0f}{self.unit}" if decimals == 0 else f"{spelled(value, decimals)}{self.unit}"


@rule("ARI008", "breakdown-not-total", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def breakdown_not_total(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Adds up the parts a sentence gives in parentheses right after a total: "951 participants
    (481 men, 470 women)", "93.1% complete (83.2% single-copy, 6.7% duplicated)". Each part is
    a number and the words that name it, of the same kind as the total (counts, or
    percentages), and smaller than it; the parts must give the total within the rounding of
    every number. Parentheses that hold anything else (examples, "per", "for", "each",
    "respectively", settings), and parts that miss the total by more than a fifth (a selection
    of the total, not a partition), are left alone.

    ## Why is this bad?
    A breakdown written beside its total promises that the parts make it up. When they do not,
    a count or a percentage is mistyped, or a category is missing, and the reader cannot tell
    which number to trust.

    ## Example
    ```latex
    The assembly is 93.1\\% complete (83.2\\% single-copy, 6.7\\% duplicated).
    ```

    ## Use instead
    ```latex
    The assembly is 89.9\\% complete (83.2\\% single-copy, 6.7\\% duplicated).
    ```

    ## Evidence
    "moderate: parts in parentheses after their total".
    """
    for placed in prose_blocks(section):
        for split in breakdowns(placed.block.plain.text):
            if split.recomputes():
                continue
            text = placed.block.plain.text
            unit = "%" if "%" in text[split.whole.end : split.whole.end + 12] else ""
            evidence = Evidence(
                kind="moderate: parts in parentheses after their total",
                statements=[quoted(ctx, placed, split.whole.start, split.parts[-1].end, "total and parts")],
                reason="parts written in parentheses after a total must add up to it",
            )
            yield ctx.flag_block(BreakdownMissesTotal(split, unit), placed, split.whole.start, split.whole.end, evidence=evidence)
