"""STAT011: a regression coefficient's stars that its standard error cannot give.

## How it decides
The reading is in `statistics/regression.py`. A table is read when its caption or notes define
the stars ("* p<0.10, ** p<0.05, *** p<0.01") and say nothing that makes its parentheses other
than standard errors (t-statistics, intervals, p-values, standard deviations) or its tests other
than two-tailed Wald tests (one-sided, bootstrap, permutation, corrected). Each coefficient
with a standard error in parentheses below or beside it gives z = |b| / SE; its stars may be any
count that z earns whatever the rounding of b and SE, from the normal's count (the most) to the
count under Student's t with 30 degrees of freedom (the fewest), since tables rarely state their
degrees of freedom. A standard error printed as 0 says nothing.

A table is judged only when at least six estimates are read and at least 85% of them agree with
this reading: a table whose parentheses hold t-statistics unannounced, or whose legend belongs to
another table, disagrees almost everywhere, and its disagreements say nothing of one estimate.
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
from .model import apa_p, star_legend
from .regression import contradicting, reads_as_standard_errors, two_tailed_p


@violation_type
class RegressionStarsMismatch(Violation):
    written: str
    z: float
    p: float
    expected: str

    @property
    def message(self) -> str:
        return (
            f"the estimate {self.written} gives z = |b|/SE = {self.z:.2f}, {apa_p(self.p)}, which the table's legend marks {self.expected}"
        )

    @property
    def identity(self) -> str:
        return self.written


@rule("STAT011", "regression-stars-inconsistent", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def regression_stars_inconsistent(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Checks the significance stars of a regression table against its own numbers: where the
    caption or notes define the stars ("* p<0.10, ** p<0.05, *** p<0.01"), each coefficient
    with its standard error in parentheses below or beside it must earn the stars that
    z = |b| / SE gives (two-tailed), whatever the rounding of b and SE. Tables whose
    parentheses hold t-statistics or intervals, or whose tests are one-sided or resampled, are
    left alone, and so is a table most of whose estimates disagree with this reading.

    ## Why is this bad?
    Stars that the coefficient and its standard error cannot earn were set by hand, copied from
    another column, or belong to another model; a reader who trusts the stars misjudges the
    evidence.

    ## Example
    ```latex
    Treatment & 0.133*** \\\\   % 0.133 / 0.044 = 3.02: p = .003, which is **
              & (0.044)  \\\\
    \\multicolumn{2}{l}{* p<0.05, ** p<0.01, *** p<0.001}
    ```

    ## Use instead
    ```latex
    Treatment & 0.133** \\\\
              & (0.044) \\\\
    ```

    ## Fix safety
    No fix: the stars, the coefficient or its standard error may be the wrong one.

    ## Evidence
    "moderate: stars against a coefficient and its standard error".
    """
    for placed in section.blocks:
        table = placed.block.table
        if placed.kind is not BlockKind.TABLE or table is None:
            continue
        note = table_notes(section, placed)
        legend = star_legend(note)
        if not legend or not reads_as_standard_errors(note):
            continue
        for estimate, allowed in contradicting(table, legend):
            z = abs(float(estimate.b_text)) / float(estimate.se_text)
            expected = " or ".join("*" * count if count else "without a star" for count in allowed)
            evidence = Evidence(
                kind="moderate: stars against a coefficient and its standard error", reason="a Wald test's p follows from b and SE"
            )
            cell = estimate.coefficient
            yield ctx.flag(
                RegressionStarsMismatch(estimate.written, z, two_tailed_p(z), expected),
                placed.file,
                cell.start,
                cell.end,
                evidence=evidence,
                section=section.title or section.kind.value,
            )
