"""ARI003: counts a sentence says partition a whole ("the remaining B") that do not add up to it."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import PartsOfWhole, parts_of_wholes, remaining_shares
from .prose import prose_blocks, quoted


@violation_type
class PartsDoNotAddUp(Violation):
    split: PartsOfWhole

    @property
    def message(self) -> str:
        split = self.split
        decimals = max(part.decimals for part in split.parts) if split.percent else 0
        unit = "%" if split.percent else ""

        def written(value: float) -> str:  # counts with their thousands set apart, shares to their places
            return f"{value:,.{decimals}f}{unit}"

        parts = " + ".join(written(part.value) for part in split.parts)
        total = sum(part.value for part in split.parts)
        return f"the parts {parts} = {written(total)}, not the whole {written(split.whole.value)} they are said to make up"


@rule("ARI003", "parts-not-whole", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def parts_not_whole(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Adds up the counts a sentence splits a whole into, when it says they make it up: "Of the
    13,632,566 implications, 13,345,053 were refuted with magmas of size 3 and the remaining
    415,293 with magmas of size 4". The count and "the remaining" count must give the whole.
    Sentences that list examples ("including", "such as") or shares are left alone, and so are
    numbers that are settings ("of size 3", "at most 4"). Shares completed by "the remaining"
    one ("60% are solved by both, 20% only by A, and the remaining 20% only by B") must add up
    to 100%, in a sentence whose numbers are all these shares.

    ## Why is this bad?
    "The remaining" promises a partition. When the parts do not add up, one of the three
    counts is wrong, and so is every rate computed from it.

    ## Example
    ```latex
    Of the 200 participants, 120 completed the task and the remaining 70 did not.
    ```

    ## Use instead
    ```latex
    Of the 200 participants, 120 completed the task and the remaining 80 did not.
    ```

    ## Evidence
    "strong: the remaining part named"; "moderate: shares the remaining one completes" for
    percentages.
    """
    for placed in prose_blocks(section):
        text = placed.block.plain.text
        for split in (*parts_of_wholes(text), *remaining_shares(text)):
            if split.recomputes():
                continue
            last = split.parts[-1]
            evidence = Evidence(
                kind="moderate: shares the remaining one completes" if split.percent else "strong: the remaining part named",
                statements=[quoted(ctx, placed, split.whole.start, last.end, "whole and parts")],
                reason="the parts of a partition must add up to the whole",
            )
            yield ctx.flag_block(PartsDoNotAddUp(split), placed, last.start, last.end, evidence=evidence)
