"""STAT010: a statistic written with a value it cannot take.

## How it decides
The readers are in `statistics/bounds.py`. A letter alone is not taken for a statistic: `r` is a
correlation only with its degrees of freedom, its coefficient's name or the word "correlation"
just before it, and only when written with decimals (a rank r = 8 is no correlation); `p` is a
p-value of 0 only when written with the places of a reported p (".000", "0.00") or as "p-value",
and a p above 1 only as "p-value" (a dropout p = 0 or an order p = 2 is no p-value). A p of 0
inside a test result (`t(28) = 2.20, p = .000`) is STAT001's, which recomputes it. Table cells
are read by their headers (`statistics/cells.py`). A Bayes factor
stated twice is read within one result: a parenthesis up to its semicolons, with at most one
test statistic in it, and only under the same name (`BF_10` and `BF_01` are two directions).
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import table_notes
from .bounds import impossible_values
from .cells import impossible_cells

# Prose, captions and table cells: "r(45) = 1.23" reads the same in all three.
_READ = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM, BlockKind.TABLE)


@violation_type
class ImpossibleStatistic(Violation):
    written: str
    why: str

    @property
    def message(self) -> str:
        return f"{self.written} is impossible: {self.why}"

    @property
    def identity(self) -> str:
        return self.written


@rule("STAT010", "impossible-statistic", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def impossible_statistic(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a statistic written with a value no data can give: a p-value of exactly 0
    ("p = .000") or above 1, a correlation outside [-1, 1] ("r(45) = 1.23"), an R² or η²
    above 1, a negative SD, SE or variance, a negative F or chi-square with its degrees of
    freedom ("F(2, 57) = -3.41"; a difference Δχ² may be negative), a Bayes factor written as
    a percentage, and a Bayes factor that one test's result states twice with two values
    ("BF = 0.19, BF > 100"). Prose, captions and table cells are read; a letter that may name
    something else (a rank r, a dropout p) is read as a statistic only when spelled as one. A bare number in a table
    is read by its header: a p-value column's 0 (or a "0.0e+00" in a table of p-values), and a
    share's maximum above 1 in a descriptive-statistics table whose shares are on the 0–1 scale.

    ## Why is this bad?
    An impossible value is a typo, a value copied from the wrong place or a misread software
    output; a reader cannot tell which, and doubts the results around it.

    ## Example
    ```latex
    Ratings correlated with age, $r(58) = 1.24$, $p = .000$.
    ```

    ## Use instead
    ```latex
    Ratings correlated with age, $r(58) = .24$, $p = .064$.
    ```

    ## Evidence
    "strong: a value outside the statistic's range"; "strong: a negative F or chi-square";
    "moderate: one result states a statistic twice" (the second value may belong to a
    neighbouring test); "moderate: a p-value cell of 0" and "moderate: a share's maximum above
    1" (the header says what the cell is).

    ## Fix safety
    No fix: the right value is in the analysis, not in the text.
    """
    for placed in section.blocks:
        if placed.kind not in _READ:
            continue
        for found in impossible_values(placed.block.plain.text):
            evidence = Evidence(kind=found.kind, reason=found.why)
            yield ctx.flag_block(ImpossibleStatistic(found.written, found.why), placed, found.start, found.end, evidence=evidence)
        table = placed.block.table
        for bad in impossible_cells(table, table_notes(section, placed)) if placed.kind is BlockKind.TABLE and table is not None else ():
            evidence = Evidence(kind=bad.kind, reason=bad.why)
            violation = ImpossibleStatistic(bad.written, bad.why)
            yield ctx.flag(
                violation, placed.file, bad.cell.start, bad.cell.end, evidence=evidence, section=section.title or section.kind.value
            )
