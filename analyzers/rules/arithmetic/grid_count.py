"""ARI012: a count a sentence states beside the grid that makes it up (a product of factors, a
range walked in steps) that the grid does not give.

## How it decides
Three shapes are read, each in one sentence. A count, the few words naming it, and in parentheses
nothing but a product whose factors (all but the last) are named: "120 synthetic datasets (3 DAGs
x 4 sample sizes x 10 CPTs)", "12 GPUs (6 nodes x 2 each)"; a size written as "3×3 convolution"
has no named factor and is not read. Or a total ("a total of N", "N total cases", "N in total")
and a count per unit and the units in words, in a sentence with no other number: "34,683 total
cases, resulting from 10 observations of 3,147 counties", "5 seeds for each of 24 settings"; what
each unit has is named by a plural noun, so that "10 of 3,147 counties" (a share) is not read. Or a range with its step, "from -90° to +90° with step size
5.625°", "from 10% to 80% with an increment of 10%", in a sentence that states one count and no other
number ("There are 8 proportions", "a total of 33 poses"); a step that does not divide the range is left
alone. The product must be the count; the range must give it with both ends counted, or one.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .grids import StatedGrid, stated_grids
from .prose import prose_blocks, quoted

_GRID_KIND = "moderate: a count beside the grid that makes it up"
_PER_UNIT_KIND = "moderate: a total beside a count per unit and the units"


@violation_type
class GridMiscounted(Violation):
    grid: StatedGrid

    @property
    def message(self) -> str:
        grid = self.grid
        gives = " or ".join(str(count) for count in grid.counts)
        return f"{grid.count.value:g} is stated for {grid.how}, which gives {gives}"


@rule("ARI012", "grid-count-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def grid_count_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recounts a count that a sentence gives together with the grid it is made of: a product in
    parentheses ("120 synthetic datasets (3 DAGs x 4 sample sizes x 10 CPTs)"), a count per unit
    and the units ("34,683 total cases, resulting from 10 observations of 3,147 counties") or a
    range with its step ("poses from -90° to +90° with step size 5.625°, a total of 33 poses").

    ## Why is this bad?
    The count is how large the experiment was; when the design spelled out beside it gives
    another, either the design or the count misreports what was run.

    ## Example
    ```latex
    In total we generated 100 synthetic datasets (3 DAGs x 4 sample sizes x 10 CPTs).
    ```

    ## Use instead
    ```latex
    In total we generated 120 synthetic datasets (3 DAGs x 4 sample sizes x 10 CPTs).
    ```

    ## Evidence
    "moderate: a count beside the grid that makes it up"; "moderate: a total beside a count per
    unit and the units" when the grid is written in words.

    ## Fix safety
    No fix: the count or a factor of the grid may be the wrong one.
    """
    for placed in prose_blocks(section):
        text = placed.block.plain.text
        for start, end in sentence_spans(text):
            for grid in stated_grids(text[start:end]):
                if grid.recounts():
                    continue
                count_start, count_end = start + grid.count.start, start + grid.count.end
                evidence = Evidence(
                    kind=_PER_UNIT_KIND if grid.per_unit else _GRID_KIND,
                    statements=[quoted(ctx, placed, start + grid.start, start + grid.end, "grid")],
                    reason="the product of the factors, or the points of the range, is not the count stated",
                )
                yield ctx.flag_block(GridMiscounted(grid), placed, count_start, count_end, evidence=evidence)
