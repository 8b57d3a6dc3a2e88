"""STAT016: a comparative claimed in a sentence whose own test is not significant."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .model import read_comparative_claims, section_claims

# A p-value above this is significant at no level a paper uses: a p of .07 may be significant at the .10 level.
_NO_LEVEL = 0.1


@violation_type
class ComparativeNotSignificant(Violation):
    word: str
    p_text: str

    @property
    def message(self) -> str:
        return f'the text says "{self.word}" without qualification, but its own test gives {self.p_text}, which is not significant'


@rule("STAT016", "comparative-claim-not-significant", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks",))
def comparative_claim_not_significant(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a sentence that puts one condition or model ahead of another ("performs better than",
    "higher than", "outperforms") and reports, in the same clause, the test of that difference
    with an exact p-value above .10 and above the paper's level: "the Mean Tracker model performs
    better than the GP model (t(159) = 1.42, p = .16)". A sentence that says anything of significance (that is
    STAT007's), or gives the difference as the sample's alone ("numerically higher", "slightly
    better", "tended to") or as a hypothesis ("predicted to be higher"), is left alone.

    ## Why is this bad?
    The test says the data do not show the difference; the sentence states it as a finding. A reader
    who skips the parenthesis takes home the opposite of what the test says.

    ## Example
    ```latex
    The Mean Tracker model performs better than the GP model ($t(159)=1.42$, $p=.16$).
    ```

    ## Use instead
    ```latex
    The Mean Tracker model performs numerically, but not significantly, better than the GP model ($t(159)=1.42$, $p=.16$).
    ```

    ## Fix safety
    No fix: the wording or the statistics may be the wrong one.

    ## Evidence
    "weak: comparative and a non-significant p in one clause".
    """
    level = max(ctx.config.statistics.alpha, _NO_LEVEL)
    for section in ctx.manuscript.sections:
        for placed, claim in section_claims(SectionKey(section), read_comparative_claims):
            if claim.p > max(level, claim.level or 0.0):
                evidence = Evidence(
                    kind="weak: comparative and a non-significant p in one clause",
                    reason="a comparative stated as a finding claims the difference its test reports",
                )
                yield ctx.flag_block(
                    ComparativeNotSignificant(claim.word, claim.p_text), placed, claim.word_start, claim.p_end, evidence=evidence
                )
