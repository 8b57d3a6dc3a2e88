"""STAT015: a significance word that the interval it cites contradicts.

## How it decides
The reader is `read_interval_significance` in `statistics/model.py`. A significance word
("significant", "non-significant", "significance") or a word that stands for it ("reliably",
"credible", and "differ" when negated) governs the first labelled interval after it in its
clause, within 120 characters, when the clause gives no p-value (a p-value there is STAT007's
to judge). The null value is 0 when a bound is zero or negative (a signed quantity), else 1 when
the words before the interval name a ratio (OR, HR, RR, "odds", "hazard", "ratio"), else 0 when
its estimate is an effect's (b, β, d, g, r, Δ, "difference", "effect"); an interval of positive
bounds under no such name may be a level's (an accuracy, a mean), whose interval says nothing of
the test, and is left alone, as is a clause that tests against another value ("from chance",
"from 0.5", "than the baseline"). A bound equal to the null value within its rounding decides
nothing, and hedged words ("marginally significant", "a trend") claim nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import read_interval_significance

_READ = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)


@violation_type
class SignificanceContradictsInterval(Violation):
    word: str
    interval: str
    says_significant: bool

    @property
    def message(self) -> str:
        side = "holds its null value" if self.says_significant else "excludes its null value"
        return f'the text says "{self.word}" but its interval {self.interval} {side}'


@rule("STAT015", "significance-contradicts-interval", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def significance_contradicts_interval(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a significance word contradicted by the confidence or credible interval it cites in
    place of a p-value: "significantly associated, β = 0.07, 95% CI [−0.03, 0.17]" (the interval
    holds 0), "did not significantly differ from zero, d = 0.36, 95% CI [0.12, 0.60]" (it
    excludes 0), "no credible effect (b = −0.53, 95% CrI [−0.94, −0.14])", and the same for a
    ratio against 1 ("OR = 1.40, 95% CI [0.90, 2.10]" is not significant).

    ## Why is this bad?
    A 95% interval that holds the null value is the test at .05 failing to reject it, and one
    that excludes it is the test rejecting it: the word draws the opposite conclusion from the
    number it cites, and either may be the wrong one.

    ## Example
    ```latex
    Predictions were significantly associated with the effects, $\\beta = 0.07$, 95\\% CI $[-0.03, 0.17]$.
    ```

    ## Use instead
    ```latex
    Predictions were not significantly associated with the effects, $\\beta = 0.07$, 95\\% CI $[-0.03, 0.17]$.
    ```

    ## Fix safety
    No fix: the word or the interval may be the wrong one.

    ## Evidence
    "moderate: significance word and interval in one clause" (a clause may cite the interval of
    another quantity than the one the word qualifies).
    """
    for placed in section.blocks:
        if placed.kind not in _READ:
            continue
        for claim in read_interval_significance(placed.block.plain.text):
            if claim.contradicted:
                violation = SignificanceContradictsInterval(claim.word, claim.interval.written, claim.says_significant)
                evidence = Evidence(
                    kind="moderate: significance word and interval in one clause",
                    reason="a 95% interval excludes the null value exactly when its test is significant at .05",
                )
                yield ctx.flag_block(violation, placed, claim.word_start, claim.interval.end, evidence=evidence)
